// What an answer's headers and error body say: billing, rate limit, request id, the service's own
// error.
import { z } from 'zod';
import { MicroUsdHeaderSchema, type MicroUsd } from '../../../shared/money.ts';
import type { HttpAnswer } from '../http-transport.ts';
import type { ServiceHttpInfo } from './types.ts';

function integerHeader(headers: HttpAnswer['headers'], name: string): number | null {
  const value = headers.get(name);
  if (value === null || !/^\s*\d{1,15}\s*$/.test(value)) return null;
  return Number(value);
}

/** Longest text of an unreadable money header kept, to show people what the service said. */
const MAX_HEADER_TEXT = 100;

type MoneyHeader = { value: MicroUsd | null; unreadable: string | null };

function moneyHeader(headers: HttpAnswer['headers'], name: string): MoneyHeader {
  const value = headers.get(name);
  if (value === null) return { value: null, unreadable: null };
  const parsed = MicroUsdHeaderSchema.safeParse(value.trim());
  return parsed.success ? { value: parsed.data, unreadable: null } : { value: null, unreadable: value.trim().slice(0, MAX_HEADER_TEXT) };
}

/**
 * The billing and limit headers of an answer. A money header that is not a whole, non-negative
 * number of micro-USD (garbage, a sign, a fraction) is unknown (null), never a reason to drop the
 * answer: the balance the service reports is what the ledger books (reconciliation.ts). An
 * unreadable charge header's text is kept (`chargedHeader`) so the ledger can show what it said.
 */
export function readServiceHeaders(status: number, headers: HttpAnswer['headers']): { http: ServiceHttpInfo } {
  const charged = moneyHeader(headers, 'X-Svc-Charged-Micro-USD');
  const balance = moneyHeader(headers, 'X-Svc-Balance-Micro-USD');
  return {
    http: {
      status,
      chargedMicroUsd: charged.value,
      balanceMicroUsd: balance.value,
      replayed: headers.get('X-Svc-Replayed')?.trim().toLowerCase() === 'true',
      rateLimitRemaining: integerHeader(headers, 'X-RateLimit-Remaining'),
      requestId: null,
      ...(charged.unreadable === null ? {} : { chargedHeader: charged.unreadable }),
    },
  };
}

// Each field of a service's error object is read on its own: one of the wrong type (a numeric
// code, a retry hint in words) is left out rather than costing the service's message.
export const ServiceErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string().optional().catch(undefined),
    message: z.string().optional().catch(undefined),
    retry_after_seconds: z.int().min(0).nullable().optional().catch(undefined),
  }),
});
// An id the ledger can keep: an empty or oversized one is treated as absent, not as a broken answer.
export const RequestIdSchema = z.looseObject({ request_id: z.string().min(1).max(512) });
