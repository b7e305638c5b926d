// Builds what runs: the renderer (Vite → dist/renderer), the Electron entry points (esbuild →
// dist/electron/*.cjs) and the embedded service for the browser host (dist/service/local-service.cjs).
// The browser host runs the core straight from source on Node 24; its service runs bundled, since a
// process that strips types as it loads holds about 35 MB more. `--renderer-only`, `--electron-only`
// and `--service-only` pick targets (several may be given); none builds all. Each build records the
// hash of its inputs (build-inputs.ts), so `npm start` knows when it is current. Run as its own
// process: a bundler's memory stays out of the app's.
import { build as viteBuild } from 'vite';
import { build as esbuild, type BuildOptions } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { electronTarget, recordedBuild, rendererTarget, serviceTarget } from './build-inputs.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

async function buildRenderer(): Promise<void> {
  await recordedBuild(rendererTarget(), async () => {
    await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  });
}

/** Node bundles: Electron's entry points and the embedded service. */
const nodeBundle: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['electron'],
  sourcemap: 'linked',
  logLevel: 'warning',
  absWorkingDir: root,
  // The code that reads import.meta.url checks for it; whoever runs a bundle passes paths explicitly.
  logOverride: { 'empty-import-meta': 'silent' },
};

async function buildElectron(): Promise<void> {
  await recordedBuild(electronTarget, async () => {
    await Promise.all([
      esbuild({ ...nodeBundle, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.cjs' }),
      // A sandboxed preload is a single CommonJS script with only `electron` to require.
      esbuild({ ...nodeBundle, entryPoints: ['electron/preload.ts'], outfile: 'dist/electron/preload.cjs' }),
      bundleLocalService('dist/electron/local-service.cjs'),
    ]);
  });
}

/** The embedded service as one CommonJS script; whoever runs it passes `--sample-db`. */
export async function bundleLocalService(outfile: string): Promise<void> {
  await esbuild({ ...nodeBundle, entryPoints: ['electron/local-service/main.ts'], outfile });
}

async function buildService(): Promise<void> {
  await recordedBuild(serviceTarget, () => bundleLocalService(serviceTarget.output));
}

const builds = [
  { target: rendererTarget(), build: buildRenderer },
  { target: electronTarget, build: buildElectron },
  { target: serviceTarget, build: buildService },
];

if (import.meta.main) {
  const started = performance.now();
  const picked = builds.filter(({ target }) => process.argv.includes(target.flag));
  const chosen = picked.length === 0 ? builds : picked;
  for (const { build } of chosen) await build();
  const built = chosen.map(({ target }) => target.name).join(', ').replace(/, ([^,]*)$/, ' and $1');
  console.log(`Built ${built} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
