// POST /api/v2/property-searches over real HTTP against the real sample store; every answer is
// checked against the shared contract, its record refs and its charge (v2-test-kit.ts).
import { describe, expect, it } from 'vitest';
import { PROPERTY_FIELD_SPECS } from './v2-property-index.ts';
import { v2PropertyDateFields } from '../../../shared/service/index.ts';
import { normaliseOwnerName } from '../sample-keys.ts';
import {
  SEARCH_PRICE, SYNTHETIC_SOURCE, data, errorOf, expectRefused, factValue, items, meta, propertyBySsl, search, svc, useV2Service,
} from './v2-test-kit.ts';
import type { Json } from './v2-test-kit.ts';

useV2Service();

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
