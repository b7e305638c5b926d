// v3 record queries over real HTTP against the real sample store: the three modes, both report
// projections, parameter rules (400 naming the parameter), 404s, paging, billing, and every answer
// checked against the shared contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BuildingProfileSchema,
  FieldCellSchema,
  priceRuleFor,
  V3AggregateDataSchema,
  V3CatalogDataSchema,
  v3Envelope,
  V3ReportResponseSchema,
  V3ResponseSchema,
} from '../../../shared/service/index.ts';
import type { V3Item, V3RecordQueryInput } from '../../../shared/service/index.ts';
import { openSampleStore } from '../sample-store.ts';
import type { SampleRecord, SampleStore } from '../sample-store.ts';
import { startTestService, stopTestService } from '../test-harness.ts';
import type { TestCallResult, TestService } from '../test-harness.ts';
import { v3Operations } from './v3.ts';
import { SYNTHETIC_PUBLISHER, UNKNOWN_UUID, idOf } from '../sample-test-kit.ts';

const price = (variant: 'report_subject_v1' | 'report_comparables_v1' | 'aggregate') => {
  const rule = priceRuleFor('v3.recordQuery', variant === 'aggregate' ? { mode: 'aggregate' } : { mode: 'report', projection: variant });
  if (rule.kind === 'free' || rule.kind === 'per_resolved_item') throw new Error('unexpected rule');
  return rule.microUsd;
};
const SUBJECT_PRICE = price('report_subject_v1');
const COMPARABLES_PRICE = price('report_comparables_v1');
const AGGREGATE_PRICE = price('aggregate');

const V3CatalogResponseSchema = v3Envelope(V3CatalogDataSchema);
const V3AggregateResponseSchema = v3Envelope(V3AggregateDataSchema);

let store: SampleStore;
let svc: TestService;
let florida: SampleRecord;
let luray: SampleRecord;

function recordWhere(kind: string, jurisdiction: string, field: string, value: string): SampleRecord {
  const record = store.searchRecords({ kind, jurisdiction, filters: [{ field, op: 'eq', value }], limit: 1 }).items[0];
  if (!record) throw new Error(`no ${kind} record with ${field} ${value}`);
  return record;
}

const query = (body: V3RecordQueryInput | Record<string, unknown>, idempotencyKey?: string) =>
  svc.call('/api/v3/record-queries', { json: body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) });

function okData<T>(res: TestCallResult, schema: { parse(value: unknown): T }): T {
  expect(res.status, res.text).toBe(200);
  return schema.parse(res.body);
}

function errorOf(res: TestCallResult): { code: string; message: string } {
  const body = V3ResponseSchema.parse(res.body);
  if (body.status !== 'error') throw new Error(`expected an error, got ${res.text}`);
  return body.error;
}

/** Expects the request refused with `status` and `code`, and the balance as it was before it. */
async function expectRefusedFree(request: () => Promise<TestCallResult>, status: number, code: string): Promise<void> {
  const before = svc.balance();
  const res = await request();
  expect(res.status).toBe(status);
  expect(errorOf(res).code).toBe(code);
  expect(svc.balance()).toBe(before);
}

/** Every source_ref in an answer must name a record whose source is listed in `data.sources`. */
function expectRefsListed(value: unknown, listed: Set<string>): number {
  let count = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      for (const [key, inner] of Object.entries(node)) {
        if (key === 'source_refs' && Array.isArray(inner)) {
          for (const ref of inner as string[]) {
            const record = store.getRecord(ref);
            expect(record, ref).not.toBeNull();
            expect(listed.has(record?.source_id ?? ''), `${ref} from ${record?.source_id}`).toBe(true);
            count += 1;
          }
        } else visit(inner);
      }
    }
  };
  visit(value);
  return count;
}

beforeAll(async () => {
  store = openSampleStore();
  svc = await startTestService({ operations: v3Operations, store, rateLimitPerMinute: 100_000 });
  florida = recordWhere('ownership', '11', 'address', '2120 FLORIDA AVE NW');
  luray = recordWhere('parcel', '51', 'address', '201 E LURAY AV');
});

