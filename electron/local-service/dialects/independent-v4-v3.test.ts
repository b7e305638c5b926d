// The independent dialect's v4 and v3 choices, against the running second service over the real
// sample: field names, the catalog's fields object, the summary under data.fields, sales codes,
// cents, citations by source release, and every price, with replays and empty pages free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  V3ReportResponseSchema,
  V3ResponseSchema,
  V4CatalogResponseSchema,
  V4SearchResponseSchema,
  V4SummaryResponseSchema,
} from '../../../shared/service/index.ts';
import { localOperations } from '../operations/index.ts';
import { startSecondService } from '../second-service-kit.ts';
import type { SecondService } from '../second-service-kit.ts';
import type { TestCallResult } from '../test-harness.ts';
import { applyDialect } from './index.ts';
import { INDEPENDENT_PRICES } from './prices.ts';

type Json = Record<string, unknown>;
const RELEASE_REF = /^[a-z0-9_]+@\d+$/;

let second: SecondService;
/** 2120 FLORIDA AVE NW: sold for $805,000 (a market sale), assessed $658,380. */
let florida: { prop: string };
/** 2023 HILLYER PL NW: transferred 2015-04-29 at an OTR price of 0 (non-market or no price). */
let bank: { prop: string };

function search(params: Record<string, string>, filter: Json, idempotencyKey?: string): Promise<TestCallResult> {
  const query = new URLSearchParams({ ...params, filter: JSON.stringify(filter) });
  return second.call(`/api/v4/search?${query.toString()}`, idempotencyKey === undefined ? {} : { idempotencyKey });
}

async function propertyAt(address: string): Promise<{ prop: string }> {
  const res = await search({ kind: 'ownership', jurisdiction: '11001', limit: '1' }, { PREMISEADD: address });
  const body = V4SearchResponseSchema.parse(res.body);
  if (body.status !== 'ok') throw new Error(`no record at ${address}`);
  const prop = (body.data.items[0]?.q_ids as string[]).find((id) => id.startsWith('prop_'));
  if (prop === undefined) throw new Error(`no property at ${address}`);
  return { prop };
}

/** Calls and returns the answer with the balance before and after. */
async function spent(call: () => Promise<TestCallResult>): Promise<{ res: TestCallResult; debited: number }> {
  const before = second.balance();
  const res = await call();
  return { res, debited: before - second.balance() };
}

function report(body: Json, idempotencyKey?: string): Promise<TestCallResult> {
  return second.call('/api/v3/record-queries', { json: body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) });
}

/** Every array under a `source_refs` key, anywhere in a value. */
function sourceRefLists(value: unknown, out: unknown[][] = []): unknown[][] {
  if (Array.isArray(value)) for (const inner of value) sourceRefLists(inner, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'source_refs' && Array.isArray(inner)) out.push(inner);
      sourceRefLists(inner, out);
    }
  }
  return out;
}

beforeAll(async () => {
  second = await startSecondService({ rateLimitPerMinute: 100_000 });
  florida = await propertyAt('2120 FLORIDA AVE NW');
  bank = await propertyAt('2023 HILLYER PL NW');
}, 60_000);

afterAll(async () => {
  await second.close();
});

describe('the embedded dialect', () => {
  it('is the operations untouched', () => {
    expect(applyDialect(localOperations, 'embedded')).toBe(localOperations);
  });
});

