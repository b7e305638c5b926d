import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import subjectFixture from '../report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import { analyzeComparables } from './analysis.ts';
import defaultSearch1708 from './fixtures/dc-1708-comps-default-2017-02-01.json' with { type: 'json' };
import { DEFAULT_CRITERIA, emptyComparablesWorkfile, type ComparablesWorkfile } from './model.ts';
import { regressionSupport } from './regression.ts';
import { suggestionCounts, suggestionMayBeUsed } from './regression-standing.ts';
import { comparableSale, comps2016Run, guardrailSales, type SaleSpec } from './test-kit.ts';

const EFFECTIVE = '2017-01-01';

// Twelve sales priced 100,000 + 150·GLA + 10,000·bedrooms − 2,000·months since sale + a fixed noise
// (months = days to 2017-01-01 ÷ 30.4375), rounded to whole dollars. Baths, age, grade and condition
// are not in this sample.
const rows: Array<[gla: number, bedrooms: number, saleDate: string, price: number]> = [
  [1_800, 3, '2016-01-15', 388_871],
  [2_100, 3, '2016-02-20', 416_236],
  [2_400, 4, '2016-03-10', 485_485],
  [1_650, 2, '2016-04-05', 334_693],
  [2_900, 5, '2016-05-25', 579_478],
  [2_250, 4, '2016-06-14', 460_293],
  [3_100, 5, '2016-07-01', 591_910],
  [1_950, 3, '2016-08-19', 420_629],
  [2_600, 4, '2016-09-09', 516_509],
  [2_000, 2, '2016-10-28', 429_729],
  [2_750, 4, '2016-11-15', 546_412],
  [3_300, 6, '2016-12-06', 655_292],
];
const sale = (index: number, patch: Partial<SaleSpec> = {}) => {
  const [gla, bedrooms, saleDate, priceDollars] = rows[index] ?? [0, 0, '', 0];
  return comparableSale({ id: `s${index + 1}`, address: `${100 + index} P ST NW`, gla, bedrooms, saleDate, priceDollars, yearBuilt: null, fullBaths: null, synthetic: false, ...patch });
};
const twelve = rows.map((_, index) => sale(index));

// The same fit computed independently (numpy.linalg.lstsq, scipy.stats.t.ppf(0.975, 8)) and checked by hand.
const REFERENCE = {
  gla: { coefficient: 132.7796844885435, stdError: 21.704419438409907, low: 82.72920351136457, high: 182.83016546572242 },
  bedrooms: { coefficient: 15_810.622612549225, stdError: 8_634.089460019488, low: -4_099.623385978419, high: 35_720.86861107687 },
  months: { coefficient: -2_898.002149968297, stdError: 1_190.147411643445 },
  meanPrice: 485_461.4166666667,
  r2: 0.9910097199885594,
  adjustedR2: 0.9876383649842692,
};

