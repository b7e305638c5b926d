// The spend ledger: every call to the paid Property Records Service, written before it is sent and
// closed when its answer (or its absence) is known, so every micro-dollar is accounted for before and
// after it is spent. Amounts are integer micro-USD throughout (shared/money.ts).
//
// Lifecycle of a call row (kind `call`):
//   beginAttempt   -> status `pending`, committed before the request leaves (write-ahead).
//   recordUnchargedCall -> begin and answer in one commit, after the answer: for a call that cannot
//                     charge (free by the price table), where a write-ahead row has nothing to recover.
//   recordAnswer   -> `succeeded` (2xx) or `failed`, with the reported charge and balance headers.
//                     httpStatus null = no HTTP answer at all (network failure on the last attempt):
//                     the outcome is unknown, so the row stays `pending` and pendingAttempts() lists it.
//   recordRecovery -> `recovered`: a pending row re-sent with its Idempotency-Key (next start, or
//                     later in the same run); the service replays it free with the current balance.
// recordCacheHit writes a finished row with cache_hit=1 and no charge.
//
// Reconciliation. The service reports each call's charge (X-Svc-Charged-Micro-USD) and the balance
// after it (X-Svc-Balance-Micro-USD). A charge can be committed while its answer is lost; the retry
// is then a free replay. So at each reconciliation point:
//     gap = baseline − (reported charges since the baseline) − new balance
// gap > 0 is an unreported charge; gap < 0 is a credit (a top-up), never a negative charge.
//
// The ordering rule (answers may arrive in a different order than the service committed them):
// reconciliation happens only at *quiescent points*, when no call begun by this ledger instance is
// in flight. The answers received since the previous quiescent point form one window. Every call in
// it was served before the window closed, and every call of a later window is begun after that, so
// windows are in the service's order even when answers within a window are not. The window's end
// balance is read from its answers:
//   - exactly one answer that can move the balance (expected cost > 0 or a reported charge > 0):
//     its balance (free calls around it change nothing; those served before it show the old one);
//   - none: the last answer's balance (all free; they agree unless someone else used the account);
//   - several (the gateway did not serialise charged calls): the one equal to baseline − reported
//     charges if any; otherwise the window is *ambiguous*: the last such answer's balance is taken
//     and any gap is booked unattributed. Either way the baseline then telescopes, so the ledger's
//     net (charges − credits) always equals the balance drop exactly.
// The gateway therefore serialises calls that can charge (at most one in flight) and may run free
// calls concurrently; that keeps every window unambiguous. Reported charges are summed from all
// answered, not yet reconciled rows, so a window cut short by a crash is folded into the next one.
//
// Attributing a gap: a *candidate* is a call whose charge may have gone unseen: a replayed answer
// whose Idempotency-Key the ledger never saw charged, or a call with no answer. Priced candidates
// have an expected cost E > 0.
//   gap > 0: priced candidates each get E while the gap covers their sum, the rest is a
//            `reconciliation` row; if the gap is less than their sum, a single priced candidate gets
//            the whole gap (it cost less than expected), several cannot be told apart (reconciliation
//            row). With no priced candidate, a single unpriced candidate gets the gap. Otherwise a
//            reconciliation row.
//   gap < 0: the balance rose, so there was a top-up. Each priced candidate is taken to have cost
//            its E (the top-up also paid for it) and the `credit` row is −gap + ΣE.
// In an ambiguous window nothing is attributed: gap > 0 becomes a reconciliation row, gap < 0 a credit.
// Reconciliation and credit rows carry the session of the window's last answer and no project.
//
// Before the first balance is known there is no baseline and nothing to reconcile against: the
// gateway should make one free call (e.g. the v4 catalog) when balanceBaseline() is null, and call
// resetBalanceBaseline() whenever the API key or the service changes (another account's balance).
// On start, re-send pendingAttempts() before any new charged call, so a lost charge is attributed
// to the call it belongs to rather than booked unattributed.
import type { DatabaseSync, SQLInputValue, SQLOutputValue } from 'node:sqlite';
import { z } from 'zod';
import { addMicroUsd, formatUsd, MicroUsdSchema } from '../../shared/money.ts';
import type { MicroUsd } from '../../shared/money.ts';
import { applyMigrations, inTransaction, registerMigrations, statement } from './app-db.ts';

