import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import type { LocalOperation, OperationRequest, OperationResult } from '../local-service/operation.ts';
import { ServiceFailure } from '../local-service/operation.ts';
import type { RequestLogEntry } from '../local-service/server.ts';
import { SEED_CREDIT_MICRO_USD } from '../local-service/service-state.ts';
import { startTestService, stopTestService } from '../local-service/test-harness.ts';
import type { TestService, TestServiceOptions } from '../local-service/test-harness.ts';
import { errorCatalogue } from '../../shared/errors.ts';
import { serviceOperations } from '../../shared/service/index.ts';
import type { ServiceOperationName } from '../../shared/service/index.ts';
import {
  BACKOFF_CAP_MS,
  backoffDelayMs,
  parseRetryAfterMs,
  readServiceHeaders,
  ServiceCallError,
  ServiceClient,
} from './service-client.ts';
import type { AttemptEvent, RetryEvent, ServiceClientOptions, ThrottleEvent } from './service-client.ts';

// ---------------------------------------------------------------------------------------------
// Fixtures: fake operations on the real local service's HTTP layer (auth, billing, replays, limits).

// The HTTP layer never looks inside the store, and these operations do not either.
const fakeStore = {} as NonNullable<TestServiceOptions['store']>;
const QID = 'parc_12345678-1234-4234-8234-1234567890ab';
const ADDR = 'addr_87654321-4321-4321-8321-ba0987654321';
const OTHER_QID = 'parc_00000000-0000-4000-8000-000000000001';
const SUMMARY_PRICE = serviceOperations['v4.summary'].price.microUsd;
const SEARCH_PRICE = serviceOperations['v4.search'].price.microUsd;
// What a live service might charge for a v2 GET (Plat's own sample service makes it free).
const ENTITY_PRICE = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const citation = { source: 'DC Office of Tax and Revenue', dataset: 'ITS Public Extract', as_of: '2024-06-01' };
const searchRecord = {
  record_ref: 'rec_1',
  kind: 'sale',
  source_id: 'dc_sales',
  jurisdiction: '11001',
  published_at: '2024-06-01T00:00:00Z',
  citation,
  data: { SALEPRICE: 640000, SALEDATE: '2023-05-02' },
  q_ids: [QID],
};
const v3Source = { source_id: 'dc_itspe', release_id: 3, sha256: 'a'.repeat(64), official_url: 'https://opendata.dc.gov/' };

type Override = (request: OperationRequest) => OperationResult;

interface Fixture {
  /** Per operation name: answers to give instead of the normal one, first in first out. */
  overrides: Map<string, Override[]>;
  /** How often each operation really ran. */
  runs: Map<string, number>;
  /** The last request each operation saw. */
  seen: Map<string, OperationRequest>;
}

function fakeOperations(fixture: Fixture): LocalOperation[] {
  const op = (name: ServiceOperationName, handle: Override): LocalOperation => {
    const spec = serviceOperations[name];
    return {
      name,
      envelopeOperation: spec.envelopeOperation,
      generation: spec.generation,
      method: spec.method,
      path: spec.path,
      idempotent: spec.idempotencyKey,
      handle: (request) => {
        fixture.runs.set(name, (fixture.runs.get(name) ?? 0) + 1);
        fixture.seen.set(name, request);
        const override = fixture.overrides.get(name)?.shift();
        return override ? override(request) : handle(request);
      },
    };
  };
  return [
    op('v4.search', () => ({ data: { items: [searchRecord] }, charge: SEARCH_PRICE })),
    op('v4.catalog', () => ({
      data: { items: [{ state: '11', source_id: 'dc_sales', source: 'DC OTR', dataset: 'sales', kind: 'sale', records: 12, as_of: '2024-06-01T00:00:00Z' }] },
      meta: { truncated: false },
      charge: 0,
    })),
    op('v4.connected', () => ({ data: { items: [{ q_id: ADDR, type: 'address', relation: 'situs', via: 'parcel', depth: 1 }] }, charge: 0 })),
    op('v4.summary', (request) => ({
      data: { year_built: { value: 1925, citation, alternatives: [] }, q_id: request.params['q_id'] },
      meta: { truncated: false },
      charge: SUMMARY_PRICE,
    })),
    op('v3.recordQuery', (request) => {
      const mode = (request.body as { mode: string }).mode;
      if (mode === 'catalog') {
        return {
          data: { projection: 'catalog', snapshot: 's1', sources: [v3Source], items: [{ dataset: 'sales', field: 'price', data_type: 'number', description: 'Sale price' }] },
          charge: 0,
        };
      }
      return {
        data: { projection: 'report_subject_v1', snapshot: 's1', sources: [v3Source], items: [{ property_ref: 'prop_1', outcome: 'ok', location: { latitude: 38.9, longitude: -77 } }] },
        charge: 250_000,
      };
    }),
    op('v2.searchProperties', () => ({
      data: { items: [{ entity_ref: 'prop_1', entity_kind: 'property', area_uid: 'area_us_dc' }], projection: 'identity_summary' },
      charge: 20_000,
    })),
    op('v2.resolveEntities', (request) => {
      const items = (request.body as { items: Array<{ client_id: string }> }).items;
      return {
        data: { items: items.map((item) => ({ client_id: item.client_id, outcome: 'resolved', candidates: [{ entity_ref: 'prop_1', entity_kind: 'property' }] })) },
        charge: 5_000 * items.length,
      };
    }),
    op('v2.getCatalog', (request) => ({ data: { facet: request.query.get('facet'), items: [{ code: '11001' }], capabilities: [] }, charge: 0 })),
    op('v2.getEntity', (request) => {
      const ref = request.params['entity_ref'] ?? '';
      if (ref === 'missing') throw new ServiceFailure(404, 'not_found', `No entity ${ref}.`);
      return { data: { entity: { entity_ref: ref, entity_kind: 'property', status: 'current' } }, charge: ENTITY_PRICE };
    }),
    op('v2.traverseRelationships', (request) => ({
      data: { root_ref: request.params['entity_ref'], depth: 1, nodes: [], edges: [], max_nodes: 100, max_edges: 200 },
      charge: 10_000,
    })),
  ];
}

