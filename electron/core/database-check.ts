// Start-up checks of the two databases in Plat's data folder, run under the data-folder lock and
// before either is opened for writing:
//   plat.db           the spend ledger, projects, budgets, settings and response cache
//   local-service.db  the embedded sample service's state (its demo accounts, charges, replays)
//
// Each is: absent (first run: a new one is made), usable, damaged (empty, not a database, or failing
// SQLite's quick_check), or unusable as it is (read-only, unreadable, held by another program).
// A damaged file is never deleted and never replaced by an empty one without the person asking: it
// is renamed aside, byte for byte, as `<name>.damaged-<time>` (with its -wal and -shm, so SQLite tools
// can still open the copy), and Plat refuses to start until the person restores a backup or starts
// with --start-fresh. While a set-aside copy exists and nothing has taken its place, the refusal
// stands, so a second start cannot quietly begin an empty ledger either. A file that is only
// read-only is left where it is, and named.
import { DatabaseSync } from 'node:sqlite';
import { accessSync, closeSync, constants, existsSync, openSync, readSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { openAppDatabase, sqliteResultCode } from './app-db.ts';

export const LEDGER_FILE = 'plat.db';
export const SERVICE_STATE_FILE = 'local-service.db';

const SQLITE_HEADER = 'SQLite format 3\0';
const COMPANIONS = ['-wal', '-shm'] as const;

/** A data-folder problem Plat cannot start with. The message is for the person: what, what was kept, what to do. */
export class DataFolderProblem extends Error {
  /** Files renamed aside by this start (absolute paths). */
  readonly keptAside: string[];
  /** Whether starting with --start-fresh would get past it (a damaged database, not a read-only one). */
  readonly startFreshHelps: boolean;
  constructor(message: string, options: { keptAside: string[]; startFreshHelps: boolean }) {
    super(message);
    this.name = 'DataFolderProblem';
    this.keptAside = options.keptAside;
    this.startFreshHelps = options.startFreshHelps;
  }
}

export type DatabaseState =
  | { kind: 'absent' }
  | { kind: 'usable' }
  | { kind: 'damaged'; reason: string }
  | { kind: 'unusable'; reason: string };

function errnoCode(error: unknown): string {
  return String((error as NodeJS.ErrnoException).code ?? (error as Error).message);
}

function readHeader(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/** What state a database file is in. Reads only; never writes the file itself. */
export function inspectDatabase(file: string): DatabaseState {
  let size: number;
  let mode: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) return { kind: 'unusable', reason: 'is not a file' };
    size = stats.size;
    mode = stats.mode;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { kind: 'absent' };
    return { kind: 'unusable', reason: `cannot be read (${errnoCode(error)})` };
  }
  if (size === 0) return { kind: 'damaged', reason: 'is empty (0 bytes)' };
  try {
    accessSync(file, constants.R_OK);
    if (readHeader(file) !== SQLITE_HEADER) return { kind: 'damaged', reason: 'is not a database (it does not start with SQLite’s header)' };
  } catch (error) {
    return { kind: 'unusable', reason: `cannot be read (${errnoCode(error)})` };
  }

  // Read-only, so a damaged file is not checkpointed into (changed) by the check itself.
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('PRAGMA quick_check').all();
    const first = String(rows[0]?.['quick_check'] ?? '');
    if (rows.length !== 1 || first !== 'ok') {
      const detail = first.replace(/\*\*\* in database main \*\*\*\s*/, '').split('\n')[0] ?? '';
      return { kind: 'damaged', reason: `fails SQLite’s integrity check (${detail.slice(0, 160)})` };
    }
  } catch (error) {
    const code = sqliteResultCode(error);
    // SQLITE_CORRUPT (11) and SQLITE_NOTADB (26): the bytes are not a sound database.
    if (code === 11 || code === 26) return { kind: 'damaged', reason: `cannot be read as a database (${(error as Error).message})` };
    if (code === 5 || code === 6) return { kind: 'unusable', reason: 'is in use by another program' };
    return { kind: 'unusable', reason: `cannot be opened (${(error as Error).message})` };
  } finally {
    db?.close();
  }

  // Writable: the file (a file with no write bit at all is read-only even to an administrator, who
  // could write it anyway), its WAL companions, and the folder (SQLite creates -wal and -shm there).
  if ((mode & 0o222) === 0) return { kind: 'unusable', reason: 'is read-only' };
  for (const target of [file, ...COMPANIONS.map((suffix) => `${file}${suffix}`).filter((f) => existsSync(f))]) {
    try {
      accessSync(target, constants.W_OK);
    } catch {
      return { kind: 'unusable', reason: target === file ? 'is read-only' : `cannot be written (${path.basename(target)} is read-only)` };
    }
  }
  try {
    accessSync(path.dirname(file), constants.W_OK);
  } catch {
    return { kind: 'unusable', reason: `cannot be written (the folder ${path.dirname(file)} is read-only)` };
  }
  return { kind: 'usable' };
}

/** `2026-11-23T19-30-00`: a file-name-safe local-free timestamp (UTC). */
function stamp(now: Date): string {
  return now.toISOString().slice(0, 19).replace(/:/g, '-');
}

/**
 * Renames `file` (and its -wal and -shm, keeping SQLite's naming so the copy opens with them) to
 * `<file>.damaged-<time>`. Returns the new path of the database file.
 */