export const LEDGER_MIGRATIONS: readonly string[] = [
  `CREATE TABLE spend_ledger (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('call', 'reconciliation', 'credit')),
    status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'recovered', 'recorded')),
    started_at TEXT NOT NULL,
    finished_at TEXT,
    operation TEXT NOT NULL,
    request_summary TEXT NOT NULL,
    request_id TEXT,
    idempotency_key TEXT,
    http_status INTEGER,
    attempts INTEGER CHECK (attempts IS NULL OR attempts >= 0),
    expected_cost_micro_usd INTEGER NOT NULL DEFAULT 0 CHECK (expected_cost_micro_usd >= 0),
    charged_micro_usd INTEGER CHECK (charged_micro_usd IS NULL OR charged_micro_usd >= 0),
    unreported_charge_micro_usd INTEGER NOT NULL DEFAULT 0 CHECK (unreported_charge_micro_usd >= 0),
    credit_micro_usd INTEGER NOT NULL DEFAULT 0 CHECK (credit_micro_usd >= 0),
    balance_after_micro_usd INTEGER,
    replayed INTEGER NOT NULL DEFAULT 0 CHECK (replayed IN (0, 1)),
    cache_hit INTEGER NOT NULL DEFAULT 0 CHECK (cache_hit IN (0, 1)),
    cache_served_at TEXT,
    project_id TEXT,
    session_id TEXT NOT NULL,
    error_code TEXT,
    charge_unseen INTEGER NOT NULL DEFAULT 0 CHECK (charge_unseen IN (0, 1)),
    reconciled INTEGER NOT NULL DEFAULT 0 CHECK (reconciled IN (0, 1))
  ) STRICT;
  CREATE INDEX spend_ledger_started ON spend_ledger (started_at);
  CREATE INDEX spend_ledger_finished ON spend_ledger (finished_at);
  CREATE INDEX spend_ledger_session ON spend_ledger (session_id);
  CREATE INDEX spend_ledger_project ON spend_ledger (project_id);
  CREATE INDEX spend_ledger_key ON spend_ledger (idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE INDEX spend_ledger_pending ON spend_ledger (id) WHERE status = 'pending';
  CREATE INDEX spend_ledger_unreconciled ON spend_ledger (id) WHERE reconciled = 0;
  CREATE TABLE spend_balance_baseline (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    balance_micro_usd INTEGER NOT NULL,
    observed_at TEXT NOT NULL
  ) STRICT;`,
  // Totals read only rows that cost something: free calls and cache hits, the bulk of the ledger,
  // are skipped by this partial index instead of being summed as zeros.
  `CREATE INDEX spend_ledger_charged ON spend_ledger (finished_at)
     WHERE kind IN ('call', 'reconciliation') AND (coalesce(charged_micro_usd, 0) > 0 OR unreported_charge_micro_usd > 0);`,
  // Every index is written on every call, so only those a query uses are kept: nothing reads by
  // finished_at or session alone (totals go through spend_ledger_charged), and keys are looked up
  // only among rows that cost something (was a replayed key ever charged?).
  `DROP INDEX spend_ledger_finished;
   DROP INDEX spend_ledger_session;
   DROP INDEX spend_ledger_key;
   CREATE INDEX spend_ledger_charged_key ON spend_ledger (idempotency_key)
     WHERE idempotency_key IS NOT NULL AND (coalesce(charged_micro_usd, 0) > 0 OR unreported_charge_micro_usd > 0);`,
];

registerMigrations('ledger', LEDGER_MIGRATIONS);

/** The rows the next reconciliation sums: calls closed (with or without an answer) and not yet measured. */
const ANSWERED_UNRECONCILED = `reconciled = 0 AND kind = 'call' AND finished_at IS NOT NULL`;

/** A call's status from its HTTP answer. */
function answeredStatus(httpStatus: number): 'succeeded' | 'failed' {
  return httpStatus >= 200 && httpStatus < 300 ? 'succeeded' : 'failed';
}

export type SpendEntryKind = 'call' | 'reconciliation' | 'credit';
export type SpendEntryStatus = 'pending' | 'succeeded' | 'failed' | 'recovered' | 'recorded';

/** One ledger row as the rest of the app sees it. */
export interface SpendEntry {
  id: number;
  kind: SpendEntryKind;
  status: SpendEntryStatus;
  /** ISO time the row was written (for calls: before the request was sent). */
  startedAt: string;
  finishedAt: string | null;
  operation: string;
  requestSummary: unknown;
  requestId: string | null;
  idempotencyKey: string | null;
  httpStatus: number | null;
  attempts: number | null;
  expectedCostMicroUsd: MicroUsd;
  /** As reported by X-Svc-Charged-Micro-USD; null when no answer carried it. */
  chargedMicroUsd: MicroUsd | null;
  /** Charges found by reconciliation (on calls: attributed to this call; on reconciliation rows: the gap). */
  unreportedChargeMicroUsd: MicroUsd;
  /** chargedMicroUsd + unreportedChargeMicroUsd. */
  totalChargeMicroUsd: MicroUsd;
  /** Credit rows only: the amount the balance rose by (a top-up). */
  creditMicroUsd: MicroUsd;
  balanceAfterMicroUsd: MicroUsd | null;
  replayed: boolean;
  cacheHit: boolean;
  /** Cache hits: when the cached response was originally served. */
  cacheServedAt: string | null;
  projectId: string | null;
  sessionId: string;
  errorCode: string | null;
}

export interface BeginAttemptInput {
  /** Operation name, e.g. `v4.summary`. */
  operation: string;
  /**
   * A short JSON-able description of the request; recovery rebuilds the request from it, so it must
   * hold the parameters exactly. Never the API key: keys named like authorization/apiKey/key/secret/
   * token/password are stripped and values that look like credentials are redacted.
   */
  requestSummary: unknown;
  /** The Idempotency-Key sent (generated once per user action, reused by every retry); null for calls without one. */
  idempotencyKey: string | null;
  expectedCostMicroUsd: MicroUsd;
  projectId: string | null;
  sessionId: string;
}

export interface CallAnswer {
  /** The final HTTP status, or null when no answer came back at all (the outcome is unknown). */
  httpStatus: number | null;
  requestId: string | null;
  /** X-Svc-Charged-Micro-USD of the final answer; null when absent. */
  chargedMicroUsd: MicroUsd | null;
  /** X-Svc-Balance-Micro-USD of the final answer; null when absent. */
  balanceAfterMicroUsd: MicroUsd | null;
  /** X-Svc-Replayed of the final answer. */
  replayed: boolean;
  errorCode: string | null;
  /** How many times the request was sent. */
  attempts: number;
}

