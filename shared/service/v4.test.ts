import { describe, expect, it } from 'vitest';
import { queryObject } from './common.ts';
import {
  encodeSearchFilter,
  V4CatalogQuerySchema,
  V4CatalogResponseSchema,
  V4ConnectedPathSchema,
  V4ConnectedQuerySchema,
  V4ConnectedResponseSchema,
  V4SearchQuerySchema,
  V4SearchRecordSchema,
  V4SearchResponseSchema,
  V4SummaryFieldSchema,
  V4SummaryPathSchema,
  V4SummaryQuerySchema,
  V4SummaryResponseSchema,
} from './v4.ts';
import { rejectedParameters } from './test-kit.ts';

const ACCT = 'acct_3f2b8c1e-9d4a-4e6b-8f0a-1c2d3e4f5a6b';
const PARC = 'parc_0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';

// DC OTR tax roll, OLD CITY II: 1606 New Hampshire Av NW (SSL 0134 0165), as the sample publishes it.
const otrOwnershipRecord = {
  record_ref: 'rec_otr_0134_0165',
  kind: 'ownership',
  source_id: 'dc_otr_real_property',
  jurisdiction: '11001',
  published_at: '2017-02-05T00:00:00Z',
  citation: {
    source: 'DC Office of Tax and Revenue',
    dataset: 'Real Property Assessment (OLD CITY II)',
    as_of: '2017-02-05',
    url: 'https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=0134%20%20%20%200165',
  },
  data: {
    ssl: '0134    0165',
    address: '1606 NEW HAMPSHIRE AV NW',
    owner: 'PHI BETA KAPPA FOUNDATION DR CHURCHILL',
    use_code: '51',
    last_sale_price: 2800000,
    last_sale_recordation_date: '2001-07-30',
    assessment_2016: 4626960,
  },
  q_ids: { parcel: PARC, account: ACCT },
};

const meta = { served_at: '2026-03-14T15:09:26.535Z', next_cursor: null };

describe('v4 search record', () => {
  it('accepts a DC OTR ownership row', () => {
    const record = V4SearchRecordSchema.parse(otrOwnershipRecord);
    expect(record.citation.source).toBe('DC Office of Tax and Revenue');
    expect(record.citation['url']).toContain('taxpayerservicecenter'); // extra citation properties are kept
  });

  it('is strict: no extra field is allowed', () => {
    expect(V4SearchRecordSchema.safeParse({ ...otrOwnershipRecord, score: 1 }).success).toBe(false);
  });

  it('requires every field, including data and q_ids', () => {
    for (const field of Object.keys(otrOwnershipRecord)) {
      const { [field]: _omitted, ...rest } = otrOwnershipRecord as Record<string, unknown>;
      expect(V4SearchRecordSchema.safeParse(rest).success, field).toBe(false);
    }
  });

  it('allows a null jurisdiction and null citation parts, but requires all three citation keys', () => {
    expect(V4SearchRecordSchema.safeParse({ ...otrOwnershipRecord, jurisdiction: null }).success).toBe(true);
    const nullCitation = { source: null, dataset: null, as_of: null };
    expect(V4SearchRecordSchema.safeParse({ ...otrOwnershipRecord, citation: nullCitation }).success).toBe(true);
    expect(V4SearchRecordSchema.safeParse({ ...otrOwnershipRecord, citation: { source: null, dataset: null } }).success).toBe(false);
  });

  it('requires published_at to be a date-time', () => {
    expect(V4SearchRecordSchema.safeParse({ ...otrOwnershipRecord, published_at: '2017-02-05' }).success).toBe(false);
  });
});

