// The one client for the Property Records Service (v2, v3 and v4) over HTTP (http-transport.ts). It refuses bad
// requests before they can spend money, sends the bearer key read fresh at each attempt (never kept,
// never echoed), gives every charged call an Idempotency-Key that its retries reuse (so a lost answer
// is replayed free instead of charged twice), retries only what may succeed, paces itself when the
// rate limit runs low, and checks every answer against the shared contract.
import { randomUUID } from 'node:crypto';
import { undiciTransport, type HttpAnswer, type HttpTransport } from './http-transport.ts';
import { z } from 'zod';
import { toPlatError } from '../../shared/errors.ts';
import type { PlatError, PlatErrorCode } from '../../shared/errors.ts';
import { MicroUsdHeaderSchema } from '../../shared/money.ts';
import type { MicroUsd } from '../../shared/money.ts';
import { fillPath, invalidRequestDetails, RequestHeadersSchema, serviceOperations } from '../../shared/service/index.ts';
import type { RequestIssue, ServiceOperation, ServiceOperationName } from '../../shared/service/index.ts';

export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_ATTEMPTS = 4;
export const BACKOFF_BASE_MS = 250;
export const BACKOFF_CAP_MS = 8_000;
/** The longest a server hint (Retry-After, v2 `retry_after_seconds`) can make the client wait. */
export const MAX_RETRY_AFTER_MS = 60_000;
export const DEFAULT_LOW_WATER_MARK = 2;
/** The spec counts the rate limit per minute. */
const RATE_WINDOW_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// Public types

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

/** A failed call: the catalogue error plus what the caller needs for the ledger and the UI. */
export class ServiceCallError extends Error {
  readonly operation: ServiceOperationName;
  readonly platError: PlatError;
  /** HTTP status of the last attempt's answer; absent when that attempt got none. */
  readonly httpStatus?: number;
  /** HTTP attempts made (0 when refused before sending). */
  readonly attempts: number;
  readonly idempotencyKey: string | null;
  /** Billing headers of the last attempt's answer, when it got one. */
  readonly http?: ServiceHttpInfo;
  /**
   * The last attempt was sent and no answer came back (network failure, timeout, cancellation): the
   * service may have done and charged it. Reconcile by balance, or repeat with the same key to get a
   * free replay.
   */
  readonly outcomeUnknown: boolean;
  /**
   * Some attempt of this call (not necessarily the last) was sent and its answer lost: the service
   * may have done and charged the call, although the last attempt failed plainly (e.g. a 503 after a
   * lost answer). Never report such a call as a plain failure: keep it a candidate for the charge the
   * next balance shows, and repeat it with the same key (a free replay). Implied by outcomeUnknown.
   */
  readonly mayHaveCharged: boolean;
  /** For invalid_payload: the parameters at fault. */
  readonly issues?: RequestIssue[];
  /** The caller's signal aborted the call; the request may still have reached the service. */
  readonly cancelled: boolean;

