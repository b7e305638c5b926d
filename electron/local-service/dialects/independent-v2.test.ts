// The independent dialect's v2 choices against the running second service: traversal nodes of four
// keys, edges of the spec's keys with the dialect's predicates, provenance by source release,
// coverage rows without area_uid, and every v2 price (per call where the dialect says so).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  V2CatalogResponseSchema,
  V2EntityResponseSchema,
  V2ResolutionsResponseSchema,
  V2SearchResponseSchema,
  V2TraversalResponseSchema,
} from '../../../shared/service/index.ts';
import { startSecondService } from '../second-service-kit.ts';
import type { SecondService } from '../second-service-kit.ts';
import type { TestCallResult } from '../test-harness.ts';
import { INDEPENDENT_PRICES } from './prices.ts';
import { INDEPENDENT_PREDICATES } from './v2.ts';

type Json = Record<string, unknown>;
const RELEASE_REF = /^[a-z0-9_]+@\d+$/;
const SPEC_EDGE_KEYS = [
  'relationship_ref', 'subject_ref', 'predicate', 'object_ref', 'direction', 'precision', 'method',
  'confidence', 'status', 'generation_id', 'valid_from', 'valid_to', 'source_refs',
];

let second: SecondService;
/** The property at 2120 FLORIDA AVE NW, SSL 0065 0017. */
let florida: string;

async function spent(call: () => Promise<TestCallResult>): Promise<{ res: TestCallResult; debited: number }> {
  const before = second.balance();
  const res = await call();
  return { res, debited: before - second.balance() };
}

function resolve(value: string, idempotencyKey?: string): Promise<TestCallResult> {
  return second.call('/api/v2/resolutions', {
    json: { items: [{ client_id: 'a', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value }] }] },
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
}

/** The envelope's provenance names each ref once, as a source release, with an entry for each. */
function expectReleaseProvenance(body: unknown): void {
  const provenance = (body as { provenance: { source_refs: string[]; sources: Json[] } }).provenance;
  expect(provenance.source_refs.length).toBeGreaterThan(0);
  for (const ref of provenance.source_refs) expect(ref).toMatch(RELEASE_REF);
  expect(provenance.sources.map((source) => source['source_ref'])).toEqual(provenance.source_refs);
}

beforeAll(async () => {
  second = await startSecondService({ rateLimitPerMinute: 100_000 });
  const res = await resolve('0065    0017');
  const body = V2ResolutionsResponseSchema.parse(res.body);
  if (body.status === 'error') throw new Error('resolution failed');
  const candidates = (body.data.items[0] as { candidates: Array<{ entity_ref: string }> }).candidates;
  const prop = candidates.map((candidate) => candidate.entity_ref).find((ref) => ref.startsWith('prop_'));
  if (prop === undefined) throw new Error('no property for SSL 0065 0017');
  florida = prop;
}, 60_000);

afterAll(async () => {
  await second.close();
});

describe('v2 relationship traversal in the independent dialect', () => {
  it('writes nodes as {entity_ref, entity_kind, label, depth} and edges with the dialect predicates, 5 000 per call', async () => {
    const path = `/api/v2/entities/${florida}/relationships?depth=2`;
    const { res, debited } = await spent(() => second.call(path));
    const body = V2TraversalResponseSchema.parse(res.body);
    if (body.status === 'error') throw new Error('expected ok');
    expect(body.data.nodes.length).toBeGreaterThan(1);
    for (const node of body.data.nodes) expect(Object.keys(node).sort()).toEqual(['depth', 'entity_kind', 'entity_ref', 'label']);
    expect(body.data.nodes[0]).toMatchObject({ entity_ref: florida, entity_kind: 'property', depth: 0 });

    const dialectPredicates = Object.values(INDEPENDENT_PREDICATES);
    expect(body.data.edges.length).toBeGreaterThan(0);
    for (const edge of body.data.edges as Json[]) {
      for (const key of Object.keys(edge)) expect(SPEC_EDGE_KEYS).toContain(key);
      expect(dialectPredicates).toContain(edge['predicate']);
      expect(edge['method']).toBe('record_match');
      expect(typeof edge['confidence']).toBe('number');
      for (const ref of edge['source_refs'] as string[]) expect(ref).toMatch(RELEASE_REF);
    }
    expect((body.data.edges as Json[]).map((edge) => edge['predicate'])).toEqual(expect.arrayContaining(['account_for', 'situs_of']));
    expectReleaseProvenance(res.body);
    expect(res.charged).toBe(INDEPENDENT_PRICES.v2TraverseCall);
    expect(debited).toBe(INDEPENDENT_PRICES.v2TraverseCall);

    // No Idempotency-Key on this GET: the same call again is charged again.
    const again = await spent(() => second.call(path));
    expect(again.debited).toBe(INDEPENDENT_PRICES.v2TraverseCall);
  });
});

