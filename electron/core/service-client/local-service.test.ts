// The service client against the local service's HTTP layer (fake operations: auth, billing, replays,
// faults) and against the real local operations over the sample.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import type { RequestLogEntry } from '../../local-service/server.ts';
import { SEED_CREDIT_MICRO_USD } from '../../local-service/service-state.ts';
import { startTestService, stopTestService } from '../../local-service/test-harness.ts';
import type { TestService, TestServiceOptions } from '../../local-service/test-harness.ts';
import type { LocalOperation } from '../../local-service/operation.ts';
import { ServiceFailure } from '../../local-service/operation.ts';
import { errorCatalogue } from '../../../shared/errors.ts';
import { ServiceCallError, ServiceClient } from './index.ts';
import type { AttemptEvent, RetryEvent, ServiceClientOptions } from './index.ts';
import { fakeStore, QID, ADDR, OTHER_QID, SUMMARY_PRICE, SEARCH_PRICE, ENTITY_PRICE, UUID, citation, searchRecord, fakeOperations, newFixture, queue, fail503, FakeTime, recordingFetch, sentHeader, jsonResponse, v4Err, hangingFetch, caught } from './test-kit.ts';
import type { Fixture, Override } from './test-kit.ts';

// ---------------------------------------------------------------------------------------------

