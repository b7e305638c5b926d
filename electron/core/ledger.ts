// The spend ledger: every call to the paid Property Records Service, written before it is sent and
// closed when its answer (or its absence) is known, so every micro-dollar is accounted for before and
// after it is spent. Amounts are integer micro-USD throughout (shared/money.ts).
//
// Lifecycle of a call row (kind `call`):
//   beginAttempt   -> status `pending`, committed before the request leaves (write-ahead).
//   recordUnchargedCall -> begin and answer in one commit, after the answer: for a call that cannot
//                     charge (free by the price table), where a write-ahead row has nothing to recover.
//   recordAnswer   -> `succeeded` (2xx) or `failed`, with the reported charge and balance headers.
//                     httpStatus null = no HTTP answer at all (network failure on the last attempt),
//                     or outcomeUnknown = an earlier attempt's answer was lost before a plain failure:
//                     the service may have charged, so the row stays `pending`, a candidate for the
//                     next balance's gap, and pendingAttempts() lists it.
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
//
// A full disk (or a read-only or failing file): a write the database refuses is kept in memory, in
// order, counted in totals() and reported by storageStatus(), and written at the next ledger write or
// on a timer; a call's answer still goes back. A call that can charge is not begun meanwhile (it
// could not be written ahead). If the app stops first, the call's row is still `pending` on disk and
// is replayed at the next start.
import type { DatabaseSync, SQLInputValue, SQLOutputValue } from 'node:sqlite';
import { z } from 'zod';
import { addMicroUsd, formatUsd, MicroUsdSchema } from '../../shared/money.ts';
import type { MicroUsd } from '../../shared/money.ts';
import { dirname } from 'node:path';
import { applyMigrations, inTransaction, registerMigrations, statement, storageProblemOf, type StorageProblemKind, STORAGE_PROBLEMS } from './app-db.ts';
import { PlatFailure } from './failure.ts';
import { csvField } from '../../shared/csv.ts';

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
  // The exact request of a pending call, for its replay (see "Request summaries and replay copies").
  // NULL once the row is closed, and on rows written before this column (their summary was the request).
  `ALTER TABLE spend_ledger ADD COLUMN replay_request TEXT;`,
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
  /** Measured against a balance by reconciliation (so its charge, seen or unseen, is known). */
  reconciled: boolean;
}

/** A call begun and never closed, with the exact request to re-send. */
export interface PendingAttempt extends SpendEntry {
  /** The request as it was sent; null when it cannot be rebuilt (it held the API key, see replayJson). */
  request: unknown;
}

export interface BeginAttemptInput {
  /** Operation name, e.g. `v4.summary`. */
  operation: string;
  /**
   * The request (JSON-able). A call with an Idempotency-Key keeps it exactly until closed, for its
   * replay; the row's summary (shown, exported) is bounded and never holds a credential.
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
  /**
   * An earlier attempt was sent and its answer lost, so the service may have done and charged the
   * call although the final answer (e.g. a 503) says it failed. The row then stays `pending`, a
   * candidate for the charge the next balance shows, exactly as with httpStatus null.
   */
  outcomeUnknown?: boolean;
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

/** `storage`: the database started or stopped refusing writes (see storageStatus()). */
export type SpendChangeReason = 'begun' | 'answered' | 'recovered' | 'cache-hit' | 'baseline-reset' | 'storage';

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
  /** 0 for a free call whose row could not be written yet (see `unsaved`). */
  callId: number;
  totalChargeMicroUsd: MicroUsd;
  /** Present when the database refused the write: it is kept in memory and written as soon as it can be. */
  unsaved?: true;
}

/** Writes the database refused, kept in memory until it takes them (see SpendLedger.storageStatus). */
export interface StorageStatus {
  problem: StorageProblemKind | null;
  /** What happened and what to do, for people; null when there is no problem. */
  message: string | null;
  /** Charges the service reported in answers not written yet (they are in totals() already). */
  unsavedMicroUsd: MicroUsd;
  unsavedWrites: number;
}

export type SpendChangeListener = (change: SpendChange) => void;

export interface SpendLedgerOptions {
  /** The clock, so tests can pin time. */
  now?: () => Date;
  /** The API keys in use (read at each write): scrubbed from every summary, never kept for a replay. */
  secrets?: () => Iterable<string | null | undefined>;
  /** How often writes the database refused are tried again, besides at every ledger write. Default 5 s. */
  retryUnsavedMs?: number;
}

