// The Property Records Service client: one generic `call` per the operation table, and its parts.
export * from './client.ts';
export * from './types.ts';
export * from './call-error.ts';
export { backoffDelayMs, parseRetryAfterMs, BACKOFF_BASE_MS, BACKOFF_CAP_MS, MAX_RETRY_AFTER_MS } from './retry.ts';
export { readServiceHeaders } from './headers.ts';
export { DEFAULT_LOW_WATER_MARK } from './pacing.ts';
export type { CallOutcome, ClientRequest, OutcomeOf } from './requests.ts';
