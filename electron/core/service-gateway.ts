// Every service call the renderer asks for goes through here, in this order:
//   price (cost estimate) → budget and confirmation → cache → ledger (write-ahead, for a call that
//   can charge) → client → ledger (answer, reconciliation) and a paid answer's cached copy, in one
//   commit → the answer goes back → a free answer's cached copy → spend event (coalesced).
// The renderer never builds a request, never sees the key and never computes a charge.
//
// A call that can charge runs alone (no other call in flight) so the ledger can attribute every
// balance change to the call that caused it, including a charge whose answer was lost; free calls
// may overlap one another. A call whose answer was lost stays `pending` in the ledger and is re-sent
// with its Idempotency-Key at the next start, when the service replays it free.
//
// Under concurrency: a call let through reserves its expected cost until the ledger has booked what
// it cost, so calls running at once cannot pass a cap together; identical requests in flight share
// one call (and one charge); calls that can charge and calls a person asked for go ahead of queued
// background calls; a queued call whose page has gone is dropped unsent.
import { serviceOperations, type ServiceOperationName } from '../../shared/service/index.ts';
import type { CallBilling, CostPreview, SpendSnapshot } from '../../shared/ipc.ts';
import { formatUsd } from '../../shared/money.ts';
import type { CallAnswer, ClosedCall, SpendChange, SpendEntry } from './ledger/spend-entries.ts';
import type { SpendLedger } from './ledger/spend-ledger.ts';
import type { CacheEntry, ResponseCache } from './cache.ts';
import { canonicalRequestKey } from './cache.ts';
import { spendRefusalError, type BudgetPolicy } from './budgets.ts';
import { answerHasResults, type CostEstimate, type CostEstimator, type V3PriceRequest } from './cost-estimator.ts';
import type { ProjectStore } from './projects.ts';
import type { EventHub } from './events.ts';
import { ServiceCallError, type ServiceClient } from './service-client/index.ts';
import { PlatFailure } from './failure.ts';
import { answerOf, answerOfFailure, canCharge, isUnreadableAnswer, itemsOf, normalizeParts, sendCall, v3PriceRequestOf, type RequestParts } from './gateway-requests.ts';
import { AbortWatch, CallPriority, CallScheduler } from './gateway-scheduler.ts';

// Also the gateway's vocabulary for its callers (the core's handlers and assignments).
export { itemsOf, normalizeParts, v3PriceRequestOf, type RequestParts } from './gateway-requests.ts';
export { CallPriority, FREE_CALLS_IN_PARALLEL } from './gateway-scheduler.ts';

/** The service a call goes to, with the client that reaches it. */
export interface ActiveService {
  client: ServiceClient;
  /** Separates the local sample from a live service (and one live base URL from another). */
  connectionId: string;
}

export interface GatewayCall {
  operation: ServiceOperationName;
  parts: RequestParts;
  actionId?: string | undefined;
  confirmed?: boolean | undefined;
  refresh?: boolean | undefined;
  /**
   * The file that pays for the call and keeps its answer, as the person chose it: a project id, or
   * null for none. Absent: the assignment active when the call is asked.
   */
  projectId?: string | null | undefined;
  /** Fires when the page that asked has gone: the call is dropped if it has not been sent yet. */
  signal?: AbortSignal | undefined;
}

export interface GatewayAnswer {
  envelope: unknown;
  billing: CallBilling;
}

export interface ServiceGatewayOptions {
  ledger: SpendLedger;
  cache: ResponseCache;
  budgets: BudgetPolicy;
  estimator: CostEstimator;
  projects: ProjectStore;
  events: EventHub;
  sessionId: string;
  /** The service calls go to now; throws a PlatFailure when none is usable (e.g. no key). */
  activeService: () => ActiveService;
  /**
   * Runs the ledger's answer and the cache's copy of it as one commit (the app passes a database
   * transaction: both live in one file, and one commit costs less than two). Default: as they come.
   */
  commitTogether?: <T>(work: () => T) => T;
  now?: () => Date;
}

