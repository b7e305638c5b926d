import { describe, expect, it } from 'vitest';
import { regressionSupport } from './regression.ts';
import { comparableSale, type SaleSpec } from './test-kit.ts';

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
  return comparableSale({ id: `s${index + 1}`, address: `${100 + index} P ST NW`, gla, bedrooms, saleDate, priceDollars, yearBuilt: null, fullBaths: null, ...patch });
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
      comparableSale({ id: 'x1', address: '1 Q ST NW', saleDate: '2016-05-01', priceDollars: 0, gla: 2_000, bedrooms: 3 }),
      comparableSale({ id: 'x2', address: '2 Q ST NW', saleDate: null, priceDollars: 900_000, gla: 2_000, bedrooms: 3 }),
      comparableSale({ id: 'x3', address: '3 Q ST NW', saleDate: '2016-05-01', priceDollars: 900_000, gla: null, bedrooms: 3 }),
      // One sale in thirteen without bedrooms costs that sale, not the predictor.
      comparableSale({ id: 'x4', address: '4 Q ST NW', saleDate: '2016-05-01', priceDollars: 900_000, gla: 2_000, bedrooms: null }),
    ];
    const support = regressionSupport([...twelve, ...others], EFFECTIVE);
    expect(support.excluded).toEqual([
      { id: 'x1', address: '1 Q ST NW', why: 'not arm’s length; sale price $0 (non-market or no price)' },
      { id: 'x2', address: '2 Q ST NW', why: 'no sale date' },
      { id: 'x3', address: '3 Q ST NW', why: 'no living area' },
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