// ---------------------------------------------------------------------------------------------
// Request summaries and replay copies.
//
// A call's row keeps two forms of its request. The *summary* is for people (the Spend screen, the
// CSV): bounded, with credentials taken out. The *replay copy* is the exact request, kept only while
// the row is pending: recovery re-sends it with the same Idempotency-Key, and the service answers a
// different request under that key with 409, so it must not lose a character (no truncation, no
// redaction of ordinary words). Once the row is closed the copy is dropped.

const MAX_SUMMARY_CHARS = 8192;
const MAX_SUMMARY_DEPTH = 12;
const REDACTED = '[redacted]';
/** Shorter secrets are not scrubbed from text: they would redact ordinary words. Real keys are far longer. */
const MIN_SECRET_LENGTH = 8;
/** Ever smaller cuts applied to a summary over MAX_SUMMARY_CHARS: items kept per list or object, characters per text. */
const SHRINK_STEPS = [
  { items: 10, chars: 200 },
  { items: 3, chars: 60 },
  { items: 1, chars: 20 },
] as const;

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

// What a credential looks like in text: the service's key format, or "Bearer" followed by a token (at
// least 16 characters mixing letters and digits). "12 Bearer Ct" is an address, not a credential.
const CREDENTIAL_TEXT = /\bbearer\s+(?=[\w.~+/-]*\d)(?=[\w.~+/-]*[a-z])[\w.~+/-]{16,}=*|\bsvc_[a-z]+_[a-z0-9]{16,}/gi;

function usableSecrets(secrets: Iterable<string | null | undefined>): string[] {
  return [...secrets].filter((secret): secret is string => typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH);
}

/** Text with the given secrets and anything that looks like a credential replaced by [redacted]. */
function scrubText(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) scrubbed = scrubbed.split(secret).join(REDACTED);
  return scrubbed.replace(CREDENTIAL_TEXT, REDACTED);
}

interface JsonWalk {
  /** Summaries: credentials out. The replay copy: null (exact). */
  scrub: ((text: string) => string) | null;
  /** Deeper values become "…" (summaries); Infinity for the replay copy. */
  maxDepth: number;
}

/** The value as plain JSON data; throws TypeError for what JSON cannot hold (a programming error). */
function jsonValue(value: unknown, depth: number, walk: JsonWalk): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') return walk.scrub ? walk.scrub(value) : value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('requestSummary holds a non-finite number');
    return value;
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'object') throw new TypeError(`requestSummary holds a ${typeof value}, which is not JSON`);
  if (depth >= walk.maxDepth) return '…';
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : jsonValue(item, depth + 1, walk)));
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new TypeError('requestSummary must hold plain objects only');
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (walk.scrub && isSecretKeyName(key)) continue;
    result[walk.scrub ? walk.scrub(key) : key] = jsonValue(item, depth + 1, walk);
  }
  return result;
}

/** A shorter summary: long lists and objects keep their first entries and say how many more there were. */
function shrinkValue(value: unknown, limits: { items: number; chars: number }): unknown {
  if (typeof value === 'string') return value.length > limits.chars ? `${value.slice(0, limits.chars)}…` : value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, limits.items).map((item) => shrinkValue(item, limits));
    return value.length > limits.items ? [...kept, `… ${value.length - limits.items} more`] : kept;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    const result: Record<string, unknown> = {};
    for (const [key, item] of entries.slice(0, limits.items)) result[key] = shrinkValue(item, limits);
    if (entries.length > limits.items) result['…'] = `${entries.length - limits.items} more`;
    return result;
  }
  return value;
}

/**
 * The JSON text stored as a request's summary: credentials out (keys named like secrets, the given
 * secrets wherever they appear, credential-looking text), at most MAX_SUMMARY_CHARS. A summary is a
 * summary: a request too large for it is shortened, never refused. Exported for tests.
 */