  constructor(init: {
    operation: ServiceOperationName;
    platError: PlatError;
    attempts: number;
    idempotencyKey: string | null;
    http?: ServiceHttpInfo | undefined;
    issues?: RequestIssue[] | undefined;
    outcomeUnknown?: boolean;
    mayHaveCharged?: boolean;
    cancelled?: boolean;
  }) {
    super(init.platError.message);
    this.name = 'ServiceCallError';
    this.operation = init.operation;
    this.platError = init.platError;
    this.attempts = init.attempts;
    this.idempotencyKey = init.idempotencyKey;
    this.cancelled = init.cancelled ?? false;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.mayHaveCharged = this.outcomeUnknown || (init.mayHaveCharged ?? false);
    if (init.http !== undefined) {
      this.http = init.http;
      this.httpStatus = init.http.status;
    }
    if (init.issues !== undefined) this.issues = init.issues;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      platError: this.platError,
      httpStatus: this.httpStatus,
      attempts: this.attempts,
      idempotencyKey: this.idempotencyKey,
      http: this.http,
      issues: this.issues,
      outcomeUnknown: this.outcomeUnknown,
      mayHaveCharged: this.mayHaveCharged,
      cancelled: this.cancelled,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Request and outcome types, read from the operation table

type Entry<N extends ServiceOperationName> = (typeof serviceOperations)[N];
type PartInput<N extends ServiceOperationName, P extends string> = Entry<N>['schemas'] extends Record<P, infer S extends z.ZodType> ? z.input<S> : never;
type Encoders<N extends ServiceOperationName> = Entry<N> extends { encode: infer E } ? E : Record<never, never>;
/** Query values as text or numbers, or what the table's encoder takes (a parsed filter, a list); the client checks them at run time. */
type QueryParams<N extends ServiceOperationName> = {
  [K in keyof PartInput<N, 'query'>]?: string | number | (K extends keyof Encoders<N> ? (Encoders<N>[K] extends (value: infer V) => unknown ? V : never) : never);
};
type BodyInput<N extends ServiceOperationName> = Entry<N> extends { sendBody: infer S extends z.ZodType } ? z.input<S> : PartInput<N, 'body'>;

/** The parts of a call in the caller's typed form; the client checks the rules at run time. */
export type ClientRequest<N extends ServiceOperationName> = ('path' extends keyof Entry<N>['schemas'] ? { path: PartInput<N, 'path'> } : unknown) &
  ('query' extends keyof Entry<N>['schemas'] ? { query?: QueryParams<N> } : unknown) &
  ('body' extends keyof Entry<N>['schemas'] ? { body: BodyInput<N> } : unknown);

type OkEnvelope<S extends z.ZodType> = Extract<Exclude<z.output<S>, { status: 'error' }>, { data: unknown; meta: unknown }>;
/** The outcome of a call whose answer the envelope schema S validates. */
export type OutcomeOf<S extends z.ZodType> = ServiceCallOutcome<OkEnvelope<S>['data'], OkEnvelope<S>>;
/** The answer's schema: the mode's, where the table checks answers by the request's mode. */
type ResponseSchemaOf<N extends ServiceOperationName, R> = Entry<N> extends { responseByMode: infer M }
  ? R extends { body: { mode: infer K extends keyof M } }
    ? M[K]
    : Entry<N>['schemas']['response']
  : Entry<N>['schemas']['response'];
/** The outcome of `call(operation, request)`. */
export type CallOutcome<N extends ServiceOperationName, R = ClientRequest<N>> = OutcomeOf<ResponseSchemaOf<N, R> & z.ZodType>;

// ---------------------------------------------------------------------------------------------
// Helpers (exported for tests and for callers that need the same rules)

/** Full-jitter exponential backoff: uniform in [0, min(cap, base * 2^(attempt-1))). */
export function backoffDelayMs(failedAttempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failedAttempt - 1));
  return Math.floor(Math.min(Math.max(random(), 0), 1) * ceiling);
}

/** Retry-After as delta-seconds or an HTTP date, in ms from `nowMs`; undefined when absent or unreadable. */
export function parseRetryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  // Only the IMF-fixdate form senders must use: Date.parse alone reads almost any text as some date.
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function integerHeader(headers: HttpAnswer['headers'], name: string): number | null {
  const value = headers.get(name);
  if (value === null || !/^\s*\d{1,15}\s*$/.test(value)) return null;
  return Number(value);
}

type MoneyHeader = { ok: true; value: MicroUsd | null } | { ok: false };

function moneyHeader(headers: HttpAnswer['headers'], name: string): MoneyHeader {
  const value = headers.get(name);
  if (value === null) return { ok: true, value: null };
  const parsed = MicroUsdHeaderSchema.safeParse(value.trim());
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}

/**
 * The billing and limit headers of an answer. `moneyMalformed` is set when a money header is present
 * but not plain digits: on a success that is a malformed response (the ledger cannot trust it).
 */
