import { describe, expect, it } from 'vitest';
import { V2PropertySearchSchema } from '../../../shared/service/index.ts';
import { buildPropertySearchBody, describePropertyRun, propertyColumnsFor, propertyOperatorsFor, propertyRowView, type PropertySearchForm } from './property-search.ts';

const form = (overrides: Partial<PropertySearchForm> = {}): PropertySearchForm => ({
  areaUid: 'area_us_dc',
  filters: [],
  sortField: '',
  sortDirection: 'asc',
  projection: 'identity_summary',
  limit: '20',
  ...overrides,
});

describe('property search body', () => {
  it('builds a body the contract accepts, numbers and dates typed by field', () => {
    const check = buildPropertySearchBody(
      form({
        projection: 'fact_summary',
        sortField: 'assessed_value_dollars',
        sortDirection: 'desc',
        filters: [
          { id: 'a', field: 'owner_name', op: 'contains', value: 'UNITED STATES' },
          { id: 'b', field: 'assessed_value_dollars', op: 'gte', value: '1,000,000' },
          { id: 'c', field: 'last_sale_date', op: 'lte', value: '2016-12-31' },
        ],
      }),
    );
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.body).toEqual({
      area_uid: 'area_us_dc',
      filters: [
        { field: 'owner_name', op: 'contains', value: 'UNITED STATES' },
        { field: 'assessed_value_dollars', op: 'gte', value: 1000000 },
        { field: 'last_sale_date', op: 'lte', value: '2016-12-31' },
      ],
      sort: { field: 'assessed_value_dollars', direction: 'desc' },
      projection: 'fact_summary',
      limit: 20,
    });
    expect(V2PropertySearchSchema.safeParse(check.body).success).toBe(true);
  });

  it('says what is wrong with each filter', () => {
    const check = buildPropertySearchBody(
      form({
        limit: '0',
        filters: [
          { id: 'a', field: 'assessed_value_dollars', op: 'gte', value: 'a lot' },
          { id: 'b', field: 'last_sale_date', op: 'gte', value: '12/31/2016' },
          { id: 'c', field: 'owner_name', op: 'gte', value: 'X' },
        ],
      }),
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.filters.a).toMatch(/Enter a number/);
    expect(check.problems.filters.b).toMatch(/YYYY-MM-DD/);
    expect(check.problems.filters.c).toMatch(/does not apply/);
    expect(check.problems.limit).toBeDefined();
  });

  it('offers contains on text only and comparisons on numbers and dates', () => {
    expect(propertyOperatorsFor('text')).toEqual(['eq', 'contains']);
    expect(propertyOperatorsFor('number')).toEqual(['eq', 'gte', 'lte']);
  });
});

describe('property rows', () => {
  const citation = { source: 'DC Office of Tax and Revenue', dataset: 'Roll', as_of: '2017-02-05T00:00:00Z', source_id: 'dc_otr_ownership' };
  const synthetic = { source: 'Plat synthetic sample (not a public record)', dataset: 'Imputed', as_of: '2023-11-05', source_id: 'plat_synthetic', synthetic: true };

  it('flattens fact cells, marks synthetic ones and lists each source once', () => {
    const row = propertyRowView({
      entity_ref: 'prop_1',
      entity_kind: 'property',
      canonical_identity: { address: '1716 21ST ST NW', ssl: '0065    0004' },
      facts: {
        owner_name: { value: 'WILLIAM O BANK', synthetic: false, citation },
        assessed_value_dollars: { value: 1540590, synthetic: false, citation: { ...citation, source_id: 'dc_otr_assessment' } },
        year_built: { value: 1910, synthetic: true, citation: synthetic },
      },
    });
    expect(row.values).toEqual({ address: '1716 21ST ST NW', ssl: '0065    0004', owner_name: 'WILLIAM O BANK', assessed_value_dollars: 1540590, year_built: 1910 });
    expect(row.syntheticKeys).toEqual(['year_built']);
    expect(row.citations.map((c) => [c.sourceId, c.synthetic])).toEqual([
      ['dc_otr_ownership', false],
      ['plat_synthetic', true],
    ]);
    expect(propertyColumnsFor([row.values])).toEqual(['address', 'ssl', 'owner_name', 'assessed_value_dollars', 'year_built']);
  });

  it('falls back to the provenance of the row records when facts carry no citation', () => {
    const row = propertyRowView({ entity_ref: 'prop_1', entity_kind: 'property', canonical_identity: { address: 'A' }, source_refs: ['rec_1'] }, [
      { source_ref: 'rec_1', publisher: 'City of Alexandria GIS Division', captured_at: '2023-11-05', source_id: 'va_alexandria_parcels' },
      { source_ref: 'rec_2', publisher: 'Elsewhere' },
    ]);
    expect(row.citations.map((c) => c.publisher)).toEqual(['City of Alexandria GIS Division']);
  });

  it('cites a row without refs of its own (the spec gives search items none) to the sources the answer names', () => {
    const row = propertyRowView({ entity_ref: 'prop_1', entity_kind: 'property', canonical_identity: { address: '1708 21ST ST NW' } }, [
      { source_ref: 'dc_otr_ownership@20170205', source_kind: 'source', publisher: 'DC Office of Tax and Revenue', release_id: '20170205', captured_at: '2017-02-05T00:00:00Z', official_url: 'https://otr.cfo.dc.gov/' },
    ]);
    expect(row.citations.map((c) => [c.publisher, c.sourceId, c.asOf])).toEqual([['DC Office of Tax and Revenue', 'dc_otr_ownership', '2017-02-05T00:00:00Z']]);
  });
});

describe('a run in words', () => {
  it('reads each filter value by its kind: a year never grouped, dollars with a $', () => {
    const text = describePropertyRun({
      area_uid: 'area_us_dc',
      filters: [
        { field: 'imputed_year_built', op: 'gte', value: 1985 },
        { field: 'assessed_value_dollars', op: 'lte', value: 1_500_000 },
      ],
      projection: 'fact_summary',
      limit: 25,
    });
    expect(text).toContain('Year built (synthetic) at least 1985 ·');
    expect(text).not.toContain('1,985');
    expect(text).toContain('$1,500,000');
  });
});