describe('ServiceClient against the local service', () => {
  let svc: TestService;
  let fixture: Fixture;
  let requests: RequestLogEntry[];
  /** Fault draws for the service: below 0.25 answers 503, 0.25..0.5 drops the answer after charging. */
  let faultDraws: number[];
  let time: FakeTime;

  beforeAll(async () => {
    fixture = newFixture();
    requests = [];
    faultDraws = [];
    svc = await startTestService({
      operations: fakeOperations(fixture),
      store: fakeStore,
      faultRate: 0.5,
      random: () => faultDraws.shift() ?? 0.99,
      onRequest: (entry) => requests.push(entry),
    });
  });
  afterAll(async () => {
    await stopTestService(svc);
  });
  beforeEach(() => {
    fixture.overrides.clear();
    fixture.runs.clear();
    fixture.seen.clear();
    requests.length = 0;
    faultDraws.length = 0;
    time = new FakeTime(Date.now());
  });

  function client(options: Partial<ServiceClientOptions> = {}): ServiceClient {
    return new ServiceClient({
      baseUrl: svc.url,
      getApiKey: () => svc.keys.active,
      sleep: time.sleep,
      now: () => time.now,
      random: () => 0.5,
      ...options,
    });
  }

  it('returns data, envelope and billing headers, and replays a repeated key for free', async () => {
    const before = svc.balance();
    const events: AttemptEvent[] = [];
    const summary = await client({ onAttempt: (event) => void events.push(event) }).call('v4.summary', { path: { q_id: QID }, query: { fields: ['year_built', 'bedrooms'] } });

    expect(summary.data['year_built']).toEqual({ value: 1925, citation, alternatives: [] });
    expect(summary.envelope.contract_version).toBe('svc-v4');
    expect(summary.meta.truncated).toBe(false);
    expect(summary.attempts).toBe(1);
    expect(summary.idempotencyKey).toMatch(UUID);
    expect(summary.http).toEqual({
      status: 200,
      chargedMicroUsd: SUMMARY_PRICE,
      balanceMicroUsd: before - SUMMARY_PRICE,
      replayed: false,
      rateLimitRemaining: expect.any(Number),
      requestId: summary.idempotencyKey,
    });
    expect(svc.balance()).toBe(before - SUMMARY_PRICE);
    expect(fixture.seen.get('v4.summary')?.query.get('fields')).toBe('year_built,bedrooms');
    expect(events.map((event) => [event.phase, event.attempt, event.idempotencyKey])).toEqual([
      ['sending', 1, summary.idempotencyKey],
      ['answered', 1, summary.idempotencyKey],
    ]);

    // The caller repeats the same user action with its key: the service replays, nothing is charged.
    const again = await client().call('v4.summary', { path: { q_id: QID }, query: { fields: ['year_built', 'bedrooms'] } }, { idempotencyKey: summary.idempotencyKey ?? '' });
    expect(again.http.replayed).toBe(true);
    expect(again.http.chargedMicroUsd).toBe(0);
    expect(again.data).toEqual(summary.data);
    expect(fixture.runs.get('v4.summary')).toBe(1);
    expect(svc.balance()).toBe(before - SUMMARY_PRICE);
    expect(SEED_CREDIT_MICRO_USD).toBeGreaterThan(SUMMARY_PRICE);
  });

  it('builds each operation’s request per the contract and validates each answer', async () => {
    const recorder = recordingFetch();
    const c = client({ transport: recorder.fetch });

    const search = await c.call('v4.search', { query: { jurisdiction: '11001', kind: 'sale', filter: { conditions: [{ field: 'SALEPRICE', op: 'gte', value: 500000 }], sourceId: 'dc_sales' }, limit: 10 } });
    expect(search.data.items[0]?.record_ref).toBe('rec_1');
    const seenSearch = fixture.seen.get('v4.search');
    expect(seenSearch?.query.get('limit')).toBe('10');
    expect(JSON.parse(seenSearch?.query.get('filter') ?? '')).toEqual({ SALEPRICE: { gte: 500000 }, $source_id: 'dc_sales' });

    const catalog = await c.call('v4.catalog', { query: { jurisdiction: '11' } });
    expect(catalog.data.items[0]?.source_id).toBe('dc_sales');
    expect(fixture.seen.get('v4.catalog')?.query.get('jurisdiction')).toBe('11');

    const connected = await c.call('v4.connected', { path: { q_id: QID }, query: { depth: 3 } });
    expect(connected.data.items[0]?.q_id).toBe(ADDR);
    expect(fixture.seen.get('v4.connected')?.params['q_id']).toBe(QID);
    expect(fixture.seen.get('v4.connected')?.query.get('depth')).toBe('3');

    const report = await c.call('v3.recordQuery', { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: 'prop_1' } });
    expect(report.data.items[0]?.location?.latitude).toBe(38.9);
    expect(report.http.chargedMicroUsd).toBe(250_000);
    const v3Catalog = await c.call('v3.recordQuery', { body: { mode: 'catalog', dataset: 'sales' } });
    expect(v3Catalog.data.items[0]?.data_type).toBe('number');

    const properties = await c.call('v2.searchProperties', { body: { area_uid: 'area_us_dc', filters: [{ field: 'use_code', op: 'eq', value: '012' }] } });
    expect(properties.data.items[0]?.entity_ref).toBe('prop_1');
    // Bodies are sent as the schema's output: defaults filled in.
    expect(fixture.seen.get('v2.searchProperties')?.body).toMatchObject({ area_uid: 'area_us_dc', limit: 20, projection: 'identity_summary' });

    const resolved = await c.call('v2.resolveEntities', { body: { items: [{ client_id: 'a', subject_kind: 'address', identifiers: [{ scheme: 'address', value: '1600 Pennsylvania Ave NW' }] }] } });
    expect(resolved.data.items[0]).toMatchObject({ client_id: 'a', outcome: 'resolved' });
    expect(resolved.http.chargedMicroUsd).toBe(5_000);

    const facets = await c.call('v2.getCatalog', { query: { facet: 'jurisdictions', page_size: 5 } });
    expect(facets.data.facet).toBe('jurisdictions');
    expect(fixture.seen.get('v2.getCatalog')?.query.get('page_size')).toBe('5');

    const entity = await c.call('v2.getEntity', { path: { entity_ref: 'prop/1 a' } });
    expect(entity.data.entity.entity_ref).toBe('prop/1 a');
    expect(entity.idempotencyKey).toBeNull();

    const graph = await c.call('v2.traverseRelationships', { path: { entity_ref: 'prop_1' }, query: { predicates: ['located_in', 'taxed_in'], direction: 'out' } });
    expect(graph.data.root_ref).toBe('prop_1');
    expect(fixture.seen.get('v2.traverseRelationships')?.query.get('predicates')).toBe('located_in,taxed_in');

    // Idempotency-Key on every operation that takes one, never on the others; the key as a bearer credential.
    const withKey = recorder.calls.filter((call) => call.headers['Idempotency-Key'] !== undefined).map((call) => new URL(call.url).pathname);
    expect(withKey).toEqual(['/api/v4/search', '/api/v4/catalog', `/api/v4/entities/${QID}/connected`, '/api/v3/record-queries', '/api/v3/record-queries', '/api/v2/property-searches', '/api/v2/resolutions']);
    expect(recorder.calls.every((call) => call.headers['Authorization'] === `Bearer ${svc.keys.active}`)).toBe(true);
    expect(recorder.calls.find((call) => call.url.includes('/entities/prop'))?.url).toContain('/api/v2/entities/prop%2F1%20a');

    // A caller that knows a call is free can send it without a key.
    const keyless = await c.call('v4.catalog', { query: { jurisdiction: '11' } }, { idempotencyKey: null });
    expect(keyless.idempotencyKey).toBeNull();
    expect(recorder.calls.at(-1)?.headers['Idempotency-Key']).toBeUndefined();
  });

  it('refuses invalid requests before sending anything, naming the parameter', async () => {
    const recorder = recordingFetch();
    const events: AttemptEvent[] = [];
    const c = client({ transport: recorder.fetch, onAttempt: (event) => void events.push(event) });
    const sixFields = { conditions: ['A', 'B', 'C', 'D', 'E', 'F'].map((field) => ({ field, op: 'eq' as const, value: 1 })) };

    const refusals: Array<[() => Promise<unknown>, string]> = [
      [() => c.call('v4.search', { query: { jurisdiction: '11001', kind: 'sale', limit: 101 } }), 'limit'],
      [() => c.call('v4.search', { query: { jurisdiction: '99', kind: 'sale' } }), 'jurisdiction'],
      [() => c.call('v4.search', { query: { jurisdiction: '11001', kind: 'Sale!' } }), 'kind'],
      [() => c.call('v4.search', { query: { jurisdiction: '11001', kind: 'sale', filter: sixFields } }), 'filter'],
      [() => c.call('v4.search', { query: { jurisdiction: '11001', kind: 'sale', limit: 2.5 } }), 'limit'],
      [() => c.call('v4.summary', { path: { q_id: 'parc_not-a-uuid' } }), 'q_id'],
      [() => c.call('v4.connected', { path: { q_id: 'prop_12345678-1234-4234-8234-1234567890ab' } }), 'q_id'],
      [() => c.call('v4.connected', { path: { q_id: QID }, query: { depth: 4 } }), 'depth'],
      [() => c.call('v4.summary', { path: { q_id: QID }, query: { fields: ['Year Built'] } }), 'fields'],
      [() => c.call('v4.summary', { path: { q_id: QID } }, { idempotencyKey: 'k'.repeat(257) }), 'idempotency-key'],
      [() => c.call('v3.recordQuery', { body: { mode: 'report' } }), 'projection'],
      [() => c.call('v3.recordQuery', { body: { mode: 'report', projection: 'report_comparables_v1', subject_property_ref: 'p', radius_miles: 9 } }), 'radius_miles'],
      [() => c.call('v2.searchProperties', { body: { area_uid: '' } }), 'area_uid'],
      [() => c.call('v2.resolveEntities', { body: { items: [{ client_id: 'a', subject_kind: 'address', identifiers: [{ scheme: 'email' as 'ssl', value: 'x' }] }] } }), 'items'],
      [() => c.call('v2.getCatalog', { query: { facet: 'sources', filter: 'x' } }), 'filter'],
      [() => c.call('v2.getEntity', { path: { entity_ref: '' } }), 'entity_ref'],
      [() => c.call('v2.traverseRelationships', { path: { entity_ref: 'prop_1' }, query: { predicates: ['owns' as 'located_in'] } }), 'predicates'],
      [() => c.call('v2.traverseRelationships', { path: { entity_ref: 'prop_1' }, query: { max_nodes: 500 } }), 'max_nodes'],
    ];
    for (const [send, parameter] of refusals) {
      const error = await caught(send());
      expect(error.platError.code, parameter).toBe('invalid_payload');
      expect(error.platError.retryable).toBe(false);
      expect(error.message).toContain(parameter);
      expect(error.issues?.[0]?.parameter).toBe(parameter);
      expect(error.attempts).toBe(0);
      expect(error.httpStatus).toBeUndefined();
    }
    const itemError = await caught(c.call('v2.resolveEntities', { body: { items: [{ client_id: 'a', subject_kind: 'address', identifiers: [] }] } }));
    expect(itemError.issues?.[0]?.location).toBe('items.0.identifiers');

    expect(recorder.calls).toHaveLength(0);
    expect(events).toHaveLength(0);
    expect(requests).toHaveLength(0);
  });

  it('maps 400/401/402/403/404/409/422 to the catalogue without retrying', async () => {
    const retries: RetryEvent[] = [];
    const as = (role: 'revoked' | 'suspended' | 'exhausted') => client({ getApiKey: () => svc.keys[role], onRetry: (event) => void retries.push(event) });
    const active = client({ onRetry: (event) => void retries.push(event) });
    const before = svc.balance();

    const first = await active.call('v4.summary', { path: { q_id: QID } });
    const conflict = () => active.call('v4.summary', { path: { q_id: OTHER_QID } }, { idempotencyKey: first.idempotencyKey ?? '' });
    queue(fixture, 'v4.search', () => {
      throw new ServiceFailure(422, 'response_too_large', 'The response would be too large.');
    });
    queue(fixture, 'v2.searchProperties', () => {
      throw new ServiceFailure(400, 'invalid_filters', 'filters.0.field: unknown field NOPE');
    });

    const cases: Array<[() => Promise<unknown>, string, number]> = [
      [() => as('revoked').call('v4.summary', { path: { q_id: QID } }), 'unauthorized', 401],
      [() => as('exhausted').call('v4.summary', { path: { q_id: QID } }), 'payment_required', 402],
      [() => as('suspended').call('v4.summary', { path: { q_id: QID } }), 'account_suspended', 403],
      [() => active.call('v2.getEntity', { path: { entity_ref: 'missing' } }), 'not_found', 404],
      [conflict, 'idempotency_conflict', 409],
      [() => active.call('v4.search', { query: { jurisdiction: '11001', kind: 'sale' } }), 'response_too_large', 422],
      [() => active.call('v2.searchProperties', { body: { area_uid: 'area_us_dc', filters: [{ field: 'NOPE', op: 'eq', value: 1 }] } }), 'invalid_request', 400],
    ];
    for (const [send, code, status] of cases) {
      const error = await caught(send());
      expect(error.platError.code, code).toBe(code);
      expect(error.platError.retryable).toBe(errorCatalogue[code as keyof typeof errorCatalogue].retryable);
      expect(error.httpStatus).toBe(status);
      expect(error.attempts).toBe(1);
      expect(error.outcomeUnknown).toBe(false);
      expect(error.http?.chargedMicroUsd ?? 0).toBe(0);
    }
    // The service's own message says what was wrong.
    const notFound = await caught(active.call('v2.getEntity', { path: { entity_ref: 'missing' } }));
    expect(notFound.message).toContain('No entity missing');

    expect(retries).toHaveLength(0);
    expect(time.sleeps).toHaveLength(0);
    expect(svc.balance()).toBe(before - SUMMARY_PRICE);
  });

  it('retries 503 with backoff, honouring Retry-After, then succeeds and pays once', async () => {
    const before = svc.balance();
    queue(fixture, 'v4.summary', fail503, fail503);
    const retries: RetryEvent[] = [];
    const events: AttemptEvent[] = [];
    const outcome = await client({ onAttempt: (event) => void events.push(event) }).call('v4.summary', { path: { q_id: QID } }, { onRetry: (event) => void retries.push(event) });

    expect(outcome.attempts).toBe(3);
    expect(outcome.http.chargedMicroUsd).toBe(SUMMARY_PRICE);
    expect(svc.balance()).toBe(before - SUMMARY_PRICE);
    // The local service sends Retry-After: 1, which outweighs the first backoff steps (125 ms, 250 ms).
    expect(retries.map((event) => [event.attempt, event.reason, event.delayMs])).toEqual([
      [1, 'service_unavailable', 1000],
      [2, 'service_unavailable', 1000],
    ]);
    expect(time.sleeps).toEqual([1000, 1000]);
    expect(new Set(events.map((event) => event.idempotencyKey))).toEqual(new Set([outcome.idempotencyKey]));
    expect(events.filter((event) => event.phase === 'answered').map((event) => event.http?.status)).toEqual([503, 503, 200]);
  });

  it('retries a dropped answer with the same key: the service replays it free', async () => {
    const before = svc.balance();
    faultDraws.push(0.3); // the first call is done and charged, then its answer is lost
    const events: AttemptEvent[] = [];
    const outcome = await client({ onAttempt: (event) => void events.push(event) }).call('v4.summary', { path: { q_id: QID } });

    expect(outcome.attempts).toBe(2);
    expect(outcome.http.replayed).toBe(true);
    expect(outcome.http.chargedMicroUsd).toBe(0);
    expect(fixture.runs.get('v4.summary')).toBe(1);
    expect(svc.balance()).toBe(before - SUMMARY_PRICE);
    expect(outcome.http.balanceMicroUsd).toBe(before - SUMMARY_PRICE);
    expect(requests.map((entry) => entry.status)).toEqual(['dropped', 200]);
    expect(events.map((event) => [event.phase, event.attempt, event.error?.code])).toEqual([
      ['sending', 1, undefined],
      ['failed', 1, 'network_error'],
      ['sending', 2, undefined],
      ['answered', 2, undefined],
    ]);
    expect(new Set(events.map((event) => event.idempotencyKey)).size).toBe(1);
  });

  it('says a call may have been charged when an earlier attempt lost its answer, though the last got a 503', async () => {
    const before = svc.balance();
    faultDraws.push(0.3, 0.1, 0.1, 0.1); // done and charged, answer lost; then three 503s
    const error = await caught(client().call('v4.summary', { path: { q_id: QID } }));
    expect(requests.map((entry) => entry.status)).toEqual(['dropped', 503, 503, 503]);
    expect(svc.balance()).toBe(before - SUMMARY_PRICE);
    // The last attempt got a plain 503, but the first was charged: never a plain failure.
    expect(error.platError.code).toBe('service_unavailable');
    expect(error.httpStatus).toBe(503);
    expect(error.outcomeUnknown).toBe(false);
    expect(error.mayHaveCharged).toBe(true);
    expect(error.toJSON()).toMatchObject({ mayHaveCharged: true });

    faultDraws.push(0.1, 0.1, 0.1, 0.1);
    const plain = await caught(client().call('v4.summary', { path: { q_id: QID } }));
    expect(plain.mayHaveCharged).toBe(false);
    expect(svc.balance()).toBe(before - SUMMARY_PRICE);

    // A repeat the service answers about the request itself (here 404) settles it: had the lost
    // attempt succeeded, the repeat would have been its free replay.
    const notFound: Override = () => {
      throw new ServiceFailure(404, 'not_found', 'No such entity.');
    };
    queue(fixture, 'v4.summary', notFound, notFound);
    faultDraws.push(0.3); // the first 404 is lost on the way back
    const settled = await caught(client().call('v4.summary', { path: { q_id: QID } }));
    expect(settled.platError.code).toBe('not_found');
    expect(settled.attempts).toBe(2);
    expect(settled.mayHaveCharged).toBe(false);
  });

  it('does not repeat a charged call without a key after a lost answer, but does after a refused connection', async () => {
    const before = svc.balance();
    faultDraws.push(0.1, 0.3); // a 503 (never charged, so retried), then an answer lost after charging
    const error = await caught(client().call('v2.getEntity', { path: { entity_ref: 'prop_1' } }));
    expect(error.platError.code).toBe('network_error');
    expect(error.attempts).toBe(2);
    expect(error.idempotencyKey).toBeNull();
    // The last attempt's answer is what counts: there was none, so the charge is unknown to the client.
    expect(error.outcomeUnknown).toBe(true);
    expect(error.httpStatus).toBeUndefined();
    expect(requests.map((entry) => entry.status)).toEqual([503, 'dropped']);
    expect(svc.balance()).toBe(before - ENTITY_PRICE);

    let refused = 0;
    const flakyFetch: typeof fetch = (input, init) => {
      if (refused++ === 0) return Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }));
      return fetch(input, init);
    };
    const outcome = await client({ transport: flakyFetch }).call('v2.getEntity', { path: { entity_ref: 'prop_1' } });
    expect(outcome.attempts).toBe(2);
    expect(svc.balance()).toBe(before - 2 * ENTITY_PRICE);
  });

  it('reports a malformed answer, including a charged one, without retrying', async () => {
    queue(fixture, 'v4.search', () => ({ data: { items: [{ ...searchRecord, extra: 'not allowed' }] }, charge: SEARCH_PRICE }));
    const error = await caught(client().call('v4.search', { query: { jurisdiction: '11001', kind: 'sale' } }));
    expect(error.platError.code).toBe('malformed_response');
    expect(error.attempts).toBe(1);
    expect(error.outcomeUnknown).toBe(false);
    // The service charged for it: the ledger needs the charge and the key to reconcile or replay.
    expect(error.http?.chargedMicroUsd).toBe(SEARCH_PRICE);
    expect(error.idempotencyKey).toMatch(UUID);
    expect(fixture.runs.get('v4.search')).toBe(1);
  });

  it('times out each attempt, retries, and stops at maxAttempts', async () => {
    const events: AttemptEvent[] = [];
    const error = await caught(client({ transport: hangingFetch, timeoutMs: 20, maxAttempts: 2, onAttempt: (event) => void events.push(event) }).call('v4.summary', { path: { q_id: QID } }));
    expect(error.platError).toMatchObject({ code: 'timeout', retryable: true });
    expect(error.attempts).toBe(2);
    expect(error.cancelled).toBe(false);
    expect(error.outcomeUnknown).toBe(true);
    expect(events.filter((event) => event.phase === 'failed').map((event) => event.error?.code)).toEqual(['timeout', 'timeout']);

    let calls = 0;
    const slowThenFine: typeof fetch = (input, init) => (calls++ === 0 ? hangingFetch(input, init) : fetch(input, init));
    // Long enough for a real answer on a busy machine; the first attempt hangs until it expires.
    const recovered = await client({ transport: slowThenFine, timeoutMs: 300 }).call('v4.catalog', {});
    expect(recovered.attempts).toBe(2);
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = client({ transport: hangingFetch }).call('v4.summary', { path: { q_id: QID } }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const error = await caught(pending);
    expect(error.cancelled).toBe(true);
    expect(error.attempts).toBe(1);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.idempotencyKey).toMatch(UUID);

    const already = await caught(client().call('v4.summary', { path: { q_id: QID } }, { signal: AbortSignal.abort() }));
    expect(already.cancelled).toBe(true);
    expect(already.attempts).toBe(0);
    expect(requests).toHaveLength(0);
  });

  it('fails closed when no key is configured or the ledger hook fails', async () => {
    const noKey = await caught(client({ getApiKey: () => null }).call('v4.summary', { path: { q_id: QID } }));
    expect(noKey.platError.code).toBe('key_not_configured');
    expect(noKey.attempts).toBe(0);

    const hookFailure = await caught(
      client({
        onAttempt: (event) => {
          if (event.phase === 'sending') throw new Error('disk full');
        },
      }).call('v4.summary', { path: { q_id: QID } }),
    );
    expect(hookFailure.platError.code).toBe('internal');
    expect(hookFailure.attempts).toBe(0);
    expect(requests).toHaveLength(0);
  });

  it('awaits the attempt hook before sending, so the key is recorded first', async () => {
    const ledger: string[] = [];
    let recordedBeforeSend = false;
    const fetchChecking: typeof fetch = (input, init) => {
      recordedBeforeSend = ledger.includes(sentHeader(init, 'Idempotency-Key') ?? '');
      return fetch(input, init);
    };
    await client({
      transport: fetchChecking,
      onAttempt: async (event) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (event.phase === 'sending' && event.idempotencyKey) ledger.push(event.idempotencyKey);
      },
    }).call('v4.summary', { path: { q_id: QID } });
    expect(recordedBeforeSend).toBe(true);
  });

  it('never lets the API key appear in an error, an outcome or a hook event', async () => {
    const SENTINEL = 'svc_live_SENTINEL0123456789abcdef0123456789';
    const seen: unknown[] = [];
    const hooks = {
      onAttempt: (event: AttemptEvent) => void seen.push(event),
      onRetry: (event: RetryEvent) => void seen.push(event),
    };
    const sentinelClient = (options: Partial<ServiceClientOptions> = {}) => client({ getApiKey: () => SENTINEL, maxAttempts: 2, ...hooks, ...options });
    const leakyFetch: typeof fetch = (_input, init) => {
      const auth = sentHeader(init, 'Authorization') ?? '';
      return Promise.reject(new TypeError(`fetch failed: header ${auth}`, { cause: Object.assign(new Error(`bad ${auth}`), { code: 'ECONNRESET', auth }) }));
    };
    const echoingFetch: typeof fetch = (_input, init) =>
      Promise.resolve(jsonResponse(400, v4Err('invalid_request', `Bad credential ${sentHeader(init, 'Authorization') ?? ''}`, false)));
    const keyInvalid = client({ getApiKey: () => `${SENTINEL}\n`, ...hooks });

    const errors = [
      await caught(sentinelClient().call('v4.summary', { path: { q_id: QID } })),
      await caught(sentinelClient({ transport: leakyFetch }).call('v4.summary', { path: { q_id: QID } })),
      await caught(sentinelClient({ transport: echoingFetch }).call('v4.summary', { path: { q_id: QID } })),
      await caught(sentinelClient({ transport: hangingFetch, timeoutMs: 20 }).call('v4.summary', { path: { q_id: QID } })),
      await caught(keyInvalid.call('v4.summary', { path: { q_id: QID } })),
    ];
    expect(errors.map((error) => error.platError.code)).toEqual(['unauthorized', 'network_error', 'invalid_request', 'timeout', 'key_not_configured']);
    expect(errors[2]?.message).toContain('[redacted]');

    const activeKey = svc.keys.active;
    const outcome = await client(hooks).call('v4.summary', { path: { q_id: QID } });
    for (const item of [...errors, ...seen, outcome, sentinelClient(), client()]) {
      const texts = [JSON.stringify(item), inspect(item, { depth: Infinity, showHidden: true }), String(item)];
      if (item instanceof Error) texts.push(item.message, item.stack ?? '');
      for (const text of texts) {
        expect(text).not.toContain(SENTINEL);
        expect(text).not.toContain(activeKey);
      }
    }
  });
});


