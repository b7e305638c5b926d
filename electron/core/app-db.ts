// The app's own database (spend ledger, response cache, projects, budgets, settings): one node:sqlite
// file in the user-data folder, opened once by the core and shared by every module.
//
// Pragmas, and why:
// - journal_mode=WAL (file databases): readers never block the writer, and a commit is one append.
// - synchronous=NORMAL: with WAL, a committed transaction survives a crash or kill of the *process*
//   (the WAL write has reached the OS before the commit returns); only a power loss or OS crash can
//   roll back the last few commits. Process death is the failure Plat must survive (tested with
//   SIGKILL in ledger.test.ts); FULL would add an fsync to every ledger write on the main thread.
// - foreign_keys=ON, busy_timeout=5000: a second process (a test, an inspector) waits, not fails.
//
// Migrations: each module owns its tables and lists its schema changes as an append-only array of
// SQL strings (never edit or reorder a shipped entry; add a new one). Two equivalent ways in:
//   registerMigrations('cache', CACHE_MIGRATIONS);   // at module load; openAppDatabase applies it
//   applyMigrations(db, 'cache', CACHE_MIGRATIONS);  // on an open database (ModuleStore does it on opening)
// Both are idempotent. How many of a module's migrations have run is kept per module in
// `app_migrations`; each migration runs in its own transaction together with its count update, so
// a crash mid-upgrade leaves the database at the previous step. `PRAGMA user_version` versions
// this bookkeeping itself (1 = the `app_migrations` table), so a file written by a newer Plat with a
// different layout is refused instead of misread.
import { DatabaseSync, type StatementSync } from 'node:sqlite';

/** The bookkeeping layout this code understands, kept in PRAGMA user_version. */
const APP_DB_LAYOUT_VERSION = 1;

const MODULE_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

const registry = new Map<string, readonly string[]>();

function checkModule(moduleName: string, migrations: readonly string[]): void {
  if (!MODULE_NAME.test(moduleName)) {
    throw new Error(`app-db: module name must match ${MODULE_NAME}, got "${moduleName}"`);
  }
  for (const [index, sql] of migrations.entries()) {
    if (typeof sql !== 'string' || sql.trim() === '') {
      throw new Error(`app-db: migration ${index + 1} of ${moduleName} is empty`);
    }
  }
}

/**
 * Registers a module's migrations so every later openAppDatabase applies them. Registering the same
 * list again is a no-op; a different list under the same name is a programming error.
 */
export function registerMigrations(moduleName: string, migrations: readonly string[]): void {
  checkModule(moduleName, migrations);
  const existing = registry.get(moduleName);
  if (existing) {
    const same = existing.length === migrations.length && existing.every((sql, i) => sql === migrations[i]);
    if (!same) throw new Error(`app-db: ${moduleName} registered two different migration lists`);
    return;
  }
  registry.set(moduleName, [...migrations]);
}