describe('v4 envelope', () => {
  const envelope = { contract_version: 'svc-v4', request_id: 'req-1', operation: 'search', meta };
  /** A successful answer of `operation` carrying `data` (and `extra`, e.g. another meta). */
  const okAnswer = <T>(operation: string, data: T, extra: Record<string, unknown> = {}) => ({ ...envelope, operation, status: 'ok', error: null, ...extra, data });

  it('accepts a success with data and a null error, and tolerates extra fields', () => {
    const response = V4SearchResponseSchema.parse({
      ...envelope,
      status: 'ok',
      data: { items: [otrOwnershipRecord], next_cursor: 'c2' },
      error: null,
      trace: 'added by a newer service',
    });
    expect(response.status === 'ok' && response.data.items).toHaveLength(1);
  });

  it('accepts an error with null data', () => {
    const response = V4SearchResponseSchema.parse({
      ...envelope,
      status: 'error',
      data: null,
      error: { code: 'rate_limited', message: 'Slow down', retryable: true },
    });
    expect(response.status).toBe('error');
  });

  it('refuses mixed forms and a wrong contract version', () => {
    expect(V4SearchResponseSchema.safeParse({ ...envelope, status: 'ok', data: { items: [] }, error: { code: 'x', message: 'y', retryable: false } }).success).toBe(false);
    expect(V4SearchResponseSchema.safeParse({ ...envelope, status: 'error', data: { items: [] }, error: { code: 'x', message: 'y', retryable: false } }).success).toBe(false);
    expect(V4SearchResponseSchema.safeParse({ ...envelope, contract_version: 'svc-v3', status: 'ok', data: { items: [] }, error: null }).success).toBe(false);
    expect(V4SearchResponseSchema.safeParse({ ...envelope, meta: { served_at: 'yesterday', next_cursor: null }, status: 'ok', data: { items: [] }, error: null }).success).toBe(false);
  });

  it('accepts catalog, connected and summary answers', () => {
    const catalog = okAnswer(
      'catalog',
      {
        items: [
          {
            state: '11',
            source_id: 'dc_otr_real_property',
            source: 'DC Office of Tax and Revenue',
            dataset: 'Real Property Assessment',
            kind: 'ownership',
            records: 18893,
            as_of: '2017-02-05T00:00:00Z',
            fields: [{ name: 'owner', type: 'string' }],
          },
        ],
        next_cursor: null,
      },
      { meta: { ...meta, truncated: false } },
    );
    expect(V4CatalogResponseSchema.safeParse(catalog).success).toBe(true);
    const negativeCount = structuredClone(catalog);
    negativeCount.data.items[0]!.records = -1;
    expect(V4CatalogResponseSchema.safeParse(negativeCount).success).toBe(false);

    const connected = okAnswer('connected', { items: [{ q_id: ACCT, type: 'tax_account', relation: 'taxed_as', via: PARC, depth: 1 }] });
    expect(V4ConnectedResponseSchema.safeParse(connected).success).toBe(true);
    const badId = structuredClone(connected);
    badId.data.items[0]!.q_id = 'acct_NOT-A-UUID';
    expect(V4ConnectedResponseSchema.safeParse(badId).success).toBe(false);

    const summary = okAnswer(
      'summary',
      {
        year_built: {
          value: 1905,
          citation: { source: 'DC Office of Tax and Revenue', dataset: 'CAMA Residential', as_of: '2022-11-20' },
          alternatives: [],
        },
      },
      { meta: { ...meta, truncated: false } },
    );
    expect(V4SummaryResponseSchema.safeParse(summary).success).toBe(true);
    expect(V4SummaryFieldSchema.safeParse(summary.data.year_built).success).toBe(true);
  });
});

