// The service client against a scripted fetch (URLs, backoff, Retry-After, malformed answers, headers,
// base URLs) and against the rate limit.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../local-service/server.ts';
import { startTestService, stopTestService } from '../../local-service/test-harness.ts';
import type { TestService } from '../../local-service/test-harness.ts';
import { BACKOFF_CAP_MS, backoffDelayMs, parseRetryAfterMs, readServiceHeaders, ServiceClient } from './index.ts';
import type { RetryEvent, ServiceClientOptions, ThrottleEvent } from './index.ts';
import { fakeStore, QID, fakeOperations, newFixture, FakeTime, sentHeader, jsonResponse, v4Ok, v4Err, okHeaders, caught } from './test-kit.ts';

// ---------------------------------------------------------------------------------------------
// Answers the local service does not give on purpose: a fake fetch.

describe('ServiceClient with a scripted fetch', () => {
  const base = 'http://127.0.0.1:9/svc/';

  function scripted(...answers: Array<(init: RequestInit | undefined) => Response>): { fetch: typeof fetch; urls: string[] } {
    const urls: string[] = [];
    return {
      urls,
      fetch: (input, init) => {
        urls.push(String(input));
        const answer = answers.shift();
        if (!answer) throw new Error('no scripted answer left');
        return Promise.resolve(answer(init));
      },
    };
  }

  function scriptedClient(fetchFn: typeof fetch, time: FakeTime, options: Partial<ServiceClientOptions> = {}): ServiceClient {
    return new ServiceClient({ baseUrl: base, getApiKey: () => 'svc_live_test', transport: fetchFn, sleep: time.sleep, now: () => time.now, random: () => 0.5, ...options });
  }

  const ok = (init: RequestInit | undefined, headers: Record<string, string> = okHeaders) =>
    jsonResponse(200, v4Ok(sentHeader(init, 'Idempotency-Key') ?? '', { year_built: 1925 }), headers);

  it('keeps the base path prefix', async () => {
    const time = new FakeTime(0);
    const script = scripted((init) => ok(init));
    await scriptedClient(script.fetch, time).call('v4.summary', { path: { q_id: QID }, query: { fields: 'year_built' } });
    expect(script.urls).toEqual([`http://127.0.0.1:9/svc/api/v4/entities/${QID}/summary?fields=year_built`]);
  });

  it('backs off exponentially with full jitter when no hint is given, up to maxAttempts', async () => {
    const time = new FakeTime(0);
    const unavailable = () => jsonResponse(503, v4Err('service_unavailable', 'busy', true));
    const script = scripted(unavailable, unavailable, unavailable, unavailable);
    const error = await caught(scriptedClient(script.fetch, time).call('v4.summary', { path: { q_id: QID } }));
    expect(error.platError).toMatchObject({ code: 'service_unavailable', retryable: true });
    expect(error.attempts).toBe(4);
    expect(time.sleeps).toEqual([125, 250, 500]);

    expect(backoffDelayMs(1, () => 0)).toBe(0);
    expect(backoffDelayMs(3, () => 0.999)).toBe(999);
    expect(backoffDelayMs(20, () => 0.9999)).toBeLessThan(BACKOFF_CAP_MS);
    expect(backoffDelayMs(20, () => 0.9999)).toBeGreaterThan(BACKOFF_CAP_MS - 5);
  });

  it('honours Retry-After (capped at 60 s) and v2 retry_after_seconds', async () => {
    const time = new FakeTime(0);
    const script = scripted(
      () => jsonResponse(429, v4Err('rate_limited', 'slow down', true), { 'Retry-After': '600', 'X-RateLimit-Remaining': '0' }),
      (init) => ok(init),
    );
    const outcome = await scriptedClient(script.fetch, time).call('v4.summary', { path: { q_id: QID } });
    expect(outcome.attempts).toBe(2);
    expect(time.sleeps).toEqual([60_000]);

    const v2Time = new FakeTime(0);
    const v2Error = {
      contract_version: 'svc-v2', request_id: 'r', operation: 'get_entity', status: 'error', data: null,
      error: { code: 'service_unavailable', message: 'busy', retryable: true, retry_after_seconds: 7, details: null },
      meta: { served_at: '2025-01-01T00:00:00Z' },
    };
    const v2Ok = {
      contract_version: 'svc-v2', request_id: 'r', operation: 'get_entity', status: 'ok', error: null,
      data: { entity: { entity_ref: 'prop_1', entity_kind: 'property' } }, meta: { served_at: '2025-01-01T00:00:00Z' },
    };
    const v2Script = scripted(() => jsonResponse(503, v2Error), () => jsonResponse(200, v2Ok, okHeaders));
    const entity = await scriptedClient(v2Script.fetch, v2Time).call('v2.getEntity', { path: { entity_ref: 'prop_1' } });
    expect(entity.attempts).toBe(2);
    expect(v2Time.sleeps).toEqual([7_000]);

    expect(parseRetryAfterMs('3', 0)).toBe(3000);
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:30 GMT', Date.UTC(2025, 0, 1))).toBe(30_000);
    expect(parseRetryAfterMs('soon-ish 1', 0)).toBeUndefined();
    expect(parseRetryAfterMs(null, 0)).toBeUndefined();
  });

  it('treats unparseable or contract-breaking 2xx answers as malformed and does not retry them', async () => {
    const answers: Array<[string, (init: RequestInit | undefined) => Response]> = [
      ['not JSON', () => new Response('<html>oops</html>', { status: 200, headers: okHeaders })],
      ['wrong contract version', (init) => jsonResponse(200, { ...v4Ok(sentHeader(init, 'Idempotency-Key') ?? '', {}), contract_version: 'svc-v9' }, okHeaders)],
      ['missing meta', (init) => jsonResponse(200, { ...v4Ok(sentHeader(init, 'Idempotency-Key') ?? '', {}), meta: undefined }, okHeaders)],
      ['error envelope on 200', () => jsonResponse(200, v4Err('service_unavailable', 'x', true), okHeaders)],
      ['another request’s answer', () => jsonResponse(200, v4Ok('someone-else', {}), okHeaders)],
      ['a redirect', () => new Response(null, { status: 302, headers: { Location: 'https://elsewhere.example/' } })],
    ];
    for (const [label, answer] of answers) {
      const time = new FakeTime(0);
      const script = scripted(answer);
      const error = await caught(scriptedClient(script.fetch, time).call('v4.summary', { path: { q_id: QID } }));
      expect(error.platError.code, label).toBe('malformed_response');
      expect(error.attempts, label).toBe(1);
      expect(time.sleeps, label).toEqual([]);
    }
  });

  it('reads the service headers, treating missing or non-integer values as unknown', () => {
    const full = readServiceHeaders(200, new Headers(okHeaders));
    expect(full).toEqual({
      http: { status: 200, chargedMicroUsd: 100000, balanceMicroUsd: 900000, replayed: false, rateLimitRemaining: 50, requestId: null },
    });
    const sparse = readServiceHeaders(200, new Headers({ 'X-RateLimit-Remaining': 'lots', 'X-Svc-Replayed': 'true' }));
    expect(sparse.http).toMatchObject({ chargedMicroUsd: null, balanceMicroUsd: null, replayed: true, rateLimitRemaining: null });
    expect(readServiceHeaders(200, new Headers({ 'X-RateLimit-Remaining': '-1' })).http.rateLimitRemaining).toBeNull();
    expect(readServiceHeaders(200, new Headers({ 'X-Svc-Balance-Micro-USD': '-5' })).http.balanceMicroUsd).toBeNull();
  });

  it('keeps an answer whose money headers cannot be read: the amount is unknown and the charge header\'s text is kept', async () => {
    for (const header of ['1e5', '-100000', 'about ten cents', '100000.5']) {
      const script = scripted((init) => ok(init, { ...okHeaders, 'X-Svc-Charged-Micro-USD': header, 'X-Svc-Balance-Micro-USD': 'lots' }));
      const outcome = await scriptedClient(script.fetch, new FakeTime(0)).call('v4.summary', { path: { q_id: QID } });
      expect(outcome.http, header).toMatchObject({ status: 200, chargedMicroUsd: null, balanceMicroUsd: null, chargedHeader: header });
    }
  });

  it("keeps the service's error message when another field of its error object has the wrong type", async () => {
    const body = { error: { code: 400, message: 'Unknown filter field ssl; fields are SSL, OWNERNAME', retry_after_seconds: 'soon' } };
    const script = scripted(() => jsonResponse(400, body));
    const error = await caught(scriptedClient(script.fetch, new FakeTime(0)).call('v4.summary', { path: { q_id: QID } }));
    expect(error.platError.code).toBe('invalid_request');
    expect(error.platError.message).toMatch(/^Unknown filter field ssl; fields are SSL, OWNERNAME — /);
  });

  it('says what is wrong with a 2xx answer it cannot read', async () => {
    const script = scripted((init) => jsonResponse(200, { ...v4Ok(sentHeader(init, 'Idempotency-Key') ?? '', {}), meta: undefined }, okHeaders));
    const error = await caught(scriptedClient(script.fetch, new FakeTime(0)).call('v4.summary', { path: { q_id: QID } }));
    expect(error.platError.code).toBe('malformed_response');
    expect(error.platError.message).toMatch(/^The service's answer could not be read: meta: /);
    expect(error.http).toMatchObject({ status: 200, chargedMicroUsd: 100000 });
  });

  it('refuses a base URL that could leak or misroute the key', () => {
    const make = (baseUrl: string) => () => new ServiceClient({ baseUrl, getApiKey: () => 'k' });
    expect(make('ftp://example.com')).toThrow(TypeError);
    expect(make('https://user:pass@example.com')).toThrow(TypeError);
    expect(make('https://example.com/?x=1')).toThrow(TypeError);
    expect(make('not a url')).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Rate limits, with the service and the client on one fake clock.

describe('ServiceClient and the rate limit', () => {
  // 30 s into a minute, so the service's fixed window resets 30 s later.
  const START = Date.UTC(2025, 0, 1, 12, 0, 30);
  let svc: TestService;
  let time: FakeTime;
  let requests: RequestLogEntry[];

  beforeEach(async () => {
    time = new FakeTime(START);
    requests = [];
    svc = await startTestService({
      operations: fakeOperations(newFixture()),
      store: fakeStore,
      rateLimitPerMinute: 4,
      clock: () => new Date(time.now),
      onRequest: (entry) => requests.push(entry),
    });
  });
  afterEach(async () => {
    await stopTestService(svc);
  });

  function client(options: Partial<ServiceClientOptions> = {}): ServiceClient {
    return new ServiceClient({ baseUrl: svc.url, getApiKey: () => svc.keys.active, sleep: time.sleep, now: () => time.now, random: () => 0.5, ...options });
  }

  it('spaces out calls at the low-water mark instead of running into 429', async () => {
    const throttles: ThrottleEvent[] = [];
    const c = client({ onThrottle: (event) => void throttles.push(event) });
    const outcomes = [];
    for (let call = 0; call < 6; call += 1) outcomes.push(await c.call('v4.catalog', {}));

    expect(outcomes.map((outcome) => outcome.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(requests.map((entry) => entry.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // 4 calls a minute, 30 s left: at 2 remaining the calls are spread (10 s apart), at 0 the client
    // waits for the window to reset at the next minute.
    expect(throttles.map((event) => [event.delayMs, event.rateLimitRemaining])).toEqual([
      [10_000, 2],
      [10_000, 1],
      [10_000, 0],
    ]);
    expect(time.now).toBe(START + 30_000);
  });

  it('without self-throttling hits 429 and honours its Retry-After', async () => {
    const retries: RetryEvent[] = [];
    const c = client({ selfThrottle: false, onRetry: (event) => void retries.push(event) });
    const outcomes = [];
    for (let call = 0; call < 5; call += 1) outcomes.push(await c.call('v4.catalog', {}));

    expect(outcomes.map((outcome) => outcome.attempts)).toEqual([1, 1, 1, 1, 2]);
    expect(requests.map((entry) => entry.status)).toEqual([200, 200, 200, 200, 429, 200]);
    expect(retries.map((event) => [event.reason, event.delayMs])).toEqual([['rate_limited', 30_000]]);
  });

  it('a second client that knows nothing of the window waits out the 429', async () => {
    const first = client({ selfThrottle: false });
    for (let call = 0; call < 4; call += 1) await first.call('v4.catalog', {});
    const retries: RetryEvent[] = [];
    const second = client({ onRetry: (event) => void retries.push(event) });
    const outcome = await second.call('v4.catalog', {});
    expect(outcome.attempts).toBe(2);
    expect(retries.map((event) => [event.reason, event.delayMs])).toEqual([['rate_limited', 30_000]]);
  });
});

// ---------------------------------------------------------------------------------------------
// Secrets a service echoes: scrubbed as the answer arrives, before anything in Plat keeps it.

describe('ServiceClient scrubs every answer of the keys in use', () => {
  const key = 'plat-Current-0123456789';
  const before = 'plat-Before-9876543210';
  const client = (fetchFn: typeof fetch) =>
    new ServiceClient({ baseUrl: 'http://127.0.0.1:9', getApiKey: () => key, secrets: () => [before], transport: fetchFn, maxAttempts: 1, selfThrottle: false });

  it('in data (a field that equals a key included), meta, request_id and the charge header text', async () => {
    const answer = (init: RequestInit | undefined) => {
      const body = v4Ok(sentHeader(init, 'Idempotency-Key') ?? '', {
        year_built: 1925,
        owner_name: `SMITH ${key}`,
        note: `quoted ${before}`,
        account_no: 'svc_live_0123456789abcdef0123',
        [key]: 'as a name',
      });
      return jsonResponse(200, { ...body, meta: { ...(body['meta'] as object), warnings: [`for Bearer ${key}`] } }, { ...okHeaders, 'X-Svc-Charged-Micro-USD': `charged ${key}` });
    };
    const outcome = await client((_input, init) => Promise.resolve(answer(init))).call('v4.summary', { path: { q_id: QID } });
    const text = JSON.stringify(outcome);
    expect(text).not.toContain(key);
    expect(text).not.toContain(before);
    expect(outcome.data).toMatchObject({ owner_name: 'SMITH [redacted]', note: 'quoted [redacted]', account_no: '[redacted]', '[redacted]': 'as a name' });
    expect(outcome.meta).toMatchObject({ warnings: ['for [redacted]'] });
    expect(outcome.http.chargedHeader).toBe('charged [redacted]');
  });

  it('in the request id and message of an error, and of an answer it cannot read', async () => {
    const refused = await caught(
      client(() => Promise.resolve(jsonResponse(404, { ...v4Err('not_found', `no such thing for ${key}`, false), request_id: `req_${key}` }))).call('v4.summary', { path: { q_id: QID } }),
    );
    expect(JSON.stringify(refused)).not.toContain(key);
    expect(refused.platError.message).toContain('no such thing for [redacted]');
    expect(refused.http?.requestId).toBe('req_[redacted]');

    const unreadable = await caught(
      client(() => Promise.resolve(jsonResponse(200, { ...v4Ok(`req_${before}`, { year_built: 1925 }) }, okHeaders))).call('v4.summary', { path: { q_id: QID } }),
    );
    expect(unreadable.platError.code).toBe('malformed_response');
    expect(JSON.stringify(unreadable)).not.toContain(before);
    expect(unreadable.http?.requestId).toBe('req_[redacted]');
  });
});