export function summaryJson(summary: unknown, secrets: Iterable<string | null | undefined> = []): string {
  const usable = usableSecrets(secrets);
  const value = jsonValue(summary, 0, { scrub: (text) => scrubText(text, usable), maxDepth: MAX_SUMMARY_DEPTH });
  let text = JSON.stringify(value);
  for (const limits of SHRINK_STEPS) {
    if (text.length <= MAX_SUMMARY_CHARS) return text;
    text = JSON.stringify(shrinkValue(value, limits));
  }
  // Escaping can at most double a character's length, so half the budget always fits.
  return text.length <= MAX_SUMMARY_CHARS ? text : JSON.stringify({ truncated: text.slice(0, MAX_SUMMARY_CHARS / 2 - 32) });
}

/**
 * The exact request as JSON for a pending row's replay, or null when it holds one of the given secrets
 * (the key is never written to the ledger; such a call cannot be replayed after a crash, and
 * reconciliation books what it cost). Exported for tests.
 */
export function replayJson(request: unknown, secrets: Iterable<string | null | undefined> = []): string | null {
  const text = JSON.stringify(jsonValue(request, 0, { scrub: null, maxDepth: Number.POSITIVE_INFINITY }));
  const holdsSecret = usableSecrets(secrets).some((secret) => text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)));
  return holdsSecret ? null : text;
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
  outcomeUnknown: z.boolean().optional(),
});
type ParsedAnswer = z.output<typeof CallAnswerSchema>;

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
    reconciled: num(row, 'reconciled') === 1,
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

/** A write the database refused, kept in memory, in order, until the database takes writes again. */
interface UnsavedWrite {
  write: () => void;
  /** When a kept write can never be done (its row changed meanwhile): forget what it holds in memory. */
  abandon?: () => void;
  /** The charge the service reported in it; counted in totals() while it waits. */
  chargeMicroUsd: MicroUsd;
  projectId: string | null;
  sessionId: string;
  /** When it happened (the row gets this time when it is written). */
  at: string;
}


const DEFAULT_RETRY_UNSAVED_MS = 5_000;

export class SpendLedger {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;
  readonly #secrets: () => Iterable<string | null | undefined>;
  readonly #retryUnsavedMs: number;
  readonly #listeners = new Set<SpendChangeListener>();
  /** The last totals computed, until the next write (every write goes through #emit). */
  #totalsMemo: { key: string; totals: SpendTotals } | null = null;
  /** Calls begun by this instance and not answered yet. */
  readonly #inFlight = new Set<number>();
  #window: WindowAnswer[] = [];
  /** Writes the database refused (see #durably), oldest first. */
  readonly #unsaved: UnsavedWrite[] = [];
  #storageProblem: StorageProblemKind | null = null;
  #retryTimer: ReturnType<typeof setInterval> | null = null;

  constructor(db: DatabaseSync, options: SpendLedgerOptions = {}) {
    this.#db = db;
    this.#now = options.now ?? (() => new Date());
    this.#secrets = options.secrets ?? (() => []);
    this.#retryUnsavedMs = options.retryUnsavedMs ?? DEFAULT_RETRY_UNSAVED_MS;
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
   * Returns the call id. A call that can charge is written ahead or not sent at all: while the
   * database refuses writes (earlier ones still wait, or this one is refused) this throws a
   * PlatFailure `disk_full` saying why, and nothing is sent or charged.
   */
  beginAttempt(input: BeginAttemptInput): number {
    if (!this.flushUnsaved()) throw this.#storageFailure();
    let callId: number;
    try {
      callId = this.#insertAttempt(input, this.#now().toISOString());
    } catch (error) {
      const problem = storageProblemOf(error);
      if (problem === null) throw error;
      this.#setStorageProblem(problem);
      throw this.#storageFailure();
    }
    this.#writeSucceeded();
    this.#emit('begun', [callId]);
    return callId;
  }

  /** Closes a call begun with beginAttempt with its final answer (see the file header for httpStatus null). */
  recordAnswer(callId: number, answer: CallAnswer): ClosedCall {
    return this.#closeDurably(callId, answer, 'answered');
  }

  /** Closes a pending call re-sent after a crash or a lost answer; status `recovered`. */
  recordRecovery(callId: number, answer: CallAnswer): ClosedCall {
    return this.#closeDurably(callId, answer, 'recovered');
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
    const at = this.#now().toISOString();
    const charged = answer.chargedMicroUsd ?? 0;
    return this.#durably(
      'answered',
      () => this.#writeUnchargedCall(input, answer, at),
      () => ({
        result: { callId: 0, totalChargeMicroUsd: charged, unsaved: true },
        unsaved: { chargeMicroUsd: charged, projectId: input.projectId, sessionId: input.sessionId, at },
      }),
    );
  }

