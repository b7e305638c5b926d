// Builds what runs: the renderer (Vite → dist/renderer) and the Electron entry points
// (esbuild → dist/electron/*.cjs). The browser host runs the core straight from source on Node 24.
// `--renderer-only` skips the Electron bundles (what the browser host and e2e need); `--electron-only`
// skips the renderer. Each build records the hash of its inputs (build-inputs.ts), so `npm start`
// knows when it is current. Run as its own process: a bundler's memory stays out of the app's.
import { build as viteBuild } from 'vite';
import { build as esbuild, type BuildOptions } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { electronTarget, recordedBuild, rendererTarget } from './build-inputs.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const rendererOnly = process.argv.includes('--renderer-only');
const electronOnly = process.argv.includes('--electron-only');

async function buildRenderer(): Promise<void> {
  await recordedBuild(rendererTarget(), async () => {
    await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  });
}

async function buildElectron(): Promise<void> {
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['electron'],
    sourcemap: 'linked',
    logLevel: 'warning',
    absWorkingDir: root,
    // The code that reads import.meta.url checks for it; the Electron side passes paths explicitly.
    logOverride: { 'empty-import-meta': 'silent' },
  };
  await recordedBuild(electronTarget, async () => {
    await Promise.all([
      esbuild({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.cjs' }),
      // A sandboxed preload is a single CommonJS script with only `electron` to require.
      esbuild({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist/electron/preload.cjs' }),
      esbuild({ ...common, entryPoints: ['electron/local-service/main.ts'], outfile: 'dist/electron/local-service.cjs' }),
    ]);
  });
}

if (import.meta.main) {
  const started = performance.now();
  if (!electronOnly) await buildRenderer();
  if (!rendererOnly) await buildElectron();
  const built = rendererOnly ? 'the renderer' : electronOnly ? 'the Electron bundles' : 'the renderer and Electron bundles';
  console.log(`Built ${built} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
