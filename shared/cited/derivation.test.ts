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
