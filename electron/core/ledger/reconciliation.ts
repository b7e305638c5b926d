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
//
// The balance drop is the truth (a service may misreport its charge header: inflated, negative,
// garbage, or a charge on a failed call). When the window has exactly one call that can move the
// balance (the *mover*: alone, as the gateway serialises such calls), what the balance shows is
// booked on it, and the row is marked (charge_check) with what the header said:
//   gap < 0: first a reported charge the balance did not bear out is taken back (overstated) — from
//            failed calls' headers first (the spec charges no failure), then the mover's — up to
//            what it reported. A balance that rose was topped up, which cannot be told from an
//            inflated header: then only failed calls' headers are taken back; the rest is a credit.
//   gap > 0 with no candidate: the mover bore the drop (its header said less, nothing, or no
//            amount), so the gap is booked on it rather than as an unattributed row.
// The net (charges − credits) still equals the balance drop exactly.
// Reconciliation and credit rows carry the session of the window's last answer and no project.
//
// Before the first balance is known there is no baseline and nothing to reconcile against: the
// gateway should make one free call (e.g. the v4 catalog) when balanceBaseline() is null, and call
// resetBalanceBaseline() whenever the API key or the service changes (another account's balance).
// On start, re-send pendingAttempts() before any new charged call, so a lost charge is attributed
// to the call it belongs to rather than booked unattributed.
import type { DatabaseSync } from 'node:sqlite';
import { addMicroUsd } from '../../../shared/money.ts';
import type { MicroUsd } from '../../../shared/money.ts';
import { statement } from '../app-db.ts';
import { num, numOrNull, str, strOrNull } from './rows.ts';

/** The rows the next reconciliation sums: calls closed (with or without an answer) and not yet measured. */
export const ANSWERED_UNRECONCILED = `reconciled = 0 AND kind = 'call' AND finished_at IS NOT NULL`;

/** An answer received in the current reconciliation window. */
export interface WindowAnswer {
  callId: number;
  balance: MicroUsd | null;
  /** Expected cost > 0 or a reported charge > 0: this call's commit can move the balance. */
  movesBalance: boolean;
  /** A plain failure (non-2xx) that claims no charge: without a balance of its own it is not taken to have moved it. */
  quietFailure?: boolean;
  sessionId: string;
}

interface UnreconciledCall {
  id: number;
  charged: MicroUsd;
  /** The charge header could be read (charged is then what it said). */
  reportedCharge: boolean;
  expected: MicroUsd;
  chargeUnseen: boolean;
  check: string | null;
}

/** What closing a window did: the rows it changed or wrote, and the unreported charges it booked against calls. */
export interface Reconciled {
  /** False when no answer in the window carried a balance: it stays open and its rows wait for the next one. */
  closed: boolean;
  changed: number[];
  attributed: Map<number, MicroUsd>;
}

/** The balance reconciliation measures against, or null before the first balance was seen. */
export function readBalanceBaseline(db: DatabaseSync): { balanceMicroUsd: MicroUsd; observedAt: string } | null {
  const row = statement(db, 'SELECT balance_micro_usd, observed_at FROM spend_balance_baseline WHERE id = 1').get();
  return row ? { balanceMicroUsd: num(row, 'balance_micro_usd'), observedAt: str(row, 'observed_at') } : null;
}

/** Whether any row already shows a charge for this Idempotency-Key (so a replay of it cost nothing unseen). */
export function keySeenCharged(db: DatabaseSync, idempotencyKey: string | null): boolean {
  if (idempotencyKey === null) return false;
  const row = statement(db, 
      `SELECT 1 AS seen FROM spend_ledger WHERE idempotency_key = ?
         AND (coalesce(charged_micro_usd, 0) > 0 OR unreported_charge_micro_usd > 0)
         AND coalesce(charged_micro_usd, 0) + unreported_charge_micro_usd - overstated_charge_micro_usd > 0 LIMIT 1`,
    )
    .get(idempotencyKey);
  return row !== undefined;
}

/** Whether another row of this key is an unmeasured candidate already (its answer was lost or replayed). */
export function keyAwaitsCharge(db: DatabaseSync, idempotencyKey: string | null, callId: number): boolean {
  if (idempotencyKey === null) return false;
  const row = statement(
    db,
    `SELECT 1 AS waiting FROM spend_ledger WHERE reconciled = 0 AND charge_unseen = 1 AND idempotency_key = ? AND id <> ? LIMIT 1`,
  ).get(idempotencyKey, callId);
  return row !== undefined;
}

