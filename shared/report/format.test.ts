import { describe, expect, it, vi } from 'vitest';
import { formatDollars } from '../money.ts';
import { formatCellText, formatFieldValue, formatRecordCell, isPublishedDollarField, ZERO_PRICE_MEANING } from './format.ts';

describe('formatFieldValue', () => {
  it('prints a date the service stamped at midnight UTC as that date, west of Greenwich too', () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    try {
      expect(formatFieldValue('issue_date', '2014-01-22T00:00:00.000Z')).toBe('2014-01-22');
      expect(formatFieldValue('last_sale_date', '2013-12-17')).toBe('2013-12-17');
      expect(formatFieldValue('last_modified', '2015-10-06T06:48:19.000Z')).toBe('2015-10-05 23:48:19');
      expect(formatFieldValue('address', '1716 21ST ST NW')).toBe('1716 21ST ST NW');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('formats whole dollars, areas and years, and reads a zero sale price as OTR prints it', () => {
    expect(formatFieldValue('assessed_value_dollars', 545160)).toBe('$545,160');
    expect(formatFieldValue('last_sale_price_dollars', 0)).toBe('$0 (non-market or no price)');
    expect(formatFieldValue('land_area_sqft', 1546)).toBe('1,546 sq ft');
    expect(formatFieldValue('year_built', 1890)).toBe('1890');
    expect(formatFieldValue('homestead', null)).toBe('—');
  });
});

describe('formatFieldValue: one formatter per kind of value', () => {
  it('never groups a year, published as a number or as text (not "Effective year built 1,985")', () => {
    for (const field of ['effective_year_built', 'year_built', 'building.effective_year_built', 'AYB', 'EYB', 'YR_RMDL']) {
      expect(formatFieldValue(field, 1985), field).toBe('1985');
      expect(formatFieldValue(field, '1985'), field).toBe('1985');
    }
  });

  it('keeps the cents a publisher gave, and adds none to whole dollars', () => {
    expect(formatFieldValue('last_sale_price_dollars', '18402.50')).toBe('$18,402.50');
    expect(formatFieldValue('last_sale_price_dollars', 18403)).toBe('$18,403');
    expect(formatFieldValue('assessed_value', '1302760')).toBe('$1,302,760');
    expect(formatFieldValue('SALEPRICE', '0.00')).toBe(`$0.00 (${ZERO_PRICE_MEANING})`);
    expect(formatFieldValue('last_sale_price', 'not disclosed')).toBe('not disclosed');
  });

  it('formats an area published as text by its kind', () => {
    expect(formatFieldValue('living_area_sqft', '1546')).toBe('1,546 sq ft');
  });

  it('prints identifiers and coordinates as published: never grouped, never rounded', () => {
    expect(formatFieldValue('account_no', 12345)).toBe('12345');
    expect(formatFieldValue('OBJECTID', 104233)).toBe('104233');
    expect(formatFieldValue('latitude', 38.912976)).toBe('38.912976');
    expect(formatFieldValue('bedrooms', 1234)).toBe('1,234');
  });
});

describe('formatFieldValue in the report', () => {
  it('reads a price of 0 in the source’s words on every sale-price field, never as a non-market transfer', () => {
    for (const field of ['last_sale_price_dollars', 'price_dollars', 'PRICE', 'last_sale_price']) {
      expect(formatFieldValue(field, 0)).toBe(`$0 (${ZERO_PRICE_MEANING})`);
    }
    expect(ZERO_PRICE_MEANING).toBe('non-market or no price');
    // An assessed value of 0 is just $0.
    expect(formatFieldValue('assessed_value_dollars', 0)).toBe('$0');
  });

  it('knows a money field by its role whatever the service names it', () => {
    expect(['SALEPRICE', 'ASSESSMENT', 'assessed_value', 'last_sale_price'].map(isPublishedDollarField)).toEqual([true, true, true, true]);
    expect(formatFieldValue('assessed_value', 1302760)).toBe('$1,302,760');
    expect(formatFieldValue('SALEPRICE', 0)).toBe(`$0 (${ZERO_PRICE_MEANING})`);
    expect(formatRecordCell('SALEPRICE', 1361000)).toBe('$1,361,000');
    expect(isPublishedDollarField('assessment_year')).toBe(false);
  });

  it('formats the v3 area and year fields and booleans', () => {
    expect(formatFieldValue('land_area_square_feet', 268)).toBe('268 sq ft');
    expect(formatFieldValue('assessment_year', 2016)).toBe('2016');
    expect(formatFieldValue('has_basement', true)).toBe('yes');
    expect(formatFieldValue('list', ['a'])).toBe('["a"]');
  });
});

describe('formatDollars (shared/money.ts)', () => {
  it('prints whole dollars as publishers do, grouped, without cents', () => {
    expect(formatDollars(1302760)).toBe('$1,302,760');
    expect(formatDollars(0)).toBe('$0');
    // Beyond micro-USD's exact range (over $9 billion) it still formats: these are dollars, not micro-USD.
    expect(formatDollars(12_000_000_000)).toBe('$12,000,000,000');
    // Plat's computed whole dollars: rounded half away from zero, negatives with a real minus.
    expect(formatDollars(2.5)).toBe('$3');
    expect(formatDollars(-1666.5)).toBe('−$1,667');
    expect(formatDollars(-0.4)).toBe('$0');
  });
});

describe('record and generic cells', () => {
  it('formats the publishers’ dollar columns (in any dialect) with their cents, and years as years', () => {
    expect(formatRecordCell('SALEPRICE', '18402.50')).toBe('$18,402.50');
    expect(formatRecordCell('ASSESSMENT', 1540590)).toBe('$1,540,590');
    expect(formatRecordCell('AYB', 1985)).toBe('1985');
    expect(formatRecordCell('SSL', '0065    0007')).toBe('0065    0007');
  });

  it('formats the publishers’ dollar columns only, dates as dates, other values as published', () => {
    expect(isPublishedDollarField('assessment_2016')).toBe(true);
    expect(isPublishedDollarField('use_code')).toBe(false);
    expect(formatRecordCell('assessment_2016', 1540590)).toBe('$1,540,590');
    expect(formatRecordCell('OBJECTID', 12345)).toBe('12345');
    expect(formatRecordCell('ISSUE_DATE', '2012-01-03T00:00:00.000Z')).toBe('2012-01-03');
    expect(formatRecordCell('lot', undefined)).toBe('');
    expect(formatRecordCell('q', { a: 1 })).toBe('{"a":1}');
  });

  it('joins lists of scalars and keeps text as written', () => {
    expect(formatCellText(['a', null, 2])).toBe('a, —, 2');
    expect(formatCellText('0065    0007')).toBe('0065    0007');
    expect(formatCellText(undefined)).toBe('');
  });
});
