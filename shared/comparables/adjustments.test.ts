import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../format/number.ts';
import { computeGrid, daysBetween, formatAdjustment, monthsBetween, reconciliationProblems } from './adjustments.ts';
import { NO_RATES, gridRowKeys, manualRows, type AdjustmentRates, type GridResult } from './model.ts';
import { comparableSale, subjectProperty, workfileWith } from './test-kit.ts';

const EFFECTIVE = '2017-01-01';

// 1708 21st St NW as the test's subject (a row house of 1900), and three sales around it.
const subject = subjectProperty({ id: 'subject', address: '1708 21ST ST NW', gla: 2_400, bedrooms: 4, fullBaths: 3, halfBaths: 1, yearBuilt: 1900, grade: 'Very Good', condition: 'Good' });
const compA = comparableSale({
  id: 'a',
  address: '1714 21ST ST NW',
  saleDate: '2016-01-19',
  priceDollars: 2_350_000,
  gla: 3_042,
  bedrooms: 4,
  fullBaths: 3,
  halfBaths: 1,
  yearBuilt: 1895,
  grade: 'Very Good',
  condition: 'Very Good',
});
const compB = comparableSale({
  id: 'b',
  address: '2009 R ST NW',
  saleDate: '2016-09-28',
  priceDollars: 1_736_000,
  gla: 2_016,
  bedrooms: 4,
  fullBaths: 3,
  halfBaths: 1,
  yearBuilt: 1910,
  grade: 'Very Good',
  condition: 'Good',
});
const compC = comparableSale({
  id: 'c',
  address: '1623 19TH ST NW',
  saleDate: null,
  priceDollars: 1_330_000,
  gla: null,
  bedrooms: 3,
  fullBaths: 2,
  halfBaths: 2,
  yearBuilt: 1905,
  grade: 'Good Quality',
  condition: 'Good',
});

const rates: AdjustmentRates = {
  timePctPerMonth: 0.5,
  glaPerSqft: 150,
  perBedroom: 10_000,
  perBath: 5_000,
  perYearOfAge: 500,
  perGradeStep: 50_000,
  perConditionStep: 25_000,
};

// The sales' characteristics are copied (synthetic) in the sample: these tests accept them for the
// whole grid, as the appraiser would with a reason, so the arithmetic is the same as with reported values.
const acceptAll = gridRowKeys.map((row) => ({ row, compId: null, reason: 'Checked against the listing.', at: '2026-11-27T20:00:00Z' }));

const grid = (overrides: { rates?: Partial<AdjustmentRates>; comps?: typeof compA[]; weights?: Record<string, 'most' | 'less' | 'none'> } = {}): GridResult =>
  computeGrid({
    subject,
    comps: overrides.comps ?? [compA, compB, compC],
    rates: { ...rates, ...overrides.rates },
    manual: { a: { site: 10_000 } },
    weights: overrides.weights ?? { a: 'most', c: 'none' },
    effectiveDate: EFFECTIVE,
    syntheticAccepted: acceptAll,
  });

describe('monthsBetween', () => {
  it('counts days from the sale to the effective date in average months of 365.25 / 12 days', () => {
    expect(daysBetween('2016-01-19', EFFECTIVE)).toBe(348);
    expect(monthsBetween('2016-01-19', EFFECTIVE)).toBeCloseTo(348 / 30.4375, 12);
    // 2016 is a leap year: 366 days, a little over twelve average months.
    expect(monthsBetween('2016-01-01', '2017-01-01')).toBeCloseTo(12.0246, 4);
    expect(monthsBetween('2017-01-01', '2016-12-01')).toBeCloseTo(-31 / 30.4375, 12);
    expect(monthsBetween('2016-06-30T00:00:00Z', '2016-06-30')).toBe(0);
  });

  it('refuses a date that is not on the calendar, saying which', () => {
    expect(() => monthsBetween('2016-02-30', EFFECTIVE)).toThrow('"2016-02-30" is not a calendar date');
    expect(() => monthsBetween('2016-01-01', 'soon')).toThrow('"soon" is not a calendar date');
  });
});

