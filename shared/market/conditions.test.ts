import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { recompute } from '../cited/derivation.ts';
import { comparableSale, type SaleSpec } from '../comparables/test-kit.ts';
import type { ComparableSale } from '../comparables/model.ts';
import { defaultScreenedOut, marketConditions, periodDates } from './conditions.ts';

const EFFECTIVE = '2017-01-01';
const sale = (spec: SaleSpec, patch: Partial<ComparableSale> = {}): ComparableSale => ({ ...comparableSale(spec), ...patch });

// Worked by hand: the periods are [2016-10-01, 2017-01-01], [2016-07-01, 2016-09-30], [2016-01-01, 2016-06-30], [2015-01-01, 2015-12-31].
const SALES: ComparableSale[] = [
  sale({ id: 'a', address: '1 A St NW', saleDate: '2017-01-01', priceDollars: 800_000, gla: 2_000, synthetic: false }),
  sale({ id: 'b', address: '2 B St NW', saleDate: '2016-10-01', priceDollars: 700_000, gla: 1_800 }),
  sale({ id: 'c', address: '3 C St NW', saleDate: '2016-09-30', priceDollars: 650_000 }),
  sale({ id: 'd', address: '4 D St NW', saleDate: '2016-07-01', priceDollars: 600_000, gla: 1_500, synthetic: false }),
  sale({ id: 'e', address: '5 E St NW', saleDate: '2016-08-15', priceDollars: 640_000 }),
  sale({ id: 'f', address: '6 F St NW', saleDate: '2016-06-30', priceDollars: 500_000 }),
  sale({ id: 'g', address: '7 G St NW', saleDate: '2016-01-01', priceDollars: 520_000 }),
  sale({ id: 'h', address: '8 H St NW', saleDate: '2016-03-10', priceDollars: 540_000 }),
  sale({ id: 'i', address: '9 I St NW', saleDate: '2015-12-31', priceDollars: 480_000 }),
  sale({ id: 'j', address: '10 J St NW', saleDate: '2017-01-02', priceDollars: 900_000 }),
  sale({ id: 'k', address: '11 K St NW', saleDate: '2016-05-01', priceDollars: 0 }),
  sale({ id: 'l', address: '12 L St NW', saleDate: '2016-04-01', priceDollars: 2_000_000, market: false }),
  sale({ id: 'm', address: '13 M St NW', saleDate: null, priceDollars: 600_000 }),
  sale({ id: 'n', address: '14 N St NW', saleDate: '2016-11-01', priceDollars: 610_000 }, { flags: ['outside_market_area'] }),
];

const conditionsOf = (sales = SALES, extra: Partial<Parameters<typeof marketConditions>[0]> = {}) =>
  marketConditions({ sales, effectiveDate: EFFECTIVE, marketArea: 'Within 0.5 mi', propertyType: '011', monthsRead: 24, cite: new CitationBook().cite, ...extra });

describe('market periods', () => {
  it('counts back from the effective date as the search window does, each day in one period', () => {
    expect(periodDates(EFFECTIVE, 0, 3)).toEqual({ fromDate: '2016-10-01', toDate: '2017-01-01' });
    expect(periodDates(EFFECTIVE, 3, 6)).toEqual({ fromDate: '2016-07-01', toDate: '2016-09-30' });
    expect(periodDates(EFFECTIVE, 6, 12)).toEqual({ fromDate: '2016-01-01', toDate: '2016-06-30' });
    expect(periodDates(EFFECTIVE, 12, 24)).toEqual({ fromDate: '2015-01-01', toDate: '2015-12-31' });
    // A day the earlier month lacks is its last day (as the search window counts).
    expect(periodDates('2016-05-31', 0, 3)).toEqual({ fromDate: '2016-02-29', toDate: '2016-05-31' });
    expect(periodDates('2016-05-31', 3, 6)).toEqual({ fromDate: '2015-11-30', toDate: '2016-02-28' });
  });

  it('puts the sales on the boundaries in the right period', () => {
    const periods = conditionsOf().periods;
    expect(periods.map((period) => period.sales.map((s) => s.id).sort())).toEqual([['a', 'b'], ['c', 'd', 'e'], ['f', 'g', 'h'], ['i']]);
  });
});

