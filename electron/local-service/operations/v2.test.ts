// The v2 operations over real HTTP against the real sample store: every response checked against the
// shared contract, every record ref traced to a cited source, every charge checked against the price
// table. The store is opened once; its first property search builds indexes (a few seconds), done in
// beforeAll so the tests themselves stay quick.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { openSampleStore } from '../sample-store.ts';
import type { SampleStore } from '../sample-store.ts';
import { startTestService, stopTestService } from '../test-harness.ts';
import type { TestCallInit, TestCallResult, TestService } from '../test-harness.ts';
import { v2Operations } from './v2.ts';
import { PROPERTY_FIELD_SPECS } from './v2-property-index.ts';
import { operationSchemas, serviceOperations, V2ErrorEnvelopeSchema, v2PropertyDateFields } from '../../../shared/service/index.ts';
import type { ServiceOperationName } from '../../../shared/service/index.ts';
import { normaliseOwnerName } from '../sample-keys.ts';

const SEARCH_PRICE = 20_000;
const RESOLVED_ITEM_PRICE = 5_000;
// The two v2 GETs take no Idempotency-Key, so Plat's sample service makes them free (shared price table).
const ENTITY_PRICE = 0;
const TRAVERSAL_PRICE = 0;
const SYNTHETIC_SOURCE = 'plat_synthetic_characteristics';

let store: SampleStore;
let svc: TestService;

type Json = Record<string, unknown>;

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

