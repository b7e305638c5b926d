// The ledger's tests' common ground: an in-memory (or temporary file) app database, a ledger on it
// with a pinned clock, and answers as the service gives them. Imported by each ledger test file, which
// then gets its own afterEach closing what it opened.
import { afterEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openAppDatabase } from '../app-db.ts';
import { SpendLedger } from './spend-ledger.ts';
import type { BeginAttemptInput, CallAnswer } from './spend-entries.ts';

const dirs: string[] = [];
const openDbs: DatabaseSync[] = [];
export function tempDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plat-ledger-'));
  dirs.push(dir);
  return join(dir, 'app.db');
}
export function open(path = ':memory:'): DatabaseSync {
  const db = openAppDatabase(path);
  openDbs.push(db);
  return db;
}
afterEach(() => {
  for (const db of openDbs.splice(0)) if (db.isOpen) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export const SUMMARY = 100_000;
export const TOP_UP = 25_000_000;

export function harness(path = ':memory:') {
  let clock = new Date(2024, 4, 10, 12, 0, 0); // local time, so "today" tests hold in any time zone
  const db = open(path);
  const ledger = new SpendLedger(db, { now: () => clock });
  let keyCounter = 0;
  const begin = (overrides: Partial<BeginAttemptInput> = {}): number =>
    ledger.beginAttempt({
      operation: 'v4.summary',
      requestSummary: { q_id: 'parc_1' },
      idempotencyKey: `key-${++keyCounter}`,
      expectedCostMicroUsd: SUMMARY,
      projectId: 'proj_a',
      sessionId: 'sess_1',
      ...overrides,
    });
  const free = (overrides: Partial<BeginAttemptInput> = {}): number =>
    begin({ operation: 'v4.catalog', requestSummary: {}, expectedCostMicroUsd: 0, ...overrides });
  return {
    db,
    ledger,
    begin,
    free,
    setClock(date: Date) {
      clock = date;
    },
  };
}

export function ok(charged: number, balance: number, extra: Partial<CallAnswer> = {}): CallAnswer {
  return {
    httpStatus: 200,
    requestId: 'req',
    chargedMicroUsd: charged,
    balanceAfterMicroUsd: balance,
    replayed: false,
    errorCode: null,
    attempts: 1,
    ...extra,
  };
}

/** A free call answered at `balance`: the way the gateway learns the balance before charging. */
export function observe(h: ReturnType<typeof harness>, balance: number): void {
  h.ledger.recordAnswer(h.free(), ok(0, balance));
}

/** A harness whose ledger has already seen the balance `balance`, as most reconciliation tests begin. */
export function harnessAtBalance(balance: number): ReturnType<typeof harness> {
  const h = harness();
  observe(h, balance);
  return h;
}

export function rows(ledger: SpendLedger) {
  return ledger.list({ limit: 1000 }).reverse();
}

/** The rows that are not calls (reconciliation entries, top-ups), oldest first. */
export function adjustmentRows(ledger: SpendLedger) {
  return rows(ledger).filter((entry) => entry.kind !== 'call');
}
