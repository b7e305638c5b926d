import { describe, expect, it } from 'vitest';
import { exampleAnalysis } from './test-kit.ts';
import { UAD_NOTICE, salesComparisonUad } from './uad-export.ts';

const context = (workfile: ReturnType<typeof exampleAnalysis>['workfile']) => ({
  assignment: { name: '1708 21st St NW', effectiveDate: '2017-01-01', subjectRef: 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b' },
  generatedAt: '2026-11-23T22:00:00.000Z',
  appVersion: '0.1.0',
  workfile,
});

// Reads the export as a consumer would: parsed JSON, not Plat's types.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function exported() {
  const { analysis, workfile } = exampleAnalysis();
  const json = JSON.parse(JSON.stringify(salesComparisonUad(analysis, context(workfile)))) as Json;
  return { analysis, workfile, json, section: json.salesComparisonApproach as Json };
}

describe('salesComparisonUad', () => {
  it('says plainly what it is not', () => {
    const { json } = exported();
    expect(json.notice).toBe('Shaped after the UAD 3.6 sales comparison section for reading and review; not a certified UAD file and not valid for GSE delivery.');
    expect(UAD_NOTICE).toBe(json.notice);
    expect(json.assignment).toEqual({ name: '1708 21st St NW', effectiveDate: '2017-01-01', subjectPropertyRef: 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b' });
  });

  it('writes each comparable with its cited characteristics, adjustments, net, gross, adjusted price and weight', () => {
    const { section, analysis } = exported();
    const [first, second] = section.comparables as Json[];
    const grid = analysis.grid.columns;
    expect(first?.comparableNumber).toBe(1);
    expect(first?.address).toBe('1704 21ST ST NW');
    expect(first?.features.gla).toMatchObject({ label: 'Gross living area', value: 2_400, status: 'synthetic', citationIds: ['c2'] });
    expect(second?.features.gla.adjustment).toEqual({
      amountDollars: -30_000,
      workings: '(subject 2,400 − comp 2,600) sq ft × $150 per sq ft = −$30,000',
      basis: 'rate',
      rate: { key: 'glaPerSqft', value: 150, unit: '$ per sq ft of gross living area' },
      status: 'derived',
      // The rate (the appraiser's), the subject's living area, the comp's.
      citationIds: ['c4', 'c3', 'c2'],
      derivedFrom: '(subject 2,400 − comp 2,600) sq ft × $150 per sq ft = −$30,000',
      derivation: { rule: 'adjustment-rate-times-difference', inputs: [150, 2_400, 2_600] },
    });
    expect(second?.features.site.adjustment).toMatchObject({ amountDollars: -15_000, basis: 'appraiser lump sum', rate: null });
    expect(second?.features.saleDate.adjustment.citationIds).toEqual(['c4', 'c1']);
    expect(second?.features.style).toMatchObject({ status: 'unavailable', adjustment: null, limitation: 'Not in the sample.' });
    expect(second?.netAdjustment).toMatchObject({ amountDollars: grid[1]?.net, percentOfSalePrice: grid[1]?.netPct, cited: { status: 'derived', derivation: { rule: 'sum-of-adjustments' } } });
    expect(second?.grossAdjustment).toMatchObject({ amountDollars: grid[1]?.gross, percentOfSalePrice: grid[1]?.grossPct, percentCited: { derivation: { rule: 'percent-of-price' } } });
    expect(second?.adjustedSalePriceDollars).toBe(grid[1]?.adjustedPrice);
    expect(second?.adjustedSalePrice).toMatchObject({ value: grid[1]?.adjustedPrice, derivation: { rule: 'price-plus-net' } });
    expect(first?.weight).toEqual({ code: 'most', label: 'Most weight' });
    // Net is the sum of the adjustments written out.
    const adjustments = Object.values(second?.features as Json).flatMap((feature: Json) => (feature.adjustment ? [feature.adjustment.amountDollars as number] : []));
    expect(adjustments.reduce((sum, amount) => sum + amount, 0)).toBe(second?.netAdjustment.amountDollars);
  });

  it('keeps the subject, the research summary and the sales analyzed but not used, with reasons', () => {
    const { section } = exported();
    expect(section.subject.features.gla).toMatchObject({ value: 2_400, status: 'reported', citationIds: ['c3'] });
    expect(section.researchSummary).toMatchObject({ salesReturnedCount: 13, comparablesUsedCount: 3, analyzedNotUsedCount: 10, search: { radiusMilesSearched: 0.5, dataAsOf: '2017-02-05' } });
    const notUsed = section.analyzedNotUsed as Json[];
    expect(notUsed.find((entry) => entry.id === 'sale12')).toMatchObject({ reason: 'size', reasonLabel: 'Size (living area)', note: 'Much larger than the subject.', decidedBy: 'appraiser' });
    expect(notUsed.find((entry) => entry.id === 'transfer')).toMatchObject({ reason: 'non_market', decidedBy: 'plat', salePrice: { value: 0, citationIds: ['c1'] } });
  });

  it('prints each rate with who set it and the regression’s support, and the reconciliation', () => {
    const { section, analysis } = exported();
    const gla = (section.adjustmentRates as Json[]).find((rate) => rate.key === 'glaPerSqft');
    expect(gla).toMatchObject({ valueUsed: 150, setBy: 'suggestion', unit: '$ per sq ft of gross living area', support: { value: analysis.support.suggestions.glaPerSqft.value } });
    expect((section.adjustmentRates as Json[]).find((rate) => rate.key === 'perBath')).toMatchObject({ valueUsed: null, setBy: null });
    expect(section.adjustmentSupport).toMatchObject({ n: 12, message: null });
    expect(section.adjustmentSupport.salesUsed[0].citationIds).toEqual(['c1']);
    expect(section.reconciliation).toMatchObject({
      adjustedPriceRange: { lowDollars: analysis.grid.adjustedRange?.low, highDollars: analysis.grid.adjustedRange?.high, basis: 'Comparables given weight (all of them when none is)', cited: { derivation: { rule: 'range-of-adjusted-prices' } } },
      indicatedValueDollars: 1_640_000,
      indicatedValue: { value: 1_640_000, display: '$1,640,000', status: 'derived', citationIds: expect.arrayContaining(['c4', 'c1', 'c2', 'c3']), derivation: { rule: 'appraiser-value', inputs: [1_640_000, 1_662_838, 1_701_154] } },
      comment: 'Most weight to comp 1, the same size and block.',
      // Comp 3 (adjusted to $1,628,312) has no weight, so the range is comps 1 and 2's.
      openProblems: ['The indicated value $1,640,000 is outside the range of adjusted prices ($1,662,838 to $1,701,154): say why in the comment.'],
    });
  });

  it('exports the copied values the appraiser accepted, with who accepted them and why', () => {
    const { section } = exported();
    expect(section.copiedValuesAccepted).toHaveLength(6);
    expect(section.copiedValuesAccepted[0]).toEqual({ row: 'quality', rowLabel: expect.any(String), compId: null, appliesTo: 'the whole grid', by: 'The appraiser', reason: 'Checked against the sale listings.', at: '2026-11-23T21:50:00.000Z' });
  });

  it('resolves every citation id it writes to a citation it lists', () => {
    const { json } = exported();
    const listed = new Set((json.citations as Json[]).map((citation) => citation.id as string));
    const used = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'citationIds') for (const id of value as string[]) used.add(id);
          else walk(value);
        }
      }
    };
    walk(json.salesComparisonApproach);
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((id) => !listed.has(id))).toEqual([]);
    expect((json.citations as Json[]).find((citation) => citation.id === 'c2')).toMatchObject({ synthetic: true, publisher: 'Plat synthetic sample (not a public record)' });
  });
});
