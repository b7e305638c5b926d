import { describe, expect, it } from 'vitest';
import { independentCatalog } from '../../../shared/service/record-fields-fixtures.ts';
import { SearchFilterParamSchema, type V4CatalogItem } from '../../../shared/service/index.ts';
import {
  buildRecordSearchQuery,
  cellText,
  entityLinksOf,
  fieldsForKind,
  kindsOf,
  operatorsFor,
  parseNumberText,
  recordColumnsFor,
  sourceFieldsOf,
  type RecordSearchForm,
  type SourceFieldInfo,
} from './record-search.ts';

const ownershipFields: SourceFieldInfo[] = [
  { name: 'ssl', type: 'string', description: null },
  { name: 'owner', type: 'string', description: null },
  { name: 'assessment_2016', type: 'number', description: null },
  { name: 'last_sale_recordation_date', type: 'date', description: null },
  { name: 'homestead', type: 'string', description: null },
];

const catalogItem = (overrides: Partial<V4CatalogItem>): V4CatalogItem => ({
  state: '11',
  source_id: 'dc_otr_ownership',
  source: 'DC Office of Tax and Revenue',
  dataset: 'Real Property Tax Database',
  kind: 'ownership',
  records: 10,
  as_of: '2017-02-05T00:00:00Z',
  ...overrides,
});

const form = (overrides: Partial<RecordSearchForm> = {}): RecordSearchForm => ({
  jurisdiction: '11001',
  kind: 'ownership',
  sourceId: '',
  filters: [],
  limit: '25',
  ...overrides,
});

describe('catalog fields', () => {
  it('reads the field list whatever shape the catalog gives it', () => {
    expect(sourceFieldsOf([{ name: 'owner', type: 'string', description: 'Owner of record' }, { name: 'PRICE', type: 'number' }])).toEqual([
      { name: 'owner', type: 'string', description: 'Owner of record' },
      { name: 'PRICE', type: 'number', description: null },
    ]);
    expect(sourceFieldsOf(['ssl', 'ssl'])).toEqual([{ name: 'ssl', type: 'unknown', description: null }]);
    expect(sourceFieldsOf({ ISSUE_DATE: 'date', FEES_PAID: { type: 'integer' } }).map((field) => field.type)).toEqual(['date', 'number']);
    expect(sourceFieldsOf(null)).toEqual([]);
  });

  it('groups sources by kind with their record counts, and merges the fields of a kind', () => {
    const items = [
      catalogItem({ records: 5, fields: [{ name: 'owner', type: 'string' }] }),
      catalogItem({ source_id: 'other_owner_roll', records: 7, fields: [{ name: 'owner', type: 'string' }, { name: 'OWNER_2', type: 'string' }] }),
      catalogItem({ source_id: 'dc_dcra_new_building_permits', kind: 'permit', records: 3, fields: [{ name: 'PERMIT_ID', type: 'string' }] }),
    ];
    expect(kindsOf(items).map((kind) => [kind.kind, kind.records, kind.sources.length])).toEqual([
      ['ownership', 12, 2],
      ['permit', 3, 1],
    ]);
    expect(fieldsForKind(items, 'ownership', '').map((field) => field.name)).toEqual(['owner', 'OWNER_2']);
    expect(fieldsForKind(items, 'ownership', 'dc_otr_ownership').map((field) => field.name)).toEqual(['owner']);
  });
});

