import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    // PLAT_RENDERER_OUT lets parallel builds (several e2e runs at once) use separate folders.
    outDir: process.env.PLAT_RENDERER_OUT ?? fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or data-URL modules: the CSP allows same-origin files only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 2000,
  },
  server: { strictPort: false },
});
