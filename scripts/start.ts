// `npm start`: Electron when its binary is here (or can be fetched within about 30 s), otherwise the
// browser host, with a one-line explanation (scripts/start-words.ts). `npm start -- --browser` goes straight to the browser host;
// `npm start -- --start-fresh` replaces a damaged database with a new one (see docs/core-notes.md).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronTarget, isCurrent, rendererTarget, serviceTarget, type BuildTarget } from './build-inputs.ts';
import { FETCH_NOTICE, fallbackLine, fetchEnding } from './start-words.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const electronDir = path.join(root, 'node_modules', 'electron');
const FETCH_TIMEOUT_MS = 30_000;

function electronBinary(): string | null {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

/** One bounded attempt at Electron's own download; returns why it failed, or null on success. */
function fetchElectron(): string | null {
  const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
    cwd: electronDir,
    timeout: FETCH_TIMEOUT_MS,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' },
  });
  if (result.error) return (result.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? 'the download timed out' : result.error.message;
  if (result.status !== 0) {
    const lastLine = `${result.stderr}`.trim().split('\n').filter(Boolean).pop() ?? `exit code ${result.status}`;
    return `the download failed (${lastLine.slice(0, 160)})`;
  }
  return electronBinary() ? null : 'the download finished without a binary';
}

/**
 * Builds what is out of date in a child process (scripts/build.ts), so this process, which goes on to
 * serve the app, never loads a bundler; exits as the build did when it fails.
 */
function ensureBuilt(targets: BuildTarget[]): void {
  const stale = targets.filter((target) => !isCurrent(target));
  if (stale.length === 0) return;
  console.log(`Building ${stale.map((target) => target.name).join(' and ')}…`);
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.ts'), ...stale.map((target) => target.flag)], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function main(): Promise<void> {
  const forceBrowser = process.argv.includes('--browser');
  let binary = forceBrowser ? null : electronBinary();
  const canOpenWindow = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (!forceBrowser && !binary) {
    // The notice and how the fetch ended share one line.
    process.stdout.write(FETCH_NOTICE);
    const failure = fetchElectron();
    binary = electronBinary();
    console.log(fetchEnding(binary ? null : (failure ?? 'no binary'), canOpenWindow));
  } else if (forceBrowser) {
    console.log(fallbackLine('asked'));
  } else if (!canOpenWindow) {
    console.log(fallbackLine('no-display'));
  }
  if (!canOpenWindow) binary = null;

  const renderer = rendererTarget();
  if (binary) {
    ensureBuilt([renderer, electronTarget]);
    // Plat's own flags (e.g. --start-fresh) go on to the app.
    const child = spawn(binary, [root, ...process.argv.slice(2).filter((arg) => arg !== '--browser')], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
    return;
  }
  ensureBuilt([renderer, serviceTarget]);
  const { runBrowserHost } = await import('../electron/host/host-main.ts');
  await runBrowserHost([...process.argv.slice(2).filter((arg) => arg !== '--browser'), '--service-entry', serviceTarget.output]);
}

await main();