describe('building the v4 search query', () => {
  it('turns filters into the wire filter the contract accepts, with numbers as numbers', () => {
    const check = buildRecordSearchQuery(
      form({
        sourceId: 'dc_otr_ownership',
        filters: [
          { id: 'a', field: 'owner', op: 'eq', value: '  UNITED STATES OF AMERICA ' },
          { id: 'b', field: 'assessment_2016', op: 'gte', value: '$1,500,000' },
          { id: 'c', field: '', op: 'eq', value: '' },
        ],
      }),
      ownershipFields,
    );
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.query).toMatchObject({ jurisdiction: '11001', kind: 'ownership', limit: 25 });
    expect(JSON.parse(check.query.filter ?? '')).toEqual({
      owner: 'UNITED STATES OF AMERICA',
      assessment_2016: { gte: 1500000 },
      $source_id: 'dc_otr_ownership',
    });
    expect(SearchFilterParamSchema.safeParse(check.query.filter).success).toBe(true);
  });

  it('sends no filter when nothing narrows the search', () => {
    const check = buildRecordSearchQuery(form(), ownershipFields);
    expect(check.ok && check.query.filter).toBe(undefined);
  });

  it('says what to fix on each bad filter and keeps the others', () => {
    const check = buildRecordSearchQuery(
      form({
        kind: '',
        limit: '500',
        filters: [
          { id: 'a', field: 'owner', op: 'eq', value: '' },
          { id: 'b', field: 'assessment_2016', op: 'gte', value: 'lots' },
          { id: 'c', field: 'owner', op: 'gte', value: 'X' },
          { id: 'd', field: '', op: 'eq', value: 'orphan value' },
          { id: 'e', field: 'gone_field', op: 'eq', value: 'x' },
        ],
      }),
      ownershipFields,
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems.form).toContain('Choose a record kind.');
    expect(check.problems.limit).toMatch(/1 to 100/);
    expect(check.problems.filters.a).toMatch(/Enter a value for owner/);
    expect(check.problems.filters.b).toMatch(/Enter a number/);
    expect(check.problems.filters.c).toMatch(/needs a number field/);
    expect(check.problems.filters.d).toMatch(/Choose a field/);
    expect(check.problems.filters.e).toMatch(/not a field of this record kind/);
  });

  it('refuses a second filter on the same field (the wire filter is an object keyed by field)', () => {
    const check = buildRecordSearchQuery(
      form({
        filters: [
          { id: 'a', field: 'owner', op: 'eq', value: 'A' },
          { id: 'b', field: 'owner', op: 'eq', value: 'B' },
        ],
      }),
      ownershipFields,
    );
    expect(!check.ok && check.problems.filters.b).toMatch(/one filter per field/);
  });

  it('offers "at least" on numbers, and on dates only if the contract accepts a date bound', () => {
    expect(operatorsFor('number')).toEqual(['eq', 'gte']);
    expect(operatorsFor('string')).toEqual(['eq']);
    const contractTakesDates = SearchFilterParamSchema.safeParse('{"d":{"gte":"2016-01-01"}}').success;
    expect(operatorsFor('date').includes('gte')).toBe(contractTakesDates);
  });

  it('reads numbers as people type them', () => {
    expect(parseNumberText('1,500,000')).toBe(1500000);
    expect(parseNumberText('$ 12')).toBe(null);
    expect(parseNumberText('$12.5')).toBe(12.5);
    expect(parseNumberText('12abc')).toBe(null);
    expect(parseNumberText('')).toBe(null);
  });
});

describe('results', () => {
  it('picks the useful columns of a kind that the page holds, else the first fields', () => {
    const records = [{ data: { ssl: '0150    0295', owner: 'X', address: 'A', otr_url: 'u' } }];
    expect(recordColumnsFor('ownership', records, ownershipFields)).toEqual(['ssl', 'address', 'owner']);
    expect(recordColumnsFor('new_kind', [{ data: { b: 1, a: 2 } }], [])).toEqual(['b', 'a']);
  });

  it('finds the useful columns under another service’s names (its catalog, else the page’s own names)', () => {
    const row = { SSL: '0065    0007', SSLASPUBLISHED: '0065    0007', PREMISEADD: '1708 21ST ST NW', OWNERNAME: 'JOEL KUIPERS', USECODE: '24', SALEPRICE: '1361000.00', SALEDATE: '2013-12-17', ASSESSMENT: '1302760.00', OTRURL: 'u' };
    const expected = ['SSL', 'PREMISEADD', 'OWNERNAME', 'USECODE', 'ASSESSMENT', 'SALEPRICE', 'SALEDATE'];
    expect(recordColumnsFor('ownership', [{ data: row }], fieldsForKind(independentCatalog, 'ownership', ''))).toEqual(expected);
    expect(recordColumnsFor('ownership', [{ data: row }], [])).toEqual(expected);
    const permit = { PERMITID: 'B1', ISSUEDATE: '2012-01-03', FULLADDRESS: 'A', OWNERNAME: 'O', DESCOFWORK: 'W', APPLICATIONSTATUSNAME: 'S', SSL: 'x', SSLCANONICAL: 'y' };
    expect(recordColumnsFor('permit', [{ data: permit }], [])).toEqual(['PERMITID', 'ISSUEDATE', 'FULLADDRESS', 'OWNERNAME', 'DESCOFWORK', 'APPLICATIONSTATUSNAME', 'SSL']);
  });

  it('formats whole-dollar fields as money and leaves other values as published', () => {
    expect(cellText('assessment_2016', 1540590)).toBe('$1,540,590');
    expect(cellText('use_code', '024')).toBe('024');
    expect(cellText('lot', null)).toBe('');
  });

  it('shows a published date as a date, not an ISO timestamp', () => {
    expect(cellText('ISSUE_DATE', '2012-01-03T00:00:00.000Z')).toBe('2012-01-03');
    expect(cellText('ssl', '0059    3570')).toBe('0059    3570');
  });

  it('finds the entity ids a record is about, whatever q_ids looks like', () => {
    const prop = 'prop_856ad90f-6142-5733-94b5-28bd3e08e66c';
    const parc = 'parc_8a5493ba-d692-516a-b2d6-84b72ced63cb';
    expect(entityLinksOf([prop, parc, prop])).toEqual([
      { id: prop, kindLabel: 'property' },
      { id: parc, kindLabel: 'parcel' },
    ]);
    expect(entityLinksOf({ property: { q_id: prop } })).toEqual([{ id: prop, kindLabel: 'property' }]);
    expect(entityLinksOf(null)).toEqual([]);
  });
});
