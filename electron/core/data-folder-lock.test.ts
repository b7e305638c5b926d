// The data-folder lock across processes: held while its holder lives (SIGKILL included, the OS
// drops it), never by a leftover file, and its record is private.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataFolderInUseError, INSTANCE_FILE, lockDataFolder, readDataFolderHolder } from './data-folder-lock.ts';

const lockModule = fileURLToPath(new URL('./data-folder-lock.ts', import.meta.url));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Another process that takes the lock, records an address, says "held" and waits to be killed. */
async function holdInAnotherProcess(dataDir: string): Promise<ChildProcess> {
  const script = `
    const { lockDataFolder } = await import(${JSON.stringify(lockModule)});
    lockDataFolder(${JSON.stringify(dataDir)}, { runtime: 'browser-host' }).recordAddress('http://127.0.0.1:4321/#token=t');
    console.log('held');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
  return child;
}

describe('lockDataFolder', () => {
  it('refuses a folder another live process holds, naming it, and takes it the moment that process is SIGKILLed', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-lock-'));
    const holder = await holdInAnotherProcess(dataDir);
    let refused: unknown;
    try {
      lockDataFolder(dataDir, { runtime: 'browser-host' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataFolderInUseError);
    expect((refused as DataFolderInUseError).holder).toMatchObject({ pid: holder.pid, url: 'http://127.0.0.1:4321/#token=t', dataDir });

    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    // Its record stays behind; the lock does not.
    expect(readDataFolderHolder(dataDir)?.pid).toBe(holder.pid);
    const lock = lockDataFolder(dataDir, { runtime: 'browser-host' });
    expect(readDataFolderHolder(dataDir)).toMatchObject({ pid: process.pid, url: null });
    lock.release();
    expect(readDataFolderHolder(dataDir)).toBeNull();
  });

  it('is not fooled by a record alone (a pid file from a crash, even naming a live pid)', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-lock-'));
    writeFileSync(
      path.join(dataDir, INSTANCE_FILE),
      JSON.stringify({ pid: process.ppid, runtime: 'browser-host', dataDir, startedAt: new Date(0).toISOString(), url: 'http://127.0.0.1:1/#token=old' }),
    );
    const lock = lockDataFolder(dataDir, { runtime: 'electron' });
    expect(readDataFolderHolder(dataDir)).toMatchObject({ pid: process.pid, runtime: 'electron', url: null });
    lock.recordAddress('http://127.0.0.1:2/#token=new');
    expect(statSync(path.join(dataDir, INSTANCE_FILE)).mode & 0o777).toBe(0o600);
    // Within one process too: a second lock on the folder is refused until the first is released.
    expect(() => lockDataFolder(dataDir, { runtime: 'electron' })).toThrow(DataFolderInUseError);
    lock.release();
    lockDataFolder(dataDir, { runtime: 'electron' }).release();
  });
});
