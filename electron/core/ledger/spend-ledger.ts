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
// Reconciliation (reconciliation.ts) measures each window of answers against the balance the
// service reports, and books a charge no answer reported.
//
// A full disk (or a read-only or failing file): a write the database refuses is kept in memory, in
// order, counted in totals() and reported by storageStatus(), and written at the next ledger write or
// on a timer; a call's answer still goes back. A call that can charge is not begun meanwhile (it
// could not be written ahead). If the app stops first, the call's row is still `pending` on disk and
// is replayed at the next start.
import type { DatabaseSync } from 'node:sqlite';
import { addMicroUsd } from '../../../shared/money.ts';
import type { MicroUsd } from '../../../shared/money.ts';
import type { ChargeCheck } from '../../../shared/spend-marks.ts';
import { ModuleStore, inTransaction, statement, storageProblemOf, type StorageProblemKind } from '../app-db.ts';
import { spendEntriesToCsv } from './csv-export.ts';
import { BeginAttemptSchema, CacheHitSchema, CallAnswerSchema, PageSchema, type ParsedAnswer } from './inputs.ts';
import { LEDGER_MIGRATIONS } from './migrations.ts';
import { ANSWERED_UNRECONCILED, keyAwaitsCharge, keySeenCharged, readBalanceBaseline, reconcileWindow, type Reconciled, type WindowAnswer } from './reconciliation.ts';
import { replayJson, summaryJson } from './redaction.ts';
import { Scrubber } from '../secret-scrub.ts';
import { entryFrom, filterSql, num, str, strOrNull } from './rows.ts';
import type {
  BeginAttemptInput,
  CacheHitInput,
  CallAnswer,
  ClosedCall,
  PendingAttempt,
  SpendChangeListener,
  SpendChangeReason,
  SpendEntry,
  SpendEntryStatus,
  SpendFilter,
  SpendPage,
  SpendTotals,
  StorageStatus,
} from './spend-entries.ts';
import { storageFailure, storageMessage } from './storage-messages.ts';
import { addUnsavedCharges, localDayBounds, readTotals, type UnsavedCharge } from './totals.ts';

/** A call's status from its HTTP answer: a 2xx Plat could not read (an error code with it) is no success. */
function answeredStatus(httpStatus: number, errorCode: string | null): 'succeeded' | 'failed' {
  return httpStatus >= 200 && httpStatus < 300 && errorCode === null ? 'succeeded' : 'failed';
}

/**
 * What an answer's charge header says before any balance is measured: not an amount (`unreadable`),
 * or a charge on a failed call (`failed_call`); reconciliation books what the balance shows.
 */
function headerCheck(answer: ParsedAnswer): ChargeCheck | null {
  if (answer.chargeHeader != null) return 'unreadable';
  const failed = answer.httpStatus !== null && (answer.httpStatus < 200 || answer.httpStatus > 299);
  return failed && (answer.chargedMicroUsd ?? 0) > 0 ? 'failed_call' : null;
}

/** A write the database refused, kept in memory, in order, until the database takes writes again. */
interface UnsavedWrite extends UnsavedCharge {
  write: () => void;
  /** When a kept write can never be done (its row changed meanwhile): forget what it holds in memory. */
  abandon?: () => void;
}

export interface SpendLedgerOptions {
  /** The clock, so tests can pin time. */
  now?: () => Date;
  /** The API keys in use (read at each write): scrubbed from every summary, never kept for a replay. */
  secrets?: () => Iterable<string | null | undefined>;
  /** How often writes the database refused are tried again, besides at every ledger write. Default 5 s. */
  retryUnsavedMs?: number;
}

const DEFAULT_RETRY_UNSAVED_MS = 5_000;

