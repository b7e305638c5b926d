// One data folder, one Plat. Two processes on one folder each keep their own view of the ledger's
// window and balance baseline, and book each other's charges as gaps and top-ups; the embedded
// service's state (local-service.db) lives in the same folder. So the core takes this lock before it
// opens either database, and holds it until it closes.
//
// The lock is an OS file lock, not a pid file: `plat.lock` is a tiny SQLite file held in an open
// EXCLUSIVE transaction (SQLite takes fcntl locks on POSIX and LockFileEx on Windows). The OS
// drops it the moment the holder dies, SIGKILL included, so a crashed Plat never blocks the next
// start and a reused pid can never look like a live holder. The lock file itself is never deleted
// (deleting a lock file another process has open would let two holders lock two different files).
//
// Beside it, `plat-instance.json` (mode 0600: the browser host's address carries its launch token)
// says who holds the lock: pid, runtime, start time and, for the browser host, the page address, so
// a second start can say where Plat is already running and open it.
import { DatabaseSync } from 'node:sqlite';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { sqliteResultCode } from './app-db.ts';
import { readJsonFile } from './json-file.ts';

export const LOCK_FILE = 'plat.lock';
export const INSTANCE_FILE = 'plat-instance.json';

const HolderSchema = z.object({
  pid: z.number().int(),
  runtime: z.string(),
  dataDir: z.string(),
  startedAt: z.string(),
  url: z.string().nullable(),
});
/** Who holds a data folder, as the holder recorded it. */
export type DataFolderHolder = z.infer<typeof HolderSchema>;

export interface DataFolderLock {
  readonly dataDir: string;
  /** Records where this Plat can be opened (the browser host's page address), for a second start. */
  recordAddress(url: string): void;
  /** Lets the folder go (idempotent). */
  release(): void;
}

/** The folder is held by another running Plat. */
export class DataFolderInUseError extends Error {
  readonly dataDir: string;
  /** Who holds it, when it has said so (null in the instant between its lock and its record). */
  readonly holder: DataFolderHolder | null;
  constructor(dataDir: string, holder: DataFolderHolder | null) {
    super(alreadyRunningMessage(dataDir, holder));
    this.name = 'DataFolderInUseError';
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

/** What a second start tells the person. */
export function alreadyRunningMessage(dataDir: string, holder: DataFolderHolder | null): string {
  const who = holder ? ` (process ${holder.pid}, started ${holder.startedAt})` : '';
  const where = holder?.url ? ` Open ${holder.url}` : holder?.runtime === 'electron' ? ' Switch to its window.' : '';
  return `Plat is already running on the data folder ${dataDir}${who}.${where}`;
}

/** The holder's record, or null when there is none (or it cannot be read). */
export function readDataFolderHolder(dataDir: string): DataFolderHolder | null {
  try {
    // A few hundred bytes when Plat wrote it; anything past these limits is not a holder's record.
    const read = readJsonFile(path.join(dataDir, INSTANCE_FILE), { maxBytes: 64 * 1024, maxDepth: 4 });
    const parsed = read.ok ? HolderSchema.safeParse(read.value) : null;
    return parsed?.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function isBusy(error: unknown): boolean {
  const code = sqliteResultCode(error);
  // SQLITE_BUSY (5) and SQLITE_LOCKED (6), with or without extended bits.
  return code === 5 || code === 6;
}

function writePrivate(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  // The mode given to writeFileSync is masked by the umask and ignored for an existing file.
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}

/**
 * Takes the data folder for this process, creating the folder if needed. Throws
 * DataFolderInUseError when another running Plat holds it; other errors (a folder that cannot be
 * written) are thrown as they are, with the path in the message.
 */
export function lockDataFolder(dataDir: string, options: { runtime: string; now?: () => Date }): DataFolderLock {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(lockPath);
  } catch (error) {
    throw new Error(`Plat cannot use its data folder ${dataDir}: ${lockPath} cannot be opened (${(error as Error).message}).`, { cause: error });
  }
  try {
    // No journal file: the transaction writes nothing; it exists only to hold the lock.
    db.exec('PRAGMA journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (isBusy(error)) throw new DataFolderInUseError(dataDir, readDataFolderHolder(dataDir));
    throw new Error(`Plat cannot use its data folder ${dataDir}: ${lockPath} cannot be locked (${(error as Error).message}).`, { cause: error });
  }

  const instanceFile = path.join(dataDir, INSTANCE_FILE);
  const holder: DataFolderHolder = {
    pid: process.pid,
    runtime: options.runtime,
    dataDir,
    startedAt: (options.now?.() ?? new Date()).toISOString(),
    url: null,
  };
  const record = () => writePrivate(instanceFile, `${JSON.stringify(holder, null, 2)}\n`);
  try {
    record();
  } catch (error) {
    db.close();
    throw new Error(`Plat cannot write in its data folder ${dataDir} (${(error as Error).message}).`, { cause: error });
  }

  let released = false;
  return {
    dataDir,
    recordAddress(url) {
      if (released) return;
      holder.url = url;
      record();
    },
    release() {
      if (released) return;
      released = true;
      // The record goes first, while the lock still keeps any other Plat from writing its own.
      if (readDataFolderHolder(dataDir)?.pid === process.pid) rmSync(instanceFile, { force: true });
      db.close();
    },
  };
}
