// The v4 operations over real HTTP against the real sample store: parameter rules (400 naming the
// parameter), 404s, paging, billing, and every answer checked against the shared contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  encodeSearchFilter,
  serviceOperations,
  V4CatalogResponseSchema,
  V4ConnectedResponseSchema,
  V4SearchResponseSchema,
  V4SummaryFieldSchema,
  V4SummaryResponseSchema,
} from '../../../shared/service/index.ts';
import type { SearchFilter } from '../../../shared/service/index.ts';
import { openSampleStore } from '../sample-store.ts';
import type { SampleRecord, SampleStore } from '../sample-store.ts';
import { startTestService, stopTestService } from '../test-harness.ts';
import type { TestCallResult, TestService } from '../test-harness.ts';
import { v4Operations } from './v4.ts';
import { SYNTHETIC_PUBLISHER, UNKNOWN_UUID, idOf } from '../sample-test-kit.ts';

const SEARCH_PRICE = serviceOperations['v4.search'].price.microUsd;
const SUMMARY_PRICE = serviceOperations['v4.summary'].price.microUsd;

let store: SampleStore;
let svc: TestService;
/** 2120 FLORIDA AVE NW: a DC row lot with an owner, an assessment, a sale and synthetic characteristics. */
let florida: SampleRecord;
/** 201 E LURAY AV: an Alexandria parcel (no owner, value or sale in the sample). */
let luray: SampleRecord;

function ownershipRecord(address: string, kind = 'ownership', jurisdiction = '11'): SampleRecord {
  const page = store.searchRecords({ kind, jurisdiction, filters: [{ field: 'address', op: 'eq', value: address }], limit: 1 });
  const record = page.items[0];
  if (!record) throw new Error(`no ${kind} record at ${address}`);
  return record;
}

function search(params: Record<string, string>, filter?: SearchFilter | string, idempotencyKey?: string): Promise<TestCallResult> {
  const query = new URLSearchParams(params);
  if (filter !== undefined) query.set('filter', typeof filter === 'string' ? filter : encodeSearchFilter(filter));
  return svc.call(`/api/v4/search?${query.toString()}`, idempotencyKey === undefined ? {} : { idempotencyKey });
}

function errorOf(res: TestCallResult): { code: string; message: string } {
  const body = res.body as { status: string; error: { code: string; message: string } };
  expect(body.status).toBe('error');
  return body.error;
}

beforeAll(async () => {
  store = openSampleStore();
  svc = await startTestService({ operations: v4Operations, store, rateLimitPerMinute: 100_000 });
  florida = ownershipRecord('2120 FLORIDA AVE NW');
  luray = ownershipRecord('201 E LURAY AV', 'parcel', '51');
});

afterAll(async () => {
  await stopTestService(svc);
  store.close();
});