afterAll(async () => {
  await stopTestService(svc);
  store.close();
});

describe('v3 catalog mode', () => {
  it('describes every dataset, its fields and filters, with record counts, for free', async () => {
    const res = await query({ mode: 'catalog' });
    const body = okData(res, V3CatalogResponseSchema);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(res.charged).toBe(0);
    expect(body.data.projection).toBe('catalog');
    const datasets = body.data.items.filter((row) => row.field === null);
    expect(datasets.map((row) => row.dataset)).toEqual(['properties', 'sales', 'permits', 'buildings']);
    const records = (id: string) => store.getSource(id)?.records ?? NaN;
    expect(datasets.find((row) => row.dataset === 'properties')?.record_count).toBe(records('dc_otr_ownership') + records('va_alexandria_parcels'));
    expect(datasets.find((row) => row.dataset === 'sales')?.record_count).toBe(records('dc_otr_sale') + records('dc_cama_residential'));
    expect(datasets.find((row) => row.dataset === 'permits')?.record_count).toBe(records('dc_dcra_new_building_permits'));
    expect(body.data.sources.map((s) => s.source_id).sort()).toEqual(
      ['dc_otr_ownership', 'va_alexandria_parcels', 'dc_otr_sale', 'dc_cama_residential', 'dc_dcra_new_building_permits'].sort(),
    );
    // The synthetic characteristics are not a dataset of real records.
    expect(body.data.sources.some((s) => s.source_id === 'plat_synthetic_characteristics')).toBe(false);
  });

  it('narrows to one dataset and one field or filter', async () => {
    const body = okData(await query({ mode: 'catalog', dataset: 'sales', field: 'from_date' }), V3CatalogResponseSchema);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.data.items).toEqual([expect.objectContaining({ dataset: 'sales', field: 'from_date', data_type: 'date', filter_group: 'sale', filter_op: 'min' })]);
  });

  it('says which dates the sample holds in each date field and date filter, for free', async () => {
    const res = await query({ mode: 'catalog' });
    expect(res.charged).toBe(0);
    const body = okData(res, V3CatalogResponseSchema);
    if (body.status !== 'ok') throw new Error('expected ok');
    const row = (dataset: string, name: string) => body.data.items.find((item) => item.dataset === dataset && item.field === name);
    // The sample's dated sales (OTR last recorded sales) run from 1964 to January 2017.
    const sales = { earliest: '1964-12-22', latest: '2017-01-17' };
    expect(row('sales', 'sale_date')?.coverage).toEqual(sales);
    expect(row('sales', 'from_date')?.coverage).toEqual(sales);
    expect(row('sales', 'to_date')?.coverage).toEqual(sales);
    expect(row('permits', 'issue_date')?.coverage).toEqual({ earliest: '2012-01-03', latest: '2016-01-21' });
    // Fields that are no dates carry none.
    expect(row('sales', 'price_dollars')?.coverage).toBeUndefined();
    expect(row('sales', 'sale_year')?.coverage).toBeUndefined();
    expect(body.data.items.filter((item) => item.coverage !== undefined).every((item) => item.data_type === 'date')).toBe(true);
  });

  it('refuses a field no dataset has', async () => {
    const res = await query({ mode: 'catalog', dataset: 'permits', field: 'bedrooms' });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe('invalid_field');
  });
});