function newFixture(): Fixture {
  return { overrides: new Map(), runs: new Map(), seen: new Map() };
}

function queue(fixture: Fixture, name: ServiceOperationName, ...answers: Override[]): void {
  fixture.overrides.set(name, [...(fixture.overrides.get(name) ?? []), ...answers]);
}

const fail503: Override = () => {
  throw new ServiceFailure(503, 'service_unavailable', 'Temporarily unavailable; retry.', { retryable: true });
};

/** A fake clock the injected sleep advances, so waits take no real time. */
class FakeTime {
  now: number;
  readonly sleeps: number[] = [];
  constructor(start: number) {
    this.now = start;
  }
  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.now += ms;
  };
}

/** Records every fetch and the headers it sent, then delegates to the real fetch. */
function recordingFetch(): { fetch: typeof fetch; calls: Array<{ url: string; method: string; headers: Record<string, string>; body?: string }> } {
  const calls: Array<{ url: string; method: string; headers: Record<string, string>; body?: string }> = [];
  const wrapped: typeof fetch = (input, init) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    });
    return fetch(input, init);
  };
  return { fetch: wrapped, calls };
}

function sentHeader(init: RequestInit | undefined, name: string): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.[name];
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

function v4Ok(requestId: string, data: unknown): Record<string, unknown> {
  return { contract_version: 'svc-v4', request_id: requestId, operation: 'summary', status: 'ok', data, error: null, meta: { served_at: '2025-01-01T00:00:00Z', next_cursor: null } };
}

function v4Err(code: string, message: string, retryable: boolean): Record<string, unknown> {
  return { contract_version: 'svc-v4', request_id: 'r', operation: 'summary', status: 'error', data: null, error: { code, message, retryable }, meta: { served_at: '2025-01-01T00:00:00Z', next_cursor: null } };
}

const okHeaders = { 'X-Svc-Charged-Micro-USD': '100000', 'X-Svc-Balance-Micro-USD': '900000', 'X-Svc-Replayed': 'false', 'X-RateLimit-Remaining': '50' };

/** Never answers; rejects when the request's signal aborts, as fetch does. */
const hangingFetch: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal?.reason ?? new Error('aborted')), { once: true });
  });

async function caught(promise: Promise<unknown>): Promise<ServiceCallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceCallError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

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
      ['money header not digits', (init) => ok(init, { ...okHeaders, 'X-Svc-Charged-Micro-USD': '1e5' })],
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
      moneyMalformed: false,
    });
    const sparse = readServiceHeaders(200, new Headers({ 'X-RateLimit-Remaining': 'lots', 'X-Svc-Replayed': 'true' }));
    expect(sparse.http).toMatchObject({ chargedMicroUsd: null, balanceMicroUsd: null, replayed: true, rateLimitRemaining: null });
    expect(readServiceHeaders(200, new Headers({ 'X-RateLimit-Remaining': '-1' })).http.rateLimitRemaining).toBeNull();
    expect(readServiceHeaders(200, new Headers({ 'X-Svc-Balance-Micro-USD': '-5' })).moneyMalformed).toBe(true);
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
// The real operations on the sample data, when both are present in this checkout (they are built
// by other parts of Plat; without them this block is skipped).

const operationsRegistry = fileURLToPath(new URL('../local-service/operations/index.ts', import.meta.url));
const sampleStoreModule = fileURLToPath(new URL('../local-service/sample-store.ts', import.meta.url));
const sampleDb = fileURLToPath(new URL('../../assets/sample-data/sample.db', import.meta.url));
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