/** Closes the window (see the file header). Runs inside the caller's transaction. */
export function reconcileWindow(db: DatabaseSync, window: readonly WindowAnswer[], at: string): Reconciled {
  const attributed = new Map<number, MicroUsd>();
  const changed: number[] = [];
  const answered = window.filter((answer): answer is WindowAnswer & { balance: MicroUsd } => answer.balance !== null);
  const lastAnswered = answered.at(-1);
  // Without a balance there is nothing to measure; the rows wait for the next window.
  if (!lastAnswered) return { closed: false, changed, attributed };

  const calls: UnreconciledCall[] = statement(db, 
      `SELECT id, charged_micro_usd, expected_cost_micro_usd, charge_unseen, charge_check FROM spend_ledger
       WHERE ${ANSWERED_UNRECONCILED} ORDER BY id`,
    )
    .all()
    .map((row) => ({
      id: num(row, 'id'),
      charged: numOrNull(row, 'charged_micro_usd') ?? 0,
      reportedCharge: numOrNull(row, 'charged_micro_usd') !== null,
      expected: num(row, 'expected_cost_micro_usd'),
      chargeUnseen: num(row, 'charge_unseen') === 1,
      check: strOrNull(row, 'charge_check'),
    }));
  const reported = addMicroUsd(...calls.map((call) => call.charged));
  const baseline = readBalanceBaseline(db);

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

  const markReconciled = statement(db, 'UPDATE spend_ledger SET reconciled = 1 WHERE id = ?');
  for (const call of calls) markReconciled.run(call.id);
  statement(db, 
      `INSERT INTO spend_balance_baseline (id, balance_micro_usd, observed_at) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET balance_micro_usd = excluded.balance_micro_usd, observed_at = excluded.observed_at`,
    )
    .run(endBalance, at);
  if (baseline === null) return { closed: true, changed, attributed };

  let gap = baseline.balanceMicroUsd - reported - endBalance;
  if (gap === 0) return { closed: true, changed, attributed };

  // The one call that can have moved the balance in this window, when there is exactly one.
  // Its own answer may lack a balance (a header of the wrong type): a free call after it measures it.
  const movers = window.filter((answer) => answer.movesBalance && !(answer.balance === null && answer.quietFailure === true));
  const mover = !ambiguous && movers.length === 1 ? calls.find((call) => call.id === movers[0]?.callId) : undefined;
  // Marks: why a row's booked charge is not its header as sent.
  const checks = new Map<number, string>();
  const overstated = new Map<number, MicroUsd>();
  if (gap < 0 && !ambiguous) {
    // A balance that rose was topped up, and a top-up cannot be told from an inflated header: then
    // only failed calls' headers are taken back (the spec charges no failure); the rest is a credit.
    const rose = baseline.balanceMicroUsd < endBalance;
    const overReporters = calls.filter((call) => call.check === 'failed_call' && call.charged > 0 && call !== mover);
    if (mover && mover.charged > 0 && (!rose || mover.check === 'failed_call')) overReporters.push(mover);
    for (const call of overReporters) {
      if (gap === 0) break;
      const taken = Math.min(call.charged, -gap);
      overstated.set(call.id, taken);
      checks.set(call.id, call.check ?? 'disagrees');
      gap += taken;
    }
  }

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
    else if (candidates.length === 0 && mover) {
      // Alone in flight, the mover bore the whole drop whatever its header said.
      attributed.set(mover.id, gap);
      checks.set(mover.id, mover.check ?? (mover.reportedCharge ? 'disagrees' : 'missing'));
    } else unattributed = gap;
  } else if (gap < 0) {
    for (const call of priced) attributed.set(call.id, call.expected);
    credit = -gap + pricedSum;
  }

  const takeBack = statement(db, 'UPDATE spend_ledger SET overstated_charge_micro_usd = overstated_charge_micro_usd + ? WHERE id = ?');
  for (const [id, amount] of overstated) takeBack.run(amount, id);
  const mark = statement(db, 'UPDATE spend_ledger SET charge_check = ? WHERE id = ?');
  for (const [id, check] of checks) {
    mark.run(check, id);
    if (!attributed.has(id)) changed.push(id);
  }
  const addUnreported = statement(db, 
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
  if (unattributed > 0) changed.push(insertAdjustment(db, 'reconciliation', unattributed, 0, endBalance, sessionId, evidence, at));
  if (credit > 0) changed.push(insertAdjustment(db, 'credit', 0, credit, endBalance, sessionId, evidence, at));
  return { closed: true, changed, attributed };
}

function insertAdjustment(
  db: DatabaseSync,
  kind: 'reconciliation' | 'credit',
  unreported: MicroUsd,
  credit: MicroUsd,
  balance: MicroUsd,
  sessionId: string,
  evidence: Record<string, unknown>,
  at: string,
): number {
  const result = statement(db, 
      `INSERT INTO spend_ledger (kind, status, started_at, finished_at, operation, request_summary,
         unreported_charge_micro_usd, credit_micro_usd, balance_after_micro_usd, session_id, reconciled)
       VALUES (?, 'recorded', ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
    )
    .run(kind, at, at, kind, JSON.stringify(evidence), unreported, credit, balance, sessionId);
  return Number(result.lastInsertRowid);
}
