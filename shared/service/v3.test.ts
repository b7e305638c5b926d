import { describe, expect, it } from 'vitest';
import {
  FieldCellSchema,
  V3AggregateDataSchema,
  V3CatalogDataSchema,
  V3ItemSchema,
  V3RecordQuerySchema,
  V3ReportResponseSchema,
  V3ResponseSchema,
} from './v3.ts';
import { rejectedParameters } from './test-kit.ts';

const cell = (value: string) => ({ value, status: 'reported', source_refs: ['src_dc_otr_2017'] });

// Subject report for 1606 New Hampshire Av NW (SSL 0134 0165) from the DC OTR sample row.
const subjectItem = {
  property_ref: 'prop_dc_0134_0165',
  outcome: 'ok',
  location: { latitude: 38.912209, longitude: -77.04254 },
  characteristics: { status: 'unavailable', profile_count: 0, limitations: 'No CAMA residential profile in the sample' },
  sections: {
    identity: {
      property_ref: 'prop_dc_0134_0165',
      address: '1606 NEW HAMPSHIRE AV NW',
      ssl: '0134    0165',
      area_uid: 'area_us_dc',
      status: 'active',
      property_type: 'commercial',
      use_code: '51',
    },
    ownership: { owner_name: cell('PHI BETA KAPPA FOUNDATION DR CHURCHILL') },
    assessment: {
      basis: 'tax_year_2016',
      assessment_year: 2016,
      assessment_year_status: 'reported',
      data_date: '2017-02-05',
      total_value_dollars: cell('4626960'),
    },
    tax: { data_date: '2017-02-05', tax_period: null, tax_period_status: 'unavailable', limitations: ['Tax bills are not in the sample'] },
    transfer: { sale_date: '2001-07-30', price_dollars: 2800000, sale_type: 'recorded', acceptance_code: 'market', data_date: '2017-02-05', source_refs: ['src_dc_otr_2017'] },
    land: {},
    permit: { availability: 'available', total_count: 0, has_more: false, records: [], limitations: [] },
  },
};

const report = {
  contract_version: 'svc-v3',
  request_id: 'req-7',
  operation: 'record_query',
  status: 'ok',
  error: null,
  meta: { served_at: '2026-03-14T15:09:26Z', truncated: false },
  data: {
    projection: 'report_subject_v1',
    snapshot: 'snap_2017_02_05',
    sources: [
      {
        source_id: 'dc_otr_real_property',
        release_id: 1,
        sha256: 'f06af714efe3d339c4eceebc6e8faa2474b249e9c890c34f08d9e81875e9f7cf',
        official_url: 'https://www.taxpayerservicecenter.com/',
      },
    ],
    items: [subjectItem],
  },
};

describe('v3 responses', () => {
  it('accepts a subject report', () => {
    const parsed = V3ReportResponseSchema.parse(report);
    expect(parsed.status === 'ok' && parsed.data.items[0]?.sections?.ownership?.owner_name?.value).toBe('PHI BETA KAPPA FOUNDATION DR CHURCHILL');
  });

  it('accepts an error envelope', () => {
    const error = { ...report, status: 'error', data: null, error: { code: 'not_found', message: 'No such property', retryable: false } };
    expect(V3ResponseSchema.safeParse(error).success).toBe(true);
    expect(V3ResponseSchema.safeParse({ ...error, data: report.data }).success).toBe(false);
  });

  it('checks field cells, sources and section types', () => {
    expect(FieldCellSchema.safeParse({ value: '1', status: 'reported' }).success).toBe(false);
    expect(FieldCellSchema.safeParse({ value: 1, status: 'reported', source_refs: [] }).success).toBe(false);
    const badSha = structuredClone(report);
    badSha.data.sources[0]!.sha256 = 'abc';
    expect(V3ReportResponseSchema.safeParse(badSha).success).toBe(false);
    const badRelease = structuredClone(report) as { data: { sources: Array<{ release_id: unknown }> } };
    badRelease.data.sources[0]!.release_id = '1';
    expect(V3ReportResponseSchema.safeParse(badRelease).success).toBe(false);
    expect(V3ItemSchema.safeParse({ ...subjectItem, location: { latitude: '38.9', longitude: -77 } }).success).toBe(false);
    expect(V3ItemSchema.safeParse({ ...subjectItem, sections: { ...subjectItem.sections, permit: { ...subjectItem.sections.permit, has_more: 'no' } } }).success).toBe(false);
    expect(V3ItemSchema.safeParse({ ...subjectItem, sections: { ...subjectItem.sections, tax: { ...subjectItem.sections.tax, limitations: 'none' } } }).success).toBe(false);
  });

  it("accepts Plat's catalog and aggregate rows", () => {
    const base = { projection: 'aggregate', snapshot: 'snap', sources: [] };
    expect(V3AggregateDataSchema.safeParse({ ...base, items: [{ group: '20009', measure: 'median_price', value: 911000, record_count: 42 }] }).success).toBe(true);
    expect(V3CatalogDataSchema.safeParse({ ...base, projection: 'catalog', items: [{ dataset: 'sales', field: 'price', data_type: 'number', description: 'Sale price in whole dollars' }] }).success).toBe(true);
  });
});