describe('v4 search in the independent dialect', () => {
  it('writes OTR rows under OTR names and charges 25 000 per page', async () => {
    const { res, debited } = await spent(() => search({ kind: 'sale', jurisdiction: '11001' }, { OWNERNAME: 'ZACHARY ROMANOW' }));
    expect(res.status).toBe(200);
    const body = V4SearchResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    const data = body.data.items[0]?.data as Json;
    expect(data).toMatchObject({ SSL: '0065    0017', OWNERNAME: 'ZACHARY ROMANOW', SALEPRICE: 805000, SALEDATE: '2016-08-15', PREMISEADD: '2120 FLORIDA AVE NW', USECODE: '11' });
    expect(Object.keys(data)).toEqual(expect.arrayContaining(['ASSESSMENT', 'SSLASPUBLISHED', 'SQUARELAT', 'OTRURL']));
    for (const key of Object.keys(data)) expect(key).toMatch(/^[A-Z0-9]+$/);
    expect(Object.keys(body.data.items[0]?.citation['derived_fields'] as Json)).toEqual(['SQUARELAT', 'SQUARELON']);
    expect(res.charged).toBe(INDEPENDENT_PRICES.v4SearchPage);
    expect(debited).toBe(INDEPENDENT_PRICES.v4SearchPage);
  });

  it('upper-cases every other source field without underscores, and filters on those names', async () => {
    const res = await search({ kind: 'permit', jurisdiction: '11001', limit: '1' }, { SSLCANONICAL: '3570    0060' });
    expect(res.status).toBe(200);
    const body = V4SearchResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    const data = body.data.items[0]?.data as Json;
    expect(data).toMatchObject({ SSLCANONICAL: '3570    0060', PERMITID: 'B1110917' });
    expect(Object.keys(data)).toEqual(expect.arrayContaining(['PERMITID', 'ISSUEDATE', 'FEESPAID', 'SSL']));
  });

  it('refuses the embedded names with a 400 naming its own, free', async () => {
    const { res, debited } = await spent(() => search({ kind: 'ownership', jurisdiction: '11001' }, { ssl: '0065    0017' }));
    expect(res.status).toBe(400);
    const error = (res.body as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('invalid_filter');
    expect(error.message).toContain('"ssl"');
    expect(error.message).toContain('SSL, SSLASPUBLISHED');
    expect(error.message).toContain('OWNERNAME');
    expect(debited).toBe(0);

    const gte = await search({ kind: 'ownership', jurisdiction: '11001' }, { OWNERNAME: { gte: 5 } });
    expect(gte.status).toBe(400);
    expect((gte.body as { error: { message: string } }).error.message).toMatch(/^filter\.OWNERNAME: .*OWNERNAME is text$/);
  });

  it('pages with the cursor it gives, filter in its own names', async () => {
    const params = { kind: 'ownership', jurisdiction: '11001', limit: '2' };
    const first = V4SearchResponseSchema.parse((await search(params, { USECODE: '11' })).body);
    if (first.status !== 'ok' || first.data.next_cursor === undefined) throw new Error('expected a second page');
    const next = V4SearchResponseSchema.parse((await search({ ...params, cursor: first.data.next_cursor }, { USECODE: '11' })).body);
    if (next.status !== 'ok') throw new Error('expected ok');
    expect(next.data.items).toHaveLength(2);
    expect(next.data.items[0]?.record_ref).not.toBe(first.data.items[0]?.record_ref);
    for (const item of next.data.items) expect((item.data as Json)['USECODE']).toBe('11');
  });

  it('answers an empty page free, and a replay free', async () => {
    const empty = await spent(() => search({ kind: 'ownership', jurisdiction: '11001' }, { OWNERNAME: 'NOBODY AT ALL' }));
    expect(empty.res.status).toBe(404);
    expect(empty.debited).toBe(0);

    const first = await spent(() => search({ kind: 'ownership', jurisdiction: '11001' }, { OWNERNAME: 'ZACHARY ROMANOW' }, 'search-replay'));
    const again = await spent(() => search({ kind: 'ownership', jurisdiction: '11001' }, { OWNERNAME: 'ZACHARY ROMANOW' }, 'search-replay'));
    expect(first.debited).toBe(INDEPENDENT_PRICES.v4SearchPage);
    expect(again.res.replayed).toBe(true);
    expect(again.res.charged).toBe(0);
    expect(again.debited).toBe(0);
    expect(again.res.text).toBe(first.res.text);
  });
});

describe('v4 catalog in the independent dialect', () => {
  it('gives fields as an object keyed by field name when narrowed, free', async () => {
    const res = await second.call('/api/v4/catalog?jurisdiction=11001');
    const body = V4CatalogResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    const sale = body.data.items.find((item) => item.source_id === 'dc_otr_sale');
    const fields = sale?.fields as Record<string, { data_type: string; label: string }>;
    expect(Array.isArray(fields)).toBe(false);
    expect(fields['SSL']).toEqual({ data_type: 'text', label: 'Square suffix lot' });
    expect(fields['SALEPRICE']).toEqual({ data_type: 'money', label: 'Sale price' });
    expect(fields['SALEDATE']?.data_type).toBe('date');
    expect(fields['ssl']).toBeUndefined();
    const permits = body.data.items.find((item) => item.source_id === 'dc_dcra_new_building_permits')?.fields as Json;
    expect(Object.keys(permits)).toEqual(expect.arrayContaining(['SSLCANONICAL', 'PERMITID', 'FEESPAID']));
    expect(res.charged).toBe(0);

    const unnarrowed = await second.call('/api/v4/catalog');
    const all = V4CatalogResponseSchema.parse(unnarrowed.body);
    if (all.status !== 'ok') throw new Error('expected ok');
    expect(all.data.items.every((item) => item.fields === undefined)).toBe(true);
  });
});

describe('v4 summary in the independent dialect', () => {
  it('puts the fields under data.fields with its own names and four-key citations, for $0.10', async () => {
    const { res, debited } = await spent(() => second.call(`/api/v4/entities/${florida.prop}/summary`, { idempotencyKey: 'summary-1' }));
    const body = V4SummaryResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    const data = body.data as { q_id: string; fields: Record<string, { value: unknown; citation: Json; alternatives: unknown[] }> };
    expect(Object.keys(data)).toEqual(['q_id', 'fields']);
    expect(data.q_id).toBe(florida.prop);
    expect(data.fields['assessed_value']?.value).toBe(658380);
    expect(data.fields['last_sale_price']?.value).toBe(805000);
    expect(data.fields['last_sale_date']?.value).toBe('2016-08-15');
    expect(typeof data.fields['effective_year_built']?.value).toBe('string');
    expect(typeof data.fields['latitude']?.value).toBe('number');
    expect(typeof data.fields['longitude']?.value).toBe('number');
    expect(data.fields['assessed_value_dollars']).toBeUndefined();
    expect(data.fields['last_sale_price_dollars']).toBeUndefined();
    for (const field of Object.values(data.fields)) {
      expect(Object.keys(field.citation).sort()).toEqual(['as_of', 'dataset', 'source', 'source_id']);
      expect(Array.isArray(field.alternatives)).toBe(true);
    }
    expect(res.charged).toBe(INDEPENDENT_PRICES.v4Summary);
    expect(debited).toBe(INDEPENDENT_PRICES.v4Summary);

    const replay = await spent(() => second.call(`/api/v4/entities/${florida.prop}/summary`, { idempotencyKey: 'summary-1' }));
    expect(replay.res.replayed).toBe(true);
    expect(replay.debited).toBe(0);
  });

  it('narrows to the dialect names asked for', async () => {
    const res = await second.call(`/api/v4/entities/${florida.prop}/summary?fields=assessed_value,latitude`);
    const data = (res.body as { data: { fields: Json } }).data;
    expect(Object.keys(data.fields)).toEqual(['assessed_value', 'latitude']);
  });
});

describe('v3 record queries in the independent dialect', () => {
  it('codes a market sale 01 / MARKET, gives dollars with cents, cites source releases, for 300 000', async () => {
    const { res, debited } = await spent(() => report({ mode: 'report', projection: 'report_subject_v1', subject_property_ref: florida.prop }));
    const body = V3ReportResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    const item = body.data.items[0] as { sections: Record<string, Json> };
    expect(item.sections['transfer']).toMatchObject({ acceptance_code: '01', sale_type: 'MARKET', price_dollars: 805000 });
    expect((item.sections['assessment']?.['total_value_dollars'] as Json)['value']).toBe('658380.00');

    const sources = body.data.sources as Json[];
    for (const source of sources) {
      expect(Object.keys(source).sort()).toEqual(['as_of', 'dataset', 'official_url', 'publisher', 'release_id', 'sha256', 'source_id']);
    }
    const releases = new Set(sources.map((source) => `${String(source['source_id'])}@${String(source['release_id'])}`));
    const refs = sourceRefLists(body.data).flat();
    expect(refs.length).toBeGreaterThan(0);
    expect(refs).toContain('dc_otr_ownership@20170205');
    for (const ref of refs) {
      expect(ref).toMatch(RELEASE_REF);
      expect(releases.has(ref as string)).toBe(true);
    }
    expect(res.text).not.toContain('record_refs');
    expect(res.charged).toBe(INDEPENDENT_PRICES.v3ReportSubject);
    expect(debited).toBe(INDEPENDENT_PRICES.v3ReportSubject);
  });

  it('codes a price-0 transfer 03 / OTHER', async () => {
    const res = await report({ mode: 'report', projection: 'report_subject_v1', subject_property_ref: bank.prop });
    const body = V3ReportResponseSchema.parse(res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    const transfer = (body.data.items[0] as { sections: Record<string, Json> }).sections['transfer'];
    expect(transfer).toMatchObject({ acceptance_code: '03', sale_type: 'OTHER', price_dollars: 0 });
  });

  it('charges comparables 200 000 per page, aggregates 60 000, the catalog nothing', async () => {
    const comps = await spent(() =>
      report({ mode: 'report', projection: 'report_comparables_v1', subject_property_ref: florida.prop, radius_miles: 0.5, limit: 5 }),
    );
    const body = V3ReportResponseSchema.parse(comps.res.body);
    if (body.status !== 'ok') throw new Error('expected ok');
    expect(body.data.items.length).toBeGreaterThan(0);
    for (const item of body.data.items as Array<{ sections: Record<string, Json> }>) {
      const transfer = item.sections['transfer'] ?? {};
      expect([['01', 'MARKET'], ['03', 'OTHER']]).toContainEqual([transfer['acceptance_code'], transfer['sale_type']]);
    }
    expect(comps.debited).toBe(INDEPENDENT_PRICES.v3ComparablesPage);

    const aggregate = await spent(() => report({ mode: 'aggregate', dataset: 'sales', measure: 'count' }));
    V3ResponseSchema.parse(aggregate.res.body);
    expect(aggregate.res.charged).toBe(INDEPENDENT_PRICES.v3Aggregate);
    expect(aggregate.debited).toBe(INDEPENDENT_PRICES.v3Aggregate);

    const catalog = await spent(() => report({ mode: 'catalog' }));
    expect(catalog.res.status).toBe(200);
    expect(catalog.debited).toBe(0);
  });
});