export function readServiceHeaders(status: number, headers: HttpAnswer['headers']): { http: ServiceHttpInfo; moneyMalformed: boolean } {
  const charged = moneyHeader(headers, 'X-Svc-Charged-Micro-USD');
  const balance = moneyHeader(headers, 'X-Svc-Balance-Micro-USD');
  return {
    http: {
      status,
      chargedMicroUsd: charged.ok ? charged.value : null,
      balanceMicroUsd: balance.ok ? balance.value : null,
      replayed: headers.get('X-Svc-Replayed')?.trim().toLowerCase() === 'true',
      rateLimitRemaining: integerHeader(headers, 'X-RateLimit-Remaining'),
      requestId: null,
    },
    moneyMalformed: !charged.ok || !balance.ok,
  };
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// Connection failures that mean the request never left this machine, so repeating it cannot charge twice.
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function networkErrorCode(error: unknown): string | undefined {
  // undici wraps the socket error as `cause` (sometimes an AggregateError carrying the code).
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    // Only a plain code is kept: error messages may quote request headers.
    if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function redact(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}

const ServiceErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string().optional(),
    message: z.string().optional(),
    retry_after_seconds: z.int().min(0).nullable().optional(),
  }),
});
const RequestIdSchema = z.looseObject({ request_id: z.string() });

// ---------------------------------------------------------------------------------------------
// One attempt's result

type AttemptResult =
  | { ok: true; envelope: unknown; http: ServiceHttpInfo }
  | {
      ok: false;
      error: PlatError;
      http?: ServiceHttpInfo;
      /** A server hint for when to retry. */
      retryAfterMs?: number;
      /** The request may have reached the service and been charged without the answer arriving. */
      answerLost: boolean;
      cancelled: boolean;
    };

interface CallPlan {
  operation: ServiceOperationName;
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  response: z.ZodType;
}

type QueryInput = Record<string, unknown>;

/**
 * Wire form of typed query values: the parameters the schema names, each through the table's encoder
 * if it has one, numbers as decimal text; anything else left for the schema to refuse.
 */
function wireQuery(params: object, schema: z.ZodType, encode: ServiceOperation['encode'] = {}): QueryInput {
  const wire: QueryInput = {};
  const source = params as Record<string, unknown>;
  for (const name of Object.keys((schema as unknown as z.ZodObject).shape)) {
    const value = source[name];
    if (value === undefined) continue;
    const converted = (encode[name] as ((value: unknown) => unknown) | undefined)?.(value) ?? value;
    wire[name] = typeof converted === 'number' ? String(converted) : converted;
  }
  return wire;
}

function searchParamsOf(wire: QueryInput): URLSearchParams {
  const params = new URLSearchParams();
  // Validated by now: every value is a string.
  for (const [name, value] of Object.entries(wire)) params.set(name, String(value));
  return params;
}

// ---------------------------------------------------------------------------------------------
// The client

interface RateBudget {
  remaining: number;
  /** When the client expects the service's minute window to reset. */
  resetAt: number;
  /** The earliest time the next paced call may go. */
  nextSendAt: number;
}

export class ServiceClient {
  readonly #base: string;
  readonly #getApiKey: () => string | null;
  readonly #transport: HttpTransport;
  readonly #timeoutMs: number;
  readonly #maxAttempts: number;
  readonly #random: () => number;
  readonly #sleep: Sleep;
  readonly #now: () => number;
  readonly #lowWaterMark: number | null;
  readonly #onAttempt: AttemptHook | undefined;
  readonly #onRetry: RetryHook | undefined;
  readonly #onThrottle: ThrottleHook | undefined;
  #budget: RateBudget | null = null;

  constructor(options: ServiceClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new TypeError('ServiceClient: baseUrl is not a URL');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError('ServiceClient: baseUrl must be http or https');
    if (base.username !== '' || base.password !== '') throw new TypeError('ServiceClient: baseUrl must not carry credentials');
    if (base.search !== '' || base.hash !== '') throw new TypeError('ServiceClient: baseUrl must not carry a query or fragment');
    this.#base = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
    this.#getApiKey = options.getApiKey;
    this.#transport = options.transport ?? undiciTransport;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(Number.isFinite(this.#timeoutMs) && this.#timeoutMs > 0)) throw new RangeError('ServiceClient: timeoutMs must be positive');
    this.#maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (!(Number.isInteger(this.#maxAttempts) && this.#maxAttempts >= 1)) throw new RangeError('ServiceClient: maxAttempts must be a whole number ≥ 1');
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#now = options.now ?? Date.now;
    this.#lowWaterMark = options.selfThrottle === false ? null : (options.selfThrottle?.lowWaterMark ?? DEFAULT_LOW_WATER_MARK);
    this.#onAttempt = options.onAttempt;
    this.#onRetry = options.onRetry;
    this.#onThrottle = options.onThrottle;
  }