describe('market conditions table', () => {
  it('gives the counts and median prices worked out by hand, each a derived value Verify recomputes', () => {
    const conditions = conditionsOf();
    expect(conditions.periods.map((period) => period.count.display)).toEqual(['2', '3', '3', '1']);
    expect(conditions.periods.map((period) => period.medianPrice.display)).toEqual(['$750,000', '$640,000', '$520,000', '$480,000']);
    for (const period of conditions.periods) {
      for (const value of [period.count, period.medianPrice]) {
        expect(value.status).toBe('derived');
        expect(recompute(value.derivation!, value.display)).toEqual({ kind: 'same' });
      }
    }
    expect(conditions.periods[0]!.count.derivation).toEqual({ rule: 'count-of-sales', inputs: ['a', 'b'] });
    expect(conditions.periods[0]!.sales.every((s) => s.citationIds.length > 0)).toBe(true);
  });

  it('uses only published areas for $/sq ft and counts the copied ones left out', () => {
    const [current, second, third] = conditionsOf().periods;
    expect(current!.medianPricePerSqft.display).toBe('$400.00 per sq ft');
    expect(current!.withoutPublishedArea).toBe(1);
    expect(current!.medianPricePerSqft.limitation).toMatch(/1 of the period’s 2 sales have no published area/);
    expect(second!.medianPricePerSqft.display).toBe('$400.00 per sq ft');
    expect(third!.medianPricePerSqft.status).toBe('unavailable');
    expect(third!.medianPricePerSqft.limitation).toMatch(/None of the 3 sales has a published area/);
  });

  it('states the trend by its rule: 0–6 months median $650,000 against 7–12 months $520,000 is +25 %', () => {
    const { trend } = conditionsOf();
    expect(trend.price.display).toBe('Increasing (+25.0 %)');
    expect(trend.count.display).toBe('Increasing (+66.7 %)');
    expect(recompute(trend.price.derivation!, trend.price.display)).toEqual({ kind: 'same' });
    expect(trend.pricePerSqft.status).toBe('unavailable');
    expect(trend.pricePerSqft.limitation).toMatch(/at least 3 are needed/);
  });

  it('leaves out screened, undated, later and out-of-area sales, and counts each reason', () => {
    const conditions = conditionsOf();
    expect(conditions.leftOut.map((entry) => entry.id).sort()).toEqual(['j', 'k', 'l', 'm', 'n']);
    expect(Object.fromEntries(conditions.leftOutCounts.map((row) => [row.why, row.count]))).toEqual({
      'After the effective date': 1,
      'Screened out: Non-market or no price': 1,
      'Screened out: Not arm’s length': 1,
      'No sale date': 1,
      'Outside the market area': 1,
    });
  });

  it('takes the screening as an input (issue 21’s multi-parcel screen plugs in here)', () => {
    const multiParcel = (s: ComparableSale) => (s.id === 'g' ? 'Multi-parcel sale' : defaultScreenedOut(s));
    const conditions = conditionsOf(SALES, { screenedOut: multiParcel });
    expect(conditions.periods[2]!.count.display).toBe('2');
    expect(conditions.periods[2]!.medianPrice.display).toBe('$520,000');
    expect(conditions.leftOutCounts).toContainEqual({ why: 'Screened out: Multi-parcel sale', count: 1 });
  });

  it('leaves out, by default, a sale Plat screened as multi-parcel, whatever its first screen is', () => {
    const screens: ComparableSale['screens'] = [
      { flag: 'outside_area_band', reason: 'size', note: 'Outside the size band.' },
      { flag: 'multi_parcel', reason: 'multi_parcel', note: 'Multi-parcel sale: one deed with 1719 CORCORAN ST NW.' },
    ];
    const withDeed = SALES.map((s) => (s.id === 'g' ? { ...s, screens } : s));
    const conditions = conditionsOf(withDeed);
    expect(conditions.periods[2]!.count.display).toBe('2');
    expect(conditions.leftOutCounts).toContainEqual({ why: 'Screened out: Multi-parcel sale: one deed with 1719 CORCORAN ST NW.', count: 1 });
    // The size band narrows the comps, not the market: a sale outside it alone is counted.
    const sizeOnly = conditionsOf(SALES.map((s) => (s.id === 'g' ? { ...s, screens: [screens[0]!] } : s)));
    expect(sizeOnly.periods[2]!.count.display).toBe('3');
  });

  it('says when the sales read do not reach back over a period, and what the records cannot say', () => {
    const conditions = conditionsOf(SALES, { monthsRead: 12 });
    expect(conditions.periods.map((period) => period.covered)).toEqual([true, true, true, false]);
    expect(conditions.notes[0]).toMatch(/widen the search’s period to 24 months/);
    expect(conditions.notAvailable[0]).toEqual({ line: 'Total # of comparable active listings', why: 'Listings and inventory are not in the records: not available.' });
  });

  it('still cites a period without a sale to the sales read, and says a median of none is not available', () => {
    const conditions = conditionsOf(SALES.filter((s) => s.id !== 'i'));
    const context = conditions.periods[3]!;
    expect(context.count.display).toBe('0');
    expect(context.count.status).toBe('derived');
    expect(context.medianPrice.status).toBe('unavailable');
  });
});