describe('v3 aggregate mode', () => {
  it('counts a dataset, and its groups add up to the whole', async () => {
    const whole = okData(await query({ mode: 'aggregate', dataset: 'properties', measure: 'count' }), V3AggregateResponseSchema);
    const grouped = okData(await query({ mode: 'aggregate', dataset: 'properties', measure: 'count', group_by: 'sub_neighborhood' }), V3AggregateResponseSchema);
    if (whole.status !== 'ok' || grouped.status !== 'ok') throw new Error('expected ok');
    const total = (store.getSource('dc_otr_ownership')?.records ?? 0) + (store.getSource('va_alexandria_parcels')?.records ?? 0);
    expect(whole.data.items).toEqual([expect.objectContaining({ group: null, measure: 'count', value: total, record_count: total })]);
    expect(grouped.data.items.reduce((n, row) => n + row.record_count, 0)).toBe(total);
    expect(grouped.data.items.map((row) => row.group)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', '(not published)']);
    expect(grouped.data.sources.map((s) => s.source_id).sort()).toEqual(['dc_otr_ownership', 'va_alexandria_parcels']);
  });

  it('takes the median and mean price of the sales that pass the filters, and charges per call', async () => {
    const before = svc.balance();
    const body = { mode: 'aggregate', dataset: 'sales', filters: { property: [{ field: 'address', value: '2120 florida ave nw' }] } } as const;
    const median = okData(await query({ ...body, measure: 'median_price' }), V3AggregateResponseSchema);
    const mean = okData(await query({ ...body, measure: 'mean_price' }), V3AggregateResponseSchema);
    if (median.status !== 'ok' || mean.status !== 'ok') throw new Error('expected ok');
    expect(median.data.items[0]).toMatchObject({ value: florida.data['last_sale_price'], record_count: 1, value_count: 1 });
    expect(mean.data.items[0]?.value).toBe(florida.data['last_sale_price']);
    expect(svc.balance()).toBe(before - 2 * AGGREGATE_PRICE);
  });

  it('takes the median price per square foot over real CAMA floor areas', async () => {
    const cama = store.searchRecords({ kind: 'residential_characteristics', jurisdiction: '11', limit: 100, filters: [{ field: 'ZIPCODE', op: 'eq', value: '20009' }, { field: 'BEDRM', op: 'eq', value: 7 }] });
    const perSqft = cama.items.map((r) => Number(r.data['PRICE']) / Number(r.data['GBA'])).sort((a, b) => a - b);
    const mid = perSqft.length >> 1;
    const expected = perSqft.length % 2 === 1 ? perSqft[mid] : ((perSqft[mid - 1] ?? 0) + (perSqft[mid] ?? 0)) / 2;
    const res = await query({
      mode: 'aggregate',
      dataset: 'buildings',
      measure: 'median_price_per_sqft',
      filters: { building: [{ field: 'zip', value: '20009' }, { field: 'bedrooms', value: '7' }] },
    });
    const body = okData(res, V3AggregateResponseSchema);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.data.items[0]?.record_count).toBe(cama.total);
    expect(body.data.items[0]?.value).toBeCloseTo(expected ?? NaN, 2);
  });

  it('groups sales by year in order, with range filters applied', async () => {
    const res = await query({
      mode: 'aggregate',
      dataset: 'sales',
      measure: 'count',
      group_by: 'sale_year',
      filters: { sale: [{ field: 'from_date', value: '2010-01-01' }, { field: 'to_date', value: '2012-12-31' }, { field: 'market_only', value: 'true' }] },
    });
    const body = okData(res, V3AggregateResponseSchema);
    if (body.status !== 'ok') throw new Error('expected ok');
    // The same count straight from the store: OTR sales with a price, per recordation year.
    const expected = new Map<string, number>();
    let cursor: string | null = null;
    do {
      const page = store.searchRecords({ kind: 'sale', jurisdiction: '11', limit: 100, cursor, filters: [{ field: 'last_sale_recordation_date', op: 'gte', value: '2010-01-01' }] });
      for (const record of page.items) {
        const date = String(record.data['last_sale_recordation_date']);
        const year = date.slice(0, 4);
        if (date <= '2012-12-31' && Number(record.data['last_sale_price']) > 0) expected.set(year, (expected.get(year) ?? 0) + 1);
      }
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(body.data.items.map((row) => [row.group, row.record_count])).toEqual([...expected].sort());
  });

  it.each([
    ['no measure', { mode: 'aggregate', dataset: 'sales' }, 'invalid_measure'],
    ['no dataset', { mode: 'aggregate', measure: 'count' }, 'invalid_dataset'],
    ['an unknown dataset', { mode: 'aggregate', dataset: 'loans', measure: 'count' }, 'invalid_dataset'],
    ['a price measure on permits', { mode: 'aggregate', dataset: 'permits', measure: 'median_price' }, 'invalid_measure'],
    ['price per sqft on properties', { mode: 'aggregate', dataset: 'properties', measure: 'median_price_per_sqft' }, 'invalid_measure'],
    ['a group_by the dataset cannot group by', { mode: 'aggregate', dataset: 'sales', measure: 'count', group_by: 'price_dollars' }, 'invalid_group_by'],
    ['a malformed group_by', { mode: 'aggregate', dataset: 'sales', measure: 'count', group_by: 'Sale Year' }, 'invalid_group_by'],
    ['an unknown filter field', { mode: 'aggregate', dataset: 'sales', measure: 'count', filters: { sale: [{ field: 'seller', value: 'x' }] } }, 'invalid_filters'],
    ['a filter in the wrong group', { mode: 'aggregate', dataset: 'sales', measure: 'count', filters: { building: [{ field: 'use_code', value: '11' }] } }, 'invalid_filters'],
    ['a tax filter (no tax data)', { mode: 'aggregate', dataset: 'properties', measure: 'count', filters: { tax: [{ field: 'annual_tax', value: '1' }] } }, 'invalid_filters'],
    ['a date that is not one', { mode: 'aggregate', dataset: 'sales', measure: 'count', filters: { sale: [{ field: 'from_date', value: '2015-02-30' }] } }, 'invalid_filters'],
    ['a price that is not a number', { mode: 'aggregate', dataset: 'sales', measure: 'count', filters: { sale: [{ field: 'min_price', value: 'lots' }] } }, 'invalid_filters'],
    ['a filter value that is not a string', { mode: 'aggregate', dataset: 'sales', measure: 'count', filters: { sale: [{ field: 'min_price', value: 5 }] } }, 'invalid_filters'],
    ['no mode', { dataset: 'sales', measure: 'count' }, 'invalid_mode'],
    ['an unknown mode', { mode: 'export' }, 'invalid_mode'],
    ['limit 0', { mode: 'catalog', limit: 0 }, 'invalid_limit'],
  ])('answers 400 for %s, naming the parameter, free', (_name, body, code) => expectRefusedFree(() => query(body), 400, code));
});

describe('v3 report_subject_v1', () => {
  const report = (ref: string, idempotencyKey?: string) =>
    query({ mode: 'report', projection: 'report_subject_v1', subject_property_ref: ref }, idempotencyKey);
  const itemOf = (res: TestCallResult) => {
    const body = okData(res, V3ReportResponseSchema);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.data.items).toHaveLength(1);
    return { data: body.data, item: body.data.items[0] as V3Item & Record<string, unknown> };
  };

  it('reports every section of a DC lot, each value cited, synthetic characteristics marked', async () => {
    const before = svc.balance();
    const res = await report(idOf(florida, 'prop'));
    expect(res.charged).toBe(SUBJECT_PRICE);
    expect(svc.balance()).toBe(before - SUBJECT_PRICE);
    const { data, item } = itemOf(res);
    expect(data.projection).toBe('report_subject_v1');
    expect(data.snapshot).toMatch(/^sample_v\d+_\d{8}_[0-9a-f]{12}$/);
    const sections = item.sections ?? {};
    expect(Object.keys(sections).sort()).toEqual(['assessment', 'building', 'identity', 'land', 'ownership', 'permit', 'tax', 'transfer']);
    expect(sections.identity).toMatchObject({ property_ref: idOf(florida, 'prop'), address: '2120 FLORIDA AVE NW', ssl: florida.data['ssl'], use_code: '11', area_uid: 'area_us_dc', status: 'active', property_type: 'record_lot' });
    expect(sections.ownership?.owner_name).toMatchObject({ value: florida.data['owner'], status: 'reported' });
    expect(sections.assessment).toMatchObject({ assessment_year: 2016, total_value_dollars: { value: String(florida.data['assessment_2016']), status: 'reported' } });
    expect(sections.assessment?.land_value_dollars?.status).toBe('unavailable');
    expect(sections.tax).toMatchObject({ tax_period: null, tax_period_status: 'unavailable', annual_tax_dollars: { status: 'unavailable' } });
    expect(sections.tax?.limitations?.length).toBeGreaterThan(0);
    expect(sections.transfer).toMatchObject({ sale_date: florida.data['last_sale_recordation_date'], price_dollars: florida.data['last_sale_price'], acceptance_code: 'market' });
    expect(sections.permit).toMatchObject({ availability: 'available', total_count: 0, has_more: false });
    // No permit of the lot, but the section's limitations describe the permits dataset: it is named and listed.
    expect(sections.permit?.['source_ids']).toEqual(['dc_dcra_new_building_permits']);
    expect(data.sources.find((s) => s.source_id === 'dc_dcra_new_building_permits')).toMatchObject({ publisher: expect.stringContaining('Consumer and Regulatory Affairs') });
    // Building characteristics come only from the synthetic source, and say so.
    const building = BuildingProfileSchema.parse(sections.building);
    expect(building.status).toBe('synthetic');
    expect(building.limitations).toContain('SYNTHETIC');
    for (const ref of building.source_refs ?? []) expect(store.getRecord(ref)?.source_id).toBe('plat_synthetic_characteristics');
    expect(item.characteristics).toEqual(sections.building);
    // The grid's subject column reads the same features a comparable has.
    const copiedFrom = store.getRecord(((building['derived_from'] as string[] | undefined) ?? [])[0] ?? '');
    expect(copiedFrom?.source_id).toBe('dc_cama_residential');
    expect(building).toMatchObject({
      heating: copiedFrom?.data['HEAT'],
      cooling_code: copiedFrom?.data['AC'],
      fireplaces: copiedFrom?.data['FIREPLACES'],
      land_area_sqft: copiedFrom?.data['LANDAREA'],
      exterior_wall: copiedFrom?.data['EXTWALL'],
      roof: copiedFrom?.data['ROOF'],
      kitchens: copiedFrom?.data['KITCHENS'],
      units: copiedFrom?.data['NUM_UNITS'],
    });
    expect(building.cooling).toMatch(/^(Central air|None)$/);
    expect(FieldCellSchema.parse(sections.land?.land_area_square_feet).status).toBe('synthetic');
    expect(item.location).toMatchObject({ latitude: florida.data['square_lat'], longitude: florida.data['square_lon'] });
    // Every source referenced is listed with its release, checksum and official URL.
    const listed = new Set(data.sources.map((s) => s.source_id));
    expect(expectRefsListed(item, listed)).toBeGreaterThan(5);
    const synthetic = data.sources.find((s) => s.source_id === 'plat_synthetic_characteristics');
    expect(synthetic).toMatchObject({ synthetic: true, publisher: SYNTHETIC_PUBLISHER });
    for (const source of data.sources) {
      const stored = store.getSource(source.source_id);
      expect(source).toMatchObject({ release_id: stored?.release_id, sha256: stored?.sha256, official_url: stored?.official_url });
    }
  });

  it('marks what the sample lacks for Alexandria as unavailable, never invented', async () => {
    const { data, item } = itemOf(await report(idOf(luray, 'prop')));
    const sections = item.sections ?? {};
    expect(sections.identity).toMatchObject({ address: '201 E LURAY AV', account_no: luray.data['account_no'], property_type: 'parcel', area_uid: 'area_us_va_alexandria' });
    expect(sections.ownership?.owner_name).toMatchObject({ value: '', status: 'unavailable', source_refs: [] });
    expect(sections.assessment).toMatchObject({ assessment_year: null, assessment_year_status: 'unavailable' });
    expect(sections.transfer).toMatchObject({ status: 'unavailable' });
    expect(sections.building).toMatchObject({ status: 'unavailable', profile_count: 0 });
    expect(sections.permit).toMatchObject({ availability: 'unavailable', total_count: 0 });
    expect(data.sources.every((s) => s.publisher === 'City of Alexandria GIS Division')).toBe(true);
    expectRefsListed(item, new Set(data.sources.map((s) => s.source_id)));
  });

  it('sends a tax account\'s reader to its property for building characteristics', async () => {
    const { item } = itemOf(await report(idOf(florida, 'acct')));
    expect(item.sections?.ownership?.owner_name?.value).toBe(florida.data['owner']);
    expect(item.sections?.building).toMatchObject({ status: 'unavailable', profile_count: 0 });
    expect(item.sections?.building?.limitations).toContain('prop_');
  });

  it('lists the permits linked to a lot', async () => {
    const permit = recordWhere('permit', '11', 'PERMIT_ID', 'B1206276');
    const { data, item } = itemOf(await report(idOf(permit, 'parc')));
    const records = item.sections?.permit?.records ?? [];
    expect(records.map((r) => r.record_number)).toContain('B1206276');
    expect(records.find((r) => r.record_number === 'B1206276')).toMatchObject({ record_date: String(permit.data['ISSUE_DATE']).slice(0, 10), source_refs: [permit.record_ref] });
    expect(data.sources.some((s) => s.source_id === 'dc_dcra_new_building_permits')).toBe(true);
  });

  it('replays for free under the same Idempotency-Key', async () => {
    const first = await report(idOf(florida, 'parc'), 'subject-replay-1');
    const before = svc.balance();
    const again = await report(idOf(florida, 'parc'), 'subject-replay-1');
    expect(first.charged).toBe(SUBJECT_PRICE);
    expect(again).toMatchObject({ status: 200, replayed: true, charged: 0, text: first.text });
    expect(svc.balance()).toBe(before);
  });

  it.each([
    ['no projection', { mode: 'report', subject_property_ref: 'prop_x' }, 400, 'invalid_projection'],
    ['no subject', { mode: 'report', projection: 'report_subject_v1' }, 400, 'invalid_subject_property_ref'],
    ['a subject that is no entity id', { mode: 'report', projection: 'report_subject_v1', subject_property_ref: '2120 FLORIDA AVE NW' }, 400, 'invalid_subject_property_ref'],
    ['an address as subject', { mode: 'report', projection: 'report_subject_v1', subject_property_ref: `addr_${UNKNOWN_UUID}` }, 400, 'invalid_subject_property_ref'],
    ['an unknown property', { mode: 'report', projection: 'report_subject_v1', subject_property_ref: `prop_${UNKNOWN_UUID}` }, 404, 'not_found'],
    ['a loan (the sample has none)', { mode: 'report', projection: 'report_subject_v1', subject_property_ref: `loan_${UNKNOWN_UUID}` }, 404, 'not_found'],
  ])('answers %s with %s, free', (_name, body, status, code) => expectRefusedFree(() => query(body), status, code));
});

