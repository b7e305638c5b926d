// Starting the core on a data folder: one Plat per folder, and databases checked before they are
// used. A damaged plat.db is kept aside byte for byte and never silently replaced by an empty
// ledger; a read-only one is named; --start-fresh is the explicit way to begin a new one.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createLocalService, type LocalService } from '../local-service/server.ts';
import { v4Catalog } from '../local-service/operations/v4.ts';
import { openSampleStore, type SampleStore } from '../local-service/sample-store.ts';
import type { AppCore, AppCoreOptions } from './app-core.ts';
import { DataFolderInUseError } from './data-folder-lock.ts';
import { DataFolderProblem } from './database-check.ts';
import { openAppDatabase } from './app-db.ts';
import { SpendLedger } from './ledger/spend-ledger.ts';
import type { LedgerRow } from '../../shared/ipc.ts';
import { createTestCore, testSender as sender } from './core-test-kit.ts';

const cores: AppCore[] = [];
const services: LocalService[] = [];
let store: SampleStore;
beforeAll(() => {
  store = openSampleStore();
});
afterAll(() => store.close());
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const service of services.splice(0)) await service.close();
});

const newFolder = () => mkdtempSync(path.join(tmpdir(), 'plat-start-'));

function open(dataDir: string, extra: Partial<AppCoreOptions> = {}): AppCore {
  const core = createTestCore({
    dataDir,
    launchLocalService: async ({ stateDbPath }) => {
      // The service's own state database is the one in the data folder, as in the app.
      const service = await createLocalService({ operations: [v4Catalog], store, dbPath: stateDbPath });
      services.push(service);
      return { url: service.url, keys: service.keys, stop: () => service.close() };
    },
    timeoutMs: 500,
    ...extra,
  });
  cores.push(core);
  return core;
}

async function closeCore(core: AppCore): Promise<void> {
  cores.splice(cores.indexOf(core), 1);
  await core.close();
}

