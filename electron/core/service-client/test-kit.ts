// The service client tests' kit: fake operations on the real local service's HTTP layer, a fake
// clock, scripted and recording fetches, and the failure a call ends with.
import type { LocalOperation, OperationRequest, OperationResult } from '../../local-service/operation.ts';
import { ServiceFailure } from '../../local-service/operation.ts';
import type { TestServiceOptions } from '../../local-service/test-harness.ts';
import { serviceOperations } from '../../../shared/service/index.ts';
import type { ServiceOperationName } from '../../../shared/service/index.ts';
import { ServiceCallError } from './index.ts';

// ---------------------------------------------------------------------------------------------
// Fixtures: fake operations on the real local service's HTTP layer (auth, billing, replays, limits).

// The HTTP layer never looks inside the store, and these operations do not either.
export const fakeStore = {} as NonNullable<TestServiceOptions['store']>;
export const QID = 'parc_12345678-1234-4234-8234-1234567890ab';
export const ADDR = 'addr_87654321-4321-4321-8321-ba0987654321';
export const OTHER_QID = 'parc_00000000-0000-4000-8000-000000000001';
export const SUMMARY_PRICE = serviceOperations['v4.summary'].price.microUsd;
export const SEARCH_PRICE = serviceOperations['v4.search'].price.microUsd;
// What a live service might charge for a v2 GET (Plat's own sample service makes it free).
export const ENTITY_PRICE = 10_000;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const citation = { source: 'DC Office of Tax and Revenue', dataset: 'ITS Public Extract', as_of: '2024-06-01' };
export const searchRecord = {
  record_ref: 'rec_1',
  kind: 'sale',
  source_id: 'dc_sales',
  jurisdiction: '11001',
  published_at: '2024-06-01T00:00:00Z',
  citation,
  data: { SALEPRICE: 640000, SALEDATE: '2023-05-02' },
  q_ids: [QID],
};
export const v3Source = { source_id: 'dc_itspe', release_id: 3, sha256: 'a'.repeat(64), official_url: 'https://opendata.dc.gov/' };

export type Override = (request: OperationRequest) => OperationResult;

export interface Fixture {
  /** Per operation name: answers to give instead of the normal one, first in first out. */
  overrides: Map<string, Override[]>;
  /** How often each operation really ran. */
  runs: Map<string, number>;
  /** The last request each operation saw. */
  seen: Map<string, OperationRequest>;
}

export function fakeOperations(fixture: Fixture): LocalOperation[] {
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

export function newFixture(): Fixture {
  return { overrides: new Map(), runs: new Map(), seen: new Map() };
}

export function queue(fixture: Fixture, name: ServiceOperationName, ...answers: Override[]): void {
  fixture.overrides.set(name, [...(fixture.overrides.get(name) ?? []), ...answers]);
}

export const fail503: Override = () => {
  throw new ServiceFailure(503, 'service_unavailable', 'Temporarily unavailable; retry.', { retryable: true });
};

/** A fake clock the injected sleep advances, so waits take no real time. */
export class FakeTime {
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
export function recordingFetch(): { fetch: typeof fetch; calls: Array<{ url: string; method: string; headers: Record<string, string>; body?: string }> } {
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

export function sentHeader(init: RequestInit | undefined, name: string): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.[name];
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

export function v4Ok(requestId: string, data: unknown): Record<string, unknown> {
  return { contract_version: 'svc-v4', request_id: requestId, operation: 'summary', status: 'ok', data, error: null, meta: { served_at: '2025-01-01T00:00:00Z', next_cursor: null } };
}

export function v4Err(code: string, message: string, retryable: boolean): Record<string, unknown> {
  return { contract_version: 'svc-v4', request_id: 'r', operation: 'summary', status: 'error', data: null, error: { code, message, retryable }, meta: { served_at: '2025-01-01T00:00:00Z', next_cursor: null } };
}

export const okHeaders = { 'X-Svc-Charged-Micro-USD': '100000', 'X-Svc-Balance-Micro-USD': '900000', 'X-Svc-Replayed': 'false', 'X-RateLimit-Remaining': '50' };

/** Never answers; rejects when the request's signal aborts, as fetch does. */
export const hangingFetch: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal?.reason ?? new Error('aborted')), { once: true });
  });

/** The error of class `type` a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function rejectionOf<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** The ServiceCallError a client call ends with. */
export const caught = (promise: Promise<unknown>): Promise<ServiceCallError> => rejectionOf(promise, ServiceCallError);