/**
 * How long a spend event waits for more ledger writes to join it: about one display frame, so the
 * meter is never visibly late, and a burst of calls costs one event instead of one per call.
 */
export const SPEND_EVENT_COALESCE_MS = 16;

/** One request on its way to the service, shared by every caller that asks for it meanwhile. */
interface Flight {
  readonly answer: Promise<GatewayAnswer>;
  /** Given its slot: from then on it is left to finish. */
  readonly started: () => boolean;
  /** Callers whose page could still go; when the last one's goes before the start, the call is dropped. */
  waiting: number;
  /** False once a caller that cannot go away (no signal) is waiting. */
  droppable: boolean;
  readonly drop: AbortController;
  readonly promote: (priority: CallPriority) => void;
}

/** The expected cost of a call let through and not yet booked by the ledger. */
interface Reservation {
  readonly microUsd: number;
  readonly projectId: string | null;
  /** The ledger row of the call, once written ahead. */
  callId: number | null;
  /** Closed with its outcome unknown: kept until the ledger has measured a later balance. */
  held: boolean;
}

/**
 * The largest charge seen, when it bounds the call: for a price learnt from charges or not known. A
 * price the spec or Plat's own table states is exact (a resolution's is its most, every item
 * resolving), and a larger batch seen earlier says nothing about this one.
 */
function learntBound(estimate: CostEstimate): number | null {
  return estimate.basis === 'last_observed' || estimate.basis === 'unknown' ? estimate.largestSeenMicroUsd : null;
}

export class ServiceGateway {
  readonly #o: ServiceGatewayOptions;
  readonly #scheduler = new CallScheduler();
  readonly #aborts = new AbortWatch();
  /** Requests on their way, by cache key: an identical request joins instead of buying again. */
  readonly #flights = new Map<string, Flight>();
  readonly #reservations = new Set<Reservation>();
  /**
   * Idempotency-Keys of calls that may have been charged although their answer was lost, by cache
   * key: the same request asked again, from any action or tab, is sent with that key so the service
   * replays it free instead of charging a second time.
   */
  readonly #owedKeys = new Map<string, string>();
  readonly #now: () => Date;
  readonly #commitTogether: <T>(work: () => T) => T;
  #pendingSpendEvent: ReturnType<typeof setTimeout> | null = null;
  #unsubscribe: () => void = () => {};

