// Every service call the renderer asks for goes through here, in this order:
//   price (cost estimate) → budget and confirmation → cache → ledger (write-ahead, for a call that
//   can charge) → client → ledger (answer, reconciliation) and a paid answer's cached copy, in one
//   commit → the answer goes back → a free answer's cached copy → spend event (coalesced).
// The renderer never builds a request, never sees the key and never computes a charge.
//
// Calls are serialised (one in flight at a time) so the ledger can attribute every balance change to
// the call that caused it, including a charge whose answer was lost. A call whose answer was lost
// stays `pending` in the ledger and is re-sent with its Idempotency-Key at the next start, when the
// service replays it free.
import type { z } from 'zod';
import { operationSchemas, serviceOperations, type ServiceOperationName } from '../../shared/service/index.ts';
import type { CallBilling, CostPreview, SpendSnapshot } from '../../shared/ipc.ts';
import type { CallAnswer, SpendLedger } from './ledger.ts';
import type { CacheEntry, ResponseCache } from './cache.ts';
import { canonicalRequestKey } from './cache.ts';
import { spendRefusalError, type BudgetPolicy, type CostEstimator, type V3PriceRequest } from './budgets.ts';
import type { ProjectStore } from './projects.ts';
import type { EventHub } from './events.ts';
import { ServiceCallError, type ServiceCallOutcome, type ServiceClient } from './service-client.ts';
import { PlatFailure } from './failure.ts';

/** The request parts of a call, in the service's wire form, as validated by shared/ipc. */
export interface RequestParts {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

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

type Z = z.ZodType;

/** Parses each part with its shared schema: defaults applied, so equal requests have equal keys. */
export function normalizeParts(operation: ServiceOperationName, parts: RequestParts): Record<string, unknown> {
  const schemas = operationSchemas[operation] as { path?: Z; query?: Z; body?: Z };
  const normalized: Record<string, unknown> = {};
  for (const part of ['path', 'query', 'body'] as const) {
    const schema = schemas[part];
    if (!schema) continue;
    const parsed = schema.safeParse(parts[part] ?? (part === 'body' ? undefined : {}));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new PlatFailure('invalid_request', `${issue?.path.join('.') || part}: ${issue?.message ?? 'invalid'}`);
    }
    normalized[part] = parsed.data;
  }
  return normalized;
}

function v3PriceRequestOf(operation: ServiceOperationName, parts: RequestParts): V3PriceRequest | undefined {
  if (operation !== 'v3.recordQuery') return undefined;
  const body = (parts.body ?? {}) as { mode?: V3PriceRequest['mode']; projection?: string };
  return body.mode ? { mode: body.mode, projection: body.projection } : undefined;
}

function itemsOf(operation: ServiceOperationName, parts: RequestParts): number | undefined {
  if (operation !== 'v2.resolveEntities') return undefined;
  const items = (parts.body as { items?: unknown[] } | undefined)?.items;
  return Array.isArray(items) && items.length > 0 ? items.length : undefined;
}

const canCharge = (operation: ServiceOperationName, parts: RequestParts): boolean => {
  const price = serviceOperations[operation].price;
  if (price.kind === 'by_v3_variant') {
    const variant = v3PriceRequestOf(operation, parts);
    if (!variant) return true;
    const key = variant.mode === 'report' ? (variant.projection ?? 'report_subject_v1') : variant.mode;
    return price.variants[key as keyof typeof price.variants]?.kind !== 'free';
  }
  return price.kind !== 'free';
};

/** The ledger's record of an answered call. */
function answerOf(outcome: ServiceCallOutcome<unknown, { meta: unknown }>): CallAnswer {
  return {
    httpStatus: outcome.http.status,
    requestId: outcome.http.requestId,
    chargedMicroUsd: outcome.http.chargedMicroUsd,
    balanceAfterMicroUsd: outcome.http.balanceMicroUsd,
    replayed: outcome.http.replayed,
    errorCode: null,
    attempts: outcome.attempts,
  };
}

/**
 * The ledger's record of a failed call. An unknown outcome (sent, no answer) keeps the row pending
 * for recovery; a request the client refused before sending anything is closed as a 400, the status
 * the service gives the same mistake, so it is never re-sent.
 */
