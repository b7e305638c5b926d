import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorFor, errorForStatus, PlatErrorSchema, platErrorCodes, toPlatError } from './errors.ts';

describe('error catalogue', () => {
  it('maps every status the spec lists to its code', () => {
    const expected: Record<number, string> = {
      400: 'invalid_request',
      401: 'unauthorized',
      402: 'payment_required',
      403: 'account_suspended',
      404: 'not_found',
      409: 'idempotency_conflict',
      422: 'response_too_large',
      429: 'rate_limited',
      503: 'service_unavailable',
    };
    for (const [status, code] of Object.entries(expected)) {
      expect(errorForStatus(Number(status)).code).toBe(code);
    }
  });

  it('marks only transient failures retryable', () => {
    const retryable = platErrorCodes.filter((code) => errorCatalogue[code].retryable).sort();
    expect(retryable).toEqual(['cancelled', 'charged_answer_lost', 'charged_answer_unreadable', 'disk_full', 'network_error', 'rate_limited', 'service_unavailable', 'timeout']);
  });

  it('gives every entry a message and a next step, with its own code', () => {
    for (const code of platErrorCodes) {
      const entry = errorFor(code);
      expect(entry.code).toBe(code);
      expect(entry.summary.length).toBeGreaterThan(0);
      expect(entry.nextStep.length).toBeGreaterThan(0);
      expect(entry.message).toBe(`${entry.summary} — ${entry.nextStep}`);
    }
    expect(errorFor('unauthorized').message).toBe('API key missing or revoked — update it in Settings');
  });

  it('covers the Plat-side failures later layers raise', () => {
    for (const code of ['budget_exceeded', 'confirmation_required', 'invalid_payload', 'forbidden_sender', 'key_not_configured', 'internal', 'network_error', 'malformed_response', 'timeout']) {
      expect(errorFor(code).code).toBe(code);
      expect(errorFor(code).httpStatus).toBeUndefined();
    }
  });

  it('treats an unknown code as internal', () => {
    expect(errorFor('no_such_code').code).toBe('internal');
    expect(errorFor('toString').code).toBe('internal');
  });

  it('falls back by status class for statuses the spec does not list', () => {
    expect(errorForStatus(418).code).toBe('invalid_request');
    expect(errorForStatus(500).code).toBe('service_unavailable');
    expect(errorForStatus(502).retryable).toBe(true);
    expect(errorForStatus(302).code).toBe('malformed_response');
  });

  it('uses the service code only when the catalogue gives it the same status', () => {
    expect(errorForStatus(429, { code: 'rate_limited' }).code).toBe('rate_limited');
    expect(errorForStatus(400, { code: 'rate_limited', message: 'x' }).code).toBe('invalid_request');
    expect(errorForStatus(400, 'not an object').code).toBe('invalid_request');
  });
});

describe('toPlatError', () => {
  it("keeps the service's message but the catalogue's code, retryable flag and next step", () => {
    const error = toPlatError(400, { code: 'invalid_limit', message: 'limit: must be at most 100', retryable: true });
    expect(error).toEqual({
      code: 'invalid_request',
      message: 'limit: must be at most 100 — correct the highlighted value and try again',
      retryable: false,
    });
  });

  it('uses the catalogue message when the service gave none', () => {
    expect(toPlatError(401)).toEqual({ code: 'unauthorized', message: 'API key missing or revoked — update it in Settings', retryable: false });
    expect(toPlatError(503, { code: 'x', message: '   ' }).message).toBe(errorFor('service_unavailable').message);
    expect(toPlatError('network_error')).toEqual({ code: 'network_error', message: errorFor('network_error').message, retryable: true });
  });

  it('shortens an overlong service message', () => {
    const error = toPlatError(404, { message: 'x'.repeat(2000) });
    expect(error.message.length).toBeLessThan(600);
  });

  it('yields exactly the three fields that may cross a boundary', () => {
    const error = toPlatError(402, { code: 'payment_required', message: 'Credit used up', details: { secret: 1 } });
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'retryable']);
    expect(PlatErrorSchema.parse({ ...error, stack: 'at …' })).toEqual(error);
    expect(PlatErrorSchema.safeParse({ code: '', message: 'x', retryable: false }).success).toBe(false);
  });
});