describe('v4 search', () => {
  it('finds an owner by name as published, with the full cited source row, and charges one page', async () => {
    const before = svc.balance();
    const res = await search({ kind: 'ownership', jurisdiction: '11001' }, { conditions: [{ field: 'owner', op: 'eq', value: 'zachary  romanow' }] });
    expect(res.status).toBe(200);
    const body = V4SearchResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    const [item] = body.data.items;
    expect(body.data.items).toHaveLength(1);
    expect(item?.record_ref).toBe(florida.record_ref);
    expect(item?.kind).toBe('ownership');
    expect(item?.citation).toMatchObject({ source: 'DC Office of Tax and Revenue', source_id: 'dc_otr_ownership', synthetic: false });
    expect(item?.citation.as_of).toBe(store.getSource('dc_otr_ownership')?.as_of);
    // The publisher's own field names, the whole row.
    expect(item?.data).toEqual(florida.data);
    expect(item?.q_ids).toEqual(florida.q_ids);
    expect(body.data.next_cursor).toBeUndefined();
    expect(body.meta.next_cursor).toBeNull();
    expect(res.charged).toBe(SEARCH_PRICE);
    expect(svc.balance()).toBe(before - SEARCH_PRICE);
  });

  it('matches a state code to its counties', async () => {
    const filter: SearchFilter = { conditions: [{ field: 'use_code', op: 'eq', value: '17' }] };
    const state = V4SearchResponseSchema.parse((await search({ kind: 'ownership', jurisdiction: '11', limit: '1' }, filter)).body);
    const county = V4SearchResponseSchema.parse((await search({ kind: 'ownership', jurisdiction: '11001', limit: '1' }, filter)).body);
    if (state.status !== 'ok' || county.status !== 'ok') throw new Error('expected ok');
    expect(state.data.items[0]?.jurisdiction).toBe('11001');
    expect(state.data['total']).toBe(county.data['total']);
    expect(state.data.items[0]?.record_ref).toBe(county.data.items[0]?.record_ref);
  });

  it('pages by cursor through every match, each page with results charged once', async () => {
    const filter: SearchFilter = { conditions: [{ field: 'owner', op: 'eq', value: 'DISTRICT OF COLUMBIA' }] };
    const expected = store.searchRecords({ kind: 'ownership', jurisdiction: '11', filters: [{ field: 'owner', op: 'eq', value: 'DISTRICT OF COLUMBIA' }], limit: 100 });
    expect(expected.total).toBeGreaterThan(30);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await search({ kind: 'ownership', jurisdiction: '11', limit: '30', ...(cursor === undefined ? {} : { cursor }) }, filter);
      const body = V4SearchResponseSchema.parse(res.body);
      if (body.status !== 'ok') throw new Error('expected ok');
      expect(res.charged).toBe(SEARCH_PRICE);
      seen.push(...body.data.items.map((item) => item.record_ref));
      cursor = body.data.next_cursor;
      expect(body.meta.next_cursor).toBe(cursor ?? null);
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(Math.ceil(expected.total / 30));
    expect(new Set(seen).size).toBe(expected.total);
    expect(seen).toEqual(expected.items.map((item) => item.record_ref));
  });

  it('binds its cursor to the request: one from another kind, place or filter, or a made-up one, is refused with 400, free', async () => {
    const first = V4SearchResponseSchema.parse((await search({ kind: 'ownership', jurisdiction: '11', limit: '5' })).body);
    if (first.status !== 'ok' || first.data.next_cursor === undefined) throw new Error('expected a second page');
    const cursor = first.data.next_cursor;
    expect((await search({ kind: 'ownership', jurisdiction: '11', limit: '5', cursor })).status).toBe(200);
    const forged = [
      { kind: 'sale', jurisdiction: '11', cursor },
      { kind: 'ownership', jurisdiction: '51', cursor },
      { kind: 'ownership', jurisdiction: '11001', cursor },
      { kind: 'ownership', jurisdiction: '11', cursor: 'r1' },
      { kind: 'ownership', jurisdiction: '11', cursor: `${cursor.slice(0, -1)}${cursor.endsWith('0') ? '1' : '0'}` },
    ];
    for (const params of forged) {
      const before = svc.balance();
      const res = await search(params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(errorOf(res).code).toBe('invalid_cursor');
      expect(res.charged ?? 0).toBe(0);
      expect(svc.balance()).toBe(before);
    }
    const filtered = await search({ kind: 'ownership', jurisdiction: '11', cursor }, { conditions: [{ field: 'owner', op: 'eq', value: 'DISTRICT OF COLUMBIA' }] });
    expect(filtered.status).toBe(400);
    expect(errorOf(filtered).code).toBe('invalid_cursor');
  });

  it('applies gte to numbers, and to dates as a year', async () => {
    const values = await search({ kind: 'assessment', jurisdiction: '11', limit: '20' }, { conditions: [{ field: 'assessment_2016', op: 'gte', value: 5_000_000 }] });
    const valueBody = V4SearchResponseSchema.parse(values.body);
    if (valueBody.status !== 'ok') throw new Error('expected ok');
    expect(valueBody.data.items.length).toBeGreaterThan(0);
    for (const item of valueBody.data.items) expect((item.data as Record<string, number>)['assessment_2016']).toBeGreaterThanOrEqual(5_000_000);

    const dates = await search({ kind: 'sale', jurisdiction: '11', limit: '20' }, { conditions: [{ field: 'last_sale_recordation_date', op: 'gte', value: 2016 }] });
    const dateBody = V4SearchResponseSchema.parse(dates.body);
    if (dateBody.status !== 'ok') throw new Error('expected ok');
    expect(dateBody.data.items.length).toBeGreaterThan(0);
    for (const item of dateBody.data.items) expect(String((item.data as Record<string, unknown>)['last_sale_recordation_date']) >= '2016-01-01').toBe(true);
  });

  it('limits to one source with $source_id and cites synthetic records to the synthetic source', async () => {
    const res = await search({ kind: 'imputed_characteristics', jurisdiction: '11', limit: '3' }, { conditions: [], sourceId: 'plat_synthetic_characteristics' });
    const body = V4SearchResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.data.items).toHaveLength(3);
    for (const item of body.data.items) {
      expect(item.source_id).toBe('plat_synthetic_characteristics');
      expect(item.citation).toMatchObject({ source: SYNTHETIC_PUBLISHER, synthetic: true });
    }
  });

  it('says on each permit giving the placeholder SSL 0000 0000 that it is not a valid parcel key, and on no other', async () => {
    const res = await search({ kind: 'permit', jurisdiction: '11', limit: '100' }, { conditions: [{ field: 'SSL', op: 'eq', value: '0000    0000' }] });
    const body = V4SearchResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.data.items.map((item) => (item.data as Record<string, unknown>)['PERMIT_ID'])).toEqual(['B1401123', 'B1510807', 'B1511108', 'B1502153']);
    for (const item of body.data.items) {
      expect(item.citation['limitations']).toEqual([expect.stringMatching(/^Its published SSL "0000 0000" is a placeholder \(square and lot 0000\), not a valid parcel key/)]);
      expect((item.q_ids as string[]).some((id) => id.startsWith('parc_') || id.startsWith('unit_') || id.startsWith('prop_'))).toBe(false);
    }
    const real = V4SearchResponseSchema.parse((await search({ kind: 'permit', jurisdiction: '11', limit: '5' })).body);
    if (real.status !== 'ok') throw new Error('expected ok');
    expect(real.data.items.every((item) => !('limitations' in item.citation))).toBe(true);
  });

  it('answers 404 for no match and for a jurisdiction without the kind, and charges nothing', async () => {
    const before = svc.balance();
    const none = await search({ kind: 'ownership', jurisdiction: '11' }, { conditions: [{ field: 'owner', op: 'eq', value: 'NOBODY OF THIS NAME' }] });
    expect(none.status).toBe(404);
    expect(errorOf(none).code).toBe('not_found');
    expect(none.charged ?? 0).toBe(0);
    const maryland = await search({ kind: 'ownership', jurisdiction: '24' });
    expect(maryland.status).toBe(404);
    expect(errorOf(maryland).message).toContain('Maryland');
    const wrongPlace = await search({ kind: 'parcel', jurisdiction: '11' }, { conditions: [], sourceId: 'va_alexandria_parcels' });
    expect(wrongPlace.status).toBe(404);
    for (const res of [none, maryland, wrongPlace]) expect(V4SearchResponseSchema.safeParse(res.body).success).toBe(true);
    expect(svc.balance()).toBe(before);
  });

  it.each([
    ['missing kind', { jurisdiction: '11' }, undefined, 'invalid_kind'],
    ['kind with other characters', { jurisdiction: '11', kind: 'Sale!' }, undefined, 'invalid_kind'],
    ['a kind no source publishes', { jurisdiction: '11', kind: 'loan' }, undefined, 'invalid_kind'],
    ['missing jurisdiction', { kind: 'sale' }, undefined, 'invalid_jurisdiction'],
    ['unknown jurisdiction', { kind: 'sale', jurisdiction: '99' }, undefined, 'invalid_jurisdiction'],
    ['limit 0', { kind: 'sale', jurisdiction: '11', limit: '0' }, undefined, 'invalid_limit'],
    ['limit 101', { kind: 'sale', jurisdiction: '11', limit: '101' }, undefined, 'invalid_limit'],
    ['cursor over 512 characters', { kind: 'sale', jurisdiction: '11', cursor: 'r'.repeat(513) }, undefined, 'invalid_cursor'],
    ['a cursor the service did not issue', { kind: 'sale', jurisdiction: '11', cursor: 'page-2' }, undefined, 'invalid_cursor'],
    ['filter that is not JSON', { kind: 'sale', jurisdiction: '11' }, '{owner:', 'invalid_filter'],
    ['filter over 2000 characters', { kind: 'sale', jurisdiction: '11' }, JSON.stringify({ address: 'x'.repeat(2000) }), 'invalid_filter'],
    ['six source fields', { kind: 'ownership', jurisdiction: '11' }, JSON.stringify({ a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 }), 'invalid_filter'],
    ['an unknown operator', { kind: 'ownership', jurisdiction: '11' }, JSON.stringify({ assessment_2016: { lt: 5 } }), 'invalid_filter'],
    ['an unknown source id', { kind: 'sale', jurisdiction: '11' }, JSON.stringify({ $source_id: 'no_such_source' }), 'invalid_filter'],
    ['a source of another kind', { kind: 'sale', jurisdiction: '11' }, JSON.stringify({ $source_id: 'dc_otr_ownership' }), 'invalid_filter'],
    ['gte on a text field', { kind: 'ownership', jurisdiction: '11' }, JSON.stringify({ owner: { gte: 3 } }), 'invalid_filter'],
    ['gte on a date that is not a year', { kind: 'sale', jurisdiction: '11' }, JSON.stringify({ last_sale_recordation_date: { gte: 201 } }), 'invalid_filter'],
  ])('answers 400 for %s, naming the parameter, free', async (_name, params, filter, code) => {
    const before = svc.balance();
    const res = await search(params as Record<string, string>, filter);
    expect(svc.balance()).toBe(before);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe(code);
    expect(res.charged ?? 0).toBe(0);
    expect(V4SearchResponseSchema.safeParse(res.body).success).toBe(true);
  });

  it('refuses a field the kind does not have, naming the field', async () => {
    const res = await search({ kind: 'ownership', jurisdiction: '11' }, { conditions: [{ field: 'SALEPRICE', op: 'eq', value: 1 }] });
    expect(res.status).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('invalid_filter');
    expect(error.message).toContain('SALEPRICE');
    expect(error.message).toContain('owner');
  });

  it('replays a page for free under the same Idempotency-Key', async () => {
    const filter: SearchFilter = { conditions: [{ field: 'use_code', op: 'eq', value: '11' }] };
    const first = await search({ kind: 'ownership', jurisdiction: '11', limit: '2' }, filter, 'search-replay-1');
    const before = svc.balance();
    const again = await search({ kind: 'ownership', jurisdiction: '11', limit: '2' }, filter, 'search-replay-1');
    expect(first.charged).toBe(SEARCH_PRICE);
    expect(again.replayed).toBe(true);
    expect(again.charged).toBe(0);
    expect(again.text).toBe(first.text);
    expect(svc.balance()).toBe(before);
    expect((again.body as { request_id: string }).request_id).toBe('search-replay-1');
  });
});