describe('computeGrid', () => {
  it('adjusts a superior comp down and adds the rounded adjustments into net, gross and the adjusted price', () => {
    const a = grid().columns[0];
    // Time: 2,350,000 × 0.5 % × 348 / 30.4375 months = 134,340.86 → 134,341.
    expect(a?.adjustments).toEqual({ saleDate: 134_341, site: 10_000, quality: 0, actualAge: 2_500, condition: -25_000, bedrooms: 0, baths: 0, gla: -96_300 });
    expect(Object.keys(a?.adjustments ?? {})).toEqual(['saleDate', 'site', 'quality', 'actualAge', 'condition', 'bedrooms', 'baths', 'gla']);
    expect(a?.net).toBe(25_541);
    expect(a?.gross).toBe(268_141);
    expect(a?.netPct).toBe(1.1);
    expect(a?.grossPct).toBe(11.4);
    expect(a?.adjustedPrice).toBe(2_375_541);
    expect(a?.weight).toBe('most');
    expect(a?.warnings).toEqual([]);
  });

  it('adjusts an inferior comp up, and an age difference by the effective year', () => {
    const b = grid().columns[1];
    expect(b?.adjustments).toEqual({ saleDate: 27_092, quality: 0, actualAge: -5_000, condition: 0, bedrooms: 0, baths: 0, gla: 57_600 });
    expect(b?.net).toBe(79_692);
    expect(b?.gross).toBe(89_692);
    expect(b?.netPct).toBe(4.6);
    expect(b?.grossPct).toBe(5.2);
    expect(b?.adjustedPrice).toBe(1_815_692);
    expect(b?.weight).toBe('less');
  });

  it('skips what cannot be computed and names it: no sale date, a feature not in the sample', () => {
    const c = grid().columns[2];
    expect(c?.adjustments).toEqual({ quality: 50_000, actualAge: -2_500, condition: 0, bedrooms: 10_000, baths: 2_500 });
    expect(c?.net).toBe(60_000);
    expect(c?.gross).toBe(65_000);
    expect(c?.netPct).toBe(4.5);
    expect(c?.grossPct).toBe(4.9);
    expect(c?.warnings).toEqual([
      'No sale date: no market-conditions (time) adjustment.',
      'Area as published (gross living or building area): not in the sample for this comp, so no adjustment.',
    ]);
  });

  it('writes the workings in words with the numbers', () => {
    const [a, , c] = grid().columns;
    expect(a?.workings.gla).toBe('(subject 2,400 − comp 3,042) sq ft × $150 per sq ft = −$96,300');
    expect(a?.workings.saleDate).toBe('$2,350,000 × 0.50 % per month × 11.43 months (348 days ÷ 30.4375, 2016-01-19 to 2017-01-01) = +$134,341');
    expect(a?.workings.actualAge).toBe('(comp 122 − subject 117) years of age × $500 per year = +$2,500; age = 2017 − year built (comp 1895, subject 1900)');
    expect(a?.workings.condition).toBe('(subject 3 − comp 4) condition steps × $25,000 per condition step = −$25,000 (subject Good, comp Very Good)');
    expect(a?.workings.site).toBe('Lump sum entered by the appraiser: +$10,000');
    expect(c?.workings.baths).toBe('(subject 3.5 − comp 3) baths × $5,000 per bath = +$2,500');
  });

  it('leaves a row whose rate is null unadjusted, without a warning', () => {
    const [a, , c] = grid({ rates: { perBath: null, glaPerSqft: null, timePctPerMonth: null } }).columns;
    expect(a?.adjustments.baths).toBeUndefined();
    expect(a?.adjustments.gla).toBeUndefined();
    expect(a?.adjustments.saleDate).toBeUndefined();
    expect(a?.net).toBe(10_000 + 2_500 - 25_000);
    expect(c?.warnings).toEqual([]);
    const none = computeGrid({ subject, comps: [compA], rates: NO_RATES, manual: {}, weights: {}, effectiveDate: EFFECTIVE, syntheticAccepted: acceptAll }).columns[0];
    expect(none).toMatchObject({ adjustments: {}, net: 0, gross: 0, netPct: 0, grossPct: 0, adjustedPrice: 2_350_000, weight: 'less' });
  });

  it('rounds each adjustment half away from zero before adding, so a rate and its negation mirror', () => {
    const small = comparableSale({ ...{ id: 'd', address: '1 P ST NW', saleDate: '2016-12-01', priceDollars: 1_000_000 }, gla: 2_401 });
    const up = computeGrid({ subject, comps: [small], rates: { ...NO_RATES, glaPerSqft: 0.5 }, manual: {}, weights: {}, effectiveDate: EFFECTIVE, syntheticAccepted: acceptAll }).columns[0];
    const down = computeGrid({ subject, comps: [small], rates: { ...NO_RATES, glaPerSqft: -0.5 }, manual: {}, weights: {}, effectiveDate: EFFECTIVE, syntheticAccepted: acceptAll }).columns[0];
    expect(up?.adjustments.gla).toBe(-1);
    expect(down?.adjustments.gla).toBe(1);
  });

  it('gives a sale after the effective date a negative time adjustment and says so', () => {
    const late = comparableSale({ id: 'e', address: '2 P ST NW', saleDate: '2017-01-17', priceDollars: 1_000_000, gla: 2_400 });
    const column = computeGrid({ subject, comps: [late], rates: { ...NO_RATES, timePctPerMonth: 1 }, manual: {}, weights: {}, effectiveDate: EFFECTIVE, syntheticAccepted: acceptAll }).columns[0];
    // 1,000,000 × 1 % × −16 / 30.4375 = −5,256.67
    expect(column?.adjustments.saleDate).toBe(-5_257);
    expect(column?.warnings).toEqual(['Sold after the effective date (2017-01-01): the time adjustment runs backwards.']);
  });

  it('explains a price of 0 instead of dividing by it', () => {
    const zero = comparableSale({ id: 'f', address: '3 P ST NW', saleDate: '2016-05-01', priceDollars: 0, gla: 2_000 });
    const column = computeGrid({ subject, comps: [zero], rates: { ...NO_RATES, timePctPerMonth: 0.5, glaPerSqft: 100 }, manual: {}, weights: {}, effectiveDate: EFFECTIVE, syntheticAccepted: acceptAll }).columns[0];
    expect(column?.adjustments).toEqual({ gla: 40_000 });
    expect(column?.netPct).toBe(0);
    expect(column?.warnings[0]).toBe('Sale price is $0 (non-market or no price): no time adjustment, and net and gross cannot be a percent of it.');
  });

  it('says so when the effective date is not a date, and still adjusts the features', () => {
    const column = computeGrid({ subject, comps: [compA], rates, manual: {}, weights: {}, effectiveDate: '2017-13-01', syntheticAccepted: acceptAll }).columns[0];
    expect(column?.adjustments.saleDate).toBeUndefined();
    expect(column?.adjustments.actualAge).toBeUndefined();
    expect(column?.adjustments.gla).toBe(-96_300);
    expect(column?.warnings).toEqual([
      'The effective date "2017-13-01" is not a calendar date: no time adjustment.',
      'The effective date "2017-13-01" is not a calendar date: no age adjustment.',
    ]);
  });

  it('takes the adjusted range over the comps given weight, or over all when none has any', () => {
    expect(grid().adjustedRange).toEqual({ low: 1_815_692, high: 2_375_541, compIds: ['a', 'b'] });
    expect(grid({ weights: { a: 'none', b: 'none', c: 'none' } }).adjustedRange).toEqual({ low: 1_390_000, high: 2_375_541, compIds: ['a', 'b', 'c'] });
    expect(grid({ comps: [] })).toEqual({ columns: [], adjustedRange: null });
  });

  it('keeps net the sum of the adjustments and gross the sum of their sizes, whatever the rates and lump sums', () => {
    const rate = fc.option(fc.double({ min: -100_000, max: 100_000, noNaN: true }), { nil: null });
    const lumpSums = fc.dictionary(fc.constantFrom(...manualRows), fc.integer({ min: -1e6, max: 1e6 }));
    fc.assert(
      fc.property(
        fc.record({ timePctPerMonth: rate, glaPerSqft: rate, perBedroom: rate, perBath: rate, perYearOfAge: rate, perGradeStep: rate, perConditionStep: rate }),
        lumpSums,
        (someRates, manual) => {
          for (const column of computeGrid({ subject, comps: [compA, compB, compC], rates: someRates, manual: { b: manual }, weights: {}, effectiveDate: EFFECTIVE, syntheticAccepted: acceptAll }).columns) {
            const amounts = Object.values(column.adjustments);
            expect(amounts.every(Number.isInteger)).toBe(true);
            expect(column.net).toBe(amounts.reduce((sum, amount) => sum + amount, 0));
            expect(column.gross).toBe(amounts.reduce((sum, amount) => sum + Math.abs(amount), 0));
            const price = [compA, compB, compC].find((comp) => comp.id === column.compId)?.priceDollars ?? 0;
            expect(column.adjustedPrice).toBe(price + column.net);
            expect(Math.abs(column.netPct - (column.net / price) * 100)).toBeLessThanOrEqual(0.05 + 1e-9);
            expect(Object.keys(column.workings).sort()).toEqual(Object.keys(column.adjustments).sort());
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('copied characteristics', () => {
  const bedroomsOnly = { ...NO_RATES, perBedroom: 10_000 };
  // compC has 3 bedrooms to the subject's 4, copied from another house (synthetic) in the sample.
  const bedroomsGrid = (syntheticAccepted?: Array<{ row: 'bedrooms' | 'gla'; compId: string | null; reason: string; at: string }>) =>
    computeGrid({ subject, comps: [compB, compC], rates: bedroomsOnly, manual: {}, weights: {}, effectiveDate: EFFECTIVE, syntheticAccepted });

  it('drive no adjustment until the appraiser accepts them, and the comp says why', () => {
    const c = bedroomsGrid().columns[1]!;
    expect(c.adjustments).toEqual({});
    expect(c.net).toBe(0);
    expect(c.warnings).toEqual(['Bedrooms: copied from another house (synthetic) for this comp, not accepted: no adjustment.']);
  });

  it('drive the adjustment once accepted for that comp, and only that comp', () => {
    const accepted = bedroomsGrid([{ row: 'bedrooms', compId: 'c', reason: 'Three bedrooms per the 2016 listing.', at: '2026-11-27T20:00:00Z' }]);
    expect(accepted.columns[1]!.adjustments).toEqual({ bedrooms: 10_000 });
    expect(accepted.columns[1]!.warnings).toEqual([]);
    expect(accepted.columns[0]!.warnings).toEqual(['Bedrooms: copied from another house (synthetic) for this comp, not accepted: no adjustment.']);
  });

  it('drive every comp’s adjustment once accepted for the whole grid; another row stays blocked', () => {
    const accepted = bedroomsGrid([{ row: 'bedrooms', compId: null, reason: 'Bedroom counts checked against listings.', at: '2026-11-27T20:00:00Z' }]);
    expect(accepted.columns.map((column) => column.adjustments)).toEqual([{ bedrooms: 0 }, { bedrooms: 10_000 }]);
    expect(accepted.columns.map((column) => column.adjustedPrice)).toEqual([1_736_000, 1_340_000]);
    const glaOnly = computeGrid({ subject, comps: [compB], rates: { ...NO_RATES, glaPerSqft: 150 }, manual: {}, weights: {}, effectiveDate: EFFECTIVE, syntheticAccepted: [{ row: 'bedrooms', compId: null, reason: 'r', at: 'now' }] });
    expect(glaOnly.columns[0]!.warnings).toEqual(['Gross living area: copied from another house (synthetic) for this comp, not accepted: no adjustment.']);
  });

  it('name the subject too when its value is copied', () => {
    const copiedSubject = subjectProperty({ id: 'subject', address: '1708 21ST ST NW', bedrooms: 4, synthetic: true });
    const column = computeGrid({ subject: copiedSubject, comps: [compC], rates: bedroomsOnly, manual: {}, weights: {}, effectiveDate: EFFECTIVE }).columns[0]!;
    expect(column.warnings).toEqual(['Bedrooms: copied from another house (synthetic) for the subject and this comp, not accepted: no adjustment.']);
  });
});

describe('formatAdjustment and formatNumber', () => {
  it('signs adjustments as the grid prints them', () => {
    expect(formatAdjustment(52_313)).toBe('+$52,313');
    expect(formatAdjustment(-201_300)).toBe('−$201,300');
    expect(formatAdjustment(0)).toBe('$0');
    expect(formatAdjustment(1_000_000_000)).toBe('+$1,000,000,000');
  });

  it('groups digits exactly as Intl does for en-US, with two decimals at most', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
    // Three decimals ending in 5 test the rounding (717.045 → 717.05, as Intl rounds its decimal form).
    const thousandths = fc.integer({ min: -1e8, max: 1e8 }).map((value) => value / 1000);
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1e10, max: 1e10 }), fc.double({ min: -1e9, max: 1e9, noNaN: true }), thousandths), (value) => {
        // Intl writes "-0" for a negative that rounds to nothing; the grid writes 0.
        expect(formatNumber(value)).toBe(intl.format(value).replace(/^-0$/, '0').replace('-', '−'));
      }),
      { numRuns: 2_000 },
    );
    expect(formatNumber(-0.001)).toBe('0');
    expect(formatNumber(1_234.5)).toBe('1,234.5');
    expect(formatNumber(0.05)).toBe('0.05');
    expect(formatNumber(717.045)).toBe('717.05');
    expect(formatNumber(-4_295.995)).toBe('−4,296');
  });
});

describe('reconciliationProblems', () => {
  const complete = workfileWith({ reconciliation: { indicatedValueDollars: 2_000_000, comment: 'Most weight to comp 1, the closest and most similar.' } });

  it('has nothing to say about a complete reconciliation inside the range', () => {
    expect(reconciliationProblems(complete, grid())).toEqual([]);
  });

  it('requires the indicated value and the comment', () => {
    const problems = reconciliationProblems(workfileWith({ reconciliation: { indicatedValueDollars: null, comment: '   ' } }), grid());
    expect(problems).toEqual([
      'Enter the indicated value by the sales comparison approach.',
      'Say how you reconciled the adjusted prices into the indicated value (which comps weighed most, and why): the comment is required.',
    ]);
  });

  it('warns when the indicated value is outside the range of adjusted prices', () => {
    const problems = reconciliationProblems(workfileWith({ reconciliation: { indicatedValueDollars: 2_500_000, comment: 'Above the range.' } }), grid());
    expect(problems).toEqual(['The indicated value $2,500,000 is outside the range of adjusted prices ($1,815,692 to $2,375,541): say why in the comment.']);
  });

  it('names the comps past the net 15 % and gross 25 % guidelines, as guidelines', () => {
    const heavy = computeGrid({
      subject,
      comps: [compA, compB, compC],
      rates: NO_RATES,
      manual: { a: { site: -400_000 }, b: { site: 300_000, exterior: -200_000 } },
      weights: {},
      effectiveDate: EFFECTIVE,
      syntheticAccepted: acceptAll,
    });
    expect(heavy.columns.map((column) => [column.netPct, column.grossPct])).toEqual([[-17, 17], [5.8, 28.8], [0, 0]]);
    expect(reconciliationProblems(workfileWith({ reconciliation: { indicatedValueDollars: 1_950_000, comment: 'Explained.' } }), heavy)).toEqual([
      'Comp 1: net adjustment −17.0 % of the sale price is past the 15 % guideline (a review guideline, not a rule: explain it or reconsider the comp).',
      'Comp 2: gross adjustment 28.8 % of the sale price is past the 25 % guideline (a review guideline, not a rule: explain it or reconsider the comp).',
    ]);
  });

  it('asks for comps when the grid has none', () => {
    expect(reconciliationProblems(complete, grid({ comps: [] }))).toEqual(['No comparable sales are in the grid: choose the sales the indicated value rests on.']);
  });
});