describe('regressionSupport', () => {
  it('estimates the rates of a hand-checked dataset with their 95 % confidence intervals', () => {
    const support = regressionSupport(twelve, EFFECTIVE);
    expect(support.message).toBeNull();
    expect(support.n).toBe(12);
    expect(support.predictors).toEqual(['glaPerSqft', 'timePctPerMonth', 'perBedroom']);
    expect(support.r2).toBeCloseTo(REFERENCE.r2, 9);
    expect(support.adjustedR2).toBeCloseTo(REFERENCE.adjustedR2, 9);

    const gla = support.suggestions.glaPerSqft;
    expect(gla.coefficient).toBeCloseTo(REFERENCE.gla.coefficient, 6);
    expect(gla.stdError).toBeCloseTo(REFERENCE.gla.stdError, 6);
    expect([gla.value, gla.ciLow, gla.ciHigh]).toEqual([133, 83, 183]);
    // The true 150 $/sq ft lies inside the interval.
    expect(gla.ciLow ?? Infinity).toBeLessThan(150);
    expect(gla.ciHigh ?? -Infinity).toBeGreaterThan(150);

    const bedrooms = support.suggestions.perBedroom;
    expect(bedrooms.coefficient).toBeCloseTo(REFERENCE.bedrooms.coefficient, 4);
    expect(bedrooms.stdError).toBeCloseTo(REFERENCE.bedrooms.stdError, 4);
    expect([bedrooms.value, bedrooms.ciLow, bedrooms.ciHigh]).toEqual([15_811, -4_100, 35_721]);

    // Time: −coefficient of months ÷ mean price × 100; the sign flip swaps the interval's ends.
    const time = support.suggestions.timePctPerMonth;
    expect(time.coefficient).toBeCloseTo(REFERENCE.months.coefficient, 5);
    expect(time.value).toBe(0.6);
    expect([time.ciLow, time.ciHigh]).toEqual([0.03, 1.16]);
    expect((-REFERENCE.months.coefficient / REFERENCE.meanPrice) * 100).toBeCloseTo(0.597, 3);
  });

  it('says why each rate without a suggestion has none', () => {
    const { suggestions } = regressionSupport(twelve, EFFECTIVE);
    expect(suggestions.perBath).toMatchObject({ value: null, why: 'Baths (half baths count ½) is not in the sample for 12 of 12 sales: left out of the regression rather than leaving out those sales.' });
    expect(suggestions.perYearOfAge.why).toBe('Age (years) is not in the sample for 12 of 12 sales: left out of the regression rather than leaving out those sales.');
    expect(suggestions.perGradeStep.value).toBeNull();
  });

  it('leaves out a predictor that does not vary across the sales', () => {
    const sameCondition = rows.map((_, index) => sale(index, { condition: 'Good' }));
    const support = regressionSupport(sameCondition, EFFECTIVE);
    expect(support.predictors).not.toContain('perConditionStep');
    expect(support.suggestions.perConditionStep).toMatchObject({ value: null, why: 'All 12 sales have condition step = 3: nothing to estimate it from.' });
    expect(support.suggestions.glaPerSqft.coefficient).toBeCloseTo(REFERENCE.gla.coefficient, 6);
  });

  it('leaves out a predictor the others fix exactly, naming them', () => {
    // Every sale has one bath fewer than bedrooms: their effects cannot be told apart.
    const tied = rows.map(([, bedrooms], index) => sale(index, { fullBaths: bedrooms - 1 }));
    const support = regressionSupport(tied, EFFECTIVE);
    expect(support.predictors).toEqual(['glaPerSqft', 'timePctPerMonth', 'perBath']);
    expect(support.suggestions.perBedroom.why).toBe('In these 12 sales bedrooms is fixed by gross living area (sq ft), months since sale, baths (half baths count ½): its own effect cannot be told apart.');
    // Baths are bedrooms − 1 here: the bath coefficient carries the bedroom effect.
    expect(support.suggestions.perBath.coefficient).toBeCloseTo(REFERENCE.bedrooms.coefficient, 4);
  });

  it('lists the sales it cannot use with the reason, and cites the ones it used', () => {
    const others = [
      comparableSale({ id: 'x1', address: '1 Q ST NW', saleDate: '2016-05-01', priceDollars: 0, gla: 2_000, bedrooms: 3, synthetic: false }),
      comparableSale({ id: 'x2', address: '2 Q ST NW', saleDate: null, priceDollars: 900_000, gla: 2_000, bedrooms: 3, synthetic: false }),
      // One sale in thirteen without living area, another without bedrooms: each costs its sale, not the predictor.
      comparableSale({ id: 'x3', address: '3 Q ST NW', saleDate: '2016-05-01', priceDollars: 900_000, gla: null, bedrooms: 3, synthetic: false }),
      comparableSale({ id: 'x4', address: '4 Q ST NW', saleDate: '2016-05-01', priceDollars: 900_000, gla: 2_000, bedrooms: null, synthetic: false }),
    ];
    const support = regressionSupport([...twelve, ...others], EFFECTIVE);
    expect(support.excluded).toEqual([
      { id: 'x1', address: '1 Q ST NW', why: 'not arm’s length; sale price $0 (non-market or no price)' },
      { id: 'x2', address: '2 Q ST NW', why: 'no sale date' },
      { id: 'x3', address: '3 Q ST NW', why: 'gross living area (sq ft) not in the sample' },
      { id: 'x4', address: '4 Q ST NW', why: 'bedrooms not in the sample' },
    ]);
    expect(support.n).toBe(12);
    expect(support.suggestions.perBedroom.coefficient).toBeCloseTo(REFERENCE.bedrooms.coefficient, 4);
    expect(support.salesUsed[0]).toEqual({ id: 's1', address: '100 P ST NW', priceDollars: 388_871, saleDate: '2016-01-15', citationIds: twelve[0]?.values.salePrice.citationIds });
    expect(support.salesUsed.every((used) => used.citationIds.length > 0)).toBe(true);
  });

  it('says how many sales it needs when there are too few, and suggests nothing', () => {
    const support = regressionSupport(twelve.slice(0, 5), EFFECTIVE);
    expect(support.message).toBe('5 usable sales: at least 6 are needed to estimate even one rate. Widen the search to get more sales.');
    expect(support.n).toBe(0);
    expect(support.salesUsed).toEqual([]);
    expect(Object.values(support.suggestions).every((suggestion) => suggestion.value === null)).toBe(true);
    expect(support.suggestions.glaPerSqft.why).toBe(support.message);
    expect(support.suggestions.perBath.why).toContain('not in the sample for 5 of 5 sales');
  });

  it('fits the first predictors the sales can support and says why the others are not estimated', () => {
    const support = regressionSupport(twelve.slice(0, 7), EFFECTIVE);
    expect(support.message).toBeNull();
    expect(support.n).toBe(7);
    expect(support.predictors).toEqual(['glaPerSqft', 'timePctPerMonth']);
    expect(support.suggestions.glaPerSqft.value).not.toBeNull();
    expect(support.suggestions.perBedroom.value).toBeNull();
    expect(support.suggestions.perBedroom.why).toBe(
      'Not estimated: 7 usable sales support at most 2 predictors (5 more sales than predictors are needed); gross living area (sq ft), months since sale came first. Widen the search to estimate it.',
    );
  });

  it('explains an empty search and an effective date that is not a date', () => {
    expect(regressionSupport([], EFFECTIVE).message).toBe('The search returned no sales: nothing to compute adjustment support from.');
    expect(regressionSupport(twelve, '2017-02-30').message).toBe('The effective date "2017-02-30" is not a calendar date: set it in the assignment to compute adjustment support.');
  });

  it('names the method and the libraries in words', () => {
    const { method } = regressionSupport(twelve, EFFECTIVE);
    expect(method).toContain('Ordinary least squares of sale price on gross living area (sq ft), months since sale, bedrooms, with an intercept, over 12 arm’s-length dated sales');
    expect(method).toContain('ml-regression-multivariate-linear');
    expect(method).toContain('jStat');
    expect(method).toContain('8 degrees of freedom, t = 2.306');
    expect(method).toContain('mean sale price $485,461');
  });
});