  /**
   * One call of any operation in the table: each part the operation takes is encoded and checked as
   * the table says (path, then query, then body), and a bad part refuses the call before anything is sent.
   */
  call<N extends ServiceOperationName, const R extends ClientRequest<N>>(operation: N, request: R, options: CallOptions = {}): Promise<CallOutcome<N, R>> {
    return this.#run<CallOutcome<N, R>>(operation, options, () => this.#plan(operation, request as { path?: Record<string, string>; query?: object; body?: unknown }));
  }

  #plan(operation: ServiceOperationName, request: { path?: Record<string, string>; query?: object; body?: unknown }): CallPlan {
    const entry: ServiceOperation = serviceOperations[operation];
    const { schemas } = entry;
    const plan: CallPlan = { operation, path: entry.path, response: schemas.response };
    if (schemas.path) {
      const params = request.path ?? {};
      this.#check(operation, schemas.path, params);
      plan.path = fillPath(entry.path, params);
    }
    if (schemas.query) {
      const wire = wireQuery(request.query ?? {}, schemas.query, entry.encode);
      this.#check(operation, schemas.query, wire);
      plan.query = searchParamsOf(wire);
    }
    if (schemas.body) {
      const body = this.#check(operation, entry.sendBody ?? schemas.body, request.body);
      plan.body = body;
      const mode = (body as { mode?: string }).mode;
      if (entry.responseByMode && mode !== undefined && entry.responseByMode[mode]) plan.response = entry.responseByMode[mode];
    }
    return plan;
  }

  // ------------------------------------------------------------------------------------------
  // The call pipeline

  /** Validates a request part; a failure refuses the call before anything is sent. */
  #check<S extends z.ZodType>(operation: ServiceOperationName, schema: S, value: unknown): z.output<S> {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const details = invalidRequestDetails(parsed.error);
    throw new ServiceCallError({
      operation,
      platError: toPlatError('invalid_payload', { message: details.message }),
      attempts: 0,
      idempotencyKey: null,
      issues: details.issues,
    });
  }

  // The plan's response schema decides the outcome's shape; each public method names that type.
  async #run<Outcome>(operation: ServiceOperationName, options: CallOptions, plan: () => CallPlan): Promise<Outcome> {
    // Validation first: a bad request gets no key, no hook call and no HTTP request.
    const callPlan = plan();
    let idempotencyKey: string | null = null;
    if (serviceOperations[operation].idempotencyKey && options.idempotencyKey !== null) {
      if (options.idempotencyKey !== undefined) {
        this.#check(operation, RequestHeadersSchema, { 'idempotency-key': options.idempotencyKey });
        idempotencyKey = options.idempotencyKey;
      } else {
        idempotencyKey = randomUUID();
      }
    }
    return (await this.#call(callPlan, idempotencyKey, options)) as Outcome;
  }

  async #call(plan: CallPlan, idempotencyKey: string | null, options: CallOptions): Promise<ServiceCallOutcome<unknown, { meta: unknown }>> {
    const { operation } = plan;
    const spec = serviceOperations[operation];
    // A lost answer may have been charged. Repeating it is safe only when the service would replay it
    // (Idempotency-Key). A request without a key (the v2 GETs) is not repeated after a lost answer,
    // whatever Plat's price table says: a live service may charge for it.
    const lostAnswerRepeatable = spec.idempotencyKey;
    const url = new URL(`${this.#base}${plan.path}`);
    if (plan.query !== undefined) url.search = plan.query.toString();
    const body = plan.body === undefined ? undefined : JSON.stringify(plan.body);
    // What the most recent attempt got: its answer's headers, or none (and whether it was sent at all).
    let lastHttp: ServiceHttpInfo | undefined;
    let outcomeUnknown = false;
    // Whether any attempt so far was sent and lost its answer: later failures do not undo a charge.
    let answerEverLost = false;
    const fail = (platError: PlatError, attempts: number, cancelled = false) =>
      new ServiceCallError({ operation, platError, attempts, idempotencyKey, http: lastHttp, outcomeUnknown, mayHaveCharged: answerEverLost, cancelled });

    for (let attempt = 1; ; attempt += 1) {
      await this.#pace(operation, options.signal, () => fail(cancelledError(), attempt - 1, true));

      // The key is read for this attempt only and lives in this frame's headers, nowhere else.
      const apiKey = this.#getApiKey();
      if (apiKey === null || apiKey.trim() === '') throw fail(toPlatError('key_not_configured'), attempt - 1);
      if (!/^[\x21-\x7e]+$/.test(apiKey)) {
        throw fail(toPlatError('key_not_configured', { message: 'The saved API key has characters that cannot be sent' }), attempt - 1);
      }

      await this.#hook(options, { operation, idempotencyKey, attempt, phase: 'sending' }, (error) => fail(error, attempt - 1));
      const result = await this.#attempt(url, spec.method, body, apiKey, idempotencyKey, plan.response, options.signal);
      lastHttp = result.http;
      // Sent, and not even headers came back: the service may have done (and charged) it.
      outcomeUnknown = !result.ok && result.answerLost && result.http === undefined;
      if (!result.ok && result.answerLost) answerEverLost = true;
      else if (!result.ok && result.http !== undefined && settlesLostAnswer(result.http.status, result.error)) answerEverLost = false;
      if (result.http !== undefined) this.#observeRateLimit(result.http, result.ok ? undefined : result.retryAfterMs);
      const answered = result.http !== undefined && !(!result.ok && result.answerLost);
      await this.#hook(
        options,
        {
          operation,
          idempotencyKey,
          attempt,
          phase: answered ? 'answered' : 'failed',
          ...(result.http === undefined ? {} : { http: result.http }),
          ...(result.ok ? {} : { error: result.error }),
        },
        (error) => fail(error, attempt),
      );

      if (result.ok) {
        const envelope = result.envelope as { data: unknown; meta: unknown };
        return { operation, data: envelope.data, envelope, meta: envelope.meta, http: result.http, attempts: attempt, idempotencyKey };
      }
      if (result.cancelled) throw fail(result.error, attempt, true);
      const repeatable = result.error.retryable && (!result.answerLost || lostAnswerRepeatable);
      if (!repeatable || attempt >= this.#maxAttempts) throw fail(result.error, attempt);

      const delayMs = Math.min(MAX_RETRY_AFTER_MS, Math.max(result.retryAfterMs ?? 0, backoffDelayMs(attempt, this.#random)));
      const retry: RetryEvent = {
        operation,
        idempotencyKey,
        attempt,
        maxAttempts: this.#maxAttempts,
        delayMs,
        reason: result.error.code,
        error: result.error,
      };
      await notify(this.#onRetry, retry);
      await notify(options.onRetry, retry);
      await this.#wait(delayMs, options.signal, () => fail(cancelledError(), attempt, true));
    }
  }

  async #hook(options: CallOptions, event: AttemptEvent, failure: (error: PlatError) => ServiceCallError): Promise<void> {
    try {
      await this.#onAttempt?.(event);
      await options.onAttempt?.(event);
    } catch {
      // The hook is how the ledger records a call; if it cannot, the call must not go ahead unseen.
      throw failure(toPlatError('internal', { message: `Plat could not record the ${event.phase === 'sending' ? 'call before sending it' : 'answer'}` }));
    }
  }

  async #wait(ms: number, signal: AbortSignal | undefined, cancelled: () => ServiceCallError): Promise<void> {
    if (signal?.aborted) throw cancelled();
    if (ms > 0) {
      try {
        await this.#sleep(ms, signal);
      } catch (error) {
        if (signal?.aborted) throw cancelled();
        throw error;
      }
    }
    if (signal?.aborted) throw cancelled();
  }

  // ------------------------------------------------------------------------------------------
  // Self-throttling

  /**
   * Remembers how many calls the service says are left in its minute window. The window's reset is
   * taken from a 429's Retry-After when there is one, otherwise assumed at the next whole minute
   * (fixed windows, as the local service counts them).
   */
  #observeRateLimit(http: ServiceHttpInfo, retryAfterMs: number | undefined): void {
    if (this.#lowWaterMark === null) return;
    const now = this.#now();
    if (http.status === 429) {
      const resetAt = now + Math.min(MAX_RETRY_AFTER_MS, retryAfterMs ?? RATE_WINDOW_MS - (now % RATE_WINDOW_MS));
      this.#budget = { remaining: 0, resetAt, nextSendAt: this.#budget?.nextSendAt ?? now };
      return;
    }
    if (http.rateLimitRemaining === null) return;
    const resetAt = (Math.floor(now / RATE_WINDOW_MS) + 1) * RATE_WINDOW_MS;
    this.#budget = { remaining: http.rateLimitRemaining, resetAt, nextSendAt: this.#budget?.nextSendAt ?? now };
  }

  /**
   * Waits before an attempt when the window is nearly used up: the calls left are spread evenly over
   * what remains of the window, and once none are left the call waits for the reset. Concurrent calls
   * each take the next slot, so they do not all fire at once.
   */
  async #pace(operation: ServiceOperationName, signal: AbortSignal | undefined, cancelled: () => ServiceCallError): Promise<void> {
    const budget = this.#budget;
    if (this.#lowWaterMark === null || budget === null) return this.#wait(0, signal, cancelled);
    const now = this.#now();
    if (now >= budget.resetAt) {
      this.#budget = null;
      return this.#wait(0, signal, cancelled);
    }
    const remaining = budget.remaining;
    if (remaining > this.#lowWaterMark) {
      budget.remaining -= 1;
      return this.#wait(0, signal, cancelled);
    }
    let sendAt: number;
    if (remaining <= 0) {
      sendAt = budget.resetAt;
    } else {
      const spacing = (budget.resetAt - now) / (remaining + 1);
      sendAt = Math.max(now + spacing, budget.nextSendAt);
      budget.nextSendAt = sendAt + spacing;
      budget.remaining -= 1;
    }
    const delayMs = Math.max(0, Math.ceil(sendAt - now));
    if (delayMs > 0) await notify(this.#onThrottle, { operation, delayMs, rateLimitRemaining: Math.max(0, remaining) });
    return this.#wait(delayMs, signal, cancelled);
  }

  // ------------------------------------------------------------------------------------------
  // One HTTP attempt

  async #attempt(
    url: URL,
    method: 'GET' | 'POST',
    body: string | undefined,
    apiKey: string,
    idempotencyKey: string | null,
    responseSchema: z.ZodType,
    callerSignal: AbortSignal | undefined,
  ): Promise<AttemptResult> {
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' };
    if (idempotencyKey !== null) headers['Idempotency-Key'] = idempotencyKey;
    if (body !== undefined) headers['Content-Type'] = 'application/json';

    const timeout = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      timeout.abort();
    }, this.#timeoutMs);
    const signal = callerSignal === undefined ? timeout.signal : AbortSignal.any([callerSignal, timeout.signal]);
    let http: ServiceHttpInfo | undefined;
    let moneyMalformed: boolean;
    let retryAfterMs: number | undefined;
    let text: string;
    let status: number;
    try {
      // A redirect is not followed: it would carry the key somewhere the caller did not choose.
      const response = await this.#transport(url, { method, headers, signal, redirect: 'manual', ...(body === undefined ? {} : { body }) });
      status = response.status;
      ({ http, moneyMalformed } = readServiceHeaders(status, response.headers));
      retryAfterMs = parseRetryAfterMs(response.headers.get('Retry-After'), this.#now());
      text = await response.text();
    } catch (error) {
      const cancelled = callerSignal?.aborted === true;
      let platError: PlatError;
      if (cancelled) platError = cancelledError();
      else if (timedOut) platError = toPlatError('timeout');
      else {
        const code = networkErrorCode(error);
        platError = toPlatError('network_error', code === undefined ? undefined : { message: `The service could not be reached (${code})` });
        if (code !== undefined && NEVER_SENT_CODES.has(code)) {
          return { ok: false, error: platError, ...(http === undefined ? {} : { http }), answerLost: false, cancelled };
        }
      }
      return { ok: false, error: platError, ...(http === undefined ? {} : { http }), answerLost: true, cancelled };
    } finally {
      clearTimeout(timer);
    }

    let parsed: unknown;
    let isJson = true;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      isJson = false;
    }
    const requestId = isJson ? RequestIdSchema.safeParse(parsed) : undefined;
    if (requestId?.success) http = { ...http, requestId: requestId.data.request_id };

    if (status < 200 || status > 299) {
      // The status decides the catalogue code; the service's own message (key scrubbed) says what went wrong.
      const errorBody = isJson ? ServiceErrorBodySchema.safeParse(parsed) : undefined;
      const serviceError = errorBody?.success
        ? {
            ...(errorBody.data.error.code === undefined ? {} : { code: errorBody.data.error.code }),
            ...(errorBody.data.error.message === undefined ? {} : { message: redact(errorBody.data.error.message, apiKey) }),
          }
        : undefined;
      const hintSeconds = errorBody?.success ? errorBody.data.error.retry_after_seconds : undefined;
      const hint = retryAfterMs ?? (typeof hintSeconds === 'number' && hintSeconds > 0 ? hintSeconds * 1000 : undefined);
      return {
        ok: false,
        error: toPlatError(status, serviceError),
        http,
        ...(hint === undefined ? {} : { retryAfterMs: hint }),
        answerLost: false,
        cancelled: false,
      };
    }

    const malformed = (): AttemptResult => ({ ok: false, error: toPlatError('malformed_response'), http, answerLost: false, cancelled: false });
    if (!isJson || moneyMalformed) return malformed();
    const envelope = responseSchema.safeParse(parsed);
    if (!envelope.success) return malformed();
    const value = envelope.data as { status: string; request_id: string; contract_version: string };
    // A 2xx must carry a success envelope; and v4 echoes the key, so another request's answer shows.
    if (value.status === 'error') return malformed();
    if (value.contract_version === 'svc-v4' && idempotencyKey !== null && value.request_id !== idempotencyKey) return malformed();
    return { ok: true, envelope: envelope.data, http };
  }
}