function answerOfFailure(error: ServiceCallError): CallAnswer {
  return {
    httpStatus: error.outcomeUnknown ? null : (error.httpStatus ?? 400),
    requestId: error.http?.requestId ?? null,
    chargedMicroUsd: error.http?.chargedMicroUsd ?? null,
    balanceAfterMicroUsd: error.http?.balanceMicroUsd ?? null,
    replayed: false,
    errorCode: error.platError.code,
    attempts: error.attempts,
  };
}

/**
 * How long a spend event waits for more ledger writes to join it: about one display frame, so the
 * meter is never visibly late, and a burst of calls costs one event instead of one per call.
 */
export const SPEND_EVENT_COALESCE_MS = 16;

/** Runs `work` after every earlier call has finished. */
class ChargeQueue {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work, work);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

export class ServiceGateway {
  readonly #o: ServiceGatewayOptions;
  readonly #queue = new ChargeQueue();
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
    this.#unsubscribe = unsubscribe;
  }

  /** Stops pushing spend events (before the database closes). */
  dispose(): void {
    this.#unsubscribe();
    if (this.#pendingSpendEvent) clearTimeout(this.#pendingSpendEvent);
    this.#pendingSpendEvent = null;
  }

  spend(): SpendSnapshot {
    const totals = this.#o.ledger.totals({ sessionId: this.#o.sessionId, now: this.#now() });
    return {
      sessionMicroUsd: totals.sessionMicroUsd,
      todayMicroUsd: totals.todayMicroUsd,
      allTimeMicroUsd: totals.allTimeMicroUsd,
      byProject: totals.byProject,
      lastKnownBalanceMicroUsd: totals.lastKnownBalanceMicroUsd,
      lastChargeMicroUsd: totals.lastChargeMicroUsd,
      lastChargeAt: totals.lastChargeAt,
      unsavedMicroUsd: 0,
      storageProblem: null,
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
    const decision = this.#decide(operation, estimate.expectedCostMicroUsd, false);
    return {
      operation,
      expectedCostMicroUsd: estimate.expectedCostMicroUsd,
      basis: estimate.basis,
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

  #decide(operation: ServiceOperationName, expectedCostMicroUsd: number, confirmed: boolean) {
    // Free calls pass every cap and need no confirmation.
    if (expectedCostMicroUsd === 0) return { allowed: true } as const;
    const totals = this.#o.ledger.totals({ sessionId: this.#o.sessionId, now: this.#now() });
    const projectId = this.#o.projects.activeProjectId();
    return this.#o.budgets.checkSpend({
      expectedCostMicroUsd,
      sessionSpentMicroUsd: totals.sessionMicroUsd,
      projectId,
      projectSpentMicroUsd: totals.byProject.find((p) => p.projectId === projectId)?.microUsd ?? 0,
      confirmed,
      operation,
    });
  }

  async call(request: GatewayCall): Promise<GatewayAnswer> {
    const { operation, parts } = request;
    const service = this.#o.activeService();
    const key = this.#cacheKey(service.connectionId, operation, parts);
    const projectId = this.#o.projects.activeProjectId();

    if (!request.refresh) {
      const hit = this.#o.cache.get(key, this.#now().getTime());
      if (hit) {
        this.#o.ledger.recordCacheHit({
          operation,
          requestSummary: parts,
          projectId,
          sessionId: this.#o.sessionId,
          originalRequestId: hit.requestId,
          servedAt: hit.servedAt,
        });
        return {
          envelope: hit.value,
          billing: {
            chargedMicroUsd: 0,
            replayed: false,
            cacheHit: true,
            servedAt: hit.servedAt,
            requestId: hit.requestId,
            balanceMicroUsd: this.#o.ledger.balanceBaseline()?.balanceMicroUsd ?? null,
            attempts: 0,
          },
        };
      }
    }

    const v3Request = v3PriceRequestOf(operation, parts);
    const estimate = this.#estimate(operation, parts, service.connectionId, false);
    const decision = this.#decide(operation, estimate.expectedCostMicroUsd, request.confirmed === true);
    if (!decision.allowed) throw PlatFailure.from(spendRefusalError(decision));

    const send = () => this.#send(service, request, key, estimate.expectedCostMicroUsd, projectId, v3Request);
    // One call at a time: every answer's balance then belongs to exactly one call, so a charge the
    // client never saw (an answer lost after the service committed it) is booked against that call.
    return this.#queue.run(async () => {
      // The first charge needs a balance to reconcile against: a free catalog call sets it.
      if (canCharge(operation, parts) && this.#o.ledger.balanceBaseline() === null) await this.#establishBaseline(service);
      return send();
    });
  }

  async #establishBaseline(service: ActiveService): Promise<void> {
    await this.#send(service, { operation: 'v4.catalog', parts: { query: {} } }, null, 0, null, undefined).catch(() => undefined);
  }

  async #send(
    service: ActiveService,
    request: GatewayCall,
    cacheKey: string | null,
    expectedCostMicroUsd: number,
    projectId: string | null,
    v3Request: V3PriceRequest | undefined,
  ): Promise<GatewayAnswer> {
    const { operation, parts } = request;
    // A call that can charge is written ahead with its Idempotency-Key, so a charge whose answer is
    // lost in a crash is found and replayed (free) at the next start. A call that cannot charge has
    // nothing to recover or replay: it goes without a key and is written once, with its answer,
    // before the answer goes back.
    const chargeable = expectedCostMicroUsd !== 0 || canCharge(operation, parts);
    // One key per user action: the renderer's action id, so a retried action is replayed free.
    const idempotencyKey = chargeable && serviceOperations[operation].idempotencyKey ? `plat-${request.actionId ?? crypto.randomUUID()}` : null;
    const attempt = { operation, requestSummary: parts, idempotencyKey, expectedCostMicroUsd, projectId, sessionId: this.#o.sessionId };
    const callId = chargeable ? this.#o.ledger.beginAttempt(attempt) : null;
    let closed = false;
    const close = (answer: CallAnswer) =>
      callId === null ? this.#o.ledger.recordUnchargedCall(attempt, answer) : this.#o.ledger.recordAnswer(callId, answer);
    try {
      const outcome = await this.#invoke(service.client, operation, parts, {
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
      let charged: number;
      try {
        charged = this.#commitTogether(() => {
          const total = close(answerOf(outcome)).totalChargeMicroUsd;
          // A paid answer's copy is kept before the answer goes back, so it is never bought twice (a
          // replayed retry still cost what the first attempt was charged).
          if (cacheKey && chargeable) this.#o.cache.put(cacheKey, copy(total));
          return total;
        });
      } catch {
        // Keeping a copy failed and the commit rolled back: the ledger's record goes in alone, and the
        // caller still gets what was paid for; it is only not cached.
        charged = close(answerOf(outcome)).totalChargeMicroUsd;
      }
      closed = true;
      // A free answer's copy only saves a round trip, so it is kept just after the answer goes back.
      if (cacheKey && !chargeable) this.#keepCopyAfterAnswer(cacheKey, copy(0));
      if (outcome.http.chargedMicroUsd) {
        this.#o.estimator.recordObservedCharge({
          operation,
          chargedMicroUsd: outcome.http.chargedMicroUsd,
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
        // No answer at all: the outcome is unknown, the row stays pending for recovery.
        close(answerOfFailure(error));
        throw PlatFailure.from(error.platError);
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
      if (entry.idempotencyKey === null) {
        // Nothing to replay (the operation takes no key): the row stays pending, and reconciliation
        // books whatever the balance shows it cost against it.
        unresolved++;
        continue;
      }
      try {
        const outcome = await this.#queue.run(() =>
          this.#invoke(service.client, operation, entry.requestSummary as RequestParts, { idempotencyKey: entry.idempotencyKey ?? undefined }),
        );
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

  #invoke(
    client: ServiceClient,
    operation: ServiceOperationName,
    parts: RequestParts,
    options: Parameters<ServiceClient['search']>[1],
  ): Promise<ServiceCallOutcome<unknown, { meta: unknown }>> {
    const path = (parts.path ?? {}) as Record<string, string>;
    const query = (parts.query ?? {}) as never;
    const body = parts.body as never;
    switch (operation) {
      case 'v4.search':
        return client.search(query, options);
      case 'v4.catalog':
        return client.catalog(query, options);
      case 'v4.connected':
        return client.connected(path.q_id ?? '', query, options);
      case 'v4.summary':
        return client.summary(path.q_id ?? '', query, options);
      case 'v3.recordQuery':
        return client.recordQuery(body, options);
      case 'v2.searchProperties':
        return client.searchProperties(body, options);
      case 'v2.resolveEntities':
        return client.resolveEntities(body, options);
      case 'v2.getCatalog':
        return client.getCatalogV2(query, options);
      case 'v2.getEntity':
        return client.getEntity(path.entity_ref ?? '', options);
      case 'v2.traverseRelationships':
        return client.traverseRelationships(path.entity_ref ?? '', query, options);
    }
  }
}