/** A real ledger of `rows` rows (cache hits: free rows that need no service), closed. */
function writeLedger(file: string, rows: number): void {
  const db = openAppDatabase(file);
  const ledger = new SpendLedger(db);
  for (let i = 0; i < rows; i++) {
    ledger.recordCacheHit({
      operation: 'v4.catalog',
      requestSummary: { query: { note: `row ${i} ${'x'.repeat(400)}` } },
      projectId: null,
      sessionId: 'earlier-session',
      originalRequestId: `req_${i}`,
      servedAt: new Date(0).toISOString(),
    });
  }
  db.close();
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Expects createAppCore to refuse with a DataFolderProblem and returns it. */
function refusal(dataDir: string, extra: Partial<AppCoreOptions> = {}): DataFolderProblem {
  try {
    open(dataDir, extra);
  } catch (error) {
    expect(error).toBeInstanceOf(DataFolderProblem);
    return error as DataFolderProblem;
  }
  throw new Error('the core started');
}

describe('one data folder, one Plat', () => {
  it('refuses a second core on the same folder, saying who holds it, and lets the next one in once it closes', async () => {
    const dataDir = newFolder();
    const first = open(dataDir);
    await first.ready;
    first.recordAddress('http://127.0.0.1:1234/#token=abc');
    let refused: unknown;
    try {
      open(dataDir);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataFolderInUseError);
    expect((refused as DataFolderInUseError).holder).toMatchObject({ pid: process.pid, dataDir, url: 'http://127.0.0.1:1234/#token=abc' });
    expect((refused as Error).message).toContain(`Plat is already running on the data folder ${dataDir} (process ${process.pid}`);
    expect((refused as Error).message).toContain('Open http://127.0.0.1:1234/#token=abc');
    // The running one is untouched and still serves.
    expect(await first.dispatch('getAppInfo', {}, sender)).toMatchObject({ ok: true, value: { service: { state: 'ready' } } });
    await closeCore(first);
    const second = open(dataDir);
    await second.ready;
    expect(second.connection().state).toBe('ready');
  });
});

describe('a damaged plat.db', () => {
  const damages: Array<[string, (file: string) => void, RegExp]> = [
    ['a 0-byte file', (file) => writeFileSync(file, ''), /is empty \(0 bytes\)/],
    ['garbage bytes', (file) => writeFileSync(file, Buffer.from('PK\u0003\u0004 not a ledger '.repeat(300))), /is not a database/],
    [
      'a garbage page in the middle of a real ledger',
      (file) => {
        writeLedger(file, 2000);
        const pageSize = 4096;
        const pages = statSync(file).size / pageSize;
        const garbage = Buffer.alloc(pageSize, 0);
        for (let i = 0; i < pageSize; i++) garbage[i] = (i * 7919 + 13) & 0xff;
        const bytes = readFileSync(file);
        garbage.copy(bytes, Math.floor(pages / 2) * pageSize);
        writeFileSync(file, bytes);
      },
      /fails SQLite’s integrity check|cannot be read as a database \(database disk image is malformed\)/,
    ],
  ];

  it.each(damages)('with %s: refuses, names the file, keeps it aside byte for byte, invents no ledger', async (_kind, damage, reason) => {
    const dataDir = newFolder();
    const file = path.join(dataDir, 'plat.db');
    damage(file);
    const before = sha(file);

    const problem = refusal(dataDir);
    expect(problem.message).toContain(file);
    expect(problem.message).toMatch(reason);
    expect(problem.message).toMatch(/--start-fresh/);
    expect(problem.message).not.toMatch(/\n\s+at /);
    expect(problem.keptAside).toHaveLength(1);
    const kept = problem.keptAside[0] ?? '';
    expect(path.basename(kept)).toMatch(/^plat\.db\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d$/);
    expect(problem.message).toContain(kept);
    expect(sha(kept)).toBe(before);
    // No empty ledger in its place, and the next start refuses too.
    expect(existsSync(file)).toBe(false);
    const again = refusal(dataDir);
    expect(again.message).toMatch(/was set aside as damaged/);
    expect(existsSync(file)).toBe(false);

    // Only when asked: a new ledger, saying so; the damaged copy stays.
    const fresh = open(dataDir, { startFresh: true });
    await fresh.ready;
    expect(fresh.notices.join(' ')).toMatch(/new, empty ledger, as you asked/);
    expect(fresh.notices.join(' ')).toContain(kept);
    expect(sha(kept)).toBe(before);
    // Nothing from the lost ledger: only the new start's own connection check.
    const listed = await fresh.dispatch('listLedger', { filter: {}, limit: 100, offset: 0 }, sender);
    expect(listed.ok && (listed.value as { rows: LedgerRow[] }).rows.map((row) => row.operation)).toEqual(['v4.catalog']);
  });

  it('with --start-fresh on the first start: sets it aside and starts a new ledger, saying so', async () => {
    const dataDir = newFolder();
    const file = path.join(dataDir, 'plat.db');
    writeFileSync(file, '');
    const core = open(dataDir, { startFresh: true });
    await core.ready;
    expect(core.notices).toHaveLength(1);
    expect(core.notices[0]).toMatch(/is empty \(0 bytes\)\. It was kept, unchanged, as .*plat\.db\.damaged-/);
    expect(readdirSync(dataDir).filter((f) => f.startsWith('plat.db.damaged-'))).toHaveLength(1);
  });

  it('keeps a 47-row ledger: a sound one opens with its rows, never as an empty one', async () => {
    const dataDir = newFolder();
    writeLedger(path.join(dataDir, 'plat.db'), 47);
    const core = open(dataDir);
    await core.ready;
    const listed = await core.dispatch('listLedger', { filter: {}, limit: 100, offset: 0 }, sender);
    expect(listed.ok && (listed.value as { rows: LedgerRow[] }).rows.filter((row) => row.cacheHit).length).toBe(47);
  });

  it('read-only: says so with the path, and leaves it where and as it is', () => {
    const dataDir = newFolder();
    const file = path.join(dataDir, 'plat.db');
    writeLedger(file, 47);
    chmodSync(file, 0o444);
    const before = sha(file);
    const problem = refusal(dataDir);
    expect(problem.message).toContain(`${file} is read-only`);
    expect(problem.message).toMatch(/chmod u\+w/);
    expect(problem.startFreshHelps).toBe(false);
    expect(problem.keptAside).toEqual([]);
    expect(sha(file)).toBe(before);
    expect(readdirSync(dataDir).filter((f) => f.includes('damaged'))).toEqual([]);
  });

  it('written by a newer Plat: names the file and leaves it alone', () => {
    const dataDir = newFolder();
    const file = path.join(dataDir, 'plat.db');
    const db = new DatabaseSync(file);
    db.exec('PRAGMA user_version = 99; CREATE TABLE future (id INTEGER)');
    db.close();
    const problem = refusal(dataDir);
    expect(problem.message).toContain(file);
    expect(problem.message).toMatch(/newer Plat/);
    expect(existsSync(file)).toBe(true);
  });
});

describe('a damaged local-service.db', () => {
  it('is checked too: refused with its name, kept aside; --start-fresh begins a new sample account', async () => {
    const dataDir = newFolder();
    const file = path.join(dataDir, 'local-service.db');
    writeFileSync(file, 'garbage '.repeat(1000));
    const before = sha(file);
    const problem = refusal(dataDir);
    expect(problem.message).toContain(file);
    expect(problem.message).toMatch(/sample service/);
    expect(sha(problem.keptAside[0] ?? '')).toBe(before);

    const core = open(dataDir, { startFresh: true });
    await core.ready;
    expect(core.connection()).toMatchObject({ mode: 'local-sample', state: 'ready' });
    expect(core.notices.join(' ')).toMatch(/new sample account/);
  });
});