/**
 * Whether an answer to a repeat (same Idempotency-Key) shows that an earlier attempt whose answer was
 * lost was not charged. The service answers a key it already did with the stored answer, free; so a
 * request error about the request itself (400, 404, 409, 422, or a 2xx that does not parse) means
 * the earlier attempt did not succeed, and failed calls are not charged. Transient failures (429,
 * 5xx) and refusals of the key or the account (401, 402, 403) may come before the service looks the
 * key up, so they settle nothing.
 */
function settlesLostAnswer(status: number, error: PlatError): boolean {
  if (status === 401 || status === 402 || status === 403) return false;
  return !error.retryable;
}

/** Retry and throttle hooks only inform (the UI's "waiting and retrying"); their failures do not stop a call. */
async function notify<E>(hook: ((event: E) => void | Promise<void>) | undefined, event: E): Promise<void> {
  try {
    await hook?.(event);
  } catch {
    // Deliberately ignored: see above.
  }
}

function cancelledError(): PlatError {
  // The catalogue has no "cancelled" code: the caller asked for it and checks `cancelled` on the error.
  return toPlatError('network_error', { message: 'The call was cancelled before its answer arrived' });
}

/** Catalogue codes a call can fail with, for callers that switch on them. */
export type ServiceCallErrorCode = Extract<
  PlatErrorCode,
  | 'invalid_payload'
  | 'invalid_request'
  | 'unauthorized'
  | 'payment_required'
  | 'account_suspended'
  | 'not_found'
  | 'idempotency_conflict'
  | 'response_too_large'
  | 'rate_limited'
  | 'service_unavailable'
  | 'network_error'
  | 'timeout'
  | 'malformed_response'
  | 'key_not_configured'
  | 'internal'
>;
