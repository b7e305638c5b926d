// A call's request as the gateway sees it: its parts in wire form, normalised for the cache key, what
// prices it, whether it can charge, and how its answer or failure is booked in the ledger.
import type { z } from 'zod';
import { operationSchemas, serviceOperations, type ServiceOperationName } from '../../shared/service/index.ts';
import type { CallAnswer } from './ledger/spend-entries.ts';
import type { V3PriceRequest } from './cost-estimator.ts';
import type { CallOptions, ServiceCallError, ServiceCallOutcome, ServiceClient } from './service-client/index.ts';
import { PlatFailure } from './failure.ts';

/** The request parts of a call, in the service's wire form, as validated by shared/ipc. */
export interface RequestParts {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
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

/** The variant a v3 call is priced by (mode, projection). */
export function v3PriceRequestOf(operation: ServiceOperationName, parts: RequestParts): V3PriceRequest | undefined {
  if (operation !== 'v3.recordQuery') return undefined;
  const body = (parts.body ?? {}) as { mode?: V3PriceRequest['mode']; projection?: string };
  return body.mode ? { mode: body.mode, projection: body.projection } : undefined;
}

/** How many items a resolution prices (each may resolve). */
export function itemsOf(operation: ServiceOperationName, parts: RequestParts): number | undefined {
  if (operation !== 'v2.resolveEntities') return undefined;
  const items = (parts.body as { items?: unknown[] } | undefined)?.items;
  return Array.isArray(items) && items.length > 0 ? items.length : undefined;
}

export const canCharge = (operation: ServiceOperationName, parts: RequestParts): boolean => {
  const price = serviceOperations[operation].price;
  if (price.kind === 'by_v3_variant') {
    const variant = v3PriceRequestOf(operation, parts);
    if (!variant) return true;
    const key = variant.mode === 'report' ? (variant.projection ?? 'report_subject_v1') : variant.mode;
    return price.variants[key as keyof typeof price.variants]?.kind !== 'free';
  }
  return price.kind !== 'free';
};

/** Sends a call whose parts are already in the service's wire form (checked by shared/ipc, or kept by the ledger). */
export function sendCall(client: ServiceClient, operation: ServiceOperationName, parts: RequestParts, options: CallOptions): Promise<ServiceCallOutcome<unknown, { meta: unknown }>> {
  return client.call(operation, parts as never, options);
}

/** The ledger's record of an answered call. */
export function answerOf(outcome: ServiceCallOutcome<unknown, { meta: unknown }>): CallAnswer {
  return {
    httpStatus: outcome.http.status,
    requestId: outcome.http.requestId,
    chargedMicroUsd: outcome.http.chargedMicroUsd,
    chargeHeader: outcome.http.chargedHeader ?? null,
    balanceAfterMicroUsd: outcome.http.balanceMicroUsd,
    replayed: outcome.http.replayed,
    errorCode: null,
    attempts: outcome.attempts,
  };
}

/**
 * A 2xx the client could not read (body not JSON, off the contract, another request's answer): the
 * service did the call and may have charged for it, and keeps its answer under the key for a replay.
 */
export function isUnreadableAnswer(error: ServiceCallError): boolean {
  return error.platError.code === 'malformed_response' && error.httpStatus !== undefined && error.httpStatus >= 200 && error.httpStatus <= 299;
}

/**
 * The ledger's record of a failed call. An unknown outcome (sent, no answer) keeps the row pending
 * for recovery, and so does a failure after an attempt whose answer was lost (it may have been
 * charged); a request the client refused before sending anything is closed as a 400, the status
 * the service gives the same mistake, so it is never re-sent.
 */
export function answerOfFailure(error: ServiceCallError): CallAnswer {
  return {
    httpStatus: error.outcomeUnknown ? null : (error.httpStatus ?? 400),
    requestId: error.http?.requestId ?? null,
    chargedMicroUsd: error.http?.chargedMicroUsd ?? null,
    chargeHeader: error.http?.chargedHeader ?? null,
    balanceAfterMicroUsd: error.http?.balanceMicroUsd ?? null,
    replayed: error.http?.replayed ?? false,
    errorCode: error.platError.code,
    attempts: error.attempts,
    outcomeUnknown: error.mayHaveCharged,
  };
}
