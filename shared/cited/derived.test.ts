import { describe, expect, it } from 'vitest';
import { CitationBook } from './citation-book.ts';
import type { CitationFields } from './citation.ts';
import { derivedValue } from './derived.ts';

const source = (publisher: string, recordRef: string): CitationFields => ({
  publisher, dataset: null, asOf: '2017-02-05', sourceId: null, recordRef, releaseId: null, sha256: null, officialUrl: null, synthetic: false, note: null,
});

describe('derivedValue', () => {
  it('cites every input once and says the rule', () => {
    const book = new CitationBook();
    const sale = source('DC Office of Tax and Revenue', 'rec_sale');
    const value = derivedValue(
      {
        field: 'comparables.pricePerSqft',
        label: 'Price per sq ft',
        raw: 611.0,
        display: '$611.00 per sq ft',
        rule: 'Sale price $1,250,000 ÷ gross living area 2,046 sq ft, by Plat',
        inputs: [
          { name: 'the sale price', citations: [sale] },
          { name: 'the gross living area', citations: [source('DC CAMA', 'rec_cama'), sale] },
        ],
      },
      book.cite,
    );
    expect(value).toMatchObject({ status: 'derived', raw: 611, display: '$611.00 per sq ft', derivedFrom: 'Sale price $1,250,000 ÷ gross living area 2,046 sq ft, by Plat', limitation: null, alternatives: [], choice: null });
    expect(value.citationIds).toEqual(['c1', 'c2']);
    expect(book.all().map((c) => c.recordRef)).toEqual(['rec_sale', 'rec_cama']);
  });

  it('takes inputs that are cited values already by their ids', () => {
    const value = derivedValue({ field: 'total', label: 'Total', raw: 3, display: '$3', rule: 'Sum of 2 holdings.', inputs: [{ name: 'a', citationIds: ['c7'] }, { name: 'b', citationIds: ['c7', 'c9'] }] }, new CitationBook().cite);
    expect(value.citationIds).toEqual(['c7', 'c9']);
  });

  it('is unavailable, saying why, when none of its inputs is cited', () => {
    const value = derivedValue({ field: 'total', label: 'Total', raw: 3, display: '$3', rule: 'Sum.', inputs: [{ name: 'the assessed value of 1708 21ST ST NW', citations: [] }] }, new CitationBook().cite);
    expect(value).toMatchObject({ status: 'unavailable', raw: null, citationIds: [], derivedFrom: null });
    expect(value.limitation).toMatch(/the assessed value of 1708 21ST ST NW that the answers do not cite/);
  });

  it('keeps the named rule and inputs it was made by (Verify makes it again), and none when it is unavailable', () => {
    const derivation = { rule: 'sum-of-dollars', inputs: [1, 2] };
    const spec = { field: 'total', label: 'Total', raw: 3, display: '$3', rule: 'Sum of 2 holdings.', derivation };
    expect(derivedValue({ ...spec, inputs: [{ name: 'a', citationIds: ['c7'] }] }, new CitationBook().cite).derivation).toEqual(derivation);
    expect(derivedValue({ ...spec, inputs: [{ name: 'a', citations: [] }] }, new CitationBook().cite)).not.toHaveProperty('derivation');
  });
});