function transaction<T>(db: DatabaseSync, work: () => T): T {
  // Inside another transaction the work simply joins it: a caller can commit a ledger row and a
  // cache entry together, and a failure rolls back both (the outer call's catch does it).
  if (db.isTransaction) return work();
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function ensureLayout(db: DatabaseSync): void {
  const row = db.prepare('PRAGMA user_version').get();
  const version = Number(row?.['user_version'] ?? 0);
  if (version > APP_DB_LAYOUT_VERSION) {
    throw new Error(`app-db: the database was written by a newer Plat (layout ${version}, this one knows ${APP_DB_LAYOUT_VERSION})`);
  }
  if (version === APP_DB_LAYOUT_VERSION) return;
  transaction(db, () => {
    db.exec(`CREATE TABLE IF NOT EXISTS app_migrations (
      module TEXT PRIMARY KEY,
      applied INTEGER NOT NULL CHECK (applied >= 0),
      updated_at TEXT NOT NULL
    ) STRICT`);
    db.exec(`PRAGMA user_version = ${APP_DB_LAYOUT_VERSION}`);
  });
}

function appliedCount(db: DatabaseSync, moduleName: string): number {
  const row = db.prepare('SELECT applied FROM app_migrations WHERE module = ?').get(moduleName);
  return row ? Number(row['applied']) : 0;
}

/**
 * Runs the module's migrations that this database has not run yet, each in its own transaction.
 * Returns how many ran. Throws when the database has more migrations of the module than the code
 * knows (a newer Plat wrote it).
 */
export function applyMigrations(db: DatabaseSync, moduleName: string, migrations: readonly string[]): number {
  checkModule(moduleName, migrations);
  ensureLayout(db);
  const before = appliedCount(db, moduleName);
  if (before > migrations.length) {
    throw new Error(`app-db: ${moduleName} is at migration ${before}, newer than this Plat (${migrations.length})`);
  }
  let ran = 0;
  for (let index = before; index < migrations.length; index++) {
    transaction(db, () => {
      // Re-read inside the write lock: another process may have migrated in the meantime.
      if (appliedCount(db, moduleName) !== index) return;
      db.exec(migrations[index] ?? '');
      db.prepare(
        `INSERT INTO app_migrations (module, applied, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (module) DO UPDATE SET applied = excluded.applied, updated_at = excluded.updated_at`,
      ).run(moduleName, index + 1, new Date().toISOString());
      ran += 1;
    });
  }
  return ran;
}

/**
 * A module's store in the app database. Opening one brings the module's tables up to date first,
 * so no store reads or writes tables older than its code.
 */
export abstract class ModuleStore {
  protected readonly db: DatabaseSync;

  constructor(db: DatabaseSync, moduleName: string, migrations: readonly string[]) {
    this.db = db;
    applyMigrations(db, moduleName, migrations);
  }
}

/** How many migrations of each module this database has run. */
export function appliedMigrations(db: DatabaseSync): Record<string, number> {
  ensureLayout(db);
  const result: Record<string, number> = {};
  for (const row of db.prepare('SELECT module, applied FROM app_migrations ORDER BY module').all()) {
    result[String(row['module'])] = Number(row['applied']);
  }
  return result;
}

/**
 * Opens (creating if needed) the app database at `path`, or an in-memory one for ':memory:', sets
 * the pragmas above and applies every registered module's migrations.
 */
export function openAppDatabase(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  try {
    const onFile = path !== ':memory:' && path !== '';
    if (onFile) db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
    ensureLayout(db);
    for (const [moduleName, migrations] of registry) applyMigrations(db, moduleName, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Runs `work` in one write transaction (BEGIN IMMEDIATE), rolling back if it throws. Called inside
 * another transaction, `work` becomes part of it and commits (or rolls back) with it.
 */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  return transaction(db, work);
}

const statementCache = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/**
 * The prepared statement for `sql` on `db`, compiled once and reused: node:sqlite compiles on every
 * `prepare`, which on the ledger's per-call writes cost more than the writes themselves.
 */
export function statement(db: DatabaseSync, sql: string): StatementSync {
  let statements = statementCache.get(db);
  if (!statements) {
    statements = new Map();
    statementCache.set(db, statements);
  }
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    statements.set(sql, prepared);
  }
  return prepared;
}

/** Why the app database refused a write, when the cause is the storage rather than Plat's own code. */
export type StorageProblemKind = 'disk_full' | 'read_only' | 'io_error';

/** How a refused write is told to a person, whatever was being written: what happened and what to do. */
export const STORAGE_PROBLEMS: Readonly<Record<StorageProblemKind, { what: string; todo: string }>> = {
  disk_full: { what: 'The disk holding Plat’s data folder is full', todo: 'free some space on it' },
  read_only: { what: 'Plat’s data folder is read-only', todo: 'make it writable again' },
  io_error: { what: 'Plat could not write to its data folder (a disk error)', todo: 'check the disk' },
};

// SQLite primary result codes (the low byte of node:sqlite's `errcode`) that mean the file or the disk
// refused the write: nothing is wrong with the data, and the same write succeeds once that is fixed.
const STORAGE_RESULT_CODES: ReadonlyMap<number, StorageProblemKind> = new Map([
  [13, 'disk_full'], // SQLITE_FULL
  [8, 'read_only'], // SQLITE_READONLY
  [10, 'io_error'], // SQLITE_IOERR
  [14, 'io_error'], // SQLITE_CANTOPEN (e.g. the WAL file cannot be created)
]);

/** The SQLite primary result code of a node:sqlite error (the low byte of its `errcode`), or null for any other error. */
export function sqliteResultCode(error: unknown): number | null {
  const errcode = typeof error === 'object' && error !== null ? (error as { errcode?: unknown }).errcode : undefined;
  return typeof errcode === 'number' ? errcode & 0xff : null;
}

/** The storage problem behind a node:sqlite error, or null when the error is anything else. */
export function storageProblemOf(error: unknown): StorageProblemKind | null {
  const result = sqliteResultCode(error);
  if (result === null || (error as { code?: unknown }).code !== 'ERR_SQLITE_ERROR') return null;
  return STORAGE_RESULT_CODES.get(result) ?? null;
}
