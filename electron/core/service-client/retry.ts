// When to try a call again: full-jitter backoff, the server's Retry-After, which failures cannot have
// been sent (so repeating them cannot charge twice) and which answers settle a lost one.
import type { PlatError } from '../../../shared/errors.ts';

export const BACKOFF_BASE_MS = 250;
export const BACKOFF_CAP_MS = 8_000;
/** The longest a server hint (Retry-After, v2 `retry_after_seconds`) can make the client wait. */
export const MAX_RETRY_AFTER_MS = 60_000;

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

export /**
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

// Connection failures that mean the request never left this machine, so repeating it cannot charge twice.
export const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export function networkErrorCode(error: unknown): string | undefined {
  // undici wraps the socket error as `cause` (sometimes an AggregateError carrying the code).
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    // Only a plain code is kept: error messages may quote request headers.
    if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Waits `ms`, rejecting when the signal aborts. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
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