const thirty = guardrailSales();
const copiedThirty = thirty.map((sale) => ({
  ...sale,
  values: { ...sale.values, gla: { ...sale.values.gla, status: 'synthetic' as const }, bedrooms: { ...sale.values.bedrooms, status: 'synthetic' as const } },
}));
const wholeGrid = (rows: Array<'gla' | 'bedrooms' | 'baths' | 'actualAge' | 'quality' | 'condition'>, reason = 'Copied records checked against the MLS sheets.') => ({
  syntheticAccepted: rows.map((row) => ({ row, compId: null, reason, at: '2026-11-27T21:30:00Z' })),
});

describe('regression guardrails', () => {
  it('offers a suggestion with enough sales, the expected sign, an interval clear of zero and observed predictors', () => {
    const support = regressionSupport(thirty, EFFECTIVE);
    expect(support.n).toBe(30);
    expect(support.suggestions.glaPerSqft).toMatchObject({ value: 148, ciLow: 137, ciHigh: 158 });
    expect(support.suggestions.glaPerSqft.standing).toEqual({ supported: true, expectedSign: 'positive: more living area is worth more', reasons: [] });
  });

  it('shows an estimate against the expected sign as not supported, saying the sign expected', () => {
    const bedrooms = regressionSupport(thirty, EFFECTIVE).suggestions.perBedroom;
    expect(bedrooms).toMatchObject({ value: -29_983, ciLow: -34_010, ciHigh: -25_956 });
    expect(bedrooms.standing.supported).toBe(false);
    expect(bedrooms.standing.reasons).toEqual([
      'Against the expected sign: the estimate is negative, and the expected sign is positive: another bedroom is worth more.',
    ]);
  });

  it('shows an estimate whose interval straddles zero as not supported', () => {
    const time = regressionSupport(thirty, EFFECTIVE).suggestions.timePctPerMonth;
    expect(time).toMatchObject({ value: 0.08, ciLow: -0.3, ciHigh: 0.46 });
    expect(time.standing).toEqual({
      supported: false,
      expectedSign: 'either sign: a market may rise or fall',
      reasons: ['The 95 % confidence interval straddles zero: the sales do not tell whether the feature adds value or takes it away.'],
    });
  });

  it('shows every estimate of too few sales beyond the predictors as not supported', () => {
    // Twelve sales, three predictors and the intercept: 8 degrees of freedom.
    const gla = regressionSupport(twelve, EFFECTIVE).suggestions.glaPerSqft;
    expect(gla.value).toBe(133);
    expect(gla.standing.reasons).toEqual(['Too few sales: 12 sales for 3 predictors and the intercept leave 8 degrees of freedom; at least 10 are needed.']);
  });

  it('treats a copied value as missing unless the appraiser accepted copied values for the row', () => {
    const support = regressionSupport(copiedThirty, EFFECTIVE);
    expect(support.predictors).toEqual(['timePctPerMonth']);
    expect(support.suggestions.glaPerSqft).toMatchObject({ value: null, standing: { supported: false } });
    expect(support.suggestions.glaPerSqft.why).toBe(
      'Gross living area (sq ft) is copied from another house on 30 of 30 sales: left out of the regression rather than leaving out those sales (a copied value drives no numbers unless the appraiser accepts copied values for the row).',
    );
    expect(support.method).toContain('Observed on the sales themselves: months since sale.');
    expect(support.method).toContain('No copied (synthetic) value drives the fit.');
    expect(support.method).toContain('Left out: gross living area (sq ft) (copied from another house on 30 of 30 sales); ');
    expect(support.analyzed[0]?.values.glaPerSqft).toEqual({ value: 1_500, source: 'copied' });
    expect(support.analyzed[0]?.values.timePctPerMonth.source).toBe('observed');
  });

  it('fits copied values the appraiser accepted, says so in the method, and never calls their rates supported', () => {
    const support = regressionSupport(copiedThirty, EFFECTIVE, { workfile: wholeGrid(['gla']) });
    expect(support.predictors).toEqual(['glaPerSqft', 'timePctPerMonth']);
    expect(support.method).toContain(
      'Copied from other houses and accepted: gross living area (sq ft) on 30 of 30 sales, accepted by the appraiser (for the whole grid: “Copied records checked against the MLS sheets.”).',
    );
    expect(support.method).toContain('bedrooms (copied from another house on 30 of 30 sales)');
    const gla = support.suggestions.glaPerSqft;
    expect(gla.value).not.toBeNull();
    expect(gla.standing.supported).toBe(false);
    expect(gla.standing.reasons).toContain('Not observed on the sales: 30 of the 30 values of gross living area are copied from another house (accepted by the appraiser).');
    expect(support.suggestions.timePctPerMonth.standing.reasons).toContain('The fit also rests on copied values (accepted by the appraiser) of gross living area (30 of 30).');
    expect(support.analyzed[0]?.values.glaPerSqft).toEqual({ value: 1_500, source: 'copied-accepted' });
  });

  it('keeps sales Plat screened out of the fit with the reason, unless the appraiser took one in', () => {
    const multiParcel = (sale: { id: string }) => (sale.id === 't1' || sale.id === 't2' ? 'multi-parcel sale: the same date and price on 1719 T ST NW' : null);
    const screened = regressionSupport(thirty, EFFECTIVE, { excludedBy: multiParcel });
    expect(screened.n).toBe(28);
    expect(screened.excluded).toEqual([
      { id: 't1', address: '200 T ST NW', why: 'screened out by Plat: multi-parcel sale: the same date and price on 1719 T ST NW' },
      { id: 't2', address: '201 T ST NW', why: 'screened out by Plat: multi-parcel sale: the same date and price on 1719 T ST NW' },
    ]);
    expect(screened.analyzed.find((sale) => sale.id === 't1')).toMatchObject({ used: false, why: expect.stringContaining('multi-parcel') });
    const takenIn = regressionSupport(thirty, EFFECTIVE, { excludedBy: multiParcel, workfile: { takenIn: { t2: { reason: 'Verified: one house, two lots.', at: '2026-11-27T21:40:00Z' } } } });
    expect(takenIn.n).toBe(29);
    expect(takenIn.excluded.map((sale) => sale.id)).toEqual(['t1']);
    expect(takenIn.analyzed.find((sale) => sale.id === 't2')).toMatchObject({ used: true, takenIn: 'Verified: one house, two lots.' });
    expect(takenIn.method).toContain('Screened out by Plat and taken in: 201 T ST NW (multi-parcel sale: the same date and price on 1719 T ST NW; taken in by the appraiser: Verified: one house, two lots.).');
  });
});

