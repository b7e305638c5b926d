// What an answer's headers and error body say: billing, rate limit, request id, the service's own
// error (its message scrubbed of the key).
import { z } from 'zod';
import { MicroUsdHeaderSchema, type MicroUsd } from '../../../shared/money.ts';
import type { HttpAnswer } from '../http-transport.ts';
import type { ServiceHttpInfo } from './types.ts';

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

export const ServiceErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string().optional(),
    message: z.string().optional(),
    retry_after_seconds: z.int().min(0).nullable().optional(),
  }),
});
export const RequestIdSchema = z.looseObject({ request_id: z.string() });


export function redact(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}

