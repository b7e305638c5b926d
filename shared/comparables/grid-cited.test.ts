import { describe, expect, it } from 'vitest';
import { recompute } from '../cited/derivation.ts';
import { formatDollars } from '../money.ts';
import { formatAdjustment, formatPricePercent, rateInUnit } from './grid-arithmetic.ts';
import { citedGridValues, citeGrid } from './grid-cited.ts';
import { exampleAnalysis, testCitations } from './test-kit.ts';

describe('citeGrid', () => {
  const { analysis, subject, workfile } = exampleAnalysis();
  const cited = analysis.cited!;

  it('makes each figure of the grid a derived value printing the grid’s own number', () => {
    analysis.grid.columns.forEach((column, index) => {
      const figures = cited.columns[index]!;
      for (const [row, amount] of Object.entries(column.adjustments)) {
        expect(figures.adjustments[row as keyof typeof column.adjustments]).toMatchObject({ status: 'derived', display: formatAdjustment(amount), raw: amount });
      }
      expect(figures.net.display).toBe(formatAdjustment(column.net));
      expect(figures.gross.display).toBe(formatDollars(column.gross));
      expect(figures.netPct.display).toBe(formatPricePercent(column.netPct));
      expect(figures.grossPct.display).toBe(formatPricePercent(column.grossPct));
      expect(figures.adjustedPrice.display).toBe(formatDollars(column.adjustedPrice));
    });
    expect(cited.adjustedRange?.display).toBe(`${formatDollars(analysis.grid.adjustedRange!.low)} to ${formatDollars(analysis.grid.adjustedRange!.high)}`);
    expect(cited.indicatedValue).toMatchObject({ display: '$1,640,000', status: 'derived', derivation: { rule: 'appraiser-value', inputs: [1_640_000, analysis.grid.adjustedRange!.low, analysis.grid.adjustedRange!.high] } });
    expect(cited.rates.glaPerSqft?.display).toBe(rateInUnit('$ per sq ft', 150));
    expect(cited.rates.glaPerSqft?.derivedFrom).toBe('The regression’s suggested rate, accepted by the appraiser');
    expect(cited.rates.perBath).toBeUndefined();
  });

  it('carries a rule and inputs that make every figure again', () => {
    const values = citedGridValues(cited);
    // 3 comps × (4 adjustments, + a lump sum on one) + 5 totals each, the range, the indicated value, 4 rates.
    expect(values.length).toBe(3 * 4 + 1 + 3 * 5 + 1 + 1 + 4);
    for (const value of values) {
      expect(value.derivation, value.field).toBeDefined();
      expect(recompute(value.derivation!, value.display), value.field).toEqual({ kind: 'same' });
    }
  });

  it('cites the appraiser for what they entered, and the sources of the values compared', () => {
    const book = testCitations();
    const again = citeGrid({ subject, comps: analysis.chosen, grid: analysis.grid, workfile, appraiser: 'J. Appraiser, signing as this installation' }, book.cite);
    const byId = new Map(book.all().map((citation) => [citation.id, citation]));
    const publishers = (ids: readonly string[]) => ids.map((id) => byId.get(id)?.publisher);
    expect(publishers(again.indicatedValue!.citationIds)).toContain('J. Appraiser, signing as this installation');
    expect(again.indicatedValue!.derivedFrom).toMatch(/^The appraiser’s value by sales comparison, reconciled from the adjusted prices \$[\d,]+ to \$[\d,]+ \(outside the range\)$/);
    const gla = again.columns[0]!.adjustments.gla!;
    // The rate (the appraiser's), the subject's living area (DC CAMA's record) and the comp's (the synthetic sample's).
    expect(publishers(gla.citationIds)).toEqual(['J. Appraiser, signing as this installation', 'DC Office of the Chief Technology Officer (DC GIS)', 'Plat synthetic sample (not a public record)']);
    const time = again.columns[0]!.adjustments.saleDate!;
    expect(publishers(time.citationIds)).toEqual(['J. Appraiser, signing as this installation', 'DC Office of Tax and Revenue']);
  });
});