export interface CacheHitInput {
  operation: string;
  requestSummary: unknown;
  projectId: string | null;
  sessionId: string;
  /** request_id of the response that was cached. */
  originalRequestId: string | null;
  /** When the cached response was served (ISO time or Date). */
  servedAt: string | Date;
}

export interface SpendTotals {
  sessionMicroUsd: MicroUsd;
  /** Charges finished within the local calendar day of `now`. */
  todayMicroUsd: MicroUsd;
  allTimeMicroUsd: MicroUsd;
  /** Charges by project, largest first; projectId null collects calls outside any project and unattributed reconciliation. */
  byProject: Array<{ projectId: string | null; microUsd: MicroUsd }>;
  lastKnownBalanceMicroUsd: MicroUsd | null;
  lastChargeMicroUsd: MicroUsd | null;
  lastChargeAt: string | null;
}

export interface SpendFilter {
  /** A project id, or null for rows outside any project; omitted for all rows. */
  projectId?: string | null;
  /** Rows started at or after this time. */
  from?: Date;
  /** Rows started before this time. */
  to?: Date;
}

export interface SpendPage extends SpendFilter {
  limit: number;
  offset?: number;
}

export type SpendChangeReason = 'begun' | 'answered' | 'recovered' | 'cache-hit' | 'baseline-reset';

/** Pushed after every committed write, so the core can tell the renderer about spend. */
export interface SpendChange {
  reason: SpendChangeReason;
  /** The ids of the rows written or changed by this write (new reconciliation and credit rows included). */
  ids: number[];
  /** Those rows as they are now (read when asked: most listeners only need to know that spend moved). */
  entries(): SpendEntry[];
}

/** A call's row once closed: what it cost, reported and attributed by reconciliation together. */
export interface ClosedCall {
  callId: number;
  totalChargeMicroUsd: MicroUsd;
}

export type SpendChangeListener = (change: SpendChange) => void;

export interface SpendLedgerOptions {
  /** The clock, so tests can pin time. */
  now?: () => Date;
}

// ---------------------------------------------------------------------------------------------
// Request summaries: JSON only, and never a credential.

const MAX_SUMMARY_CHARS = 8192;
const MAX_SUMMARY_DEPTH = 12;
const REDACTED = '[redacted]';

function isSecretKeyName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return (
    normalized === 'key' ||
    normalized === 'token' ||
    normalized === 'bearer' ||
    normalized === 'cookie' ||
    normalized === 'credential' ||
    normalized === 'credentials' ||
    normalized.endsWith('apikey') ||
    normalized.endsWith('accesstoken') ||
    normalized.endsWith('refreshtoken') ||
    normalized.includes('authorization') ||
    normalized.includes('secret') ||
    normalized.includes('password')
  );
}

// Bearer credentials and the service's key format, wherever they appear in a value.
const SECRET_VALUE = /\bbearer\s+\S+|\bsvc_[a-z]+_[a-z0-9]{16,}/i;

function sanitizeValue(value: unknown, depth: number): unknown {
  if (depth > MAX_SUMMARY_DEPTH) throw new TypeError('requestSummary is nested too deeply');
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? REDACTED : value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('requestSummary holds a non-finite number');
    return value;
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sanitizeValue(item, depth + 1)));
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new TypeError('requestSummary must hold plain objects only');
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || isSecretKeyName(key)) continue;
      result[key] = sanitizeValue(item, depth + 1);
    }
    return result;
  }
  throw new TypeError(`requestSummary holds a ${typeof value}, which is not JSON`);
}

