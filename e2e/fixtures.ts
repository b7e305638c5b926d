// Starts the real browser host (core, embedded service and all) once per worker, exactly as
// `npm start` does in its fallback, and hands tests its URL and everything it printed.
import { test as base, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const screenshotDir = path.join(root, 'e2e', 'screenshots');

export interface RunningHost {
  /** The address printed by the host, with its token in the fragment. */
  url: string;
  origin: string;
  token: string;
  /** Everything the host process wrote to stdout and stderr so far. */
  output(): string;
}

export async function startHost(env: NodeJS.ProcessEnv = {}): Promise<{ host: RunningHost; child: ChildProcess }> {
  // Each host gets its own data folder: its own ledger, cache and local-service account.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-e2e-'));
  const child = spawn(process.execPath, [path.join(root, 'electron', 'host', 'host-main.ts')], {
    cwd: root,
    // Verbose: the service's request log is part of the output, so tests can check what logs hold.
    env: { ...process.env, PLAT_DATA_DIR: dataDir, PLAT_VERBOSE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host did not start:\n${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the host exited (${code}):\n${output}`)));
  });
  const parsed = new URL(url);
  return {
    child,
    host: { url, origin: parsed.origin, token: parsed.hash.replace('#token=', ''), output: () => output },
  };
}

// One host per spec file: each file starts on a clean ledger, cache and service account, while the
// tests inside a file share it (as a person's session would). The previous file's host is stopped
// when the next file begins, and the last one when the worker ends.
let current: { file: string; started: Promise<{ host: RunningHost; child: ChildProcess }> } | null = null;

async function hostFor(file: string): Promise<RunningHost> {
  if (current?.file !== file) {
    if (current) (await current.started.catch(() => null))?.child.kill('SIGTERM');
    current = { file, started: startHost() };
  }
  return (await current.started).host;
}

export const test = base.extend<{ shot: (name: string) => Promise<void>; host: RunningHost }, { hostCleanup: void }>({
  hostCleanup: [
    async ({}, use) => {
      await use();
      if (current) (await current.started.catch(() => null))?.child.kill('SIGTERM');
      current = null;
    },
    { scope: 'worker', auto: true },
  ],
  host: async ({}, use, testInfo) => {
    await use(await hostFor(testInfo.file));
  },
  shot: async ({ page }, use) => {
    mkdirSync(screenshotDir, { recursive: true });
    await use(async (name) => {
      await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: false });
    });
  },
});

export { expect };