  #writeUnchargedCall(input: BeginAttemptInput, answer: ParsedAnswer, at: string): ClosedCall {
    return inTransaction(this.#db, () => {
      const settled = this.#settledFreeAnswer(answer);
      if (!settled) return this.#close(this.#insertAttempt(input, at), answer, 'answered', at);
      // The common case, written as one finished row: nothing else is open, and the answer shows the
      // very balance the ledger expects, so reconciling it would find no gap and change nothing.
      const parsed = BeginAttemptSchema.parse(input);
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
        summaryJson(input.requestSummary, this.#currentSecrets()),
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
  #settledFreeAnswer(answer: ParsedAnswer): { status: SpendEntryStatus; httpStatus: number } | null {
    if (answer.httpStatus === null || answer.outcomeUnknown || (answer.chargedMicroUsd ?? 0) !== 0 || answer.replayed) return null;
    if (this.#inFlight.size > 0 || this.#window.length > 0) return null;
    const baseline = this.balanceBaseline();
    if (baseline === null || answer.balanceAfterMicroUsd !== baseline.balanceMicroUsd) return null;
    const waiting = statement(this.#db, `SELECT 1 AS waiting FROM spend_ledger WHERE ${ANSWERED_UNRECONCILED} LIMIT 1`).get();
    if (waiting) return null;
    return { status: answeredStatus(answer.httpStatus), httpStatus: answer.httpStatus };
  }

  #insertAttempt(input: BeginAttemptInput, at: string): number {
    const parsed = BeginAttemptSchema.parse(input);
    const secrets = this.#currentSecrets();
    const summary = summaryJson(input.requestSummary, secrets);
    // Only a call with a key can be replayed; 'null' marks one whose exact request may not be kept.
    const replay = parsed.idempotencyKey === null ? null : (replayJson(input.requestSummary, secrets) ?? 'null');
    const result = statement(
      this.#db,
      `INSERT INTO spend_ledger (kind, status, started_at, operation, request_summary, replay_request, idempotency_key,
         expected_cost_micro_usd, project_id, session_id)
       VALUES ('call', 'pending', ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(at, parsed.operation, summary, replay, parsed.idempotencyKey, parsed.expectedCostMicroUsd, parsed.projectId, parsed.sessionId);
    const callId = Number(result.lastInsertRowid);
    this.#inFlight.add(callId);
    return callId;
  }

  /** Records a response served from the local cache: no request was sent, nothing was charged. Returns its id (0 while unsaved). */
  recordCacheHit(input: CacheHitInput): number {
    const parsed = CacheHitSchema.parse(input);
    const at = this.#now().toISOString();
    return this.#durably(
      'cache-hit',
      () => {
        const result = statement(
          this.#db,
          `INSERT INTO spend_ledger (kind, status, started_at, finished_at, operation, request_summary, request_id,
             charged_micro_usd, cache_hit, cache_served_at, project_id, session_id, reconciled)
           VALUES ('call', 'succeeded', ?, ?, ?, ?, ?, 0, 1, ?, ?, ?, 1)`,
        ).run(at, at, parsed.operation, summaryJson(input.requestSummary, this.#currentSecrets()), parsed.originalRequestId, parsed.servedAt, parsed.projectId, parsed.sessionId);
        const id = Number(result.lastInsertRowid);
        this.#emit('cache-hit', [id], { totalsChanged: false });
        return id;
      },
      () => ({ result: 0, unsaved: { chargeMicroUsd: 0, projectId: parsed.projectId, sessionId: parsed.sessionId, at } }),
    );
  }

  /**
   * Calls begun but never answered (the app stopped between sending and recording, or no answer
   * came back), oldest first, excluding calls this instance still has in flight. Re-send each with
   * its Idempotency-Key and its exact `request`, and close it with recordRecovery.
   */
  pendingAttempts(): PendingAttempt[] {
    return statement(this.#db, `SELECT * FROM spend_ledger WHERE status = 'pending' ORDER BY id`)
      .all()
      .map((row) => {
        const entry = entryFrom(row);
        const replay = strOrNull(row, 'replay_request');
        // Rows written before replay copies existed kept the whole request as their summary.
        return { ...entry, request: replay === null ? entry.requestSummary : (JSON.parse(replay) as unknown) };
      })
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
    const at = this.#now().toISOString();
    this.#durably(
      'baseline-reset',
      () => {
        inTransaction(this.#db, () => {
          this.#db.exec('DELETE FROM spend_balance_baseline');
          this.#db.exec(`UPDATE spend_ledger SET reconciled = 1 WHERE reconciled = 0 AND finished_at IS NOT NULL`);
        });
        this.#window = [];
        this.#emit('baseline-reset', []);
      },
      () => ({ result: undefined, unsaved: { chargeMicroUsd: 0, projectId: null, sessionId: '', at } }),
    );
  }

  /**
   * Whether the database is refusing writes, and what is kept in memory meanwhile. Charges in kept
   * answers are already in totals(); the rows are written as soon as the database takes writes (at
   * the next ledger write or on a timer), and a call's pending row is replayed at the next start if
   * the app stops first.
   */
  storageStatus(): StorageStatus {
    const problem = this.#storageProblem;
    return {
      problem,
      message: problem === null ? null : this.#storageMessage(problem),
      unsavedMicroUsd: addMicroUsd(...this.#unsaved.map((write) => write.chargeMicroUsd)),
      unsavedWrites: this.#unsaved.length,
    };
  }

  /** Writes what the database refused earlier, in order; true when nothing is left waiting. */
  flushUnsaved(): boolean {
    if (this.#unsaved.length === 0) return true;
    // Inside someone else's transaction a kept write could be rolled back with theirs after leaving the queue.
    if (this.#db.isTransaction || !this.#db.isOpen) return false;
    while (this.#unsaved.length > 0) {
      const next = this.#unsaved[0];
      if (!next) break;
      const saved = this.#memory();
      try {
        next.write();
      } catch (error) {
        this.#restore(saved);
        const problem = storageProblemOf(error);
        if (problem !== null) {
          this.#setStorageProblem(problem);
          return false;
        }
        // Not the storage: this write can never be done (its row changed meanwhile). A call's row
        // stays pending and is replayed at the next start.
        next.abandon?.();
      }
      this.#unsaved.shift();
    }
    this.#writeSucceeded();
    return true;
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

  /**
   * Charges (reported + unreported; credits excluded) for the session, the local day, all time and by
   * project, including charges in answers kept in memory while the database refuses writes.
   */
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
    const totals: SpendTotals = {
      sessionMicroUsd: sums ? num(sums, 'session_total') : 0,
      todayMicroUsd: sums ? num(sums, 'today_total') : 0,
      allTimeMicroUsd: sums ? num(sums, 'all_total') : 0,
      byProject,
      lastKnownBalanceMicroUsd: this.balanceBaseline()?.balanceMicroUsd ?? null,
      lastChargeMicroUsd: last ? num(last, 'charge') : null,
      lastChargeAt: last ? strOrNull(last, 'finished_at') : null,
    };
    this.#addUnsaved(totals, query.sessionId, dayStart.toISOString(), dayEnd.toISOString());
    this.#totalsMemo = { key: memoKey, totals };
    return totals;
  }

  /** Counts the charges of kept (not yet written) answers into totals read from the database. */
  #addUnsaved(totals: SpendTotals, sessionId: string, dayStart: string, dayEnd: string): void {
    for (const write of this.#unsaved) {
      const charge = write.chargeMicroUsd;
      if (charge === 0) continue;
      totals.allTimeMicroUsd = addMicroUsd(totals.allTimeMicroUsd, charge);
      if (write.sessionId === sessionId) totals.sessionMicroUsd = addMicroUsd(totals.sessionMicroUsd, charge);
      if (write.at >= dayStart && write.at < dayEnd) totals.todayMicroUsd = addMicroUsd(totals.todayMicroUsd, charge);
      const project = totals.byProject.find((entry) => entry.projectId === write.projectId);
      if (project) project.microUsd = addMicroUsd(project.microUsd, charge);
      else totals.byProject.push({ projectId: write.projectId, microUsd: charge });
      if (totals.lastChargeAt === null || write.at >= totals.lastChargeAt) {
        totals.lastChargeMicroUsd = charge;
        totals.lastChargeAt = write.at;
      }
    }
    totals.byProject.sort((a, b) => b.microUsd - a.microUsd || String(a.projectId).localeCompare(String(b.projectId)));
  }

  // -------------------------------------------------------------------------------------------
  // Writes the database refuses

  /**
   * Runs a ledger write. When the database refuses it for want of storage (a full disk, a read-only
   * or failing file), the write is kept in memory, in order behind any kept before it, and done as
   * soon as the database takes writes (the next ledger write, or the timer); the caller gets `keep`'s
   * result, so a call's answer still goes back. Inside someone else's transaction the refusal is
   * theirs: it is thrown (the gateway then writes the ledger's part alone).
   */
  #durably<T>(
    reason: SpendChangeReason,
    write: () => T,
    keep: () => { result: T; unsaved: Omit<UnsavedWrite, 'write' | 'abandon'> },
    abandon?: () => void,
  ): T {
    const nested = this.#db.isTransaction;
    /** Keeps the write in memory, behind any kept before it; `problem` is what the database just said. */
    const keepInMemory = (problem: StorageProblemKind | null): T => {
      const kept = keep();
      this.#unsaved.push({ ...kept.unsaved, write: () => void write(), ...(abandon ? { abandon } : {}) });
      if (problem !== null) this.#setStorageProblem(problem);
      this.#emit(reason, [], { totalsChanged: kept.unsaved.chargeMicroUsd > 0 });
      return kept.result;
    };
    if (this.#unsaved.length === 0 || (!nested && this.flushUnsaved())) {
      const saved = this.#memory();
      try {
        const result = write();
        this.#writeSucceeded();
        return result;
      } catch (error) {
        this.#restore(saved);
        const problem = storageProblemOf(error);
        if (problem === null || nested) throw error;
        return keepInMemory(problem);
      }
    }
    // Earlier writes still wait: this one waits behind them, so windows are reconciled in order.
    // Inside someone else's transaction they cannot be written yet: try again once it has ended.
    if (nested) setImmediate(() => this.#db.isOpen && this.flushUnsaved());
    return keepInMemory(null);
  }

  #closeDurably(callId: number, answerInput: CallAnswer, reason: 'answered' | 'recovered'): ClosedCall {
    const answer = CallAnswerSchema.parse(answerInput);
    const at = this.#now().toISOString();
    const charged = answer.chargedMicroUsd ?? 0;
    return this.#durably(
      reason,
      () => this.#close(callId, answer, reason, at),
      () => ({ result: { callId, totalChargeMicroUsd: charged, unsaved: true }, unsaved: { chargeMicroUsd: charged, ...this.#ownerOf(callId), at } }),
      () => this.#inFlight.delete(callId),
    );
  }

  /** The keys to scrub; if they cannot be read (a locked keychain), the write still goes in, scrubbed by pattern. */
  #currentSecrets(): string[] {
    try {
      return [...this.#secrets()].filter((secret): secret is string => typeof secret === 'string');
    } catch {
      return [];
    }
  }

  /** The project and session of a call's row (reading works when writing does not). */
  #ownerOf(callId: number): { projectId: string | null; sessionId: string } {
    try {
      const row = statement(this.#db, 'SELECT project_id, session_id FROM spend_ledger WHERE id = ?').get(callId);
      if (row) return { projectId: strOrNull(row, 'project_id'), sessionId: str(row, 'session_id') };
    } catch {
      // The file cannot even be read: the charge still counts, outside any project.
    }
    return { projectId: null, sessionId: '' };
  }

  /** The in-memory state a write changes, to put back when the database rolls the write back. */
  #memory(): { inFlight: number[]; window: WindowAnswer[] } {
    return { inFlight: [...this.#inFlight], window: [...this.#window] };
  }

  #restore(saved: { inFlight: number[]; window: WindowAnswer[] }): void {
    this.#inFlight.clear();
    for (const id of saved.inFlight) this.#inFlight.add(id);
    this.#window = saved.window;
  }

  #setStorageProblem(problem: StorageProblemKind): void {
    const started = this.#storageProblem === null;
    this.#storageProblem = problem;
    if (this.#unsaved.length > 0 && this.#retryTimer === null) {
      this.#retryTimer = setInterval(() => {
        if (this.#db.isOpen) this.flushUnsaved();
        else this.#stopRetrying();
      }, this.#retryUnsavedMs);
      this.#retryTimer.unref();
    }
    if (started) this.#emit('storage', []);
  }

  /** After a write went in: the problem is over once nothing is left waiting. */
  #writeSucceeded(): void {
    if (this.#storageProblem === null || this.#unsaved.length > 0) return;
    this.#storageProblem = null;
    this.#stopRetrying();
    this.#emit('storage', []);
  }

  #stopRetrying(): void {
    if (this.#retryTimer !== null) clearInterval(this.#retryTimer);
    this.#retryTimer = null;
  }

  #storageWhere(): string {
    const file = this.#db.isOpen ? this.#db.location() : null;
    return file ? ` (${dirname(file)})` : '';
  }

  #storageMessage(problem: StorageProblemKind): string {
    const { what, todo } = STORAGE_PROBLEMS[problem];
    return `${what}${this.#storageWhere()}. Charges already made are kept and saved as soon as Plat can write again (at the latest when it next starts); paid calls wait until then — ${todo}.`;
  }

  /** Why a call that can charge is not sent: it could not be written ahead. */
  #storageFailure(): PlatFailure {
    const { what, todo } = STORAGE_PROBLEMS[this.#storageProblem ?? 'disk_full'];
    return PlatFailure.from({
      code: 'disk_full',
      message: `${what}${this.#storageWhere()}, so Plat cannot record this paid call before sending it: nothing was sent or charged — ${todo}, then try again.`,
      retryable: true,
    });
  }

  // -------------------------------------------------------------------------------------------

  #close(callId: number, answer: ParsedAnswer, reason: 'answered' | 'recovered', at: string): ClosedCall {
    const { changed, totalChargeMicroUsd } = inTransaction(this.#db, () => {
      const row = statement(this.#db, 'SELECT * FROM spend_ledger WHERE id = ?').get(callId);
      if (!row) throw new Error(`ledger: no call ${callId}`);
      const entry = entryFrom(row);
      if (entry.kind !== 'call' || entry.cacheHit) throw new Error(`ledger: entry ${callId} is not a service call`);
      if (entry.status !== 'pending') throw new Error(`ledger: call ${callId} is already ${entry.status}`);

      if (answer.httpStatus === null || answer.outcomeUnknown) {
        // No answer, or a failure after an attempt whose answer was lost: the service may or may not
        // have committed (and charged) it. Stay pending, a candidate for what the next balance shows,
        // with the exact request kept for its replay.
        statement(
          this.#db,
          `UPDATE spend_ledger SET finished_at = ?, attempts = ?, error_code = ?, http_status = ?, request_id = ?,
             charged_micro_usd = ?, balance_after_micro_usd = ?, charge_unseen = 1, reconciled = 0 WHERE id = ?`,
        ).run(
          at,
          answer.attempts,
          answer.errorCode ?? 'no_answer',
          answer.httpStatus,
          answer.requestId,
          answer.chargedMicroUsd,
          answer.balanceAfterMicroUsd,
          callId,
        );
      } else {
        const status = reason === 'recovered' ? 'recovered' : answeredStatus(answer.httpStatus);
        // A replay of a key whose charge the ledger never saw is a candidate for it, unless an earlier
        // row of the same key is already waiting for it (the first try whose answer was lost): one
        // charge, one candidate.
        const chargeUnseen = answer.replayed && !this.#keySeenCharged(entry.idempotencyKey) && !this.#keyAwaitsCharge(entry.idempotencyKey, callId);
        statement(
          this.#db,
          `UPDATE spend_ledger SET status = ?, finished_at = ?, http_status = ?, request_id = ?, charged_micro_usd = ?,
             balance_after_micro_usd = ?, replayed = ?, error_code = ?, attempts = ?, charge_unseen = ?, reconciled = 0,
             replay_request = NULL
           WHERE id = ?`,
        ).run(
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

  /** Whether another row of this key is an unmeasured candidate already (its answer was lost or replayed). */
  #keyAwaitsCharge(idempotencyKey: string | null, callId: number): boolean {
    if (idempotencyKey === null) return false;
    const row = statement(
      this.#db,
      `SELECT 1 AS waiting FROM spend_ledger WHERE reconciled = 0 AND charge_unseen = 1 AND idempotency_key = ? AND id <> ? LIMIT 1`,
    ).get(idempotencyKey, callId);
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