// ---------------------------------------------------------------------------------------------
// The real operations on the sample data, when both are present in this checkout (they are built
// by other parts of Plat; without them this block is skipped).

const operationsRegistry = fileURLToPath(new URL('../../local-service/operations/index.ts', import.meta.url));
const sampleStoreModule = fileURLToPath(new URL('../../local-service/sample-store.ts', import.meta.url));
const sampleDb = fileURLToPath(new URL('../../../assets/sample-data/sample.db', import.meta.url));
const realOperationsPresent = [operationsRegistry, sampleStoreModule, sampleDb].every((file) => existsSync(file));

describe.skipIf(!realOperationsPresent)('ServiceClient against the real local operations', () => {
  let svc: TestService;

  beforeAll(async () => {
    // Loaded by path at run time so this file does not depend on modules written elsewhere.
    const registry = (await import(/* @vite-ignore */ pathToFileURL(operationsRegistry).href)) as { localOperations: LocalOperation[] };
    const samples = (await import(/* @vite-ignore */ pathToFileURL(sampleStoreModule).href)) as {
      openSampleStore: () => NonNullable<TestServiceOptions['store']>;
    };
    svc = await startTestService({ operations: registry.localOperations, store: samples.openSampleStore() });
  });
  afterAll(async () => {
    if (svc) await stopTestService(svc);
  });

  it('gets answers that pass the shared contract from the free operations', async () => {
    const c = new ServiceClient({ baseUrl: svc.url, getApiKey: () => svc.keys.active });
    const catalog = await c.call('v4.catalog', { query: { jurisdiction: '11' } });
    expect(catalog.data.items.length).toBeGreaterThan(0);
    expect(catalog.http.chargedMicroUsd).toBe(0);
    const v3Catalog = await c.call('v3.recordQuery', { body: { mode: 'catalog' } });
    expect(v3Catalog.data.items.length).toBeGreaterThan(0);
    const first = catalog.data.items[0];
    if (first) {
      // Either a page of records that passes the closed record schema, or a 404 for no matches.
      try {
        const search = await c.call('v4.search', { query: { jurisdiction: '11001', kind: first.kind, limit: 1 } });
        expect(search.data.items.length).toBeLessThanOrEqual(1);
      } catch (error) {
        expect(error instanceof ServiceCallError && error.platError.code).toBe('not_found');
      }
    }
  });
});
