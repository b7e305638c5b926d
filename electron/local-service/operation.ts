// The seam between the local service's HTTP layer (server, auth, billing, idempotency, rate limits,
// faults) and the operations that answer from the sample data. An operation is a pure, synchronous
// function of its request and the sample store: being synchronous, a request is handled in one turn
// of the event loop, so billing and idempotency bookkeeping around it cannot interleave.
import type { MicroUsd } from '../../shared/money.ts';
import type { SampleStore } from './sample-store.ts';

export type Generation = 'v2' | 'v3' | 'v4';

export interface OperationRequest {
  /** Path parameters by name, already URL-decoded (e.g. `q_id`, `entity_ref`). */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** Parsed JSON body for POST operations, `undefined` for GET. */
  body: unknown;
}

export interface OperationContext {
  store: SampleStore;
  /** The request's clock, so tests can pin time. */
  now: Date;
}

export interface OperationResult {
  data: unknown;
  /** Extra meta fields for the generation's envelope (next_cursor, truncated, warnings, ...). */
  meta?: Record<string, unknown>;
  /** v2 only: `partial` when some items of a batch failed. */
  status?: 'ok' | 'partial';
  /** v2 only: the envelope's provenance block. */
  provenance?: { source_refs: string[]; sources: Array<Record<string, string>> };
  /** What this call costs, from the price table in shared/service (0 for free calls). */
  charge: MicroUsd;
}

/** Thrown by an operation to answer with an error envelope. Never charged. */
export class ServiceFailure extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryable: boolean;
  readonly details: unknown;
  constructor(status: number, code: string, message: string, options: { retryable?: boolean; details?: unknown } = {}) {
    super(message);
    this.name = 'ServiceFailure';
    this.status = status;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }
}

export interface LocalOperation {
  /** Operation name as in shared/service's operation table, e.g. `v4.search`. */
  name: string;
  /** The envelope's `operation` field, e.g. `search`, `get_entity`. */
  envelopeOperation: string;
  generation: Generation;
  method: 'GET' | 'POST';
  /** Path template with `:name` parameters, e.g. `/api/v4/entities/:q_id/summary`. */
  path: string;
  /** Whether the operation takes an Idempotency-Key header. */
  idempotent: boolean;
  handle(request: OperationRequest, context: OperationContext): OperationResult;
}