describe('v4 catalog', () => {
  it('lists every source with publisher, kind, record count and date, without fields, for free', async () => {
    const res = await svc.call('/api/v4/catalog');
    const body = V4CatalogResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(res.charged).toBe(0);
    expect(body.meta.truncated).toBe(false);
    const sources = store.listSources();
    expect(body.data.items.map((item) => item.source_id)).toEqual(sources.map((source) => source.source_id));
    for (const item of body.data.items) {
      const source = store.getSource(item.source_id);
      expect(item).toMatchObject({ source: source?.publisher, kind: source?.kind, records: source?.records, state: source?.state, as_of: source?.as_of });
      expect(item.fields).toBeUndefined();
    }
    expect(body.data.items.find((item) => item.source_id === 'plat_synthetic_characteristics')).toMatchObject({ source: SYNTHETIC_PUBLISHER, synthetic: true });
  });

  it('narrowed by jurisdiction adds the fields that search filters use', async () => {
    const res = await svc.call('/api/v4/catalog?jurisdiction=51');
    const body = V4CatalogResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.data.items.map((item) => item.source_id).sort()).toEqual(['va_alexandria_address_points', 'va_alexandria_parcels']);
    const parcels = body.data.items.find((item) => item.source_id === 'va_alexandria_parcels');
    const fields = parcels?.fields as Array<{ name: string; type: string; description: string; example: unknown }>;
    expect(fields.map((f) => f.name).sort()).toEqual(Object.keys(luray.data).sort());
    expect(fields.find((f) => f.name === 'account_no')).toMatchObject({ type: 'string', example: expect.any(String) as unknown });
  });

  it('narrowed by source_id gives that source with its fields', async () => {
    const res = await svc.call('/api/v4/catalog?source_id=dc_otr_ownership');
    const body = V4CatalogResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.data.items).toHaveLength(1);
    expect(Array.isArray(body.data.items[0]?.fields)).toBe(true);
  });

  it('answers an honest empty list for a jurisdiction without sample data, for free', async () => {
    const res = await svc.call('/api/v4/catalog?jurisdiction=24031');
    expect(res.status).toBe(200);
    const body = V4CatalogResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.data.items).toEqual([]);
    expect(String(body.data['coverage_note'])).toContain('Montgomery');
    expect(res.charged).toBe(0);
  });

  it.each([
    ['jurisdiction=DC', 'invalid_jurisdiction', 400],
    ['jurisdiction=24002', 'invalid_jurisdiction', 400],
    ['source_id=Bad-Id', 'invalid_source_id', 400],
    ['source_id=no_such_source', 'not_found', 404],
  ])('answers %s with %s', async (query, code, status) => {
    const res = await svc.call(`/api/v4/catalog?${query}`);
    expect(res.status).toBe(status);
    expect(errorOf(res).code).toBe(code);
    expect(V4CatalogResponseSchema.safeParse(res.body).success).toBe(true);
  });
});

