// The browser host as a person starts it, on one data folder: a second start points to the running
// one and touches nothing; a SIGKILLed host does not block the next start; a damaged or read-only
// plat.db is explained in plain words (file, what was kept, what to do) and the host exits non-zero.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnBrowserHost, type SpawnedHost } from './spawn-host.ts';
import { connectBridge } from './bridge-client.ts';
import { INSTANCE_FILE } from '../core/data-folder-lock.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

async function startHost(dataDir: string): Promise<SpawnedHost> {
  const host = await spawnBrowserHost({ dataDir, env: { PLAT_OPEN_BROWSER: '0' } });
  children.push(host.child);
  return host;
}

/** Runs host-main to its exit (a start that must not keep running). */
function runToExit(dataDir: string, args: string[] = []): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(root, 'electron', 'host', 'host-main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, PLAT_DATA_DIR: dataDir, PLAT_OPEN_BROWSER: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

/**
 * Every file in the folder with its bytes' hash and mtime, but the -shm files: they are SQLite's
 * shared-memory index, which the running host itself updates when it reads.
 */
function snapshot(dataDir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dataDir).filter((n) => !n.endsWith('-shm')).sort()) {
    const file = path.join(dataDir, name);
    files[name] = `${createHash('sha256').update(readFileSync(file)).digest('hex')} ${statSync(file).mtimeMs}`;
  }
  return files;
}

/**
 * The folder once the running host has finished writing what its start caused: its first check
 * answered (on a busy machine the check's ledger row can wait longer than any quiet spell for the
 * service's answer), then the same snapshot twice, 300 ms apart (the check's cached copy is kept
 * just after its answer).
 */
async function settledSnapshot(host: SpawnedHost, dataDir: string): Promise<Record<string, string>> {
  const client = connectBridge(host);
  try {
    for (let i = 0; ; i++) {
      const info = await client.api.getAppInfo({});
      if (info.ok && info.value.service.state === 'ready' && info.value.service.checkedAt !== null) break;
      if (i >= 300) throw new Error(`the running host never finished its first check: ${JSON.stringify(info)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    client.close();
  }
  let previous = snapshot(dataDir);
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = snapshot(dataDir);
    if (JSON.stringify(next) === JSON.stringify(previous)) return next;
    previous = next;
  }
  throw new Error('the running host kept writing to its data folder');
}

async function stop(host: SpawnedHost, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => host.child.once('exit', resolve));
  host.child.kill(signal);
  await exited;
}

describe('two hosts on one data folder', () => {
  it('the second says where the first runs (pid, folder, its address) and exits 0 without touching the databases', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-two-'));
    const first = await startHost(dataDir);
    expect(statSync(path.join(dataDir, INSTANCE_FILE)).mode & 0o777).toBe(0o600);
    const before = await settledSnapshot(first, dataDir);

    const second = await runToExit(dataDir);
    expect(second.code).toBe(0);
    expect(second.output).toContain(`Plat is already running on the data folder ${dataDir} (process ${first.child.pid}`);
    expect(second.output).toContain(first.url);
    expect(second.output).not.toMatch(/Plat is running\. Open/);
    expect(snapshot(dataDir)).toEqual(before);

    // The first still serves.
    const client = connectBridge(first);
    try {
      expect(await client.api.getAppInfo({})).toMatchObject({ ok: true });
    } finally {
      client.close();
    }
    await stop(first, 'SIGTERM');
    expect(existsSync(path.join(dataDir, INSTANCE_FILE))).toBe(false);
  });

  it('a SIGKILLed host leaves no lock behind: the next start runs', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-killed-'));
    const first = await startHost(dataDir);
    await stop(first, 'SIGKILL');
    // Its record is still there (it could not remove it); the OS lock is gone with the process.
    expect(existsSync(path.join(dataDir, INSTANCE_FILE))).toBe(true);
    const next = await startHost(dataDir);
    expect(next.url).not.toBe(first.url);
    expect(JSON.parse(readFileSync(path.join(dataDir, INSTANCE_FILE), 'utf8'))).toMatchObject({ pid: next.child.pid, url: next.url });
    await stop(next, 'SIGTERM');
  });
});

describe('a damaged or read-only plat.db at start', () => {
  it('a 0-byte plat.db: says what happened, what was kept and what to do, exits 1, and invents no ledger', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-empty-'));
    const file = path.join(dataDir, 'plat.db');
    writeFileSync(file, '');
    const result = await runToExit(dataDir);
    expect(result.code).toBe(1);
    expect(result.output).toContain(`${file} is empty (0 bytes)`);
    expect(result.output).toMatch(/kept, unchanged, as .*plat\.db\.damaged-/);
    expect(result.output).toContain('npm start -- --start-fresh');
    expect(result.output).not.toMatch(/\n\s+at /);
    expect(existsSync(file)).toBe(false);

    // Asked explicitly: a new ledger, saying so.
    const fresh = await spawnBrowserHost({ dataDir, env: { PLAT_OPEN_BROWSER: '0' }, args: ['--start-fresh'] });
    children.push(fresh.child);
    expect(fresh.output()).toMatch(/new, empty ledger, as you asked/);
    await stop(fresh, 'SIGTERM');
  });

  it('a read-only plat.db: names it and exits 1, leaving it as it is', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-readonly-'));
    const first = await startHost(dataDir);
    await stop(first, 'SIGTERM');
    const file = path.join(dataDir, 'plat.db');
    chmodSync(file, 0o444);
    const result = await runToExit(dataDir);
    expect(result.code).toBe(1);
    expect(result.output).toContain(`${file} is read-only`);
    expect(existsSync(file)).toBe(true);
  });
});
