import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const mapAssetsDir = fileURLToPath(new URL('./assets/map', import.meta.url));
const rendererEntry = fileURLToPath(new URL('./renderer/main.tsx', import.meta.url));

/**
 * The offline map's layers (assets/map, built by `npm run map-assets`) served beside the renderer
 * under /map/ (renderer/components/map/map-types.ts MAP_ASSET_BASE): the map fetches nothing else.
 */
function mapAssets(): Plugin {
  return {
    name: 'plat-map-assets',
    apply: 'build',
    generateBundle() {
      if (!existsSync(path.join(mapAssetsDir, 'manifest.json'))) {
        this.error(`The map's layers are missing from ${mapAssetsDir}: run \`npm run map-assets\` (it builds them from ../shared/data).`);
      }
      // Layers (GeoJSON), the manifest, and the basemap's vector tiles in their {z}/{x}/{y} folders.
      const files = readdirSync(mapAssetsDir, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(geojson|json|pbf)$/.test(file)).sort();
      for (const file of files) {
        this.emitFile({ type: 'asset', fileName: `map/${file.split(path.sep).join('/')}`, source: readFileSync(path.join(mapAssetsDir, file)) });
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: '/',
  plugins: [react(), mapAssets()],
  build: {
    // PLAT_RENDERER_OUT lets parallel builds (several e2e runs at once) use separate folders.
    outDir: process.env.PLAT_RENDERER_OUT ?? fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or data-URL modules: the CSP allows same-origin files only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The first screen's code in one file: the entry and everything it imports statically. Left
          // to itself, rolldown puts each module the first screen shares with a lazily loaded view in
          // a chunk of its own (18 files at start), and each file is one more request and parse
          // before the app can run. The views loaded later import what they share from this file.
          groups: [{ name: 'start', test: (id) => id === rendererEntry }],
        },
      },
    },
  },
  server: { strictPort: false },
});