describe('v4 connected', () => {
  const connected = (id: string, query = '') => svc.call(`/api/v4/entities/${id}/connected${query}`);
  type Item = { q_id: string; type: string; relation: string; via: string; depth: number; source_refs: string[]; citation: { source: string } | null };
  const itemsOf = (res: TestCallResult): Item[] => {
    const body = V4ConnectedResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error(`expected ok, got ${res.text}`);
    return body.data.items as unknown as Item[];
  };

  it('lists the entities one link away, each link cited, for free', async () => {
    const parcel = idOf(florida, 'parc');
    const res = await connected(parcel, '?depth=1');
    expect(res.charged).toBe(0);
    const items = itemsOf(res);
    expect(items.map((item) => item.q_id).sort()).toEqual([idOf(florida, 'acct'), idOf(florida, 'addr'), idOf(florida, 'prop')].sort());
    for (const item of items) {
      expect(item).toMatchObject({ depth: 1, via: parcel });
      expect(item.source_refs.length).toBeGreaterThan(0);
      expect(item.citation?.source).toBe('DC Office of Tax and Revenue');
    }
    expect(items.find((item) => item.q_id === idOf(florida, 'acct'))?.type).toBe('tax_account');
  });

  it('goes parcel → account → the same owner\'s other account → its parcel', async () => {
    const owner = store.findOwners('WILLIAM B THOMAS').owners[0];
    const [home, other] = owner?.holdings ?? [];
    if (!home?.land_id || !home.account_id || !other?.account_id || !other.land_id) throw new Error('fixture owner changed');
    const items = itemsOf(await connected(home.land_id, '?depth=3&limit=100'));
    const otherAccount = items.find((item) => item.q_id === other.account_id);
    expect(otherAccount).toMatchObject({ relation: 'same_owner', via: home.account_id, depth: 2 });
    expect(otherAccount?.citation?.source).toBe('DC Office of Tax and Revenue');
    expect(items.find((item) => item.q_id === other.land_id)).toMatchObject({ via: other.account_id, depth: 3 });
  });

  it('defaults to depth 2 and pages by cursor through the same list', async () => {
    const account = idOf(florida, 'acct');
    const all = itemsOf(await connected(account));
    expect(Math.max(...all.map((item) => item.depth))).toBe(2);
    expect(all.length).toBeGreaterThan(2);
    const paged: Item[] = [];
    let cursor: string | null = null;
    do {
      const res = await connected(account, `?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      const body = V4ConnectedResponseSchema.parse(res.body);
      if (body.status !== 'ok') throw new Error('expected ok');
      paged.push(...(body.data.items as unknown as Item[]));
      cursor = body.data.next_cursor ?? null;
      expect(body.meta.next_cursor).toBe(cursor);
    } while (cursor !== null);
    expect(paged).toEqual(all);
  });

  it('refuses a cursor issued for another depth', async () => {
    const parcel = idOf(florida, 'parc');
    const first = V4ConnectedResponseSchema.parse((await connected(parcel, '?limit=1&depth=2')).body);
    if (first.status !== 'ok' || !first.data.next_cursor) throw new Error('expected a second page');
    const res = await connected(parcel, `?depth=3&cursor=${encodeURIComponent(first.data.next_cursor)}`);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe('invalid_cursor');
  });

  it.each([
    ['a property id (second form only)', () => idOf(florida, 'prop'), '', 400, 'invalid_q_id'],
    ['a malformed id', () => 'parc_123', '', 400, 'invalid_q_id'],
    ['depth 0', () => idOf(florida, 'parc'), '?depth=0', 400, 'invalid_depth'],
    ['depth 4', () => idOf(florida, 'parc'), '?depth=4', 400, 'invalid_depth'],
    ['limit 101', () => idOf(florida, 'parc'), '?limit=101', 400, 'invalid_limit'],
    ['an unknown entity', () => `acct_${UNKNOWN_UUID}`, '', 404, 'not_found'],
  ])('answers %s with %s', async (_name, id, query, status, code) => {
    const res = await connected(id(), query);
    expect(res.status).toBe(status);
    expect(errorOf(res).code).toBe(code);
    expect(V4ConnectedResponseSchema.safeParse(res.body).success).toBe(true);
  });

  it('says why the parcel a placeholder SSL would key does not exist', async () => {
    const res = await connected('parc_14af5606-65a2-5c48-82a0-858b6e53c12f');
    expect(res.status).toBe(404);
    expect(errorOf(res).message).toContain('would be the parcel of SSL 0000 0000, a placeholder (square or lot 0000), not a valid parcel key');
  });
});

describe('v4 summary', () => {
  const summary = (id: string, query = '', idempotencyKey?: string) =>
    svc.call(`/api/v4/entities/${id}/summary${query}`, idempotencyKey === undefined ? {} : { idempotencyKey });
  const dataOf = (res: TestCallResult): Record<string, unknown> => {
    const body = V4SummaryResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error(`expected ok, got ${res.text}`);
    return body.data;
  };

  it('gives one cited best value per canonical field, synthetic ones marked, and costs $0.10', async () => {
    const before = svc.balance();
    const res = await summary(idOf(florida, 'prop'));
    expect(res.charged).toBe(SUMMARY_PRICE);
    expect(svc.balance()).toBe(before - SUMMARY_PRICE);
    const data = dataOf(res);
    for (const [name, entry] of Object.entries(data)) {
      if (name !== 'limitations') V4SummaryFieldSchema.parse(entry);
    }
    const field = (name: string) => V4SummaryFieldSchema.parse(data[name]);
    expect(field('owner_name')).toMatchObject({ value: florida.data['owner'], citation: { source: 'DC Office of Tax and Revenue', dataset: expect.any(String) as unknown } });
    expect(field('assessed_value_dollars').value).toBe(florida.data['assessment_2016']);
    expect(field('last_sale_date').value).toBe(florida.data['last_sale_recordation_date']);
    expect(field('year_built')).toMatchObject({ status: 'synthetic', citation: { source: SYNTHETIC_PUBLISHER, synthetic: true } });
    // Nothing in the sample publishes living area: absent, and said so.
    expect(data['living_area_sqft']).toBeUndefined();
    expect((data['limitations'] as string[]).some((line) => line.startsWith('living_area_sqft'))).toBe(true);
  });

  it('lists the other sources\' values as cited alternatives', async () => {
    const data = dataOf(await summary(idOf(luray, 'prop')));
    const address = V4SummaryFieldSchema.parse(data['address']);
    expect(address.value).toBe('201 E LURAY AV');
    expect(address.citation['source_id']).toBe('va_alexandria_parcels');
    expect(address.alternatives.map((alt) => alt.citation['source_id'])).toContain('va_alexandria_address_points');
    for (const alt of address.alternatives) expect(alt.citation.source).toBe('City of Alexandria GIS Division');
    // Alexandria has no owners or values in the sample: absent and explained, never invented.
    expect(data['owner_name']).toBeUndefined();
    expect(data['assessed_value_dollars']).toBeUndefined();
    expect((data['limitations'] as string[]).join(' ')).toContain('Alexandria');
  });

  it('narrows to the fields asked for and ignores unknown names', async () => {
    const data = dataOf(await summary(idOf(florida, 'acct'), '?fields=owner_name,%20assessed_value_dollars,shoe_size'));
    expect(Object.keys(data).sort()).toEqual(['assessed_value_dollars', 'limitations', 'owner_name']);
    const limitations = (data['limitations'] as string[]).join(' ');
    expect(limitations).toContain('shoe_size');
    // Characteristics belong to the lot, not the account: say where to look, not that there are none.
    expect(limitations).toContain('not to the tax account');
    expect(limitations).not.toContain('1 km');
  });

  it('replays for free under the same Idempotency-Key', async () => {
    const first = await summary(idOf(florida, 'parc'), '', 'summary-replay-1');
    const before = svc.balance();
    const again = await summary(idOf(florida, 'parc'), '', 'summary-replay-1');
    expect(first.charged).toBe(SUMMARY_PRICE);
    expect(again).toMatchObject({ status: 200, replayed: true, charged: 0 });
    expect(svc.balance()).toBe(before);
  });

  it.each([
    ['a malformed id', () => 'prop_nope', '', 400, 'invalid_q_id'],
    ['a field name that is not one', () => idOf(florida, 'prop'), '?fields=Owner%20Name', 400, 'invalid_fields'],
    ['fields over 1000 characters', () => idOf(florida, 'prop'), `?fields=${'a,'.repeat(501)}`, 400, 'invalid_fields'],
    ['an unknown property', () => `prop_${UNKNOWN_UUID}`, '', 404, 'not_found'],
    ['a loan (the sample has none)', () => `loan_${UNKNOWN_UUID}`, '', 404, 'not_found'],
  ])('answers %s with %s, free', async (_name, id, query, status, code) => {
    const before = svc.balance();
    const res = await summary(id(), query);
    expect(res.status).toBe(status);
    const error = errorOf(res);
    expect(error.code).toBe(code);
    if (id().startsWith('loan_')) expect(error.message).toContain('no loans');
    expect(V4SummaryResponseSchema.safeParse(res.body).success).toBe(true);
    expect(svc.balance()).toBe(before);
  });
});