describe('v3 record query', () => {
  const subject = { mode: 'report', projection: 'report_subject_v1', subject_property_ref: 'prop_dc_0134_0165' };

  it('accepts each mode and fills the default limit', () => {
    expect(V3RecordQuerySchema.parse(subject).limit).toBe(20);
    expect(V3RecordQuerySchema.safeParse({ mode: 'catalog' }).success).toBe(true);
    expect(V3RecordQuerySchema.safeParse({ mode: 'catalog', dataset: 'sales', field: 'price' }).success).toBe(true);
    const comparables = V3RecordQuerySchema.parse({
      mode: 'report',
      projection: 'report_comparables_v1',
      subject_property_ref: 'prop_dc_0134_0165',
      radius_miles: 0.5,
      filters: { sale: [{ field: 'sale_date_after', value: '2016-01-17' }], building: [{ field: 'use_code', value: '24' }] },
      limit: 10,
    });
    expect(comparables.filters?.sale?.[0]?.field).toBe('sale_date_after');
    expect(V3RecordQuerySchema.safeParse({ mode: 'aggregate', dataset: 'sales', measure: 'median_price_per_sqft', group_by: 'zipcode' }).success).toBe(true);
  });

  it('rejects unknown mode, dataset, measure and projection values', () => {
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'export' })).toEqual(['mode']);
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'catalog', dataset: 'mortgages' })).toEqual(['dataset']);
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'aggregate', dataset: 'sales', measure: 'sum_price' })).toEqual(['measure']);
    expect(rejectedParameters(V3RecordQuerySchema, { ...subject, projection: 'report_full_v1' })).toEqual(['projection']);
  });

  it('report mode needs a projection', () => {
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'report', subject_property_ref: 'p' })).toEqual(['projection']);
  });

  it('report_subject_v1 needs subject_property_ref', () => {
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'report', projection: 'report_subject_v1' })).toEqual(['subject_property_ref']);
  });

  it('report_comparables_v1 needs subject_property_ref and radius_miles', () => {
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'report', projection: 'report_comparables_v1' })).toEqual(['subject_property_ref', 'radius_miles']);
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'report', projection: 'report_comparables_v1', subject_property_ref: 'p' })).toEqual(['radius_miles']);
  });

  it('aggregate needs a measure and a dataset', () => {
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'aggregate', dataset: 'sales' })).toEqual(['measure']);
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'aggregate', measure: 'count' })).toEqual(['dataset']);
  });

  it('radius_miles must be above 0 and at most 5', () => {
    const comparables = { mode: 'report', projection: 'report_comparables_v1', subject_property_ref: 'p' };
    expect(V3RecordQuerySchema.safeParse({ ...comparables, radius_miles: 5 }).success).toBe(true);
    expect(rejectedParameters(V3RecordQuerySchema, { ...comparables, radius_miles: 0 })).toEqual(['radius_miles']);
    expect(rejectedParameters(V3RecordQuerySchema, { ...comparables, radius_miles: 5.01 })).toEqual(['radius_miles']);
  });

  it('limit must be an integer 1..100 and cursor at most 4096', () => {
    for (const limit of [0, 101, 2.5, '20']) {
      expect(rejectedParameters(V3RecordQuerySchema, { mode: 'catalog', limit }), String(limit)).toEqual(['limit']);
    }
    expect(V3RecordQuerySchema.safeParse({ mode: 'catalog', cursor: 'c'.repeat(4096) }).success).toBe(true);
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'catalog', cursor: 'c'.repeat(4097) })).toEqual(['cursor']);
  });

  it('filters must be {field, value} strings in the four groups', () => {
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'catalog', filters: { sale: [{ field: 'price', value: 5 }] } })).toEqual(['filters']);
    expect(rejectedParameters(V3RecordQuerySchema, { mode: 'catalog', filters: { sale: [{ field: 'Sale Price', value: '5' }] } })).toEqual(['filters']);
  });

  it('date filters and fields (named *_date) take only dates that exist', () => {
    const comparables = (field: string, value: string) => ({ mode: 'catalog', filters: { sale: [{ field, value }] } });
    for (const value of ['2015-13-45', '2015-02-30', '2015-02-29', '2016', 'soon']) {
      expect(rejectedParameters(V3RecordQuerySchema, comparables('from_date', value)), value).toEqual(['filters']);
      expect(rejectedParameters(V3RecordQuerySchema, comparables('sale_date', value)), value).toEqual(['filters']);
    }
    expect(V3RecordQuerySchema.safeParse(comparables('to_date', ' 2016-02-29 ')).success).toBe(true);
    expect(V3RecordQuerySchema.safeParse(comparables('min_price', '2015-13-45')).success).toBe(true);
  });
});
