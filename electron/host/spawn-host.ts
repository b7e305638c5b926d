// Starts the browser host as its own process, as `npm start` does in its fallback, and waits for the
// address it prints. One way to do it for the e2e fixture, the host crash test and the UI benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ADDRESS = /Open (http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)/;

export interface SpawnedHost {
  /** The address printed by the host, with its token in the fragment. */
  url: string;
  origin: string;
  token: string;
  child: ChildProcess;
  /** Everything the host wrote to stdout and stderr so far. */
  output(): string;
}

export async function spawnBrowserHost(
  options: { dataDir?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; args?: string[]; command?: string[] } = {},
): Promise<SpawnedHost> {
  // Without a folder of its own the host would share the user's ledger, cache and service account.
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'plat-host-'));
  // `command`: Node's flags and the script, when the host is to be started another way (as `npm start`
  // starts it, for the memory bench).
  const command = options.command ?? [path.join(root, 'electron', 'host', 'host-main.ts')];
  const child = spawn(process.execPath, [...command, ...(options.args ?? [])], {
    cwd: root,
    env: { ...process.env, PLAT_DATA_DIR: dataDir, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host did not start:\n${output}`)), options.timeoutMs ?? 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = ADDRESS.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the host exited (${code}):\n${output}`));
    });
  });
  const parsed = new URL(url);
  return { url, origin: parsed.origin, token: parsed.hash.replace('#token=', ''), child, output: () => output };
}