/** The JSON text stored for a request summary: credentials stripped, size bounded. Exported for tests. */
export function summaryJson(summary: unknown): string {
  const text = JSON.stringify(sanitizeValue(summary, 0));
  if (text.length > MAX_SUMMARY_CHARS) {
    throw new RangeError(`requestSummary is ${text.length} characters; keep it under ${MAX_SUMMARY_CHARS}`);
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// Input validation

const BeginAttemptSchema = z.object({
  operation: z.string().min(1).max(200),
  requestSummary: z.unknown(),
  idempotencyKey: z.string().min(1).max(256).nullable(),
  expectedCostMicroUsd: MicroUsdSchema,
  projectId: z.string().min(1).max(200).nullable(),
  sessionId: z.string().min(1).max(200),
});

const CallAnswerSchema = z.object({
  httpStatus: z.int().min(100).max(599).nullable(),
  requestId: z.string().min(1).max(512).nullable(),
  chargedMicroUsd: MicroUsdSchema.nullable(),
  balanceAfterMicroUsd: MicroUsdSchema.nullable(),
  replayed: z.boolean(),
  errorCode: z.string().min(1).max(200).nullable(),
  // 0: refused before anything was sent, or closed by recovery without re-sending (no key to replay).
  attempts: z.int().min(0).max(1000),
});

const CacheHitSchema = z.object({
  operation: z.string().min(1).max(200),
  requestSummary: z.unknown(),
  projectId: z.string().min(1).max(200).nullable(),
  sessionId: z.string().min(1).max(200),
  originalRequestId: z.string().min(1).max(512).nullable(),
  servedAt: z.union([z.iso.datetime({ offset: true }), z.date().transform((date) => date.toISOString())]),
});

const PageSchema = z.object({
  projectId: z.string().nullable().optional(),
  from: z.date().optional(),
  to: z.date().optional(),
  limit: z.int().min(1).max(10_000),
  offset: z.int().min(0).optional(),
});

// ---------------------------------------------------------------------------------------------
// Row mapping

type Row = Record<string, SQLOutputValue>;

function num(row: Row, column: string): number {
  const value = row[column];
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  throw new Error(`ledger: column ${column} is not a number`);
}

function numOrNull(row: Row, column: string): number | null {
  return row[column] === null || row[column] === undefined ? null : num(row, column);
}

function str(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new Error(`ledger: column ${column} is not text`);
  return value;
}

function strOrNull(row: Row, column: string): string | null {
  return row[column] === null || row[column] === undefined ? null : str(row, column);
}

function entryFrom(row: Row): SpendEntry {
  const charged = numOrNull(row, 'charged_micro_usd');
  const unreported = num(row, 'unreported_charge_micro_usd');
  return {
    id: num(row, 'id'),
    kind: str(row, 'kind') as SpendEntryKind,
    status: str(row, 'status') as SpendEntryStatus,
    startedAt: str(row, 'started_at'),
    finishedAt: strOrNull(row, 'finished_at'),
    operation: str(row, 'operation'),
    requestSummary: JSON.parse(str(row, 'request_summary')) as unknown,
    requestId: strOrNull(row, 'request_id'),
    idempotencyKey: strOrNull(row, 'idempotency_key'),
    httpStatus: numOrNull(row, 'http_status'),
    attempts: numOrNull(row, 'attempts'),
    expectedCostMicroUsd: num(row, 'expected_cost_micro_usd'),
    chargedMicroUsd: charged,
    unreportedChargeMicroUsd: unreported,
    totalChargeMicroUsd: addMicroUsd(charged ?? 0, unreported),
    creditMicroUsd: num(row, 'credit_micro_usd'),
    balanceAfterMicroUsd: numOrNull(row, 'balance_after_micro_usd'),
    replayed: num(row, 'replayed') === 1,
    cacheHit: num(row, 'cache_hit') === 1,
    cacheServedAt: strOrNull(row, 'cache_served_at'),
    projectId: strOrNull(row, 'project_id'),
    sessionId: str(row, 'session_id'),
    errorCode: strOrNull(row, 'error_code'),
  };
}

// ---------------------------------------------------------------------------------------------
// CSV (RFC 4180: CRLF line ends, fields with commas, quotes or line breaks quoted, quotes doubled)

const CSV_COLUMNS: ReadonlyArray<readonly [string, (entry: SpendEntry) => string | number | boolean | null]> = [
  ['id', (e) => e.id],
  ['kind', (e) => e.kind],
  ['status', (e) => e.status],
  ['started_at', (e) => e.startedAt],
  ['finished_at', (e) => e.finishedAt],
  ['operation', (e) => e.operation],
  ['request_summary', (e) => JSON.stringify(e.requestSummary)],
  ['request_id', (e) => e.requestId],
  ['idempotency_key', (e) => e.idempotencyKey],
  ['http_status', (e) => e.httpStatus],
  ['attempts', (e) => e.attempts],
  ['expected_cost_micro_usd', (e) => e.expectedCostMicroUsd],
  ['expected_cost_usd', (e) => formatUsd(e.expectedCostMicroUsd)],
  ['charged_micro_usd', (e) => e.chargedMicroUsd],
  ['charged_usd', (e) => (e.chargedMicroUsd === null ? null : formatUsd(e.chargedMicroUsd))],
  ['unreported_charge_micro_usd', (e) => e.unreportedChargeMicroUsd],
  ['unreported_charge_usd', (e) => formatUsd(e.unreportedChargeMicroUsd)],
  ['total_charge_micro_usd', (e) => e.totalChargeMicroUsd],
  ['total_charge_usd', (e) => formatUsd(e.totalChargeMicroUsd)],
  ['credit_micro_usd', (e) => e.creditMicroUsd],
  ['credit_usd', (e) => formatUsd(e.creditMicroUsd)],
  ['balance_after_micro_usd', (e) => e.balanceAfterMicroUsd],
  ['balance_after_usd', (e) => (e.balanceAfterMicroUsd === null ? null : formatUsd(e.balanceAfterMicroUsd))],
  ['replayed', (e) => e.replayed],
  ['cache_hit', (e) => e.cacheHit],
  ['cache_served_at', (e) => e.cacheServedAt],
  ['project_id', (e) => e.projectId],
  ['session_id', (e) => e.sessionId],
  ['error_code', (e) => e.errorCode],
];

function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  // A spreadsheet would run a text cell starting like a formula; an apostrophe keeps it text.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV of ledger entries, with a header row. */
export function spendEntriesToCsv(entries: readonly SpendEntry[]): string {
  const lines = [CSV_COLUMNS.map(([name]) => name).join(',')];
  for (const entry of entries) lines.push(CSV_COLUMNS.map(([, pick]) => csvField(pick(entry))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

// ---------------------------------------------------------------------------------------------
// The ledger

/** An answer received in the current reconciliation window. */
interface WindowAnswer {
  callId: number;
  balance: MicroUsd | null;
  /** Expected cost > 0 or a reported charge > 0: this call's commit can move the balance. */
  movesBalance: boolean;
  sessionId: string;
}

interface UnreconciledCall {
  id: number;
  charged: MicroUsd;
  expected: MicroUsd;
  chargeUnseen: boolean;
}

export class SpendLedger {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  readonly #listeners = new Set<SpendChangeListener>();
  /** The last totals computed, until the next write (every write goes through #emit). */
  #totalsMemo: { key: string; totals: SpendTotals } | null = null;
  /** Calls begun by this instance and not answered yet. */
  readonly #inFlight = new Set<number>();
  #window: WindowAnswer[] = [];

  constructor(db: DatabaseSync, options: SpendLedgerOptions = {}) {
    this.#db = db;
    this.#now = options.now ?? (() => new Date());
    applyMigrations(db, 'ledger', LEDGER_MIGRATIONS);
  }

  /** Subscribes to committed writes; returns the unsubscribe function. */
  onChange(listener: SpendChangeListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Writes the call's row, status `pending`, and commits it: call this before sending the request.
   * Returns the call id.
   */
  beginAttempt(input: BeginAttemptInput): number {
    const callId = this.#insertAttempt(input);
    this.#emit('begun', [callId]);
    return callId;
  }

  /** Closes a call begun with beginAttempt with its final answer (see the file header for httpStatus null). */
  recordAnswer(callId: number, answer: CallAnswer): ClosedCall {
    return this.#close(callId, answer, 'answered');
  }

  /** Closes a pending call re-sent after a crash or a lost answer; status `recovered`. */
  recordRecovery(callId: number, answer: CallAnswer): ClosedCall {
    return this.#close(callId, answer, 'recovered');
  }

  /**
   * Records a call that cannot charge (free by the price table) after its answer, begin and answer in
   * one commit. A write-ahead row would protect nothing: there is no charge to lose, so replaying its
   * key after a crash would recover nothing. Reconciliation still measures its balance like any other
   * answer (and books any charge a live service made anyway, as for any call).
   */
  recordUnchargedCall(input: BeginAttemptInput, answerInput: CallAnswer): ClosedCall {
    if (input.expectedCostMicroUsd !== 0) throw new Error('ledger: only a free call can be recorded after its answer');
    const answer = CallAnswerSchema.parse(answerInput);
    return inTransaction(this.#db, () => {
      const settled = this.#settledFreeAnswer(answer);
      if (!settled) return this.#close(this.#insertAttempt(input), answer, 'answered');
      // The common case, written as one finished row: nothing else is open, and the answer shows the
      // very balance the ledger expects, so reconciling it would find no gap and change nothing.
      const parsed = BeginAttemptSchema.parse(input);
      const at = this.#now().toISOString();
      const result = statement(
        this.#db,
        `INSERT INTO spend_ledger (kind, status, started_at, finished_at, operation, request_summary, idempotency_key,
           request_id, http_status, attempts, charged_micro_usd, balance_after_micro_usd, replayed, error_code,
           project_id, session_id, reconciled)
         VALUES ('call', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
      ).run(
        settled.status,
        at,
        at,
        parsed.operation,
        summaryJson(input.requestSummary),
        parsed.idempotencyKey,
        answer.requestId,
        settled.httpStatus,
        answer.attempts,
        answer.chargedMicroUsd,
        answer.balanceAfterMicroUsd,
        answer.replayed ? 1 : 0,
        answer.errorCode,
        parsed.projectId,
        parsed.sessionId,
      );
      const callId = Number(result.lastInsertRowid);
      this.#emit('answered', [callId], { totalsChanged: false });
      return { callId, totalChargeMicroUsd: 0 };
    });
  }

  /**
   * For a free call's answer: its final status when recording it needs no reconciliation (no call in
   * flight or waiting in the window, no answered row unreconciled, no charge, and the balance equal to
   * the baseline); otherwise null.
   */
  #settledFreeAnswer(answer: CallAnswer): { status: SpendEntryStatus; httpStatus: number } | null {
    if (answer.httpStatus === null || (answer.chargedMicroUsd ?? 0) !== 0 || answer.replayed) return null;
    if (this.#inFlight.size > 0 || this.#window.length > 0) return null;
    const baseline = this.balanceBaseline();
    if (baseline === null || answer.balanceAfterMicroUsd !== baseline.balanceMicroUsd) return null;
    const waiting = statement(this.#db, `SELECT 1 AS waiting FROM spend_ledger WHERE ${ANSWERED_UNRECONCILED} LIMIT 1`).get();
    if (waiting) return null;
    return { status: answeredStatus(answer.httpStatus), httpStatus: answer.httpStatus };
  }

  #insertAttempt(input: BeginAttemptInput): number {
    const parsed = BeginAttemptSchema.parse(input);
    const summary = summaryJson(input.requestSummary);
    const at = this.#now().toISOString();
    const result = statement(
      this.#db,
      `INSERT INTO spend_ledger (kind, status, started_at, operation, request_summary, idempotency_key,
         expected_cost_micro_usd, project_id, session_id)
       VALUES ('call', 'pending', ?, ?, ?, ?, ?, ?, ?)`,
    ).run(at, parsed.operation, summary, parsed.idempotencyKey, parsed.expectedCostMicroUsd, parsed.projectId, parsed.sessionId);
    const callId = Number(result.lastInsertRowid);
    this.#inFlight.add(callId);
    return callId;
  }

  /** Records a response served from the local cache: no request was sent, nothing was charged. */
  recordCacheHit(input: CacheHitInput): number {
    const parsed = CacheHitSchema.parse(input);
    const summary = summaryJson(input.requestSummary);
    const at = this.#now().toISOString();
    const result = statement(this.#db, 
        `INSERT INTO spend_ledger (kind, status, started_at, finished_at, operation, request_summary, request_id,
           charged_micro_usd, cache_hit, cache_served_at, project_id, session_id, reconciled)
         VALUES ('call', 'succeeded', ?, ?, ?, ?, ?, 0, 1, ?, ?, ?, 1)`,
      )
      .run(at, at, parsed.operation, summary, parsed.originalRequestId, parsed.servedAt, parsed.projectId, parsed.sessionId);
    const id = Number(result.lastInsertRowid);
    this.#emit('cache-hit', [id], { totalsChanged: false });
    return id;
  }

  /**
   * Calls begun but never answered (the app stopped between sending and recording, or no answer
   * came back), oldest first, excluding calls this instance still has in flight. Re-send each with
   * its Idempotency-Key and close it with recordRecovery.
   */
  pendingAttempts(): SpendEntry[] {
    return statement(this.#db, `SELECT * FROM spend_ledger WHERE status = 'pending' ORDER BY id`)
      .all()
      .map(entryFrom)
      .filter((entry) => !this.#inFlight.has(entry.id));
  }

  /** The balance reconciliation measures against, or null before the first balance was seen. */
  balanceBaseline(): { balanceMicroUsd: MicroUsd; observedAt: string } | null {
    const row = statement(this.#db, 'SELECT balance_micro_usd, observed_at FROM spend_balance_baseline WHERE id = 1').get();
    return row ? { balanceMicroUsd: num(row, 'balance_micro_usd'), observedAt: str(row, 'observed_at') } : null;
  }

  /**
   * Forgets the baseline: call when the API key or the service changes, since the next balance is
   * another account's. Answered calls not reconciled yet are closed off without reconciliation.
   */
  resetBalanceBaseline(): void {
    inTransaction(this.#db, () => {
      this.#db.exec('DELETE FROM spend_balance_baseline');
      this.#db.exec(`UPDATE spend_ledger SET reconciled = 1 WHERE reconciled = 0 AND finished_at IS NOT NULL`);
    });
    this.#window = [];
    this.#emit('baseline-reset', []);
  }

  get(id: number): SpendEntry | undefined {
    const row = statement(this.#db, 'SELECT * FROM spend_ledger WHERE id = ?').get(id);
    return row ? entryFrom(row) : undefined;
  }

  /** How many rows match the filter (for paging). */
  count(filter: SpendFilter = {}): number {
    const { where, params } = filterSql(PageSchema.omit({ limit: true, offset: true }).parse(filter));
    const row = statement(this.#db, `SELECT COUNT(*) AS n FROM spend_ledger ${where}`).get(...params);
    return row ? num(row, 'n') : 0;
  }

  /** Rows newest first. */
  list(page: SpendPage): SpendEntry[] {
    const parsed = PageSchema.parse(page);
    const { where, params } = filterSql(parsed);
    return statement(this.#db, `SELECT * FROM spend_ledger ${where} ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, parsed.limit, parsed.offset ?? 0)
      .map(entryFrom);
  }

  /** Every row matching the filter, newest first, as RFC 4180 CSV with a header row. */
  exportCsv(filter: SpendFilter = {}): string {
    const parsed = PageSchema.omit({ limit: true, offset: true }).parse(filter);
    const { where, params } = filterSql(parsed);
    const entries = statement(this.#db, `SELECT * FROM spend_ledger ${where} ORDER BY started_at DESC, id DESC`)
      .all(...params)
      .map(entryFrom);
    return spendEntriesToCsv(entries);
  }

  /** Charges (reported + unreported; credits excluded) for the session, the local day, all time and by project. */
  totals(query: { sessionId: string; now?: Date }): SpendTotals {
    const now = query.now ?? this.#now();
    const dayStart = new Date(now);
    dayStart.setHours(0, 0, 0, 0);
    const dayEnd = new Date(dayStart);
    dayEnd.setDate(dayEnd.getDate() + 1);
    const memoKey = `${query.sessionId}|${dayStart.toISOString()}`;
    if (this.#totalsMemo?.key === memoKey) return this.#totalsMemo.totals;
    const charges = `SELECT session_id, project_id, finished_at, id,
        coalesce(charged_micro_usd, 0) + unreported_charge_micro_usd AS charge
      FROM spend_ledger INDEXED BY spend_ledger_charged
      WHERE kind IN ('call', 'reconciliation') AND (coalesce(charged_micro_usd, 0) > 0 OR unreported_charge_micro_usd > 0)`;
    const sums = statement(this.#db, 
        `SELECT coalesce(sum(CASE WHEN session_id = ? THEN charge END), 0) AS session_total,
           coalesce(sum(CASE WHEN finished_at >= ? AND finished_at < ? THEN charge END), 0) AS today_total,
           coalesce(sum(charge), 0) AS all_total
         FROM (${charges})`,
      )
      .get(query.sessionId, dayStart.toISOString(), dayEnd.toISOString());
    const byProject = statement(this.#db, `SELECT project_id, sum(charge) AS total FROM (${charges}) GROUP BY project_id HAVING total > 0 ORDER BY total DESC, project_id`)
      .all()
      .map((row) => ({ projectId: strOrNull(row, 'project_id'), microUsd: num(row, 'total') }));
    const last = statement(this.#db, `SELECT charge, finished_at FROM (${charges}) WHERE charge > 0 ORDER BY finished_at DESC, id DESC LIMIT 1`)
      .get();
    const totals = {
      sessionMicroUsd: sums ? num(sums, 'session_total') : 0,
      todayMicroUsd: sums ? num(sums, 'today_total') : 0,
      allTimeMicroUsd: sums ? num(sums, 'all_total') : 0,
      byProject,
      lastKnownBalanceMicroUsd: this.balanceBaseline()?.balanceMicroUsd ?? null,
      lastChargeMicroUsd: last ? num(last, 'charge') : null,
      lastChargeAt: last ? strOrNull(last, 'finished_at') : null,
    };
    this.#totalsMemo = { key: memoKey, totals };
    return totals;
  }

  // -------------------------------------------------------------------------------------------

  #close(callId: number, answerInput: CallAnswer, reason: 'answered' | 'recovered'): ClosedCall {
    const answer = CallAnswerSchema.parse(answerInput);
    const { changed, totalChargeMicroUsd } = inTransaction(this.#db, () => {
      const row = statement(this.#db, 'SELECT * FROM spend_ledger WHERE id = ?').get(callId);
      if (!row) throw new Error(`ledger: no call ${callId}`);
      const entry = entryFrom(row);
      if (entry.kind !== 'call' || entry.cacheHit) throw new Error(`ledger: entry ${callId} is not a service call`);
      if (entry.status !== 'pending') throw new Error(`ledger: call ${callId} is already ${entry.status}`);
      const at = this.#now().toISOString();

      if (answer.httpStatus === null) {
        // No answer: the service may or may not have committed (and charged) it. Stay pending.
        statement(this.#db, 
            `UPDATE spend_ledger SET finished_at = ?, attempts = ?, error_code = ?, charge_unseen = 1, reconciled = 0 WHERE id = ?`,
          )
          .run(at, answer.attempts, answer.errorCode ?? 'no_answer', callId);
      } else {
        const status = reason === 'recovered' ? 'recovered' : answeredStatus(answer.httpStatus);
        const chargeUnseen = answer.replayed && !this.#keySeenCharged(entry.idempotencyKey);
        statement(this.#db, 
            `UPDATE spend_ledger SET status = ?, finished_at = ?, http_status = ?, request_id = ?, charged_micro_usd = ?,
               balance_after_micro_usd = ?, replayed = ?, error_code = ?, attempts = ?, charge_unseen = ?, reconciled = 0
             WHERE id = ?`,
          )
          .run(
            status,
            at,
            answer.httpStatus,
            answer.requestId,
            answer.chargedMicroUsd,
            answer.balanceAfterMicroUsd,
            answer.replayed ? 1 : 0,
            answer.errorCode,
            answer.attempts,
            chargeUnseen ? 1 : 0,
            callId,
          );
      }

      this.#inFlight.delete(callId);
      this.#window.push({
        callId,
        balance: answer.httpStatus === null ? null : answer.balanceAfterMicroUsd,
        movesBalance: entry.expectedCostMicroUsd > 0 || (answer.chargedMicroUsd ?? 0) > 0,
        sessionId: entry.sessionId,
      });
      const reconciled = this.#inFlight.size === 0 ? this.#reconcileWindow(at) : { changed: [], attributed: new Map<number, MicroUsd>() };
      return {
        changed: [callId, ...reconciled.changed],
        totalChargeMicroUsd: addMicroUsd(entry.unreportedChargeMicroUsd, answer.chargedMicroUsd ?? 0, reconciled.attributed.get(callId) ?? 0),
      };
    });
    this.#emit(reason, changed);
    return { callId, totalChargeMicroUsd };
  }

  /** Whether any row already shows a charge for this Idempotency-Key (so a replay of it cost nothing unseen). */
  #keySeenCharged(idempotencyKey: string | null): boolean {
    if (idempotencyKey === null) return false;
    const row = statement(this.#db, 
        `SELECT 1 AS seen FROM spend_ledger WHERE idempotency_key = ?
           AND (coalesce(charged_micro_usd, 0) > 0 OR unreported_charge_micro_usd > 0) LIMIT 1`,
      )
      .get(idempotencyKey);
    return row !== undefined;
  }

  /**
   * Closes the current window (see the file header). Runs inside the caller's transaction. Returns
   * the ids of rows it changed or wrote, and the unreported charges it booked against calls.
   */
  #reconcileWindow(at: string): { changed: number[]; attributed: Map<number, MicroUsd> } {
    const attributed = new Map<number, MicroUsd>();
    const changed: number[] = [];
    const window = this.#window;
    const answered = window.filter((answer): answer is WindowAnswer & { balance: MicroUsd } => answer.balance !== null);
    const lastAnswered = answered.at(-1);
    // Without a balance there is nothing to measure; the rows wait for the next window.
    if (!lastAnswered) return { changed, attributed };
    this.#window = [];

    const calls: UnreconciledCall[] = statement(this.#db, 
        `SELECT id, charged_micro_usd, expected_cost_micro_usd, charge_unseen FROM spend_ledger
         WHERE ${ANSWERED_UNRECONCILED} ORDER BY id`,
      )
      .all()
      .map((row) => ({
        id: num(row, 'id'),
        charged: numOrNull(row, 'charged_micro_usd') ?? 0,
        expected: num(row, 'expected_cost_micro_usd'),
        chargeUnseen: num(row, 'charge_unseen') === 1,
      }));
    const reported = addMicroUsd(...calls.map((call) => call.charged));
    const baseline = this.balanceBaseline();

    let endBalance: MicroUsd;
    let ambiguous = false;
    const moving = answered.filter((answer) => answer.movesBalance);
    const lastMoving = moving.at(-1);
    if (!lastMoving) endBalance = lastAnswered.balance;
    else if (moving.length === 1) endBalance = lastMoving.balance;
    else {
      const expectedEnd = baseline === null ? null : baseline.balanceMicroUsd - reported;
      const consistent = moving.find((answer) => answer.balance === expectedEnd);
      endBalance = consistent ? consistent.balance : lastMoving.balance;
      ambiguous = !consistent;
    }

    const markReconciled = statement(this.#db, 'UPDATE spend_ledger SET reconciled = 1 WHERE id = ?');
    for (const call of calls) markReconciled.run(call.id);
    statement(this.#db, 
        `INSERT INTO spend_balance_baseline (id, balance_micro_usd, observed_at) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET balance_micro_usd = excluded.balance_micro_usd, observed_at = excluded.observed_at`,
      )
      .run(endBalance, at);
    if (baseline === null) return { changed, attributed };

    const gap = baseline.balanceMicroUsd - reported - endBalance;
    if (gap === 0) return { changed, attributed };

    const candidates = ambiguous ? [] : calls.filter((call) => call.chargeUnseen);
    const priced = candidates.filter((call) => call.expected > 0);
    const pricedSum = addMicroUsd(...priced.map((call) => call.expected));
    let unattributed = 0;
    let credit = 0;
    if (gap > 0) {
      const onlyPriced = priced.length === 1 ? priced[0] : undefined;
      const onlyCandidate = candidates.length === 1 ? candidates[0] : undefined;
      if (priced.length > 0 && gap >= pricedSum) {
        for (const call of priced) attributed.set(call.id, call.expected);
        unattributed = gap - pricedSum;
      } else if (onlyPriced) attributed.set(onlyPriced.id, gap);
      else if (priced.length === 0 && onlyCandidate) attributed.set(onlyCandidate.id, gap);
      else unattributed = gap;
    } else {
      for (const call of priced) attributed.set(call.id, call.expected);
      credit = -gap + pricedSum;
    }

    const addUnreported = statement(this.#db, 
      'UPDATE spend_ledger SET unreported_charge_micro_usd = unreported_charge_micro_usd + ? WHERE id = ?',
    );
    for (const [id, amount] of attributed) {
      addUnreported.run(amount, id);
      changed.push(id);
    }
    const evidence = {
      baselineMicroUsd: baseline.balanceMicroUsd,
      reportedMicroUsd: reported,
      balanceMicroUsd: endBalance,
      gapMicroUsd: gap,
      calls: calls.slice(-50).map((call) => call.id),
      ambiguous,
    };
    const sessionId = lastAnswered.sessionId;
    if (unattributed > 0) changed.push(this.#insertAdjustment('reconciliation', unattributed, 0, endBalance, sessionId, evidence, at));
    if (credit > 0) changed.push(this.#insertAdjustment('credit', 0, credit, endBalance, sessionId, evidence, at));
    return { changed, attributed };
  }

  #insertAdjustment(
    kind: 'reconciliation' | 'credit',
    unreported: MicroUsd,
    credit: MicroUsd,
    balance: MicroUsd,
    sessionId: string,
    evidence: Record<string, unknown>,
    at: string,
  ): number {
    const result = statement(this.#db, 
        `INSERT INTO spend_ledger (kind, status, started_at, finished_at, operation, request_summary,
           unreported_charge_micro_usd, credit_micro_usd, balance_after_micro_usd, session_id, reconciled)
         VALUES (?, 'recorded', ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
      )
      .run(kind, at, at, kind, JSON.stringify(evidence), unreported, credit, balance, sessionId);
    return Number(result.lastInsertRowid);
  }

  #emit(reason: SpendChangeReason, ids: number[], options: { totalsChanged: boolean } = { totalsChanged: true }): void {
    // A write that moved no money (no charge, no adjustment, the same balance) leaves the totals as they were.
    if (options.totalsChanged) this.#totalsMemo = null;
    if (this.#listeners.size === 0) return;
    const entries = () => ids.map((id) => this.get(id)).filter((entry): entry is SpendEntry => entry !== undefined);
    for (const listener of this.#listeners) {
      try {
        listener({ reason, ids, entries });
      } catch {
        // The write is committed; a failing subscriber (a closed window) must not make it look failed.
      }
    }
  }
}

function filterSql(filter: SpendFilter): { where: string; params: SQLInputValue[] } {
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  if (filter.projectId === null) clauses.push('project_id IS NULL');
  else if (filter.projectId !== undefined) {
    clauses.push('project_id = ?');
    params.push(filter.projectId);
  }
  if (filter.from) {
    clauses.push('started_at >= ?');
    params.push(filter.from.toISOString());
  }
  if (filter.to) {
    clauses.push('started_at < ?');
    params.push(filter.to.toISOString());
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}
