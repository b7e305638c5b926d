import { describe, expect, it } from 'vitest';
import { derive, recompute } from './derivation.ts';

describe('sum-of-dollars', () => {
  it('totals whole dollars and amounts published with cents, printed in whole dollars', () => {
    expect(derive({ rule: 'sum-of-dollars', inputs: [1_302_760, 1_301_760] })).toBe('$2,604,520');
    expect(derive({ rule: 'sum-of-dollars', inputs: [2_014_890, 18_402.5] })).toBe('$2,033,293');
  });

  it('says whether the printed value is the one its inputs make', () => {
    expect(recompute({ rule: 'sum-of-dollars', inputs: [18_402.5, 0.25] }, '$18,403')).toEqual({ kind: 'same' });
    expect(recompute({ rule: 'sum-of-dollars', inputs: [1, 2] }, '$4')).toEqual({ kind: 'differs', recomputed: '$3' });
  });

  it('refuses inputs that are not amounts, and a rule it does not know', () => {
    expect(recompute({ rule: 'sum-of-dollars', inputs: ['2014890.00'] }, '$2,014,890')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'sum-of-dollars', inputs: [] }, '$0')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'sum-of-dollars', inputs: [Number.MAX_VALUE, Number.MAX_VALUE] }, '$0')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'toString', inputs: [1] }, '1')).toEqual({ kind: 'unknown-rule' });
    expect(() => derive({ rule: 'sum-of-dollars', inputs: [] })).toThrow(/cannot derive/);
  });
});

describe('the sales comparison grid’s rules', () => {
  it('make each figure exactly as the grid prints it', () => {
    expect(derive({ rule: 'appraiser-rate', inputs: [150, '$ per sq ft'] })).toBe('$150 per sq ft');
    expect(derive({ rule: 'appraiser-rate', inputs: [-500, '$ per bath (half bath counts ½)'] })).toBe('−$500 per bath');
    expect(derive({ rule: 'appraiser-rate', inputs: [0.5, '% per month'] })).toBe('0.50 % per month');
    expect(derive({ rule: 'appraiser-adjustment', inputs: [-15_000] })).toBe('−$15,000');
    // (subject 2,400 − comp 3,042) sq ft × $150: −$96,300; a half dollar rounds away from zero.
    expect(derive({ rule: 'adjustment-rate-times-difference', inputs: [150, 2_400, 3_042] })).toBe('−$96,300');
    expect(derive({ rule: 'adjustment-rate-times-difference', inputs: [0.5, 2_401, 2_400] })).toBe('+$1');
    // $2,350,000 × 0.5 % per month × 348 days ÷ 30.4375.
    expect(derive({ rule: 'adjustment-time', inputs: [2_350_000, 0.5, 348] })).toBe('+$134,341');
    expect(derive({ rule: 'sum-of-adjustments', inputs: [134_341, -96_300, -25_000, 2_500, 10_000] })).toBe('+$25,541');
    expect(derive({ rule: 'sum-of-adjustments', inputs: [] })).toBe('$0');
    expect(derive({ rule: 'gross-of-adjustments', inputs: [134_341, -96_300, -25_000, 2_500, 10_000] })).toBe('$268,141');
    expect(derive({ rule: 'percent-of-price', inputs: [25_541, 2_350_000] })).toBe('1.1 %');
    expect(derive({ rule: 'percent-of-price', inputs: [-400_000, 2_350_000] })).toBe('−17.0 %');
    expect(derive({ rule: 'price-plus-net', inputs: [2_350_000, 25_541] })).toBe('$2,375,541');
    expect(derive({ rule: 'range-of-adjusted-prices', inputs: [2_375_541, 1_815_692] })).toBe('$1,815,692 to $2,375,541');
    expect(derive({ rule: 'appraiser-value', inputs: [1_900_000, 1_815_692, 2_375_541] })).toBe('$1,900,000');
  });

  it('catch a printed figure its inputs do not make', () => {
    expect(recompute({ rule: 'appraiser-value', inputs: [1_900_000, 1_815_692, 2_375_541] }, '$1,990,000')).toEqual({ kind: 'differs', recomputed: '$1,900,000' });
    expect(recompute({ rule: 'adjustment-rate-times-difference', inputs: [150, 2_400, 3_042] }, '+$96,300')).toEqual({ kind: 'differs', recomputed: '−$96,300' });
    expect(recompute({ rule: 'adjustment-time', inputs: [2_350_000, 0.5, 348] }, '+$134,341')).toEqual({ kind: 'same' });
    expect(recompute({ rule: 'price-plus-net', inputs: [2_350_000, 25_541] }, '$2,375,542')).toEqual({ kind: 'differs', recomputed: '$2,375,541' });
  });

  it('refuse inputs that are not theirs', () => {
    expect(recompute({ rule: 'appraiser-rate', inputs: [150, 'perAcre'] }, '$150')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'appraiser-rate', inputs: [150] }, '$150')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'adjustment-rate-times-difference', inputs: [150, 2_400] }, '$0')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'percent-of-price', inputs: [1_000, 0] }, '0.0 %')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'range-of-adjusted-prices', inputs: [] }, '')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'appraiser-value', inputs: [1_900_000.5] }, '$1,900,001')).toEqual({ kind: 'bad-inputs' });
  });
});
