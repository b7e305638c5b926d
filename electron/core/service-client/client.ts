// The one client for the Property Records Service (v2, v3 and v4) over HTTP (http-transport.ts). It refuses bad
// requests before they can spend money, sends the bearer key read fresh at each attempt (never kept,
// never echoed), gives every charged call an Idempotency-Key that its retries reuse (so a lost answer
// is replayed free instead of charged twice), retries only what may succeed, paces itself when the
// rate limit runs low, checks every answer against the shared contract, and scrubs every answer of
// the keys in use and of credential-shaped text before anything else in Plat sees it
// (../secret-scrub.ts). Every operation goes through `call`, driven by the operation table
// (shared/service/operations.ts).
import { randomUUID } from 'node:crypto';
import { toPlatError, type PlatError } from '../../../shared/errors.ts';
import { RequestHeadersSchema, serviceOperations, type ServiceOperationName } from '../../../shared/service/index.ts';
import { undiciTransport } from '../http-transport.ts';
import { Scrubber } from '../secret-scrub.ts';
import { sendAttempt, type AttemptVia } from './attempt.ts';
import { cancelledError, ServiceCallError } from './call-error.ts';
import { DEFAULT_LOW_WATER_MARK, RatePacer } from './pacing.ts';
import { checkPart, planCall, type CallOutcome, type CallPlan, type ClientRequest } from './requests.ts';
import { backoffDelayMs, defaultSleep, MAX_RETRY_AFTER_MS, settlesLostAnswer } from './retry.ts';
import type {
  AttemptEvent,
  AttemptHook,
  CallOptions,
  RetryEvent,
  RetryHook,
  ServiceCallOutcome,
  ServiceClientOptions,
  ServiceHttpInfo,
  Sleep,
  ThrottleHook,
} from './types.ts';

export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_ATTEMPTS = 4;

export class ServiceClient {
  readonly #base: string;
  readonly #getApiKey: () => string | null;
  readonly #secrets: () => Iterable<string | null | undefined>;
  readonly #via: AttemptVia;
  readonly #maxAttempts: number;
  readonly #random: () => number;
  readonly #sleep: Sleep;
  readonly #pacer: RatePacer;
  readonly #onAttempt: AttemptHook | undefined;
  readonly #onRetry: RetryHook | undefined;
  readonly #onThrottle: ThrottleHook | undefined;

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
    this.#secrets = options.secrets ?? (() => []);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new RangeError('ServiceClient: timeoutMs must be positive');
    this.#maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (!(Number.isInteger(this.#maxAttempts) && this.#maxAttempts >= 1)) throw new RangeError('ServiceClient: maxAttempts must be a whole number ≥ 1');
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? defaultSleep;
    const now = options.now ?? Date.now;
    this.#via = { transport: options.transport ?? undiciTransport, timeoutMs, now };
    this.#pacer = new RatePacer(options.selfThrottle === false ? null : (options.selfThrottle?.lowWaterMark ?? DEFAULT_LOW_WATER_MARK), now);
    this.#onAttempt = options.onAttempt;
    this.#onRetry = options.onRetry;
    this.#onThrottle = options.onThrottle;
  }

  /**
   * One call of any operation in the table: each part the operation takes is encoded and checked as
   * the table says (path, then query, then body), and a bad part refuses the call before anything is sent.
   */
  async call<N extends ServiceOperationName, const R extends ClientRequest<N>>(operation: N, request: R, options: CallOptions = {}): Promise<CallOutcome<N, R>> {
    // Validation first: a bad request gets no key, no hook call and no HTTP request.
    const plan = planCall(operation, request as { path?: Record<string, string>; query?: object; body?: unknown });
    let idempotencyKey: string | null = null;
    if (serviceOperations[operation].idempotencyKey && options.idempotencyKey !== null) {
      if (options.idempotencyKey !== undefined) {
        checkPart(operation, RequestHeadersSchema, { 'idempotency-key': options.idempotencyKey });
        idempotencyKey = options.idempotencyKey;
      } else {
        idempotencyKey = randomUUID();
      }
    }
    // The plan's response schema decided the outcome's shape, which CallOutcome names.
    return (await this.#call(plan, idempotencyKey, options)) as CallOutcome<N, R>;
  }

  // ------------------------------------------------------------------------------------------
  // The call pipeline

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
      const scrubber = new Scrubber([apiKey, ...this.#otherSecrets()]);
      const result = await sendAttempt(this.#via, url, spec.method, body, { apiKey, scrubber }, idempotencyKey, plan.response, options.signal);
      lastHttp = result.http;
      // Sent, and not even headers came back: the service may have done (and charged) it.
      outcomeUnknown = !result.ok && result.answerLost && result.http === undefined;
      if (!result.ok && result.answerLost) answerEverLost = true;
      else if (!result.ok && result.http !== undefined && settlesLostAnswer(result.http.status, result.error)) answerEverLost = false;
      if (result.http !== undefined) this.#pacer.observe(result.http, result.ok ? undefined : result.retryAfterMs);
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

  /** The other keys to scrub; when they cannot be read, the key sent and the credential shapes still are. */
  #otherSecrets(): Iterable<string | null | undefined> {
    try {
      return [...this.#secrets()];
    } catch {
      return [];
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

  /** Waits for the pacer's next slot before an attempt (see pacing.ts). */
  async #pace(operation: ServiceOperationName, signal: AbortSignal | undefined, cancelled: () => ServiceCallError): Promise<void> {
    const { delayMs, rateLimitRemaining } = this.#pacer.nextSlot();
    if (delayMs > 0) await notify(this.#onThrottle, { operation, delayMs, rateLimitRemaining });
    return this.#wait(delayMs, signal, cancelled);
  }
}

/** Retry and throttle hooks only inform (the UI's "waiting and retrying"); their failures do not stop a call. */
async function notify<E>(hook: ((event: E) => void | Promise<void>) | undefined, event: E): Promise<void> {
  try {
    await hook?.(event);
  } catch {
    // Deliberately ignored: see above.
  }
}