  constructor(options: ServiceGatewayOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#commitTogether = options.commitTogether ?? ((work) => work());
    // One spend event per frame's worth of ledger writes (a burst of calls pushes one, at most
    // SPEND_EVENT_COALESCE_MS after the first), and none for a write-ahead row (it costs nothing yet).
    const unsubscribe = options.ledger.onChange((change) => {
      if (change.reason === 'begun' || this.#pendingSpendEvent) return;
      this.#pendingSpendEvent = setTimeout(() => {
        this.#pendingSpendEvent = null;
        options.events.emit('spendUpdated', this.spend());
      }, SPEND_EVENT_COALESCE_MS);
    });
    // A reservation ends in the very write that books the call's cost: released any later, a call
    // let through in between would count the cost twice; any earlier, not at all.
    const unsubscribeReservations = options.ledger.onChange((change) => this.#onLedgerWrite(change));
    this.#unsubscribe = () => {
      unsubscribe();
      unsubscribeReservations();
    };
  }

  /** Stops pushing spend events (before the database closes). */
  dispose(): void {
    this.#unsubscribe();
    if (this.#pendingSpendEvent) clearTimeout(this.#pendingSpendEvent);
    this.#pendingSpendEvent = null;
  }

  spend(): SpendSnapshot {
    // Totals include charges the ledger keeps in memory while the disk refuses writes.
    const totals = this.#o.ledger.totals({ sessionId: this.#o.sessionId, now: this.#now() });
    const storage = this.#o.ledger.storageStatus();
    return {
      sessionMicroUsd: totals.sessionMicroUsd,
      todayMicroUsd: totals.todayMicroUsd,
      allTimeMicroUsd: totals.allTimeMicroUsd,
      sessionCreditMicroUsd: totals.sessionCreditMicroUsd,
      todayCreditMicroUsd: totals.todayCreditMicroUsd,
      allTimeCreditMicroUsd: totals.allTimeCreditMicroUsd,
      sessionNetMicroUsd: totals.sessionNetMicroUsd,
      todayNetMicroUsd: totals.todayNetMicroUsd,
      allTimeNetMicroUsd: totals.allTimeNetMicroUsd,
      byProject: totals.byProject,
      lastKnownBalanceMicroUsd: totals.lastKnownBalanceMicroUsd,
      lastChargeMicroUsd: totals.lastChargeMicroUsd,
      lastChargeAt: totals.lastChargeAt,
      unsavedMicroUsd: storage.unsavedMicroUsd,
      storageProblem: storage.message,
    };
  }

  #cacheKey(connectionId: string, operation: ServiceOperationName, parts: RequestParts): string {
    return canonicalRequestKey(connectionId, operation, normalizeParts(operation, parts));
  }

  /** What the call would cost now, and whether a cap or a confirmation stands in its way. */
  preview(operation: ServiceOperationName, parts: RequestParts): CostPreview {
    const { connectionId } = this.#o.activeService();
    const cached = this.#o.cache.get(this.#cacheKey(connectionId, operation, parts), this.#now().getTime()) !== null;
    const estimate = this.#estimate(operation, parts, connectionId, cached);
    // Counts the calls still running, as the call itself would be checked.
    const decision = this.#decide(operation, estimate, false, this.#o.projects.activeProjectId());
    return {
      operation,
      expectedCostMicroUsd: estimate.expectedCostMicroUsd,
      basis: estimate.basis,
      largestSeenMicroUsd: estimate.largestSeenMicroUsd,
      note: estimate.note,
      cached,
      needsConfirmation: !decision.allowed && decision.code === 'confirmation_required',
      blockedBy:
        !decision.allowed && decision.code === 'budget_exceeded'
          ? { cap: decision.cap, capMicroUsd: decision.capMicroUsd, spentMicroUsd: decision.spentMicroUsd, message: decision.message }
          : null,
    };
  }

  /** The expected cost of a call, for the preview and for the budget check before sending. */
  #estimate(operation: ServiceOperationName, parts: RequestParts, connectionId: string, cached: boolean) {
    const v3Request = v3PriceRequestOf(operation, parts);
    const items = itemsOf(operation, parts);
    return this.#o.estimator.estimate({
      operation,
      cached,
      connectionId,
      ...(v3Request ? { v3Request } : {}),
      ...(items ? { items } : {}),
    });
  }

  #decide(operation: ServiceOperationName, estimate: CostEstimate, confirmed: boolean, projectId: string | null) {
    // Calls known to be free pass every cap and need no confirmation.
    if (estimate.expectedCostMicroUsd === 0) return { allowed: true } as const;
    const totals = this.#o.ledger.totals({ sessionId: this.#o.sessionId, now: this.#now() });
    let sessionReserved = 0;
    let projectReserved = 0;
    for (const reservation of this.#reservations) {
      sessionReserved += reservation.microUsd;
      if (projectId !== null && reservation.projectId === projectId) projectReserved += reservation.microUsd;
    }
    return this.#o.budgets.checkSpend({
      expectedCostMicroUsd: estimate.expectedCostMicroUsd,
      largestSeenMicroUsd: learntBound(estimate),
      learnt: estimate.basis === 'last_observed',
      sessionSpentMicroUsd: totals.sessionMicroUsd,
      sessionReservedMicroUsd: sessionReserved,
      projectId,
      projectSpentMicroUsd: totals.byProject.find((p) => p.projectId === projectId)?.microUsd ?? 0,
      projectReservedMicroUsd: projectReserved,
      confirmed,
      operation,
    });
  }

  /**
   * The one place a call's payer is decided: the file the person named for it, or else the active
   * assignment. A named file must exist: a call is never booked to an id nothing else knows.
   */
  payerOf(request: Pick<GatewayCall, 'projectId'>): string | null {
    if (request.projectId === undefined) return this.#o.projects.activeProjectId();
    if (request.projectId !== null && this.#o.projects.get(request.projectId) === null) {
      throw new PlatFailure('invalid_request', `No assignment or project has the id “${request.projectId}” to pay for this call.`);
    }
    return request.projectId;
  }

  async call(request: GatewayCall): Promise<GatewayAnswer> {
    const { operation, parts } = request;
    // The page that asked has gone already: nothing is sent, nothing is charged.
    if (request.signal?.aborted) throw new PlatFailure('cancelled');
    const service = this.#o.activeService();
    const key = this.#cacheKey(service.connectionId, operation, parts);
    const projectId = this.payerOf(request);
    const v3Request = v3PriceRequestOf(operation, parts);
    const estimate = this.#estimate(operation, parts, service.connectionId, false);
    // What the call is counted at against the caps and reserved at: a price not known is counted at
    // its bound, so it can neither pass a cap nor run beside another call that can charge.
    const expected = this.#o.budgets.spendBound(estimate.expectedCostMicroUsd, learntBound(estimate));
    const chargeable = expected > 0 || canCharge(operation, parts);
    const priority = chargeable ? CallPriority.charge : request.actionId ? CallPriority.userAction : CallPriority.background;

    if (!request.refresh) {
      const hit = this.#o.cache.get(key, this.#now().getTime());
      if (hit) return this.#servedFromCache(operation, parts, projectId, hit);
      // The same request is on its way (another tab, a double click): share its answer, which this
      // caller gets free, as a cache hit, just as if it had asked a moment later. Caps and
      // confirmation were the first caller's: this one spends nothing.
      const flight = this.#flights.get(key);
      if (flight) {
        flight.promote(priority);
        const answer = await this.#wait(flight, request.signal);
        return this.#servedFromCache(operation, parts, projectId, {
          value: answer.envelope,
          servedAt: answer.billing.servedAt,
          requestId: answer.billing.requestId,
        });
      }
    }

    const decision = this.#decide(operation, estimate, request.confirmed === true, projectId);
    if (!decision.allowed) throw PlatFailure.from(spendRefusalError(decision));
    // Taken in the same turn as the check, so no other call is let through against the same totals.
    const reservation: Reservation | null = expected > 0 ? { microUsd: expected, projectId, callId: null, held: false } : null;
    if (reservation) this.#reservations.add(reservation);

    // A refresh is a purchase the person asked for, so it never joins another call (above); a later
    // plain request may join it, since its answer is as fresh as any.
    const drop = new AbortController();
    const job = this.#scheduler.schedule(expected !== 0 || chargeable, priority, drop.signal, async () => {
      // The first charge needs a balance to reconcile against: a free catalog call sets it.
      if (chargeable && this.#o.ledger.balanceBaseline() === null) await this.#establishBaseline(service);
      return this.#send(service, request, key, expected, projectId, v3Request, reservation, estimate.expectedCostMicroUsd !== null);
    });
    const flight: Flight = { answer: job.done, started: job.started, waiting: 0, droppable: true, drop, promote: job.promote };
    this.#flights.set(key, flight);
    const settled = () => {
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
      // The ledger's write normally ended the reservation already; this ends it when no row was
      // closed (dropped unsent, or Plat failed around the call).
      if (reservation) this.#settle(reservation);
    };
    job.done.then(settled, settled);
    return this.#wait(flight, request.signal);
  }

  /**
   * The answer of `flight` for one caller. When the caller's page goes before the call started, the
   * caller gets PlatFailure('cancelled'), and the call is dropped unless another caller still waits.
   */
  #wait(flight: Flight, signal: AbortSignal | undefined): Promise<GatewayAnswer> {
    if (!signal) {
      flight.droppable = false;
      return flight.answer;
    }
    flight.waiting++;
    return new Promise<GatewayAnswer>((resolve, reject) => {
      const stop = this.#aborts.on(signal, () => {
        // Started: left to finish, so whatever it costs is booked.
        if (flight.started()) return;
        reject(new PlatFailure('cancelled'));
        if (--flight.waiting === 0 && flight.droppable) flight.drop.abort();
      });
      flight.answer.then(resolve, reject).finally(stop);
    });
  }

  /** An answer this caller did not pay for: a cached copy, or another caller's call it joined. */
  #servedFromCache(
    operation: ServiceOperationName,
    parts: RequestParts,
    projectId: string | null,
    copy: { value: unknown; servedAt: string; requestId: string },
  ): GatewayAnswer {
    this.#o.ledger.recordCacheHit({
      operation,
      requestSummary: parts,
      projectId,
      sessionId: this.#o.sessionId,
      originalRequestId: copy.requestId || null,
      servedAt: copy.servedAt,
    });
    return {
      envelope: copy.value,
      billing: {
        chargedMicroUsd: 0,
        replayed: false,
        cacheHit: true,
        servedAt: copy.servedAt,
        requestId: copy.requestId,
        balanceMicroUsd: this.#o.ledger.balanceBaseline()?.balanceMicroUsd ?? null,
        attempts: 0,
      },
    };
  }

  /**
   * Ends a reservation once the ledger knows what the call cost. A call sent without an answer
   * (outcome unknown) may have been charged, and the ledger books that only when it next measures a
   * balance: until then its reservation stands, so the cap holds through a lost answer too.
   */
  #settle(reservation: Reservation): void {
    if (!this.#reservations.has(reservation)) return;
    const row = reservation.callId === null ? undefined : this.#o.ledger.get(reservation.callId);
    if (row && row.status === 'pending' && row.totalChargeMicroUsd === 0) {
      reservation.held = true;
      return;
    }
    this.#reservations.delete(reservation);
  }

  #onLedgerWrite(change: SpendChange): void {
    if (this.#reservations.size === 0) return;
    if (change.reason === 'baseline-reset') {
      // Another account from now on: what the old one charged can no longer be measured.
      for (const reservation of this.#reservations) if (reservation.held) this.#reservations.delete(reservation);
      return;
    }
    if (change.reason !== 'answered' && change.reason !== 'recovered') return;
    let entries: SpendEntry[] | null = null;
    for (const reservation of this.#reservations) {
      if (reservation.callId === null) continue;
      if (change.ids.includes(reservation.callId)) {
        this.#settle(reservation);
        continue;
      }
      if (!reservation.held) continue;
      // A later answer with a balance was booked. Calls that can charge never overlap, so none of
      // ours was in flight: the ledger reconciled, booking whatever the held call cost.
      entries ??= change.entries();
      if (entries.some((entry) => entry.kind === 'call' && entry.balanceAfterMicroUsd !== null)) this.#reservations.delete(reservation);
    }
  }

  async #establishBaseline(service: ActiveService): Promise<void> {
    await this.#send(service, { operation: 'v4.catalog', parts: { query: {} } }, null, 0, null, undefined, null).catch(() => undefined);
  }

  async #send(
    service: ActiveService,
    request: GatewayCall,
    cacheKey: string | null,
    expectedCostMicroUsd: number,
    projectId: string | null,
    v3Request: V3PriceRequest | undefined,
    reservation: Reservation | null,
    priceKnown = true,
  ): Promise<GatewayAnswer> {
    const { operation, parts } = request;
    // A call that can charge is written ahead with its Idempotency-Key, so a charge whose answer is
    // lost in a crash is found and replayed (free) at the next start. A call that cannot charge has
    // nothing to recover or replay: it goes without a key and is written once, with its answer,
    // before the answer goes back.
    const chargeable = expectedCostMicroUsd !== 0 || canCharge(operation, parts);
    // One key per user action: the renderer's action id, so a retried action is replayed free.
    // A request whose earlier call may have been charged without an answer reuses that call's key.
    const owedKey = cacheKey ? this.#owedKeys.get(cacheKey) : undefined;
    const idempotencyKey =
      chargeable && serviceOperations[operation].idempotencyKey ? (owedKey ?? `plat-${request.actionId ?? crypto.randomUUID()}`) : null;
    const attempt = { operation, requestSummary: parts, idempotencyKey, expectedCostMicroUsd, priceKnown, projectId, sessionId: this.#o.sessionId };
    const callId = chargeable ? this.#o.ledger.beginAttempt(attempt) : null;
    // The ledger's write that closes this row ends the reservation (see #onLedgerWrite).
    if (reservation) reservation.callId = callId;
    let closed = false;
    const close = (answer: CallAnswer) =>
      callId === null ? this.#o.ledger.recordUnchargedCall(attempt, answer) : this.#o.ledger.recordAnswer(callId, answer);
    try {
      const outcome = await sendCall(service.client, operation, parts, {
        idempotencyKey,
        onRetry: (event) => {
          if (request.actionId) {
            this.#o.events.emit('callProgress', {
              actionId: request.actionId,
              operation,
              state: 'retrying',
              attempt: event.attempt,
              delayMs: Math.round(event.delayMs),
              reason: event.error.message.split(' — ')[0] ?? event.reason,
            });
          }
        },
      });
      const servedAt = String((outcome.meta as { served_at?: unknown }).served_at ?? this.#now().toISOString());
      const requestId = outcome.http.requestId ?? String((outcome.envelope as { request_id?: unknown }).request_id ?? '');
      const copy = (chargedMicroUsd: number) => ({ value: outcome.envelope, servedAt, requestId, chargedMicroUsd, storedAt: this.#now().getTime() });
      let booked: ClosedCall;
      try {
        // Only a paid answer's copy shares the ledger's commit; a free answer is booked on its own, so
        // the ledger can write anything it had to keep waiting (a full disk) first.
        booked = cacheKey && chargeable
          ? this.#commitTogether(() => {
              const closedCall = close(answerOf(outcome));
              // A paid answer's copy is kept before the answer goes back, so it is never bought twice (a
              // replayed retry still cost what the first attempt was charged).
              this.#o.cache.put(cacheKey, copy(closedCall.totalChargeMicroUsd));
              return closedCall;
            })
          : close(answerOf(outcome));
      } catch (commitError) {
        if (!(cacheKey && chargeable)) throw commitError;
        // Keeping a copy failed and the commit rolled back (or the disk refused it): the ledger's
        // record goes in alone (or waits in memory for room), and the caller still gets what was
        // paid for; it is only not cached.
        booked = close(answerOf(outcome));
      }
      const charged = (await this.#measureMarked(service, booked)) ?? booked.totalChargeMicroUsd;
      closed = true;
      if (owedKey !== undefined && cacheKey) this.#owedKeys.delete(cacheKey);
      // A free answer's copy only saves a round trip, so it is kept just after the answer goes back.
      if (cacheKey && !chargeable) this.#keepCopyAfterAnswer(cacheKey, copy(0));
      // A header the balance did not bear out teaches no price; what the balance showed does.
      const observed = booked.chargeCheck ? charged : outcome.http.chargedMicroUsd;
      // A zero teaches a price only from a fresh answer with something in it, told by an honest header.
      const freeWithResults = observed === 0 && !outcome.http.replayed && !booked.chargeCheck && answerHasResults(outcome.envelope);
      if (observed || freeWithResults) {
        this.#o.estimator.recordObservedCharge({
          operation,
          chargedMicroUsd: observed ?? 0,
          answeredWithResults: freeWithResults,
          connectionId: service.connectionId,
          ...(v3Request ? { v3Request } : {}),
        });
      }
      return {
        envelope: outcome.envelope,
        billing: {
          chargedMicroUsd: charged,
          replayed: outcome.http.replayed,
          cacheHit: false,
          servedAt,
          requestId,
          balanceMicroUsd: outcome.http.balanceMicroUsd,
          attempts: outcome.attempts,
        },
      };
    } catch (error) {
      if (error instanceof ServiceCallError) {
        // No answer at all, or a failure after an attempt whose answer was lost: the row stays
        // pending (a candidate for what the balance shows, replayed at the next start).
        const closedCall = close(answerOfFailure(error));
        // A 2xx Plat could not read was done (and maybe charged) by the service, which keeps its
        // answer under the key: asked again, from any action, the request is a free replay.
        const unreadable = isUnreadableAnswer(error) && !error.mayHaveCharged && !error.cancelled;
        if ((error.mayHaveCharged || unreadable) && idempotencyKey !== null && cacheKey) this.#owedKeys.set(cacheKey, idempotencyKey);
        if (callId !== null && error.mayHaveCharged && !error.cancelled) throw await this.#lostAnswerFailure(service, callId, error);
        if (unreadable) throw await this.#unreadableAnswerFailure(service, closedCall.callId, error);
        await this.#measureMarked(service, closedCall);
        // An answered failure says what it was charged (a "not found" may cost on some services), so
        // the screen's sentence about it comes from the charge, not from an assumption.
        throw PlatFailure.from(error.http ? { ...error.platError, chargedMicroUsd: closedCall.totalChargeMicroUsd } : error.platError);
      }
      // Plat itself failed around the call. If the answer was not booked yet, whether the service
      // charged is unknown: the row stays pending and the next start replays its key (free).
      if (!closed) {
        try {
          close({
            httpStatus: null,
            requestId: null,
            chargedMicroUsd: null,
            balanceAfterMicroUsd: null,
            replayed: false,
            errorCode: 'internal',
            attempts: 1,
          });
        } catch {
          // The ledger itself is what failed; the original error says more than this one would.
        }
      }
      throw error;
    }
  }

  /**
   * What to tell the person about a call that may have been charged although no answer arrived. A
   * balance read after it (one free call, unless the ledger measured it already) books a lost charge
   * on the call's row: then it is `charged_answer_lost`; if the balance cannot be read, the person is
   * told it may have been charged. Trying again sends the same key, a free replay (a request without
   * a key, a v2 GET, would be charged again, and the message says so).
   */
  async #lostAnswerFailure(service: ActiveService, callId: number, error: ServiceCallError): Promise<PlatFailure> {
    if (this.#o.ledger.get(callId)?.reconciled !== true) await this.#establishBaseline(service);
    const row = this.#o.ledger.get(callId);
    const replayable = error.idempotencyKey !== null;
    if (row && row.totalChargeMicroUsd > 0) {
      const what = `The service charged ${formatUsd(row.totalChargeMicroUsd)} for this call, but its answer did not arrive`;
      if (replayable) return new PlatFailure('charged_answer_lost', what);
      return PlatFailure.from({ code: 'charged_answer_lost', message: `${what} — trying again is charged again (this request cannot be replayed)`, retryable: true });
    }
    if (row?.reconciled === true) return PlatFailure.from(error.platError);
    const what = (error.platError.message.split(' — ')[0] ?? error.platError.message).replace(/[\s.;:]+$/, '');
    const next = replayable ? 'try again: the same request is replayed free, never charged twice' : 'trying again may be charged again (this request cannot be replayed)';
    return PlatFailure.from({ code: error.platError.code, message: `${what}. The service may have charged for this call — ${next}`, retryable: true });
  }

  /**
   * A row whose charge header Plat could not take as sent (not an amount, or a charge on a failed
   * call) waits for a balance to book what the service really took. An answer without one (the
   * service sends none on errors) gets it now, with one free call, so the totals never carry a
   * charge the balance does not show. Returns what the row books once measured, or null.
   */
  async #measureMarked(service: ActiveService, closedCall: ClosedCall): Promise<number | null> {
    // A row kept in memory (a full disk) is booked when it is written; nothing to measure yet.
    if (!closedCall.chargeCheck || closedCall.callId === 0 || closedCall.unsaved) return null;
    if (this.#o.ledger.get(closedCall.callId)?.reconciled !== false) return null;
    await this.#establishBaseline(service);
    return this.#o.ledger.get(closedCall.callId)?.totalChargeMicroUsd ?? null;
  }

  /**
   * What to tell the person about a 2xx whose answer Plat could not read. It is a charged answer,
   * never a success: the row books what the balance shows (read once more, free, if the answer
   * carried none), the message says what it cost and what was wrong with the answer, and trying
   * again sends the same key, which the service replays free.
   */
  async #unreadableAnswerFailure(service: ActiveService, rowId: number, error: ServiceCallError): Promise<PlatFailure> {
    if (rowId !== 0 && this.#o.ledger.get(rowId)?.reconciled === false) await this.#establishBaseline(service);
    const row = rowId === 0 ? undefined : this.#o.ledger.get(rowId);
    const detail = (error.platError.message.split(' — ')[0] ?? error.platError.message).replace(/[\s.;:]+$/, '');
    const readable = detail.charAt(0).toLowerCase() + detail.slice(1);
    const replayable = error.idempotencyKey !== null;
    const next = replayable ? 'try again: the same request is replayed free' : 'trying again is charged again (this request cannot be replayed)';
    if (row && row.totalChargeMicroUsd > 0) {
      const what = `The service charged ${formatUsd(row.totalChargeMicroUsd)} for this call, but ${readable}`;
      if (replayable) return new PlatFailure('charged_answer_unreadable', what);
      return PlatFailure.from({ code: 'charged_answer_unreadable', message: `${what} — ${next}`, retryable: true });
    }
    if (row?.reconciled === true) {
      return PlatFailure.from({ code: 'malformed_response', message: `${detail}; nothing was charged — try again later; if it persists, report it`, retryable: true });
    }
    const maybe = replayable ? 'try again: the same request is replayed free, never charged twice' : 'trying again may be charged again (this request cannot be replayed)';
    return PlatFailure.from({ code: 'malformed_response', message: `${detail}. The service may have charged for this call — ${maybe}`, retryable: true });
  }

  #keepCopyAfterAnswer(cacheKey: string, entry: CacheEntry): void {
    const clearsBefore = this.#o.cache.clears;
    setImmediate(() => {
      // Cleared in between: the user asked for nothing to be kept from before.
      if (this.#o.cache.clears !== clearsBefore) return;
      try {
        this.#o.cache.put(cacheKey, entry);
      } catch {
        // Not kept (the app is closing, or the disk refused): the next identical request asks again, free.
      }
    });
  }

  /** Re-sends calls begun before a crash with their keys (free replays) and closes their rows. */
  async recoverPending(): Promise<{ recovered: number; unresolved: number }> {
    let recovered = 0;
    let unresolved = 0;
    const service = this.#o.activeService();
    for (const entry of this.#o.ledger.pendingAttempts()) {
      const operation = entry.operation as ServiceOperationName;
      if (!(operation in serviceOperations)) continue;
      if (entry.idempotencyKey === null || entry.request === null) {
        // Nothing to replay (the operation takes no key, or the request held the API key and was not
        // kept): the row stays pending, and reconciliation books whatever the balance shows it cost.
        unresolved++;
        continue;
      }
      try {
        const outcome = await this.#scheduler.schedule(true, CallPriority.charge, null, () =>
          sendCall(service.client, operation, entry.request as RequestParts, { idempotencyKey: entry.idempotencyKey ?? undefined }),
        ).done;
        this.#o.ledger.recordRecovery(entry.id, answerOf(outcome));
        recovered++;
      } catch (error) {
        if (error instanceof ServiceCallError && !error.outcomeUnknown) {
          this.#o.ledger.recordRecovery(entry.id, answerOfFailure(error));
        }
        unresolved++;
      }
    }
    return { recovered, unresolved };
  }
}