describe('v4 search query', () => {
  const valid = { jurisdiction: '11001', kind: 'ownership' };

  it('parses the wire form into typed values with the default limit', () => {
    const query = V4SearchQuerySchema.parse(
      queryObject('jurisdiction=11001&kind=sale&limit=25&cursor=abc&filter=' + encodeURIComponent('{"SALEPRICE":{"gte":500000},"WARD":"2","$source_id":"dc_cama"}')),
    );
    expect(query).toEqual({
      jurisdiction: '11001',
      kind: 'sale',
      limit: 25,
      cursor: 'abc',
      filter: {
        sourceId: 'dc_cama',
        conditions: [
          { field: 'SALEPRICE', op: 'gte', value: 500000 },
          { field: 'WARD', op: 'eq', value: '2' },
        ],
      },
    });
    expect(V4SearchQuerySchema.parse(valid).limit).toBe(50);
  });

  it('round-trips a filter through encodeSearchFilter', () => {
    const filter = { conditions: [{ field: 'owner', op: 'eq' as const, value: null }], sourceId: 'dc_otr' };
    expect(V4SearchQuerySchema.parse({ ...valid, filter: encodeSearchFilter(filter) }).filter).toEqual(filter);
  });

  it('rejects a jurisdiction outside the set', () => {
    expect(rejectedParameters(V4SearchQuerySchema, { ...valid, jurisdiction: '24007' })).toEqual(['jurisdiction']);
    expect(rejectedParameters(V4SearchQuerySchema, { kind: 'sale' })).toEqual(['jurisdiction']);
  });

  it('rejects a kind outside ^[a-z_]{1,40}$', () => {
    for (const kind of ['', 'Sale', 'sale2', 'sale-record', 'a'.repeat(41)]) {
      expect(rejectedParameters(V4SearchQuerySchema, { ...valid, kind }), kind).toEqual(['kind']);
    }
    expect(V4SearchQuerySchema.safeParse({ ...valid, kind: 'a'.repeat(40) }).success).toBe(true);
  });

  it('rejects a filter with more than 5 source fields; $source_id does not count', () => {
    const five = { a: 1, b: 2, c: 3, d: 4, e: 5 };
    expect(V4SearchQuerySchema.safeParse({ ...valid, filter: JSON.stringify({ ...five, $source_id: 'dc_otr' }) }).success).toBe(true);
    expect(rejectedParameters(V4SearchQuerySchema, { ...valid, filter: JSON.stringify({ ...five, f: 6 }) })).toEqual(['filter']);
  });

  it('rejects a filter longer than 2000 characters', () => {
    const filter2000 = JSON.stringify({ owner: 'x'.repeat(2000 - 12) });
    expect(filter2000).toHaveLength(2000);
    expect(V4SearchQuerySchema.safeParse({ ...valid, filter: filter2000 }).success).toBe(true);
    expect(rejectedParameters(V4SearchQuerySchema, { ...valid, filter: JSON.stringify({ owner: 'x'.repeat(2000 - 11) }) })).toEqual(['filter']);
  });

  it('rejects a filter that is not a JSON object of scalars and {gte: number}', () => {
    for (const filter of ['not json', '[1,2]', 'null', '"owner"', '{"a":{"lte":5}}', '{"a":{"gte":"5"}}', '{"a":[1]}', '{"a":{"gte":1,"lte":2}}', '{"$where":"x"}', '{"":1}', '{"$source_id":"Bad Id"}']) {
      expect(rejectedParameters(V4SearchQuerySchema, { ...valid, filter }), filter).toEqual(['filter']);
    }
  });

  it('rejects a cursor longer than 512 characters', () => {
    expect(V4SearchQuerySchema.safeParse({ ...valid, cursor: 'c'.repeat(512) }).success).toBe(true);
    expect(rejectedParameters(V4SearchQuerySchema, { ...valid, cursor: 'c'.repeat(513) })).toEqual(['cursor']);
  });

  it('rejects limit 0, 101 and non-integers', () => {
    for (const limit of ['0', '101', '1.5', 'ten', '', 0, 101, 2.5]) {
      expect(rejectedParameters(V4SearchQuerySchema, { ...valid, limit }), String(limit)).toEqual(['limit']);
    }
    expect(V4SearchQuerySchema.parse({ ...valid, limit: '1' }).limit).toBe(1);
    expect(V4SearchQuerySchema.parse({ ...valid, limit: '100' }).limit).toBe(100);
  });

  it('rejects a parameter given twice', () => {
    expect(rejectedParameters(V4SearchQuerySchema, queryObject('jurisdiction=11&kind=sale&limit=5&limit=6'))).toEqual(['limit']);
  });
});