export function setAside(file: string, now: Date): string {
  let target = `${file}.damaged-${stamp(now)}`;
  for (let n = 2; existsSync(target); n++) target = `${file}.damaged-${stamp(now)}-${n}`;
  for (const suffix of COMPANIONS) {
    if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${target}${suffix}`);
  }
  renameSync(file, target);
  return target;
}

/** Copies of `name` set aside earlier in `dataDir`, oldest first. */
export function setAsideCopies(dataDir: string, name: string): string[] {
  const prefix = `${name}.damaged-`;
  return readdirSync(dataDir)
    .filter((entry) => entry.startsWith(prefix) && !COMPANIONS.some((suffix) => entry.endsWith(suffix)))
    .sort()
    .map((entry) => path.join(dataDir, entry));
}

interface DatabaseRole {
  name: string;
  /** What the file holds, for the messages. */
  holds: string;
  /** What --start-fresh makes instead. */
  fresh: string;
}

const ROLES: readonly DatabaseRole[] = [
  { name: LEDGER_FILE, holds: 'your spend ledger, projects, budgets and settings', fresh: 'a new, empty ledger' },
  {
    name: SERVICE_STATE_FILE,
    holds: 'the sample service’s demo account (its balance, charges and replays)',
    fresh: 'a new sample account (with a fresh $25.00 of pretend credit)',
  },
];

export interface DataFolderCheck {
  /** Things the person should be told although Plat starts (e.g. a damaged file set aside on --start-fresh). */
  notices: string[];
  /** local-service.db is new this start: the sample service is a new account, with no record of earlier calls. */
  serviceStateFresh: boolean;
}

export interface CheckOptions {
  /** The person asked to replace damaged databases with new ones (they are kept aside, never deleted). */
  startFresh?: boolean;
  /** How the person starts fresh in this runtime, for the message (default: "start Plat with --start-fresh"). */
  startFreshHint?: string;
  now?: () => Date;
}

/**
 * Checks plat.db and local-service.db in `dataDir` (which the caller has locked). Returns what to tell
 * the person; throws DataFolderProblem when Plat must not start as things are.
 */
export function checkDataFolderDatabases(dataDir: string, options: CheckOptions = {}): DataFolderCheck {
  const now = options.now?.() ?? new Date();
  const hint = options.startFreshHint ?? 'start Plat with --start-fresh';
  const notices: string[] = [];
  const problems: string[] = [];
  const keptAside: string[] = [];
  let startFreshHelps = false;
  let serviceStateFresh = false;

  for (const role of ROLES) {
    const file = path.join(dataDir, role.name);
    const state = inspectDatabase(file);
    const restore = `To keep what it held, quit Plat, copy your backup of ${role.name} to ${file} and start Plat again; or ${hint} to begin ${role.fresh} (the damaged copy is kept).`;
    if (state.kind === 'usable') continue;
    if (state.kind === 'unusable') {
      const fix = state.reason === 'is read-only' ? ` Make it writable (for example: chmod u+w "${file}") and start Plat again.` : ' Fix this and start Plat again.';
      problems.push(`${file} ${state.reason}, so Plat cannot use ${role.holds}.${fix}`);
      continue;
    }
    if (state.kind === 'damaged') {
      const kept = setAside(file, now);
      keptAside.push(kept);
      if (options.startFresh) {
        notices.push(`${file} ${state.reason}. It was kept, unchanged, as ${kept}; Plat started with ${role.fresh}, as you asked.`);
        if (role.name === SERVICE_STATE_FILE) serviceStateFresh = true;
      } else {
        startFreshHelps = true;
        problems.push(`${file} ${state.reason}. It holds ${role.holds}. Plat did not start, so as not to begin ${role.fresh} in its place. The file was kept, unchanged, as ${kept}. ${restore}`);
      }
      continue;
    }
    // Absent: a first run, unless a damaged copy was set aside and nothing has taken its place.
    const earlier = setAsideCopies(dataDir, role.name);
    const last = earlier.at(-1);
    if (last && !options.startFresh) {
      startFreshHelps = true;
      problems.push(`${file} was set aside as damaged (kept as ${last}) and has not been replaced. Plat did not start, so as not to begin ${role.fresh} in its place. ${restore}`);
      continue;
    }
    if (last) notices.push(`Plat started with ${role.fresh}, as you asked; the damaged copy stays at ${last}.`);
    if (role.name === SERVICE_STATE_FILE) serviceStateFresh = true;
  }

  if (problems.length > 0) throw new DataFolderProblem(problems.join('\n\n'), { keptAside, startFreshHelps });
  return { notices, serviceStateFresh };
}

/**
 * Opens the checked plat.db. A new one is made under a temporary name and renamed into place once it
 * is a complete database, so a plat.db that exists is always one Plat wrote in full: an empty or
 * partial plat.db is then damage, never an interrupted first run. Failures name the file.
 */
export function openLedgerDatabase(file: string): DatabaseSync {
  try {
    if (!existsSync(file)) {
      const creating = `${file}.creating`;
      for (const stale of [creating, ...COMPANIONS.map((suffix) => `${creating}${suffix}`)]) rmSync(stale, { force: true });
      // Closing the only connection checkpoints the WAL into the file and removes it.
      openAppDatabase(creating).close();
      renameSync(creating, file);
    }
    return openAppDatabase(file);
  } catch (error) {
    throw new DataFolderProblem(`Plat could not open ${file}: ${(error as Error).message}. The file was left as it is.`, {
      keptAside: [],
      startFreshHelps: false,
    });
  }
}