export class SpendLedger extends ModuleStore {
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
    super(db, 'ledger', LEDGER_MIGRATIONS);
    this.#now = options.now ?? (() => new Date());
    this.#secrets = options.secrets ?? (() => []);
    this.#retryUnsavedMs = options.retryUnsavedMs ?? DEFAULT_RETRY_UNSAVED_MS;
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
    if (!this.flushUnsaved()) throw storageFailure(this.db, this.#storageProblem ?? 'disk_full');
    let callId: number;
    try {
      callId = this.#insertAttempt(input, this.#now().toISOString());
    } catch (error) {
      const problem = storageProblemOf(error);
      if (problem === null) throw error;
      this.#setStorageProblem(problem);
      throw storageFailure(this.db, this.#storageProblem ?? 'disk_full');
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
    const answer = this.#parseAnswer(answerInput);
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
    return inTransaction(this.db, () => {
      const settled = this.#settledFreeAnswer(answer);
      if (!settled) return this.#close(this.#insertAttempt(input, at), answer, 'answered', at);
      // The common case, written as one finished row: nothing else is open, and the answer shows the
      // very balance the ledger expects, so reconciling it would find no gap and change nothing.
      const parsed = BeginAttemptSchema.parse(input);
      const result = statement(
        this.db,
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
    if (answer.httpStatus === null || answer.outcomeUnknown || (answer.chargedMicroUsd ?? 0) !== 0 || answer.chargeHeader != null || answer.replayed) return null;
    if (this.#inFlight.size > 0 || this.#window.length > 0) return null;
    const baseline = this.balanceBaseline();
    if (baseline === null || answer.balanceAfterMicroUsd !== baseline.balanceMicroUsd) return null;
    const waiting = statement(this.db, `SELECT 1 AS waiting FROM spend_ledger WHERE ${ANSWERED_UNRECONCILED} LIMIT 1`).get();
    if (waiting) return null;
    return { status: answeredStatus(answer.httpStatus, answer.errorCode), httpStatus: answer.httpStatus };
  }

  #insertAttempt(input: BeginAttemptInput, at: string): number {
    const parsed = BeginAttemptSchema.parse(input);
    const secrets = this.#currentSecrets();
    const summary = summaryJson(input.requestSummary, secrets);
    // Only a call with a key can be replayed; 'null' marks one whose exact request may not be kept.
    const replay = parsed.idempotencyKey === null ? null : (replayJson(input.requestSummary, secrets) ?? 'null');
    const result = statement(
      this.db,
      `INSERT INTO spend_ledger (kind, status, started_at, operation, request_summary, replay_request, idempotency_key,
         expected_cost_micro_usd, price_known, project_id, session_id)
       VALUES ('call', 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(at, parsed.operation, summary, replay, parsed.idempotencyKey, parsed.expectedCostMicroUsd, parsed.priceKnown === false ? 0 : 1, parsed.projectId, parsed.sessionId);
    const callId = Number(result.lastInsertRowid);
    this.#inFlight.add(callId);
    return callId;
  }

  /** Records a response served from the local cache: no request was sent, nothing was charged. Returns its id (0 while unsaved). */
  recordCacheHit(input: CacheHitInput): number {
    const parsed = CacheHitSchema.parse(input);
    if (parsed.originalRequestId !== null) parsed.originalRequestId = new Scrubber(this.#currentSecrets()).text(parsed.originalRequestId);
    const at = this.#now().toISOString();
    return this.#durably(
      'cache-hit',
      () => {
        const result = statement(
          this.db,
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
    return statement(this.db, `SELECT * FROM spend_ledger WHERE status = 'pending' ORDER BY id`)
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
    return readBalanceBaseline(this.db);
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
        inTransaction(this.db, () => {
          this.db.exec('DELETE FROM spend_balance_baseline');
          this.db.exec(`UPDATE spend_ledger SET reconciled = 1 WHERE reconciled = 0 AND finished_at IS NOT NULL`);
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
      message: problem === null ? null : storageMessage(this.db, problem),
      unsavedMicroUsd: addMicroUsd(...this.#unsaved.map((write) => write.chargeMicroUsd)),
      unsavedWrites: this.#unsaved.length,
    };
  }

  /** Writes what the database refused earlier, in order; true when nothing is left waiting. */
  flushUnsaved(): boolean {
    if (this.#unsaved.length === 0) return true;
    // Inside someone else's transaction a kept write could be rolled back with theirs after leaving the queue.
    if (this.db.isTransaction || !this.db.isOpen) return false;
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
    const row = statement(this.db, 'SELECT * FROM spend_ledger WHERE id = ?').get(id);
    return row ? entryFrom(row) : undefined;
  }

  /** How many rows match the filter (for paging). */
  count(filter: SpendFilter = {}): number {
    const { where, params } = filterSql(PageSchema.omit({ limit: true, offset: true }).parse(filter));
    const row = statement(this.db, `SELECT COUNT(*) AS n FROM spend_ledger ${where}`).get(...params);
    return row ? num(row, 'n') : 0;
  }

  /** Rows newest first. */
  list(page: SpendPage): SpendEntry[] {
    const parsed = PageSchema.parse(page);
    const { where, params } = filterSql(parsed);
    return statement(this.db, `SELECT * FROM spend_ledger ${where} ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, parsed.limit, parsed.offset ?? 0)
      .map(entryFrom);
  }

  /** Every row matching the filter, newest first, as RFC 4180 CSV with a header row. */
  exportCsv(filter: SpendFilter = {}): string {
    const parsed = PageSchema.omit({ limit: true, offset: true }).parse(filter);
    const { where, params } = filterSql(parsed);
    const entries = statement(this.db, `SELECT * FROM spend_ledger ${where} ORDER BY started_at DESC, id DESC`)
      .all(...params)
      .map(entryFrom);
    return spendEntriesToCsv(entries);
  }

  /**
   * Charges (what was booked: the balance's drop where the header disagreed) for the session, the
   * local day, all time and by project, including charges in answers kept in memory while the
   * database refuses writes; credits by the same periods; and the net, equal to the balance's drop.
   */
  totals(query: { sessionId: string; now?: Date }): SpendTotals {
    const { dayStart, dayEnd } = localDayBounds(query.now ?? this.#now());
    const memoKey = `${query.sessionId}|${dayStart}`;
    if (this.#totalsMemo?.key === memoKey) return this.#totalsMemo.totals;
    const totals = readTotals(this.db, query.sessionId, dayStart, dayEnd);
    addUnsavedCharges(totals, this.#unsaved, query.sessionId, dayStart, dayEnd);
    this.#totalsMemo = { key: memoKey, totals };
    return totals;
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
    const nested = this.db.isTransaction;
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
    if (nested) setImmediate(() => this.db.isOpen && this.flushUnsaved());
    return keepInMemory(null);
  }

  #closeDurably(callId: number, answerInput: CallAnswer, reason: 'answered' | 'recovered'): ClosedCall {
    const answer = this.#parseAnswer(answerInput);
    const at = this.#now().toISOString();
    const charged = answer.chargedMicroUsd ?? 0;
    return this.#durably(
      reason,
      () => this.#close(callId, answer, reason, at),
      () => ({ result: { callId, totalChargeMicroUsd: charged, unsaved: true }, unsaved: { chargeMicroUsd: charged, ...this.#ownerOf(callId), at } }),
      () => this.#inFlight.delete(callId),
    );
  }

  /**
   * The answer as the ledger keeps it: the service's own words in it (request id, error code, charge
   * header text) scrubbed again here, so a row never holds a key even if an answer reached the ledger
   * some other way than through the service client, which scrubs them first.
   */
  #parseAnswer(input: CallAnswer): ParsedAnswer {
    const answer = CallAnswerSchema.parse(input);
    const scrubber = new Scrubber(this.#currentSecrets());
    const scrub = (text: string | null | undefined) => (typeof text === 'string' ? scrubber.text(text) : text);
    return { ...answer, requestId: scrub(answer.requestId) ?? null, errorCode: scrub(answer.errorCode) ?? null, chargeHeader: scrub(answer.chargeHeader) ?? null };
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
      const row = statement(this.db, 'SELECT project_id, session_id FROM spend_ledger WHERE id = ?').get(callId);
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
        if (this.db.isOpen) this.flushUnsaved();
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

  // -------------------------------------------------------------------------------------------

  #close(callId: number, answer: ParsedAnswer, reason: 'answered' | 'recovered', at: string): ClosedCall {
    const { changed, totalChargeMicroUsd, chargeCheck } = inTransaction(this.db, () => {
      const row = statement(this.db, 'SELECT * FROM spend_ledger WHERE id = ?').get(callId);
      if (!row) throw new Error(`ledger: no call ${callId}`);
      const entry = entryFrom(row);
      if (entry.kind !== 'call' || entry.cacheHit) throw new Error(`ledger: entry ${callId} is not a service call`);
      if (entry.status !== 'pending') throw new Error(`ledger: call ${callId} is already ${entry.status}`);

      if (answer.httpStatus === null || answer.outcomeUnknown) {
        // No answer, or a failure after an attempt whose answer was lost: the service may or may not
        // have committed (and charged) it. Stay pending, a candidate for what the next balance shows,
        // with the exact request kept for its replay.
        statement(
          this.db,
          `UPDATE spend_ledger SET finished_at = ?, attempts = ?, error_code = ?, http_status = ?, request_id = ?,
             charged_micro_usd = ?, charge_header = ?, charge_check = ?, balance_after_micro_usd = ?, charge_unseen = 1,
             reconciled = 0 WHERE id = ?`,
        ).run(
          at,
          answer.attempts,
          answer.errorCode ?? 'no_answer',
          answer.httpStatus,
          answer.requestId,
          answer.chargedMicroUsd,
          answer.chargeHeader ?? null,
          headerCheck(answer),
          answer.balanceAfterMicroUsd,
          callId,
        );
      } else {
        const status = reason === 'recovered' ? 'recovered' : answeredStatus(answer.httpStatus, answer.errorCode);
        // A replay of a key whose charge the ledger never saw is a candidate for it, unless an earlier
        // row of the same key is already waiting for it (the first try whose answer was lost): one
        // charge, one candidate.
        const chargeUnseen = answer.replayed && !keySeenCharged(this.db, entry.idempotencyKey) && !keyAwaitsCharge(this.db, entry.idempotencyKey, callId);
        statement(
          this.db,
          `UPDATE spend_ledger SET status = ?, finished_at = ?, http_status = ?, request_id = ?, charged_micro_usd = ?,
             charge_header = ?, charge_check = ?, balance_after_micro_usd = ?, replayed = ?, error_code = ?, attempts = ?,
             charge_unseen = ?, reconciled = 0, replay_request = NULL
           WHERE id = ?`,
        ).run(
          status,
          at,
          answer.httpStatus,
          answer.requestId,
          answer.chargedMicroUsd,
          answer.chargeHeader ?? null,
          headerCheck(answer),
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
        // A charge header that is not an amount still says the service may have charged.
        movesBalance: entry.expectedCostMicroUsd > 0 || (answer.chargedMicroUsd ?? 0) > 0 || answer.chargeHeader != null,
        quietFailure:
          answer.httpStatus !== null &&
          !answer.outcomeUnknown &&
          (answer.httpStatus < 200 || answer.httpStatus > 299) &&
          (answer.chargedMicroUsd ?? 0) === 0 &&
          answer.chargeHeader == null,
        sessionId: entry.sessionId,
      });
      const reconciled = this.#reconcile(at);
      // What the row books now: its header, and whatever the balance showed (attributed or taken back).
      const closed = this.get(callId);
      return {
        changed: [callId, ...reconciled.changed.filter((id) => id !== callId)],
        totalChargeMicroUsd: closed?.totalChargeMicroUsd ?? 0,
        chargeCheck: closed?.chargeCheck ?? null,
      };
    });
    this.#emit(reason, changed);
    return { callId, totalChargeMicroUsd, ...(chargeCheck ? { chargeCheck } : {}) };
  }

  /** Closes the current window when no call of this instance is in flight (see reconciliation.ts). */
  #reconcile(at: string): Reconciled {
    if (this.#inFlight.size > 0) return { closed: false, changed: [], attributed: new Map<number, MicroUsd>() };
    const reconciled = reconcileWindow(this.db, this.#window, at);
    if (reconciled.closed) this.#window = [];
    return reconciled;
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
