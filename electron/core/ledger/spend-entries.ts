// The ledger's vocabulary: its rows as the rest of the app sees them, and what its writes take and give.
import type { MicroUsd } from '../../../shared/money.ts';
import type { StorageProblemKind } from '../app-db.ts';
import type { ChargeCheck } from '../../../shared/spend-marks.ts';

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
  /** False when the price was not known before the call: `expectedCostMicroUsd` is then the bound it was counted at. */
  priceKnown: boolean;
  /** As reported by X-Svc-Charged-Micro-USD; null when no answer carried it. */
  chargedMicroUsd: MicroUsd | null;
  /** Charges found by reconciliation (on calls: attributed to this call; on reconciliation rows: the gap). */
  unreportedChargeMicroUsd: MicroUsd;
  /** The part of the reported charge the balance did not bear out (an inflated header, a header on a failed call). */
  overstatedChargeMicroUsd: MicroUsd;
  /** What Plat booked: chargedMicroUsd + unreportedChargeMicroUsd − overstatedChargeMicroUsd. */
  totalChargeMicroUsd: MicroUsd;
  /** Why the booked charge is not the header as sent (shared/spend-marks.ts); null when it is. */
  chargeCheck: ChargeCheck | null;
  /** X-Svc-Charged-Micro-USD as sent, when it was not an amount (chargedMicroUsd is then null). */
  chargeHeader: string | null;
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
  /** X-Svc-Charged-Micro-USD of the final answer; null when absent or not an amount. */
  chargedMicroUsd: MicroUsd | null;
  /** X-Svc-Charged-Micro-USD as sent when present but not an amount (garbage, negative); the balance decides what is booked. */
  chargeHeader?: string | null;
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
  /** Charges (what Plat booked: what the balance bore out). Caps count these. */
  sessionMicroUsd: MicroUsd;
  /** Charges finished within the local calendar day of `now`. */
  todayMicroUsd: MicroUsd;
  allTimeMicroUsd: MicroUsd;
  /** Credit rows (the balance rose: a top-up or a refund), by the same periods; their own line, never a negative charge. */
  sessionCreditMicroUsd: MicroUsd;
  todayCreditMicroUsd: MicroUsd;
  allTimeCreditMicroUsd: MicroUsd;
  /** Charges − credits: what the balance fell by over the period (negative when it rose). */
  sessionNetMicroUsd: number;
  todayNetMicroUsd: number;
  allTimeNetMicroUsd: number;
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
  /** Set when the booked charge is not the header as sent (the balance said otherwise). */
  chargeCheck?: ChargeCheck | null;
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
