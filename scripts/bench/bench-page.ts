// A page for a bench in headless Chromium: one entry (JSX importing Plat's own components) bundled
// with Vite into a folder of its own under node_modules/.cache (so its imports resolve against Plat's
// node_modules), behind Plat's real Content-Security-Policy. The map and chart benches build theirs here.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicy } from '../../electron/web/content-security.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// frame-ancestors is a header-only directive (the header carries it); in a <meta> Chromium warns.
const metaPolicy = contentSecurityPolicy.split('; ').filter((directive) => !directive.startsWith('frame-ancestors')).join('; ');

export interface BenchPage {
  /** The cache folder's name ("plat-map-page"). */
  name: string;
  title: string;
  /** The entry's source, given the repository's path (no trailing slash) for its imports. */
  entry: (repo: string) => string;
  /** A stylesheet of the page's own (the CSP allows no inline style), linked as ./page.css. */
  css?: string;
  /** The root element's class. */
  rootClass?: string;
}

/** Bundles the page; returns the folder to serve. */
export async function buildBenchPage(page: BenchPage): Promise<string> {
  const dir = path.join(root, 'node_modules/.cache', page.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'entry.jsx'), page.entry(root.replace(/\/$/, '')));
  if (page.css !== undefined) writeFileSync(path.join(dir, 'page.css'), page.css);
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="${metaPolicy}" />
    <title>${page.title}</title>
    <link rel="icon" href="data:," />${page.css !== undefined ? '\n    <link rel="stylesheet" href="./page.css" />' : ''}
  </head>
  <body>
    <div id="root"${page.rootClass ? ` class="${page.rootClass}"` : ''}></div>
    <script type="module" src="./entry.jsx"></script>
  </body>
</html>
`,
  );
  const outDir = path.join(dir, 'dist');
  await build({
    configFile: false,
    root: dir,
    base: '/',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, assetsInlineLimit: 0, modulePreload: { polyfill: false }, chunkSizeWarningLimit: 5000 },
  });
  return outDir;
}
