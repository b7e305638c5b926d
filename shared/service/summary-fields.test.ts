import { describe, expect, it } from 'vitest';
import { canonicalSummary, canonicalSummaryName, summaryFields } from './summary-fields.ts';
import { independentSummary, OTR_CITATION } from './dialect-test-kit.ts';

const dataOf = (envelope: Record<string, unknown>) => envelope.data;

describe('summaryFields', () => {
  it('reads the entries under data.fields (another service), under Plat’s names, in Plat’s order', () => {
    const read = summaryFields(dataOf(independentSummary()));
    expect(read.at).toBe('data.fields');
    expect(read.entries.map((entry) => [entry.published, entry.name, entry.entry !== null])).toEqual([
      ['address', 'address', true],
      ['owner_name', 'owner_name', true],
      ['year_built', 'year_built', true],
      ['assessed_value', 'assessed_value_dollars', true],
      ['last_sale_price', 'last_sale_price_dollars', true],
      ['last_sale_date', 'last_sale_date', true],
      ['effective_year_built', 'effective_year_built', true],
      ['latitude', 'latitude', true],
      ['longitude', 'longitude', true],
    ]);
  });

  it('reads the entries directly in data (the embedded service), leaving out what is about the answer', () => {
    const read = summaryFields({
      q_id: 'prop_x',
      year_built: { value: 1890, citation: OTR_CITATION, alternatives: [] },
      assessed_value_dollars: { value: 1361000, citation: OTR_CITATION, alternatives: [] },
      limitations: ['living_area_sqft: none'],
    });
    expect(read).toMatchObject({ at: 'data', limitations: ['living_area_sqft: none'] });
    expect(read.entries.map((entry) => entry.name)).toEqual(['year_built', 'assessed_value_dollars']);
  });

  it('keeps an entry of a shape it does not read, and a name it has none for, as published', () => {
    const read = summaryFields(dataOf(independentSummary({ roof: { material: 'slate', citation: OTR_CITATION }, bedrooms: { best: 3 } })));
    const pick = (published: string) => read.entries.find((entry) => entry.published === published);
    expect(pick('bedrooms')).toMatchObject({ name: 'bedrooms', entry: null, raw: { best: 3 } });
    // A name Plat has none for comes last.
    expect(read.entries.at(-1)).toMatchObject({ published: 'roof', name: null, entry: null });
  });

  it('loses nothing: a `fields` that is not an object, and keys beside `fields`, are entries as published', () => {
    expect(summaryFields({ q_id: 'prop_x', fields: ['year_built'] }).entries).toEqual([{ published: 'fields', name: null, raw: ['year_built'], entry: null }]);
    const read = summaryFields({ q_id: 'prop_x', fields: { bedrooms: { value: 3, citation: OTR_CITATION } }, condition: 'good' });
    expect(read.entries.map((entry) => [entry.published, entry.entry === null])).toEqual([
      ['bedrooms', false],
      ['condition', true],
    ]);
  });

  it('matches names by their normalised form, with or without the unit', () => {
    expect(canonicalSummaryName('ASSESSED_VALUE')).toBe('assessed_value_dollars');
    expect(canonicalSummaryName('lastSalePrice')).toBe('last_sale_price_dollars');
    expect(canonicalSummaryName('roof')).toBeNull();
  });
});

describe('canonicalSummary', () => {
  it('puts each entry under Plat’s name for the report to read', () => {
    const summary = canonicalSummary(dataOf(independentSummary()));
    expect(Object.keys(summary)).toEqual(['address', 'owner_name', 'year_built', 'assessed_value_dollars', 'last_sale_price_dollars', 'last_sale_date', 'effective_year_built', 'latitude', 'longitude']);
    expect(summary.assessed_value_dollars).toMatchObject({ value: 1361000 });
  });
});