async function call(path: string, init: TestCallInit = {}): Promise<TestCallResult> {
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

const search = (json: unknown, init: TestCallInit = {}) => call('/api/v2/property-searches', { json, ...init });
const resolve = (json: unknown, init: TestCallInit = {}) => call('/api/v2/resolutions', { json, ...init });
const catalog = (query: string) => call(`/api/v2/catalog?${query}`);
const entity = (ref: string) => call(`/api/v2/entities/${encodeURIComponent(ref)}`);
const relationships = (ref: string, query = '') => call(`/api/v2/entities/${encodeURIComponent(ref)}/relationships${query === '' ? '' : `?${query}`}`);

function data(result: TestCallResult): Json {
  return (result.body as { data: Json }).data;
}
function meta(result: TestCallResult): Json {
  return (result.body as { meta: Json }).meta;
}
function items(result: TestCallResult): Json[] {
  return data(result)['items'] as Json[];
}
function errorOf(result: TestCallResult): { code: string; message: string; details: unknown } {
  return (result.body as { error: { code: string; message: string; details: unknown } }).error;
}

/** A property's ref, found by its SSL. */
async function propertyBySsl(ssl: string): Promise<string> {
  const result = await search({ area_uid: 'area_us_dc', filters: [{ field: 'ssl', op: 'eq', value: ssl }] });
  expect(result.status).toBe(200);
  return String(items(result)[0]?.['entity_ref']);
}

async function expectRefused(result: Promise<TestCallResult>, status: number, code: string): Promise<TestCallResult> {
  const answer = await result;
  expect(answer.status, JSON.stringify(answer.body).slice(0, 400)).toBe(status);
  expect(errorOf(answer).code).toBe(code);
  return answer;
}

function factValue(item: Json, field: string): unknown {
  const facts = item['facts'] as Record<string, { value: unknown }> | undefined;
  return facts?.[field]?.value;
}

// ---------------------------------------------------------------------------------------------

describe('POST /api/v2/property-searches', () => {
  it('finds an owner by part of the name, in any case, word order and punctuation, and charges one page', async () => {
    const before = svc.balance();
    const result = await search({ area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value: 'bank, William' }] });
    expect(result.status).toBe(200);
    expect(result.charged).toBe(SEARCH_PRICE);
    expect(svc.balance()).toBe(before - SEARCH_PRICE);
    const [first] = items(result);
    expect(first).toMatchObject({
      entity_kind: 'property',
      status: 'current',
      area_uid: 'area_us_dc',
      canonical_identity: { address: '1716 21ST ST NW', ssl: '0065    0004' },
    });
    expect(first?.['property_ref']).toBe(first?.['entity_ref']);
    expect(data(result)['projection']).toBe('identity_summary');
    // The identity came from the OTR rows: no synthetic record is cited for it.
    const sources = (result.body as { provenance: { sources: Array<Record<string, string>> } }).provenance.sources;
    expect(sources.every((source) => source['synthetic'] === 'false')).toBe(true);
  });

  it('matches owner names across apostrophes, L.L.C. spellings and ampersands', async () => {
    const obrien = await search({ area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value: 'obrien' }], projection: 'fact_summary', limit: 50 });
    const obrienOwners = items(obrien).map((item) => String(factValue(item, 'owner_name')));
    expect(obrienOwners).toContain("MICHAEL J O'BRIEN");
    expect(obrienOwners).toContain('MICHAEL J OBRIEN CHATEL REAL ESTATE');

    const llc = await search({ area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value: '13th & n llc' }], projection: 'fact_summary' });
    expect(items(llc).map((item) => factValue(item, 'owner_name'))).toContain('13TH AND N L.L.C.');

    const exact = await search({ area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'eq', value: 'william o bank and hilda o bank' }] });
    expect(items(exact)).toHaveLength(1);
  });

  it('lists names that start with the text before names that merely contain it', async () => {
    const result = await search({ area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value: 'smith' }], projection: 'fact_summary', limit: 100 });
    const owners = items(result).map((item) => normaliseOwnerName(String(factValue(item, 'owner_name'))));
    expect(owners.length).toBeGreaterThan(10);
    expect(owners.every((owner) => owner.includes('SMITH'))).toBe(true);
    const lastPrefix = owners.map((owner) => owner.startsWith('SMITH')).lastIndexOf(true);
    const firstOther = owners.findIndex((owner) => !owner.startsWith('SMITH'));
    expect(lastPrefix).toBeGreaterThanOrEqual(0);
    expect(lastPrefix).toBeLessThan(firstOther);
  });

  it('filters numbers and dates with gte/lte and sorts with missing values last', async () => {
    const result = await search({
      area_uid: 'area_us_dc',
      filters: [
        { field: 'assessed_value_dollars', op: 'gte', value: 1_000_000 },
        { field: 'assessed_value_dollars', op: 'lte', value: '1500000' },
        { field: 'last_sale_date', op: 'gte', value: '2015-01-01' },
      ],
      sort: { field: 'last_sale_price_dollars', direction: 'desc' },
      projection: 'fact_summary',
      limit: 40,
    });
    expect(result.status).toBe(200);
    const rows = items(result);
    expect(rows.length).toBe(40);
    for (const row of rows) {
      expect(factValue(row, 'assessed_value_dollars')).toBeGreaterThanOrEqual(1_000_000);
      expect(factValue(row, 'assessed_value_dollars')).toBeLessThanOrEqual(1_500_000);
      expect(String(factValue(row, 'last_sale_date')) >= '2015-01-01').toBe(true);
    }
    const prices = rows.map((row) => Number(factValue(row, 'last_sale_price_dollars')));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('finds an address by its usual spelling and an SSL by any written form', async () => {
    const byAddress = await search({ area_uid: 'area_us_dc', filters: [{ field: 'address', op: 'contains', value: '1716 21st street' }] });
    expect(items(byAddress).map((item) => (item['canonical_identity'] as Json)['address'])).toContain('1716 21ST ST NW');
    const bySsl = await search({ area_uid: 'area_us_dc', filters: [{ field: 'ssl', op: 'eq', value: '65-4' }] });
    expect(items(bySsl)).toHaveLength(1);
    expect((items(bySsl)[0]?.['canonical_identity'] as Json)['ssl']).toBe('0065    0004');
  });

  it('searches Alexandria, whose identity is the account number', async () => {
    const result = await search({ area_uid: 'area_us_va_alexandria', filters: [{ field: 'land_use', op: 'contains', value: 'detached' }], limit: 5 });
    expect(result.status).toBe(200);
    for (const item of items(result)) {
      expect(item['area_uid']).toBe('area_us_va_alexandria');
      expect((item['canonical_identity'] as Json)['account_no']).toMatch(/^\d+$/);
    }
  });

  it('fact_summary cites every fact, and synthetic building facts to the synthetic source', async () => {
    const result = await search({ area_uid: 'area_us_dc', filters: [{ field: 'ssl', op: 'eq', value: '0065 0004' }], projection: 'fact_summary' });
    const item = items(result)[0] ?? {};
    const facts = item['facts'] as Record<string, { synthetic: boolean; source_refs: string[]; citation: Json }>;
    expect(facts['owner_name']).toMatchObject({ synthetic: false, citation: { source: 'DC Office of Tax and Revenue', source_id: 'dc_otr_ownership' } });
    expect(facts['year_built']).toMatchObject({ synthetic: true, citation: { source_id: SYNTHETIC_SOURCE, synthetic: true } });
    for (const fact of Object.values(facts)) expect(fact.source_refs).toEqual([fact.citation['record_ref']]);
    expect(item['location']).toMatchObject({ precision: 'square_centroid' });
    expect((item['limitations'] as string[]).join(' ')).toContain('synthetic');
  });

  it('lists related entities of the asked kinds, each tied to its property', async () => {
    const property = await propertyBySsl('0065    0004');
    const result = await search({ area_uid: 'area_us_dc', filters: [{ field: 'ssl', op: 'eq', value: '0065    0004' }], entity_kinds: ['property', 'tax_account', 'address'] });
    const rows = items(result);
    expect(rows.map((row) => row['entity_kind'])).toEqual(['property', 'tax_account', 'address']);
    for (const row of rows) expect(row['property_ref']).toBe(property);
    expect(rows[1]?.['via_predicate']).toBe('taxed_in');
    expect(rows[2]?.['via_predicate']).toBe('served_by');

    const onlyParcels = await search({ area_uid: 'area_us_dc', filters: [{ field: 'ssl', op: 'eq', value: '0065    0004' }], entity_kinds: ['parcel'], predicates: ['located_in'] });
    expect(items(onlyParcels).map((row) => row['entity_kind'])).toEqual(['parcel']);
    // Parcels are reached by located_in only: without it there is nothing to list.
    await expectRefused(search({ area_uid: 'area_us_dc', entity_kinds: ['parcel'], predicates: ['taxed_in'] }), 404, 'not_found');
  });

  it('pages by cursor without repeats, charging each page, and binds the cursor to its search', async () => {
    const request = { area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value: 'smith' }], limit: 50 };
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let total: number;
    do {
      const page = await search({ ...request, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.status).toBe(200);
      expect(page.charged).toBe(SEARCH_PRICE);
      total = Number(data(page)['properties_matched']);
      seen.push(...items(page).map((item) => String(item['entity_ref'])));
      cursor = meta(page)['next_cursor'] as string | undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 10);
    expect(cursor).toBeUndefined();
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBe(Math.ceil(total / 50));

    const first = await search(request);
    const next = String(meta(first)['next_cursor']);
    // Another page size is fine; another search is not.
    expect((await search({ ...request, limit: 10, cursor: next })).status).toBe(200);
    await expectRefused(search({ ...request, filters: [{ field: 'owner_name', op: 'contains', value: 'jones' }], cursor: next }), 400, 'invalid_cursor');
    await expectRefused(search({ ...request, cursor: 'not-a-cursor' }), 400, 'invalid_cursor');
  });

  it('answers 404, uncharged, when nothing matches or the area has no records', async () => {
    const before = svc.balance();
    await expectRefused(search({ area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value: 'zzqxv' }] }), 404, 'not_found');
    const maryland = await expectRefused(search({ area_uid: 'area_us_md_montgomery' }), 404, 'not_found');
    expect(errorOf(maryland).details).toMatchObject({ parameter: 'area_uid', known_area_uids: ['area_us_dc', 'area_us_va_alexandria'] });
    await expectRefused(search({ area_uid: 'area_us_dc', entity_kinds: ['building'] }), 404, 'not_found');
    expect(svc.balance()).toBe(before);
  });

  it('refuses bad parameters with a 400 naming the parameter', async () => {
    const dc = { area_uid: 'area_us_dc' };
    const cases: Array<[unknown, string]> = [
      [{}, 'invalid_area_uid'],
      [{ area_uid: 'a'.repeat(129) }, 'invalid_area_uid'],
      [{ ...dc, filters: [{ field: 'owner_name', op: 'like', value: 'x' }] }, 'invalid_filters'],
      [{ ...dc, filters: [{ field: 'shoe_size', op: 'eq', value: 'x' }] }, 'invalid_filters'],
      [{ ...dc, filters: [{ field: 'assessed_value_dollars', op: 'contains', value: '1' }] }, 'invalid_filters'],
      [{ ...dc, filters: [{ field: 'owner_name', op: 'gte', value: 'A' }] }, 'invalid_filters'],
      [{ ...dc, filters: [{ field: 'assessed_value_dollars', op: 'gte', value: 'lots' }] }, 'invalid_filters'],
      [{ ...dc, filters: [{ field: 'last_sale_date', op: 'lte', value: 'yesterday' }] }, 'invalid_filters'],
      [{ ...dc, filters: [{ field: 'owner_name', op: 'contains', value: "'.-" }] }, 'invalid_filters'],
      [{ ...dc, filters: Array.from({ length: 21 }, () => ({ field: 'ssl', op: 'eq', value: '1' })) }, 'invalid_filters'],
      [{ ...dc, sort: { field: 'shoe_size' } }, 'invalid_sort'],
      [{ ...dc, sort: { field: 'address', direction: 'up' } }, 'invalid_sort'],
      [{ ...dc, entity_kinds: ['castle'] }, 'invalid_entity_kinds'],
      [{ ...dc, predicates: ['owns'] }, 'invalid_predicates'],
      [{ ...dc, projection: 'everything' }, 'invalid_projection'],
      [{ ...dc, limit: 0 }, 'invalid_limit'],
      [{ ...dc, limit: 101 }, 'invalid_limit'],
      [{ ...dc, limit: '20' }, 'invalid_limit'],
      [{ ...dc, cursor: 'x'.repeat(4097) }, 'invalid_cursor'],
      [{ ...dc, cursor: '' }, 'invalid_cursor'],
    ];
    for (const [body, code] of cases) await expectRefused(search(body), 400, code);
  });

  it('refuses dates that do not exist with a 400 naming the filter, uncharged', async () => {
    const before = svc.balance();
    for (const [op, value] of [['gte', '2015-13-45'], ['lte', '2015-02-30'], ['eq', '2015-02-29'], ['gte', '2015-04-31T10:00:00Z'], ['lte', '2016-01-01T25:00']] as const) {
      const refused = await expectRefused(search({ area_uid: 'area_us_dc', filters: [{ field: 'last_sale_date', op, value }] }, { idempotencyKey: `bad-date-${op}-${value}` }), 400, 'invalid_filters');
      expect(errorOf(refused).message).toMatch(/^filters\.0\.value: must be a date that exists/);
    }
    // A real leap day and a date-time are fine.
    expect((await search({ area_uid: 'area_us_dc', filters: [{ field: 'last_sale_date', op: 'lte', value: '2016-02-29' }], limit: 1 })).status).toBe(200);
    expect((await search({ area_uid: 'area_us_dc', filters: [{ field: 'last_sale_date', op: 'gte', value: '2015-01-01T00:00:00Z' }], limit: 1 })).status).toBe(200);
    expect(svc.balance()).toBe(before - 2 * SEARCH_PRICE);
    // The client's schema knows the same date fields as the service's dictionary.
    expect(PROPERTY_FIELD_SPECS.filter((spec) => spec.dataType === 'date').map((spec) => spec.field)).toEqual([...v2PropertyDateFields]);
  });

  it('replays an Idempotency-Key for free and refuses it for another search', async () => {
    const body = { area_uid: 'area_us_dc', filters: [{ field: 'ssl', op: 'eq', value: '65-4' }] };
    const first = await search(body, { idempotencyKey: 'v2-search-replay' });
    const again = await search(body, { idempotencyKey: 'v2-search-replay' });
    expect(first.charged).toBe(SEARCH_PRICE);
    expect(again).toMatchObject({ status: 200, charged: 0, replayed: true, text: first.text });
    await expectRefused(search({ ...body, limit: 5 }, { idempotencyKey: 'v2-search-replay' }), 409, 'idempotency_conflict');
  });
});

