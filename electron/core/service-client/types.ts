// The client's public types: what an answer said, the hooks a caller can watch attempts, retries and
// pacing with, and the options of the client and of one call.
import type { PlatError } from '../../../shared/errors.ts';
import type { MicroUsd } from '../../../shared/money.ts';
import type { ServiceOperationName } from '../../../shared/service/index.ts';
import type { HttpTransport } from '../http-transport.ts';

/** What one HTTP answer said about money and limits. Unknown values are null, never 0. */
export interface ServiceHttpInfo {
  status: number;
  /** X-Svc-Charged-Micro-USD; null when absent. */
  chargedMicroUsd: MicroUsd | null;
  /** X-Svc-Balance-Micro-USD (balance after the call); null when absent. */
  balanceMicroUsd: MicroUsd | null;
  /** X-Svc-Replayed: true when the service replayed a stored answer (charged 0). */
  replayed: boolean;
  /** X-RateLimit-Remaining; null when absent or not a whole number. */
  rateLimitRemaining: number | null;
  /** The envelope's request_id when the body could be read. */
  requestId: string | null;
  /**
   * X-Svc-Charged-Micro-USD as sent, when present but not a whole non-negative number of micro-USD
   * (`chargedMicroUsd` is then null): kept so the ledger can show what the service said.
   */
  chargedHeader?: string;
}

export interface ServiceCallOutcome<T, Envelope extends { meta: unknown } = { meta: unknown }> {
  operation: ServiceOperationName;
  data: T;
  /** The whole validated envelope (v2's `status` may be `partial`; v2 `provenance` is here). */
  envelope: Envelope;
  meta: Envelope['meta'];
  http: ServiceHttpInfo;
  /** How many HTTP attempts the call took (1 when it succeeded at once). */
  attempts: number;
  /** The key sent with every attempt; null for operations that take none (v2 GETs). */
  idempotencyKey: string | null;
}

export type AttemptPhase = 'sending' | 'answered' | 'failed';

export interface AttemptEvent {
  operation: ServiceOperationName;
  idempotencyKey: string | null;
  /** 1-based. */
  attempt: number;
  /**
   * `sending`: about to send (awaited first, so a ledger can record the key durably). `answered`: an
   * HTTP answer arrived (any status; `http` set). `failed`: no usable answer (network error, timeout,
   * cancellation); `http` is set only if headers arrived before the body was lost.
   */
  phase: AttemptPhase;
  http?: ServiceHttpInfo;
  /** Set on `failed`, and on `answered` when the answer is an error. */
  error?: PlatError;
}

export interface RetryEvent {
  operation: ServiceOperationName;
  idempotencyKey: string | null;
  /** The attempt that failed (1-based); the next one is `attempt + 1`. */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** Catalogue code of the failure being retried: rate_limited, service_unavailable, network_error, timeout. */
  reason: string;
  error: PlatError;
}

export interface ThrottleEvent {
  operation: ServiceOperationName;
  delayMs: number;
  /** What the client believes is left in the current window. */
  rateLimitRemaining: number;
}

export type AttemptHook = (event: AttemptEvent) => void | Promise<void>;
export type RetryHook = (event: RetryEvent) => void | Promise<void>;
export type ThrottleHook = (event: ThrottleEvent) => void | Promise<void>;

/** Per call. */
export interface CallOptions {
  /**
   * One per user action; reuse it when the caller repeats the action so the service replays instead
   * of charging again. Without one the client generates one and reuses it across its own retries.
   * Ignored by operations that take no key. `null`: send none, for a call the caller knows is free
   * (it has nothing to replay, and a key would only make the service keep a copy of the answer); such
   * a call is still repeated after a lost answer, since repeating it costs nothing.
   */
  idempotencyKey?: string | null;
  /** Cancels the call (including any wait between attempts). */
  signal?: AbortSignal;
  onAttempt?: AttemptHook;
  onRetry?: RetryHook;
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ServiceClientOptions {
  /** The service's base URL (http or https, may carry a path prefix). */
  baseUrl: string;
  /** Read at each attempt; the key is never kept on the client. null: no key configured. */
  getApiKey: () => string | null;
  /**
   * Other keys to scrub from every answer besides the one sent (e.g. the key used before a key
   * change, which a stored answer may still quote). Read at each attempt.
   */
  secrets?: () => Iterable<string | null | undefined>;
  /** How a request is sent; default undici (fetch-shaped functions fit too). */
  transport?: HttpTransport;
  /** Per attempt, headers and body together. Default 20 s. */
  timeoutMs?: number;
  /** Including the first. Default 4. */
  maxAttempts?: number;
  /** Uniform in [0, 1), for backoff jitter. */
  random?: () => number;
  /** Waits between attempts and for self-throttling. Should reject when the signal aborts. */
  sleep?: Sleep;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /**
   * Self-throttling: at or below `lowWaterMark` remaining calls (default 2) the client spaces out its
   * calls over what is left of the minute. `false` turns it off.
   */
  selfThrottle?: { lowWaterMark?: number } | false;
  /** Called for every attempt of every call, before the per-call hook. */
  onAttempt?: AttemptHook;
  onRetry?: RetryHook;
  onThrottle?: ThrottleHook;
}