describe('1708 21st St NW, the default search for 2017-02-01 (issue 21)', () => {
  const analyze = (patch: Partial<ComparablesWorkfile> = {}) => {
    const workfile: ComparablesWorkfile = {
      ...emptyComparablesWorkfile(),
      searches: [comps2016Run({ criteria: DEFAULT_CRITERIA, effectiveDate: '2017-02-01', pages: [defaultSearch1708.request] })],
      ...patch,
    };
    return { workfile, support: analyzeComparables({ subjectEnvelope: subjectFixture.subject, pages: [defaultSearch1708.envelope], workfile, effectiveDate: '2017-02-01' }, new CitationBook()).support };
  };

  it('fits no copied characteristic: the nine sales suggest no bath rate at all', () => {
    const { support } = analyze();
    expect(support.n).toBe(9);
    expect(support.predictors).toEqual(['timePctPerMonth']);
    expect(support.suggestions.perBath.value).toBeNull();
    expect(support.suggestions.perBath.why).toContain('copied from another house on 9 of 9 sales');
  });

  it('with the copied values accepted, shows −$249,052 per bath as not supported, with every reason, and does not let it be used without a reason', () => {
    const { support, workfile } = analyze(wholeGrid(['gla', 'bedrooms', 'baths', 'actualAge', 'quality', 'condition']));
    const bath = support.suggestions.perBath;
    expect(bath).toMatchObject({ value: -249_052, ciLow: -614_031, ciHigh: 115_927 });
    expect(bath.standing.supported).toBe(false);
    expect(bath.standing.reasons).toEqual([
      'Too few sales: 9 sales for 4 predictors and the intercept leave 4 degrees of freedom; at least 10 are needed.',
      'Against the expected sign: the estimate is negative, and the expected sign is positive: another bath is worth more.',
      'The 95 % confidence interval straddles zero: the sales do not tell whether the feature adds value or takes it away.',
      'Not observed on the sales: 9 of the 9 values of bathrooms are copied from another house (accepted by the appraiser).',
      'The fit also rests on copied values (accepted by the appraiser) of gross living area (9 of 9), actual age (9 of 9).',
    ]);
    expect(suggestionMayBeUsed(bath, workfile)).toBe(false);
    expect(suggestionMayBeUsed(bath, { unsupportedRateReasons: { perBath: { reason: 'Paired sales on the block agree.', at: '2026-11-27T21:50:00Z' } } })).toBe(true);
    expect(Object.values(support.suggestions).some((suggestion) => suggestion.standing.supported)).toBe(false);
  });
});

describe('suggestionCounts', () => {
  it('counts the estimates offered and those shown as not supported', () => {
    expect(suggestionCounts(regressionSupport(guardrailSales(), EFFECTIVE).suggestions)).toEqual({ offered: 1, notSupported: 2 });
    expect(suggestionCounts(regressionSupport([], EFFECTIVE).suggestions)).toEqual({ offered: 0, notSupported: 0 });
  });
});