describe('v3 report_comparables_v1', () => {
  const comparables = (extra: Record<string, unknown> = {}, ref = idOf(florida, 'prop')) =>
    query({ mode: 'report', projection: 'report_comparables_v1', subject_property_ref: ref, radius_miles: 0.25, ...extra });
  type Comparable = V3Item & { distance_miles: number; record_ref: string };
  const itemsOf = (res: TestCallResult) => {
    const body = okData(res, V3ReportResponseSchema);
    if (body.status !== 'ok') throw new Error('expected ok');
    expectRefsListed(body.data.items, new Set(body.data.sources.map((s) => s.source_id)));
    return { body, items: body.data.items as Comparable[] };
  };

  it('lists sales near the subject, nearest first, cited, and charges the page', async () => {
    const before = svc.balance();
    const res = await comparables({ limit: 10 });
    expect(res.charged).toBe(COMPARABLES_PRICE);
    expect(svc.balance()).toBe(before - COMPARABLES_PRICE);
    const { body, items } = itemsOf(res);
    expect(body.data.projection).toBe('report_comparables_v1');
    expect(items).toHaveLength(10);
    const distances = items.map((item) => item.distance_miles);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const item of items) {
      expect(item.distance_miles).toBeLessThanOrEqual(0.25);
      expect(item.location).toBeDefined();
      expect(['market', 'non_market', 'non_market_or_no_price']).toContain(item.sections?.transfer?.acceptance_code);
      expect(typeof item.sections?.transfer?.price_dollars).toBe('number');
      BuildingProfileSchema.parse(item.characteristics);
    }
    expect(body.meta.next_cursor).toEqual(expect.any(String));
  });

  it('never lists the subject\'s own sale', async () => {
    const own = store.recordsAbout(idOf(florida, 'prop'), { kind: 'sale' }).map((r) => r.record_ref);
    expect(own).toHaveLength(1);
    const { items } = itemsOf(await comparables({ limit: 100, radius_miles: 0.05, filters: { property: [{ field: 'use_code', value: '11' }] } }));
    expect(items.length).toBeGreaterThan(0);
    expect(items.map((item) => item.record_ref)).not.toContain(own[0]);
  });

  it('applies the sale and use-code filters', async () => {
    const { items } = itemsOf(
      await comparables({
        limit: 50,
        radius_miles: 0.5,
        filters: {
          sale: [{ field: 'from_date', value: '2015-01-01' }, { field: 'min_price', value: '500000' }, { field: 'market_only', value: 'true' }],
          property: [{ field: 'use_code', value: '11' }, { field: 'use_code', value: '13' }],
        },
      }),
    );
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      const transfer = item.sections?.transfer;
      expect(transfer?.sale_date && transfer.sale_date >= '2015-01-01').toBe(true);
      expect(transfer?.price_dollars).toBeGreaterThanOrEqual(500_000);
      expect(transfer?.acceptance_code).toBe('market');
      expect(['11', '13']).toContain(item.sections?.identity?.use_code);
      // OTR lots: characteristics are synthetic and marked.
      expect(item.characteristics?.status).toMatch(/^(synthetic|unavailable)$/);
    }
  });

  it('includes undated CAMA sales with their real characteristics unless told not to', async () => {
    const { items } = itemsOf(await comparables({ limit: 100, radius_miles: 0.3 }));
    const cama = items.filter((item) => item.property_ref.startsWith('rec_'));
    expect(cama.length).toBeGreaterThan(0);
    for (const item of cama) {
      expect(item.characteristics?.status).toBe('reported');
      expect(item.sections?.transfer?.sale_date).toBeUndefined();
      expect(store.getRecord(item.property_ref)?.source_id).toBe('dc_cama_residential');
    }
    const dated = itemsOf(await comparables({ limit: 100, radius_miles: 0.3, filters: { sale: [{ field: 'include_undated', value: 'false' }] } }));
    expect(dated.items.some((item) => item.property_ref.startsWith('rec_'))).toBe(false);
  });

  it('includes undated CAMA sales in a date window only when include_undated is given as true, flagged', async () => {
    // 0.15 mi around the subject: few enough sales for one page either way.
    const window = [{ field: 'from_date', value: '2016-01-01' }, { field: 'to_date', value: '2016-12-31' }];
    const search = (sale: Array<{ field: string; value: string }>) => comparables({ limit: 100, radius_miles: 0.15, filters: { sale } });
    const undatedOf = (items: Comparable[]) => items.filter((item) => item.property_ref.startsWith('rec_'));
    const withUndated = itemsOf(await search([...window, { field: 'include_undated', value: 'true' }]));
    expect(withUndated.body.meta.next_cursor ?? null).toBeNull();
    const undated = undatedOf(withUndated.items);
    expect(undated.length).toBeGreaterThan(0);
    for (const item of undated) {
      expect(item.sections?.transfer).toMatchObject({ sale_date_status: 'unavailable', sale_type: 'cama_extract_sale' });
      expect(item.sections?.transfer?.sale_date).toBeUndefined();
    }
    // The dated sales are still only those in the window.
    const dated = withUndated.items.filter((item) => !item.property_ref.startsWith('rec_'));
    expect(dated.length).toBeGreaterThan(0);
    for (const item of dated) expect(item.sections?.transfer?.sale_date?.startsWith('2016-')).toBe(true);
    // Absent keeps the default: a date filter excludes them, and the dated sales are the same; false excludes them too.
    const absent = itemsOf(await search(window)).items;
    expect(undatedOf(absent)).toEqual([]);
    expect(absent.map((item) => item.record_ref)).toEqual(dated.map((item) => item.record_ref));
    const refused = itemsOf(await search([...window, { field: 'include_undated', value: 'false' }])).items;
    expect(refused.map((item) => item.record_ref)).toEqual(dated.map((item) => item.record_ref));
  });

  it('describes each sale\'s building as the grid needs it: heating, cooling, fireplaces, land, exterior, roof, kitchens, units', async () => {
    const { items } = itemsOf(await comparables({ limit: 100, radius_miles: 0.3 }));
    const cama = items.find((item) => item.property_ref.startsWith('rec_'));
    const otr = items.find((item) => item.characteristics?.status === 'synthetic');
    if (!cama || !otr) throw new Error('expected a CAMA sale and an OTR sale with a synthetic profile');
    const expectCopied = (profile: Record<string, unknown>, record: SampleRecord) => {
      const data = record.data;
      expect(profile).toMatchObject({
        heating: data['HEAT'],
        cooling_code: data['AC'],
        cooling: ({ Y: 'Central air', N: 'None' } as Record<string, string>)[String(data['AC'])],
        fireplaces: data['FIREPLACES'],
        land_area_sqft: data['LANDAREA'],
        exterior_wall: data['EXTWALL'],
        roof: data['ROOF'],
        kitchens: data['KITCHENS'],
        units: data['NUM_UNITS'],
      });
    };
    // A CAMA sale: its own record's characteristics, reported.
    const camaProfile = BuildingProfileSchema.parse(cama.characteristics);
    expect(camaProfile.status).toBe('reported');
    expectCopied(camaProfile, store.getRecord(cama.property_ref) as SampleRecord);
    expect(camaProfile.source_refs).toEqual([cama.property_ref]);
    // An OTR sale: the CAMA record its synthetic profile was copied from, cited to the synthetic source only.
    const otrProfile = BuildingProfileSchema.parse(otr.characteristics);
    const copiedFrom = (otrProfile['derived_from'] as string[] | undefined) ?? [];
    expect(copiedFrom).toHaveLength(1);
    expectCopied(otrProfile, store.getRecord(copiedFrom[0] ?? '') as SampleRecord);
    expect(otrProfile.limitations).toContain('SYNTHETIC');
    for (const ref of otrProfile.source_refs ?? []) expect(store.getRecord(ref)?.source_id).toBe('plat_synthetic_characteristics');
    expect(otr.sections?.building).toEqual(otr.characteristics);
  });

  it('pages by cursor, and refuses a cursor from another query', async () => {
    const all = itemsOf(await comparables({ limit: 12 })).items.map((item) => item.record_ref);
    const first = itemsOf(await comparables({ limit: 6 }));
    const cursor = first.body.meta.next_cursor;
    if (typeof cursor !== 'string') throw new Error('expected a cursor');
    const second = itemsOf(await comparables({ limit: 6, cursor }));
    expect([...first.items, ...second.items].map((item) => item.record_ref)).toEqual(all);
    const other = await comparables({ limit: 6, cursor, radius_miles: 0.3 });
    expect(other.status).toBe(400);
    expect(errorOf(other).code).toBe('invalid_cursor');
  });

  it('answers an empty page for free where the sample has no sales', async () => {
    const before = svc.balance();
    const res = await comparables({}, idOf(luray, 'prop'));
    const { body, items } = itemsOf(res);
    expect(items).toEqual([]);
    expect(res.charged).toBe(0);
    expect(svc.balance()).toBe(before);
    expect((body.data['limitations'] as string[]).join(' ')).toContain('Alexandria');
  });

  it.each([
    ['no radius', { radius_miles: undefined }, 'invalid_radius_miles'],
    ['a radius over 5 miles', { radius_miles: 6 }, 'invalid_radius_miles'],
    ['a radius of 0', { radius_miles: 0 }, 'invalid_radius_miles'],
    ['limit 101', { limit: 101 }, 'invalid_limit'],
    ['a malformed cursor', { cursor: 'next' }, 'invalid_cursor'],
    ['a filter comparables do not take', { filters: { sale: [{ field: 'sale_year', value: '2015' }] } }, 'invalid_filters'],
    ['market_only that is not true or false', { filters: { sale: [{ field: 'market_only', value: 'yes' }] } }, 'invalid_filters'],
    ['a range filter given twice', { filters: { sale: [{ field: 'min_price', value: '1' }, { field: 'min_price', value: '2' }] } }, 'invalid_filters'],
  ])('answers 400 for %s, free', (_name, extra, code) => expectRefusedFree(() => comparables(extra), 400, code));
});