describe('v4 catalog query', () => {
  it('accepts no parameters, a listed code and a source id', () => {
    expect(V4CatalogQuerySchema.parse({})).toEqual({});
    expect(V4CatalogQuerySchema.parse({ jurisdiction: '51510', source_id: 'alexandria_parcels' })).toEqual({ jurisdiction: '51510', source_id: 'alexandria_parcels' });
  });

  it('rejects a jurisdiction of the wrong shape or outside the set', () => {
    for (const jurisdiction of ['5', '510', '5151', '51-510', '99']) {
      expect(rejectedParameters(V4CatalogQuerySchema, { jurisdiction }), jurisdiction).toEqual(['jurisdiction']);
    }
  });

  it('rejects a source_id outside ^[a-z0-9_]{1,100}$', () => {
    for (const source_id of ['', 'DC_OTR', 'dc-otr', 'a'.repeat(101)]) {
      expect(rejectedParameters(V4CatalogQuerySchema, { source_id }), source_id).toEqual(['source_id']);
    }
  });
});

describe('v4 connected request', () => {
  it('accepts addr, parc, acct and unit ids and defaults depth 2, limit 50', () => {
    for (const prefix of ['addr', 'parc', 'acct', 'unit']) {
      expect(V4ConnectedPathSchema.safeParse({ q_id: `${prefix}_0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9` }).success, prefix).toBe(true);
    }
    expect(V4ConnectedQuerySchema.parse({})).toEqual({ depth: 2, limit: 50 });
    expect(V4ConnectedQuerySchema.parse({ depth: '3', limit: '10', cursor: 'n' })).toEqual({ depth: 3, limit: 10, cursor: 'n' });
  });

  it('rejects a prop or loan id, and ids that break the pattern', () => {
    for (const q_id of [
      'prop_0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
      'loan_0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
      'parc_0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9',
      'parc_0b1c2d3e4f5046178293a4b5c6d7e8f9',
      'parc-0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
      'parc_0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9x',
    ]) {
      expect(rejectedParameters(V4ConnectedPathSchema, { q_id }), q_id).toEqual(['q_id']);
    }
  });

  it('rejects depth 0 and 4', () => {
    expect(rejectedParameters(V4ConnectedQuerySchema, { depth: '0' })).toEqual(['depth']);
    expect(rejectedParameters(V4ConnectedQuerySchema, { depth: '4' })).toEqual(['depth']);
  });

  it('rejects cursor over 512 and limit 0 and 101', () => {
    expect(rejectedParameters(V4ConnectedQuerySchema, { cursor: 'c'.repeat(513) })).toEqual(['cursor']);
    expect(rejectedParameters(V4ConnectedQuerySchema, { limit: '0' })).toEqual(['limit']);
    expect(rejectedParameters(V4ConnectedQuerySchema, { limit: '101' })).toEqual(['limit']);
  });
});

describe('v4 summary request', () => {
  it('accepts every prefix', () => {
    for (const prefix of ['addr', 'parc', 'acct', 'unit', 'prop', 'loan']) {
      expect(V4SummaryPathSchema.safeParse({ q_id: `${prefix}_0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9` }).success, prefix).toBe(true);
    }
    expect(rejectedParameters(V4SummaryPathSchema, { q_id: 'bldg_0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9' })).toEqual(['q_id']);
  });

  it('reads fields as a comma-separated list; empty or absent means all', () => {
    expect(V4SummaryQuerySchema.parse({ fields: 'year_built, bedrooms,last_sale_price_dollars' }).fields).toEqual(['year_built', 'bedrooms', 'last_sale_price_dollars']);
    expect(V4SummaryQuerySchema.parse({ fields: '' }).fields).toBeUndefined();
    expect(V4SummaryQuerySchema.parse({}).fields).toBeUndefined();
  });

  it('rejects fields over 1000 characters or with malformed names', () => {
    const long = Array.from({ length: 100 }, (_, i) => `field_${i}`).join(',') + ',x'.repeat(100);
    expect(long.length).toBeGreaterThan(1000);
    expect(rejectedParameters(V4SummaryQuerySchema, { fields: long })).toEqual(['fields']);
    expect(rejectedParameters(V4SummaryQuerySchema, { fields: 'year_built,,bedrooms' })).toEqual(['fields']);
    expect(rejectedParameters(V4SummaryQuerySchema, { fields: 'Year Built' })).toEqual(['fields']);
  });
});