// ---------------------------------------------------------------------------------------------

describe('POST /api/v2/resolutions', () => {
  it('resolves a mixed batch item by item, charging only resolved items', async () => {
    const result = await resolve({
      items: [
        { client_id: 'by-ssl', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] },
        { client_id: 'by-address', subject_kind: 'address', identifiers: [{ scheme: 'address', value: '1716 21st Street NW' }] },
        { client_id: 'broken', subject_kind: 'address', identifiers: [] },
        { client_id: 'nowhere', subject_kind: 'address', identifiers: [{ scheme: 'address', value: '99999 Nowhere Ave NW' }] },
        'not even an object',
      ],
    });
    expect(result.status).toBe(200);
    expect((result.body as Json)['status']).toBe('partial');
    expect(result.charged).toBe(2 * RESOLVED_ITEM_PRICE);
    const [bySsl, byAddress, broken, nowhere, junk] = items(result);
    const property = await propertyBySsl('0065    0004');

    expect(bySsl).toMatchObject({ client_id: 'by-ssl', outcome: 'ok', total_candidates: 3 });
    const sslCandidates = bySsl?.['candidates'] as Json[];
    expect(sslCandidates.map((c) => c['entity_kind'])).toEqual(['property', 'parcel', 'tax_account']);
    for (const candidate of sslCandidates) {
      expect(candidate).toMatchObject({ match_basis: 'ssl_exact', precision: 'exact', property_ref: property, status: 'current', area_uid: 'area_us_dc' });
      expect((candidate['canonical_identity'] as Json)['ssl']).toBe('0065    0004');
    }

    expect(byAddress).toMatchObject({ outcome: 'ok', address_resolution: { normalised: { full: '1716 21ST ST NW' }, matched: true } });
    for (const candidate of byAddress?.['candidates'] as Json[]) {
      expect(candidate).toMatchObject({ match_basis: 'address_exact', precision: 'exact', property_ref: property });
    }

    expect(broken).toMatchObject({ client_id: 'broken', outcome: 'invalid_input', candidates: [] });
    expect(String(broken?.['reason'])).toContain('identifiers');
    expect(nowhere).toMatchObject({ client_id: 'nowhere', outcome: 'not_found', candidates: [], total_candidates: 0 });
    expect(junk).toMatchObject({ client_id: '', outcome: 'invalid_input' });
  });

  it('calls a building address ambiguous for properties and pages its candidates by cursor', async () => {
    const item = { client_id: 'building', subject_kind: 'address', entity_kind: 'property', identifiers: [{ scheme: 'address', value: '1733 20th street nw' }] };
    const seen: string[] = [];
    let cursor: string | undefined;
    let total: number;
    let calls = 0;
    do {
      const result = await resolve({ items: [item], candidate_limit: 10, ...(cursor === undefined ? {} : { candidate_cursors: { building: cursor } }) });
      expect(result.charged).toBe(RESOLVED_ITEM_PRICE);
      expect((result.body as Json)['status']).toBe('ok');
      const [answer] = items(result);
      expect(answer?.['outcome']).toBe('ambiguous');
      total = Number(answer?.['total_candidates']);
      for (const candidate of answer?.['candidates'] as Json[]) {
        expect(candidate).toMatchObject({ entity_kind: 'property', match_basis: 'address_premise', precision: 'approximate' });
        expect(String((candidate['canonical_identity'] as Json)['address'])).toMatch(/^1733 20TH ST NW UNIT /);
        seen.push(String(candidate['entity_ref']));
      }
      cursor = answer?.['next_candidate_cursor'] as string | undefined;
      calls += 1;
    } while (cursor !== undefined && calls < 10);
    expect(total).toBeGreaterThan(10);
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);

    // With the unit, the same address resolves to one property.
    const unit = await resolve({ items: [{ ...item, identifiers: [{ scheme: 'address', value: '1733 20th St NW Unit G3' }] }] });
    const [answer] = items(unit);
    expect(answer?.['outcome']).toBe('ok');
    expect((answer?.['candidates'] as Json[])[0]).toMatchObject({ match_basis: 'address_exact', precision: 'exact' });
  });

  it('resolves account numbers, entity refs and MAR ids, within an area when asked', async () => {
    const alexandria = await search({ area_uid: 'area_us_va_alexandria', limit: 1 });
    const account = String((items(alexandria)[0]?.['canonical_identity'] as Json)['account_no']);
    const property = await propertyBySsl('0065    0004');
    const mar = store.searchRecords({ kind: 'permit', jurisdiction: '11001', limit: 1 }).items[0]?.data['MARADDRESSREPOSITORYID'];
    const result = await resolve({
      items: [
        { client_id: 'acct', subject_kind: 'identifier', entity_kind: 'tax_account', area_uid: 'area_us_va_alexandria', identifiers: [{ scheme: 'account_no', value: account }] },
        { client_id: 'ref', subject_kind: 'identifier', identifiers: [{ scheme: 'entity_ref', value: property }] },
        { client_id: 'mar', subject_kind: 'identifier', identifiers: [{ scheme: 'mar_id', value: String(mar) }] },
        { client_id: 'wrong-area', subject_kind: 'identifier', area_uid: 'area_us_va_alexandria', identifiers: [{ scheme: 'ssl', value: '65-4' }] },
      ],
    });
    const [acct, ref, marItem, wrongArea] = items(result);
    expect(acct).toMatchObject({ outcome: 'ok', candidates: [{ entity_kind: 'tax_account', match_basis: 'account_no_exact', area_uid: 'area_us_va_alexandria' }] });
    expect(ref).toMatchObject({ outcome: 'ok', candidates: [{ entity_ref: property, match_basis: 'entity_ref_exact', property_ref: property }] });
    expect(marItem).toMatchObject({ outcome: 'ok', candidates: [{ entity_kind: 'address', match_basis: 'mar_id_exact' }] });
    expect(wrongArea).toMatchObject({ outcome: 'not_found' });
    expect(result.charged).toBe(3 * RESOLVED_ITEM_PRICE);
  });

  it('ranks a candidate matched by every identifier first', async () => {
    const result = await resolve({
      items: [{ client_id: 'both', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '0065 0004' }, { scheme: 'address', value: '1716 21ST ST NW' }] }],
    });
    const candidates = items(result)[0]?.['candidates'] as Json[];
    expect(candidates[0]).toMatchObject({ entity_kind: 'property' });
    expect((candidates[0]?.['matched_identifiers'] as Json[]).map((m) => m['match_basis'])).toEqual(['ssl_exact', 'address_exact']);
  });

  it('marks item-level problems invalid_input and leaves the rest of the batch alone', async () => {
    const good = { client_id: 'good', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] };
    const result = await resolve({
      items: [
        good,
        { ...good },
        { client_id: 'mismatch', subject_kind: 'address', identifiers: [{ scheme: 'ssl', value: '65-4' }] },
        { client_id: 'scheme', subject_kind: 'identifier', identifiers: [{ scheme: 'parcel_id', value: '1' }] },
        { client_id: 'cursor', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] },
      ],
      candidate_cursors: { cursor: 'bm90LWEtY3Vyc29y' },
    });
    expect((result.body as Json)['status']).toBe('partial');
    const outcomes = items(result).map((item) => item['outcome']);
    expect(outcomes).toEqual(['ok', 'invalid_input', 'invalid_input', 'invalid_input', 'invalid_input']);
    expect(String(items(result)[1]?.['reason'])).toContain('repeats item 0');
    expect(String(items(result)[3]?.['reason'])).toContain('identifiers.0.scheme');
    expect(result.charged).toBe(RESOLVED_ITEM_PRICE);
  });

  it('answers ok for a fully resolved batch and refuses bad outer parameters with a 400', async () => {
    const ok = await resolve({ items: [{ client_id: 'one', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] }], candidate_limit: 1 });
    expect((ok.body as Json)['status']).toBe('ok');
    expect(items(ok)[0]?.['candidates']).toHaveLength(1);
    expect(items(ok)[0]?.['next_candidate_cursor']).toEqual(expect.any(String));

    const item = { client_id: 'one', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] };
    await expectRefused(resolve({ items: [] }), 400, 'invalid_items');
    await expectRefused(resolve({ items: Array.from({ length: 101 }, (_, i) => ({ ...item, client_id: `c${i}` })) }), 400, 'invalid_items');
    await expectRefused(resolve({ items: [item], candidate_limit: 51 }), 400, 'invalid_candidate_limit');
    await expectRefused(resolve({ items: [item], candidate_cursors: { someone_else: 'abc' } }), 400, 'invalid_candidate_cursors');
    await expectRefused(resolve([item]), 400, 'invalid_request');
  });

  it('replays an Idempotency-Key for free', async () => {
    const body = { items: [{ client_id: 'r', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: '65-4' }] }] };
    const first = await resolve(body, { idempotencyKey: 'v2-resolve-replay' });
    const again = await resolve(body, { idempotencyKey: 'v2-resolve-replay' });
    expect(first.charged).toBe(RESOLVED_ITEM_PRICE);
    expect(again).toMatchObject({ charged: 0, replayed: true, text: first.text });
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /api/v2/catalog', () => {
  it('answers every facet, free', async () => {
    for (const facet of ['jurisdictions', 'authorities', 'coverage', 'dictionary', 'capabilities', 'sources']) {
      const result = await catalog(`facet=${facet}&page_size=100`);
      expect(result.status).toBe(200);
      expect(result.charged).toBe(0);
      expect(data(result)['facet']).toBe(facet);
      expect(items(result).length).toBeGreaterThan(0);
      expect((data(result)['capabilities'] as Json[]).map((c) => c['facet'])).toContain(facet);
    }
  });

  it('lists every jurisdiction and is honest that Maryland has no records', async () => {
    const all = await catalog('facet=jurisdictions');
    expect(items(all)).toHaveLength(34);
    const maryland = await catalog('facet=jurisdictions&filter=MD');
    expect(items(maryland).length).toBe(25);
    expect(items(maryland).every((item) => item['coverage'] === 'none' && item['records'] === 0)).toBe(true);
    const fairfax = await catalog('facet=jurisdictions&filter=fairfax');
    expect(items(fairfax).map((item) => item['jurisdiction'])).toEqual(['51059', '51600']);
    const dc = await catalog('facet=jurisdictions&filter=11001');
    expect(items(dc)[0]).toMatchObject({ coverage: 'partial', area_uids: ['area_us_dc'] });
  });

  it('states coverage per area and domain from the store, with Maryland empty', async () => {
    const maryland = await catalog('facet=coverage&filter=24');
    expect(items(maryland).length).toBeGreaterThan(0);
    expect(items(maryland).every((row) => row['status'] === 'none' && row['records'] === 0)).toBe(true);
    const ownership = await catalog('facet=coverage&filter=area_us_dc&domain_key=ownership');
    expect(items(ownership)).toEqual([
      expect.objectContaining({ status: 'partial', source_ids: ['dc_otr_ownership'], records: store.getSource('dc_otr_ownership')?.records }),
    ]);
    const characteristics = await catalog('facet=coverage&filter=area_us_dc&domain_key=building_characteristics');
    expect(items(characteristics)[0]).toMatchObject({ synthetic_source_ids: [SYNTHETIC_SOURCE] });
    const condos = await catalog('facet=coverage&filter=area_us_dc&property_class=condominium');
    expect(items(condos).map((row) => row['domain_key'])).not.toContain('building_characteristics');
    const unknown = await catalog('facet=coverage&domain_key=weather');
    expect(items(unknown)).toEqual([]);
    expect(meta(unknown)['warnings']).toEqual([expect.stringContaining('weather')]);
  });

  it('describes fields per entity kind, sources with their checksums, and operations with their prices', async () => {
    const dictionary = await catalog('facet=dictionary&entity_name=property&data_type=number&page_size=100');
    const fields = items(dictionary);
    expect(fields.every((row) => row['entity_name'] === 'property' && row['data_type'] === 'number')).toBe(true);
    expect(fields.find((row) => row['field_key'] === 'assessed_value_dollars')).toMatchObject({ filter_ops: ['eq', 'gte', 'lte'], synthetic: false });
    expect(fields.find((row) => row['field_key'] === 'imputed_year_built')).toMatchObject({ synthetic: true, source_ids: [SYNTHETIC_SOURCE] });

    const sources = await catalog('facet=sources');
    for (const source of items(sources)) {
      expect(source['sha256']).toMatch(/^[0-9a-f]{64}$/);
      expect(source['release_id']).toMatch(/^\d{8}$/);
      expect(source['synthetic']).toBe(source['source_id'] === SYNTHETIC_SOURCE);
    }

    const capabilities = await catalog('facet=capabilities&page_size=100');
    const search = items(capabilities).find((row) => row['operation'] === 'v2.searchProperties');
    expect(search).toMatchObject({ path: serviceOperations['v2.searchProperties'].path, price: { rule: 'per_page_with_results', micro_usd: SEARCH_PRICE } });
    expect(items(capabilities)).toHaveLength(Object.keys(serviceOperations).length);
  });

  it('pages with page_size and cursor', async () => {
    const all = await catalog('facet=dictionary&page_size=100');
    const total = Number(data(all)['total_items']);
    const seen: Json[] = [];
    let cursor: string | undefined;
    do {
      const page = await catalog(`facet=dictionary&page_size=30${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      seen.push(...items(page));
      cursor = meta(page)['next_cursor'] as string | undefined;
    } while (cursor !== undefined && seen.length <= total);
    expect(seen.length).toBe(total);
    expect(seen.map((row) => `${String(row['entity_name'])}.${String(row['field_key'])}`)).toEqual(
      [...items(all), ...items(await catalog(`facet=dictionary&page_size=100&cursor=${encodeURIComponent(String(meta(all)['next_cursor']))}`))].map(
        (row) => `${String(row['entity_name'])}.${String(row['field_key'])}`,
      ),
    );
    const sourcesCursor = String(meta(await catalog('facet=jurisdictions&page_size=5'))['next_cursor']);
    await expectRefused(catalog(`facet=sources&cursor=${encodeURIComponent(sourcesCursor)}`), 400, 'invalid_cursor');
  });

  it('refuses bad parameters with a 400 naming the parameter', async () => {
    await expectRefused(catalog('page_size=10'), 400, 'invalid_facet');
    await expectRefused(catalog('facet=weather'), 400, 'invalid_facet');
    await expectRefused(catalog('facet=sources&filter=dc'), 400, 'invalid_filter');
    await expectRefused(catalog('facet=dictionary&filter=dc'), 400, 'invalid_filter');
    await expectRefused(catalog(`facet=coverage&filter=${'x'.repeat(129)}`), 400, 'invalid_filter');
    await expectRefused(catalog('facet=sources&page_size=0'), 400, 'invalid_page_size');
    await expectRefused(catalog('facet=sources&page_size=101'), 400, 'invalid_page_size');
    await expectRefused(catalog('facet=sources&page_size=ten'), 400, 'invalid_page_size');
    await expectRefused(catalog('facet=sources&facet=coverage'), 400, 'invalid_facet');
    await expectRefused(catalog(`facet=dictionary&entity_name=${'x'.repeat(257)}`), 400, 'invalid_entity_name');
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /api/v2/entities/{entity_ref}', () => {
  it('returns a property with cited identifiers and attributes, alternatives and limitations', async () => {
    const property = await propertyBySsl('0065    0004');
    const result = await entity(property);
    expect(result.status).toBe(200);
    expect(result.charged).toBe(ENTITY_PRICE);
    const answer = data(result)['entity'] as Json;
    expect(answer).toMatchObject({
      entity_ref: property,
      entity_kind: 'property',
      area_uid: 'area_us_dc',
      status: 'current',
      coverage_status: 'available',
      valid_from: '2017-02-05',
      valid_to: null,
      generation_id: (meta(result)['generation_ids'] as string[])[0],
    });
    expect(answer['identifiers']).toContainEqual({ scheme: 'ssl', value: '0065    0004', status: 'reported', method: 'as_published', source_refs: [expect.stringMatching(/^rec_/)] });
    const attributes = answer['attributes'] as Record<string, { value: unknown; synthetic: boolean; source_refs: string[]; alternatives: unknown[] }>;
    expect(attributes['owner_name']).toMatchObject({ value: 'WILLIAM O BANK & HILDA O BANK', synthetic: false });
    expect(attributes['assessment_year']).toMatchObject({ value: 2016, method: 'column_name' });
    expect(attributes['year_built']).toMatchObject({ synthetic: true });
    for (const attribute of Object.values(attributes)) expect(attribute.source_refs).toHaveLength(1);
    expect((answer['source_refs'] as string[]).length).toBeGreaterThan(1);
    expect(answer['location']).toMatchObject({ precision: 'square_centroid', citation: { source_id: 'dc_gis_square_points' } });
    expect((answer['limitations'] as string[]).length).toBeGreaterThan(0);
  });

  it('returns every kind of entity the sample holds', async () => {
    const property = await propertyBySsl('0065    0004');
    const related = store.relationships(property).map((link) => link.object_ref);
    const alexandria = String(items(await search({ area_uid: 'area_us_va_alexandria', limit: 1 }))[0]?.['entity_ref']);
    for (const ref of [...related, alexandria]) {
      const result = await entity(ref);
      expect(result.status).toBe(200);
      expect((data(result)['entity'] as Json)['entity_ref']).toBe(ref);
    }
  });

  it('says a placeholder SSL keys no parcel: the search for it, the id such a parcel would have, and each permit giving it', async () => {
    const before = svc.balance();
    const searched = await expectRefused(search({ area_uid: 'area_us_dc', filters: [{ field: 'ssl', op: 'eq', value: '0000 0000' }] }), 404, 'not_found');
    expect(errorOf(searched).message).toContain('SSL 0000 0000 is a placeholder some records carry (square or lot 0000), not a parcel\'s SSL: no property is keyed by it.');
    // The id a parcel of 0000 0000 had before the build refused it (saved assignments and graphs may hold it).
    const placeholderParcel = 'parc_14af5606-65a2-5c48-82a0-858b6e53c12f';
    for (const answer of [await entity(placeholderParcel), await relationships(placeholderParcel)]) {
      expect(answer.status).toBe(404);
      expect(errorOf(answer).message).toMatch(/would be the parcel of SSL 0000 0000, a placeholder .*not a valid parcel key: the sample makes no parcel of it, and the 4 permits that give it keep only their own addresses\.$/);
    }
    expect(svc.balance()).toBe(before);

    // The permits stay, on their own addresses, each saying its SSL is not a valid parcel key.
    const trailers = store.resolveAddress('2600 INDEPENDENCE AVE SE').candidates.find((candidate) => candidate.prefix === 'addr');
    const address = await entity(trailers?.entity_id ?? '');
    const permits = (data(address)['entity'] as { permits: Json[] }).permits;
    expect(permits.map((permit) => [permit['permit_id'], permit['limitations']])).toEqual([
      ['B1401123', [expect.stringMatching(/^Its published SSL "0000 0000" is a placeholder \(square and lot 0000\), not a valid parcel key/)]],
      ['B1510807', [expect.stringMatching(/^Its published SSL "0000 0000" is a placeholder/)]],
    ]);
    const links = await relationships(trailers?.entity_id ?? '');
    const records = (data(links)['nodes'] as Json[]).filter((node) => node['node_type'] === 'record');
    expect(records).toHaveLength(2);
    for (const record of records) expect(record['limitations']).toEqual([expect.stringContaining('not a valid parcel key')]);
    expect((data(links)['nodes'] as Json[]).some((node) => String(node['id']).startsWith('parc_'))).toBe(false);
  });

  it('answers 404 for an unknown entity and 400 for an over-long ref, uncharged', async () => {
    const before = svc.balance();
    await expectRefused(entity('prop_00000000-0000-5000-8000-000000000000'), 404, 'not_found');
    await expectRefused(entity('no-such-thing'), 404, 'not_found');
    await expectRefused(entity('p'.repeat(513)), 400, 'invalid_entity_ref');
    expect(svc.balance()).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /api/v2/entities/{entity_ref}/relationships', () => {
  it('lists the root and its direct links by default, each edge cited and explained', async () => {
    const property = await propertyBySsl('0065    0004');
    const result = await relationships(property);
    expect(result.status).toBe(200);
    expect(result.charged).toBe(TRAVERSAL_PRICE);
    const answer = data(result);
    expect(answer).toMatchObject({ root_ref: property, depth: 1, max_nodes: 100, max_edges: 200 });
    const edges = answer['edges'] as Json[];
    expect(edges.map((edge) => edge['predicate']).sort()).toEqual(['located_in', 'served_by', 'taxed_in']);
    for (const edge of edges) {
      expect(edge).toMatchObject({ subject_ref: property, direction: 'out', status: 'current', confidence: 1 });
      expect((edge['source_refs'] as string[]).length).toBeGreaterThan(0);
      expect(edge['explanation']).toEqual(expect.any(String));
    }
    const nodes = answer['nodes'] as Json[];
    expect(nodes.map((node) => node['id'])).toEqual([property, ...edges.map((edge) => edge['object_ref'])]);
    expect(meta(result)['truncated']).toBe(false);
  });

  it('walks deeper, including owner links, and truncates at the node and edge caps', async () => {
    const owner = store.findOwners('ANTOINETTE Y SMITH').owners[0];
    const account = owner?.holdings[0]?.account_id ?? '';
    const deep = await relationships(account, 'depth=2');
    const edges = data(deep)['edges'] as Json[];
    expect(edges.some((edge) => edge['predicate'] === 'same_owner' && edge['precision'] === 'approximate')).toBe(true);
    expect(Math.max(...edges.map((edge) => Number(edge['depth'])))).toBe(2);

    const fewNodes = await relationships(account, 'depth=3&max_nodes=3');
    expect((data(fewNodes)['nodes'] as Json[]).length).toBeLessThanOrEqual(3);
    expect(data(fewNodes)['node_count']).toBe(3);
    expect(meta(fewNodes)).toMatchObject({ truncated: true, warnings: [expect.stringContaining('max_nodes 3')] });

    const fewEdges = await relationships(account, 'depth=3&max_edges=2');
    expect(data(fewEdges)['edges']).toHaveLength(2);
    expect(meta(fewEdges)['truncated']).toBe(true);
  });

  it('follows direction, predicates and as_of', async () => {
    const property = await propertyBySsl('0065    0004');
    const parcel = store.relationships(property, { predicates: ['located_in'] })[0]?.object_ref ?? '';
    const incoming = await relationships(parcel, 'direction=in');
    for (const edge of data(incoming)['edges'] as Json[]) expect(edge).toMatchObject({ object_ref: parcel, direction: 'in' });
    const taxed = await relationships(property, 'predicates=taxed_in');
    expect((data(taxed)['edges'] as Json[]).map((edge) => edge['predicate'])).toEqual(['taxed_in']);
    // OTR links hold from the roll's publication (2017-02-05); before it there are none.
    const early = await relationships(property, 'as_of=2016-06-30');
    expect(data(early)['edges']).toEqual([]);
    expect(meta(early)['warnings']).toEqual([expect.stringContaining('after as_of 2016-06-30')]);
    const later = await relationships(property, 'as_of=2017-02-05T12:00:00Z');
    expect((data(later)['edges'] as Json[]).length).toBe(3);
  });

  it('pages edges by cursor, each page charged', async () => {
    const owner = store.findOwners('ANTOINETTE Y SMITH').owners[0];
    const account = owner?.holdings[0]?.account_id ?? '';
    const whole = await relationships(account, 'depth=3&max_nodes=50&page_size=100');
    const all = (data(whole)['edges'] as Json[]).map((edge) => edge['relationship_ref']);
    expect(all.length).toBe(data(whole)['edge_count']);
    expect(all.length).toBeGreaterThan(40);
    const paged: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await relationships(account, `depth=3&max_nodes=50&page_size=20${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(page.charged).toBe(TRAVERSAL_PRICE);
      const edges = data(page)['edges'] as Json[];
      paged.push(...edges.map((edge) => edge['relationship_ref']));
      // Each page carries the nodes its edges join.
      const nodeIds = new Set((data(page)['nodes'] as Json[]).map((node) => node['id']));
      for (const edge of edges) {
        expect(nodeIds.has(edge['subject_ref'])).toBe(true);
        expect(nodeIds.has(edge['object_ref'])).toBe(true);
      }
      cursor = meta(page)['next_cursor'] as string | undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 10);
    expect(pages).toBe(Math.ceil(all.length / 20));
    expect(paged).toEqual(all);
    const otherCursor = String(meta(await relationships(account, 'depth=2&page_size=1'))['next_cursor']);
    await expectRefused(relationships(account, `depth=3&max_nodes=50&cursor=${encodeURIComponent(otherCursor)}`), 400, 'invalid_cursor');
  });

  it('refuses bad parameters with a 400 naming the parameter, and an unknown root with a 404', async () => {
    const property = await propertyBySsl('0065    0004');
    const cases: Array<[string, string]> = [
      ['direction=sideways', 'invalid_direction'],
      ['predicates=owns', 'invalid_predicates'],
      ['predicates=same_owner', 'invalid_predicates'],
      [`predicates=${Array.from({ length: 51 }, () => 'taxed_in').join(',')}`, 'invalid_predicates'],
      ['as_of=2017-02-30', 'invalid_as_of'],
      ['depth=0', 'invalid_depth'],
      ['depth=4', 'invalid_depth'],
      ['max_nodes=201', 'invalid_max_nodes'],
      ['max_edges=0', 'invalid_max_edges'],
      ['page_size=101', 'invalid_page_size'],
      ['depth=1&depth=2', 'invalid_depth'],
      ['cursor=garbage', 'invalid_cursor'],
    ];
    for (const [query, code] of cases) await expectRefused(relationships(property, query), 400, code);
    await expectRefused(relationships('prop_00000000-0000-5000-8000-000000000000'), 404, 'not_found');
  });
});
