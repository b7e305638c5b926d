// Response envelopes of the three interface generations, and the mapping from what an operation
// throws to an error the caller may see (never a stack, never a header).
import { z } from 'zod';
import type { Generation, OperationResult } from './operation.ts';
import { ServiceFailure } from './operation.ts';
import { invalidRequestDetails } from '../../shared/service/common.ts';

export interface ServiceError {
  status: number;
  code: string;
  message: string;
  retryable: boolean;
  /** Seconds the caller should wait before retrying; sent as Retry-After and v2 `retry_after_seconds`. */
  retryAfterSeconds?: number;
  /** v2 `error.details`. */
  details?: unknown;
}

export interface EnvelopeHead {
  requestId: string;
  operation: string;
  servedAt: string;
}

const CONTRACT_VERSION: Record<Generation, string> = { v2: 'svc-v2', v3: 'svc-v3', v4: 'svc-v4' };

/** The generation a path belongs to by its prefix; anything not v2 or v3 answers in v4's envelope. */
export function generationOfPath(pathname: string): Generation {
  if (pathname === '/api/v2' || pathname.startsWith('/api/v2/')) return 'v2';
  if (pathname === '/api/v3' || pathname.startsWith('/api/v3/')) return 'v3';
  return 'v4';
}

const EMPTY_PROVENANCE = { source_refs: [], sources: [] };

export function successEnvelope(
  generation: Generation,
  head: EnvelopeHead,
  result: OperationResult,
): Record<string, unknown> {
  const base = {
    contract_version: CONTRACT_VERSION[generation],
    request_id: head.requestId,
    operation: head.operation,
  };
  switch (generation) {
    case 'v4':
      return { ...base, status: 'ok', data: result.data, error: null, meta: { served_at: head.servedAt, next_cursor: null, ...result.meta } };
    case 'v3':
      return { ...base, status: 'ok', data: result.data, error: null, meta: { served_at: head.servedAt, truncated: false, ...result.meta } };
    case 'v2':
      return {
        ...base,
        status: result.status ?? 'ok',
        data: result.data,
        error: null,
        // usage_units: what the call was priced at, in micro-USD (the service's only usage unit).
        meta: { served_at: head.servedAt, truncated: false, usage_units: result.charge, ...result.meta },
        provenance: result.provenance ?? EMPTY_PROVENANCE,
      };
  }
}

export function errorEnvelope(generation: Generation, head: EnvelopeHead, error: ServiceError): Record<string, unknown> {
  const base = {
    contract_version: CONTRACT_VERSION[generation],
    request_id: head.requestId,
    operation: head.operation,
    status: 'error',
    data: null,
  };
  const brief = { code: error.code, message: error.message, retryable: error.retryable };
  switch (generation) {
    case 'v4':
      return { ...base, error: brief, meta: { served_at: head.servedAt, next_cursor: null } };
    case 'v3':
      return { ...base, error: brief, meta: { served_at: head.servedAt, truncated: false } };
    case 'v2':
      return {
        ...base,
        error: { ...brief, retry_after_seconds: error.retryAfterSeconds ?? 0, details: error.details ?? null },
        meta: { served_at: head.servedAt, truncated: false, usage_units: 0 },
        provenance: EMPTY_PROVENANCE,
      };
  }
}

function asZodError(error: unknown): z.ZodError | undefined {
  if (error instanceof z.ZodError) return error;
  // A second copy of zod would fail instanceof; its errors have the same shape.
  if (error instanceof Error && error.name === 'ZodError' && Array.isArray((error as { issues?: unknown }).issues)) {
    return error as z.ZodError;
  }
  return undefined;
}

/** What the caller sees for anything an operation throws. */
export function serviceErrorFrom(thrown: unknown): ServiceError {
  if (thrown instanceof ServiceFailure && Number.isInteger(thrown.status) && thrown.status >= 400 && thrown.status <= 599) {
    return {
      status: thrown.status,
      code: thrown.code,
      message: thrown.message,
      retryable: thrown.retryable,
      ...(thrown.retryable ? { retryAfterSeconds: 1 } : {}),
      ...(thrown.details === undefined ? {} : { details: thrown.details }),
    };
  }
  const zodError = asZodError(thrown);
  if (zodError && zodError.issues.length > 0) {
    // The shared contract names the code and message, so client-side refusals read the same.
    const invalid = invalidRequestDetails(zodError);
    return { status: 400, code: invalid.code, message: invalid.message, retryable: false, details: invalid.issues };
  }
  return internalError();
}

export function internalError(): ServiceError {
  return { status: 500, code: 'internal_error', message: 'The service failed to answer this request.', retryable: false };
}