describe('v2 entity, search and resolutions in the independent dialect', () => {
  it('charges get_entity 2 000 per call and cites source releases', async () => {
    const { res, debited } = await spent(() => second.call(`/api/v2/entities/${florida}`));
    const body = V2EntityResponseSchema.parse(res.body);
    if (body.status === 'error') throw new Error('expected ok');
    for (const ref of body.data.entity.source_refs as string[]) expect(ref).toMatch(RELEASE_REF);
    expectReleaseProvenance(res.body);
    expect(debited).toBe(INDEPENDENT_PRICES.v2GetEntityCall);
    expect((res.body as { meta: Json }).meta['usage_units']).toBe(INDEPENDENT_PRICES.v2GetEntityCall);
  });

  it('charges a property search page 30 000, its replay nothing', async () => {
    const search = () => second.call('/api/v2/property-searches', { json: { area_uid: 'area_us_dc', limit: 2 }, idempotencyKey: 'v2-search' });
    const first = await spent(search);
    V2SearchResponseSchema.parse(first.res.body);
    expect(first.res.charged).toBe(INDEPENDENT_PRICES.v2SearchPage);
    expect(first.debited).toBe(INDEPENDENT_PRICES.v2SearchPage);
    const replay = await spent(search);
    expect(replay.res.replayed).toBe(true);
    expect(replay.debited).toBe(0);
  });

  it('charges resolutions 10 000 per call, whether or not anything resolved', async () => {
    const hit = await spent(() => resolve('0065    0017'));
    V2ResolutionsResponseSchema.parse(hit.res.body);
    expect(hit.debited).toBe(INDEPENDENT_PRICES.v2ResolutionsCall);

    const miss = await spent(() => resolve('9999    9999', 'resolve-miss'));
    const body = V2ResolutionsResponseSchema.parse(miss.res.body);
    if (body.status === 'error') throw new Error('expected ok');
    expect((body.data.items[0] as { candidates: unknown[] }).candidates).toEqual([]);
    expect(miss.res.charged).toBe(INDEPENDENT_PRICES.v2ResolutionsCall);
    expect(miss.debited).toBe(INDEPENDENT_PRICES.v2ResolutionsCall);

    const replay = await spent(() => resolve('9999    9999', 'resolve-miss'));
    expect(replay.res.replayed).toBe(true);
    expect(replay.debited).toBe(0);
  });
});

describe('v2 catalog in the independent dialect', () => {
  it('lists coverage as one row per jurisdiction and domain, without area_uid, free', async () => {
    const { res, debited } = await spent(() => second.call('/api/v2/catalog?facet=coverage&page_size=100'));
    const body = V2CatalogResponseSchema.parse(res.body);
    if (body.status === 'error') throw new Error('expected ok');
    const rows = body.data.items as Json[];
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['domain', 'jurisdiction', 'name', 'status']);
    expect(rows).toContainEqual({ jurisdiction: '11001', name: 'District of Columbia', domain: 'ownership', status: 'available' });
    const dc = rows.filter((row) => row['jurisdiction'] === '11001').map((row) => row['domain']);
    expect(dc).toEqual(['ownership', 'assessment', 'sale', 'permit', 'characteristics']);
    expect(debited).toBe(0);
  });
});
