// What the v2 operation tests share: the service over the real sample store (opened once; its first
// property search builds indexes, done in beforeAll so the tests stay quick), a call that checks
// every answer against the shared contract, its record refs against cited sources and its charge
// against the price table, and small readers of the answers.
import { afterAll, beforeAll, expect, } from 'vitest';
import type { z } from 'zod';
import { openSampleStore } from '../sample-store.ts';
import type { SampleStore } from '../sample-store.ts';
import { startTestService, stopTestService } from '../test-harness.ts';
import type { TestCallInit, TestCallResult, TestService } from '../test-harness.ts';
import { v2Operations } from './v2.ts';
import { operationSchemas, V2ErrorEnvelopeSchema, } from '../../../shared/service/index.ts';
import type { ServiceOperationName } from '../../../shared/service/index.ts';


export const SEARCH_PRICE = 20_000;
export const RESOLVED_ITEM_PRICE = 5_000;
// The two v2 GETs take no Idempotency-Key, so Plat's sample service makes them free (shared price table).
export const ENTITY_PRICE = 0;
export const TRAVERSAL_PRICE = 0;
export const SYNTHETIC_SOURCE = 'plat_synthetic_characteristics';

export let store: SampleStore;
export let svc: TestService;

export type Json = Record<string, unknown>;

/** Opens the store and serves the v2 operations over it for the calling test file. */
export function useV2Service(): void {
  beforeAll(async () => {
    store = openSampleStore();
    svc = await startTestService({ operations: v2Operations, store, rateLimitPerMinute: 100_000 });
    // Builds the store's and the search's indexes once, outside any single test's time.
    const warm = await svc.call('/api/v2/property-searches', { json: { area_uid: 'area_us_dc', limit: 1 } });
    expect(warm.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await stopTestService(svc);
    store.close();
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

const PATH_OPERATION: Array<[RegExp, ServiceOperationName]> = [
  [/^\/api\/v2\/property-searches/, 'v2.searchProperties'],
  [/^\/api\/v2\/resolutions/, 'v2.resolveEntities'],
  [/^\/api\/v2\/catalog/, 'v2.getCatalog'],
  [/^\/api\/v2\/entities\/[^/]+\/relationships/, 'v2.traverseRelationships'],
  [/^\/api\/v2\/entities\/[^/]+$/, 'v2.getEntity'],
];

function operationOf(path: string): ServiceOperationName {
  const hit = PATH_OPERATION.find(([pattern]) => pattern.test(path.split('?')[0] ?? ''));
  if (!hit) throw new Error(`no operation for ${path}`);
  return hit[1];
}

/** Every string anywhere in a value that looks like a record ref. */
function recordRefsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (/^rec_[0-9a-f-]{36}$/.test(value)) out.add(value);
  } else if (Array.isArray(value)) {
    for (const inner of value) recordRefsIn(inner, out);
  } else if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) recordRefsIn(inner, out);
  }
  return out;
}

/** Every object under a key named `citation`. */
function citationsIn(value: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const inner of value) citationsIn(inner, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'citation' && inner !== null && typeof inner === 'object') out.push(inner as Json);
      citationsIn(inner, out);
    }
  }
  return out;
}

/**
 * The rules every successful v2 answer keeps: it validates against the shared schema, every record
 * ref in `data` is in the provenance with exactly one source entry, and synthetic values are cited
 * to the synthetic source (never to a publisher) and marked.
 */
function expectWellCited(result: TestCallResult, operation: ServiceOperationName): void {
  const schema: z.ZodType = operationSchemas[operation].response;
  const parsed = schema.safeParse(result.body);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
  const body = result.body as { data: unknown; provenance: { source_refs: string[]; sources: Array<Record<string, string>> }; meta: Json };
  const provenance = body.provenance;
  expect(new Set(provenance.source_refs).size).toBe(provenance.source_refs.length);
  expect(provenance.sources.map((source) => source.source_ref)).toEqual(provenance.source_refs);
  for (const ref of recordRefsIn(body.data)) expect(provenance.source_refs).toContain(ref);
  for (const source of provenance.sources) {
    expect(source['publisher']).toBeTruthy();
    expect(source['release_id']).toMatch(/^\d{8}$/);
    expect(source['official_url']).toMatch(/^https:\/\//);
    expect(source['captured_at']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const synthetic = source['source_id'] === SYNTHETIC_SOURCE;
    expect(source['synthetic']).toBe(String(synthetic));
    expect(source['publisher']?.includes('synthetic')).toBe(synthetic);
    if (source['source_kind'] === 'record') {
      expect(store.getRecord(source['source_ref'] ?? '')?.source_id).toBe(source['source_id']);
    }
  }
  for (const citation of citationsIn(body.data)) {
    const synthetic = citation['source_id'] === SYNTHETIC_SOURCE;
    expect(citation['synthetic']).toBe(synthetic);
    expect(String(citation['source']).includes('synthetic')).toBe(synthetic);
    expect(citation['dataset']).toBeTruthy();
    expect(citation['as_of']).toBeTruthy();
  }
  expect(body.meta['generation_ids']).toEqual([expect.stringMatching(/^gen_[0-9a-f]{16}$/)]);
}

export async function call(path: string, init: TestCallInit = {}): Promise<TestCallResult> {
  const result = await svc.call(path, init);
  if (result.status === 200) {
    expectWellCited(result, operationOf(path));
    expect(result.replayed === true ? 0 : (result.body as { meta: { usage_units: number } }).meta.usage_units).toBe(result.charged);
  } else {
    const parsed = V2ErrorEnvelopeSchema.safeParse(result.body);
    expect(parsed.success, JSON.stringify(result.body).slice(0, 400)).toBe(true);
    // Failed calls carry no billing headers and cost nothing.
    expect(result.charged).toBeNull();
  }
  return result;
}

export const search = (json: unknown, init: TestCallInit = {}) => call('/api/v2/property-searches', { json, ...init });
export const resolve = (json: unknown, init: TestCallInit = {}) => call('/api/v2/resolutions', { json, ...init });
export const catalog = (query: string) => call(`/api/v2/catalog?${query}`);
export const entity = (ref: string) => call(`/api/v2/entities/${encodeURIComponent(ref)}`);
export const relationships = (ref: string, query = '') => call(`/api/v2/entities/${encodeURIComponent(ref)}/relationships${query === '' ? '' : `?${query}`}`);

export function data(result: TestCallResult): Json {
  return (result.body as { data: Json }).data;
}
export function meta(result: TestCallResult): Json {
  return (result.body as { meta: Json }).meta;
}
export function items(result: TestCallResult): Json[] {
  return data(result)['items'] as Json[];
}
export function errorOf(result: TestCallResult): { code: string; message: string; details: unknown } {
  return (result.body as { error: { code: string; message: string; details: unknown } }).error;
}

/** A property's ref, found by its SSL. */
export async function propertyBySsl(ssl: string): Promise<string> {
  const result = await search({ area_uid: 'area_us_dc', filters: [{ field: 'ssl', op: 'eq', value: ssl }] });
  expect(result.status).toBe(200);
  return String(items(result)[0]?.['entity_ref']);
}

export async function expectRefused(result: Promise<TestCallResult>, status: number, code: string): Promise<TestCallResult> {
  const answer = await result;
  expect(answer.status, JSON.stringify(answer.body).slice(0, 400)).toBe(status);
  expect(errorOf(answer).code).toBe(code);
  return answer;
}

export function factValue(item: Json, field: string): unknown {
  const facts = item['facts'] as Record<string, { value: unknown }> | undefined;
  return facts?.[field]?.value;
}
