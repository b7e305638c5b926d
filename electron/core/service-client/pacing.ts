// Self-throttling: the client spaces out its calls when the service's minute window runs low, so a
// burst does not run into 429s.
import { MAX_RETRY_AFTER_MS } from './retry.ts';
import type { ServiceHttpInfo } from './types.ts';

export const DEFAULT_LOW_WATER_MARK = 2;
/** The spec counts the rate limit per minute. */
const RATE_WINDOW_MS = 60_000;

interface RateBudget {
  remaining: number;
  /** When the client expects the service's minute window to reset. */
  resetAt: number;
  /** The earliest time the next paced call may go. */
  nextSendAt: number;
}


export class RatePacer {
  readonly #lowWaterMark: number | null;
  readonly #now: () => number;
  #budget: RateBudget | null = null;

  /** `lowWaterMark` null: no pacing. */
  constructor(lowWaterMark: number | null, now: () => number) {
    this.#lowWaterMark = lowWaterMark;
    this.#now = now;
  }

  /**
   * Remembers how many calls the service says are left in its minute window. The window's reset is
   * taken from a 429's Retry-After when there is one, otherwise assumed at the next whole minute
   * (fixed windows, as the local service counts them).
   */
  observe(http: ServiceHttpInfo, retryAfterMs: number | undefined): void {
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
   * Takes the next slot: how long to wait before an attempt when the window is nearly used up (the
   * calls left are spread evenly over what remains of the window; once none are left, until the
   * reset), and what the client believes is left. Concurrent calls each take the next slot, so they
   * do not all fire at once.
   */
  nextSlot(): { delayMs: number; rateLimitRemaining: number } {
    const budget = this.#budget;
    const none = { delayMs: 0, rateLimitRemaining: 0 };
    if (this.#lowWaterMark === null || budget === null) return none;
    const now = this.#now();
    if (now >= budget.resetAt) {
      this.#budget = null;
      return none;
    }
    const remaining = budget.remaining;
    if (remaining > this.#lowWaterMark) {
      budget.remaining -= 1;
      return none;
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
    return { delayMs: Math.max(0, Math.ceil(sendAt - now)), rateLimitRemaining: Math.max(0, remaining) };
  }
}
