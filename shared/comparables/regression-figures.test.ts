// The regression's figures are derived values Verify can recompute: n, R², each suggested rate and its
// interval refitted from the design (predictors and prices) kept with them, a changed figure caught.
import { describe, expect, it } from 'vitest';
import { recompute } from '../cited/derivation.ts';
import type { CitedValue } from '../cited/value.ts';
import { regressionSupport } from './regression.ts';
import { guardrailSales } from './test-kit.ts';

const support = regressionSupport(guardrailSales(), '2017-01-01');
const figures = support.figures!;
const check = (value: CitedValue, printed = value.display) => recompute(value.derivation!, printed);

describe('the regression’s figures as derived values', () => {
  it('prints n, R², each rate and its interval as derived values cited to the sales', () => {
    expect(figures.n).toMatchObject({ field: 'comparables.regression.n', display: '30', status: 'derived', derivation: { rule: 'ols-n' } });
    expect(figures.r2.display).toBe((support.r2 ?? 0).toFixed(3));
    expect(figures.rates.glaPerSqft?.value).toMatchObject({ display: '$148 per sq ft', status: 'derived', derivation: { rule: 'ols-rate' } });
    expect(figures.rates.glaPerSqft?.interval.display).toBe('$137 per sq ft to $158 per sq ft');
    expect(figures.rates.perBedroom?.value.display).toBe('−$29,983 per bedroom');
    expect(figures.rates.timePctPerMonth?.interval.display).toBe('−0.30 % per month to 0.46 % per month');
    const saleCitations = new Set(guardrailSales().flatMap((sale) => [...sale.values.salePrice.citationIds, ...sale.values.gla.citationIds]));
    expect(figures.rates.glaPerSqft?.value.citationIds.every((id) => saleCitations.has(id))).toBe(true);
    expect(figures.rates.glaPerSqft?.value.citationIds.length).toBeGreaterThan(0);
    // The design: n, p, then 30 × 3 predictors and 30 prices.
    expect(figures.n.derivation?.inputs).toHaveLength(2 + 30 * 3 + 30);
  });

  it('recomputes every figure from its inputs', () => {
    const all = [figures.n, figures.r2, ...Object.values(figures.rates).flatMap((rate) => [rate.value, rate.interval])];
    expect(all).toHaveLength(2 + 3 * 2);
    for (const value of all) expect(check(value)).toEqual({ kind: 'same' });
  });

  it('catches a changed figure, and a changed sale price', () => {
    expect(check(figures.rates.glaPerSqft!.value, '$160 per sq ft')).toEqual({ kind: 'differs', recomputed: '$148 per sq ft' });
    expect(check(figures.n, '31')).toEqual({ kind: 'differs', recomputed: '30' });
    const inputs = [...figures.rates.glaPerSqft!.value.derivation!.inputs];
    inputs[inputs.length - 1] = (inputs.at(-1) as number) + 900_000;
    expect(recompute({ rule: 'ols-rate', inputs }, '$148 per sq ft').kind).toBe('differs');
  });

  it('refuses inputs that are not a design', () => {
    expect(recompute({ rule: 'ols-n', inputs: [3, 1, 1, 2] }, '3')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'ols-rate', inputs: ['dollars', 'per sq ft', 5, ...figures.n.derivation!.inputs] }, '$1')).toEqual({ kind: 'bad-inputs' });
    expect(recompute({ rule: 'ols-rate', inputs: ['euros', 'per sq ft', 0, ...figures.n.derivation!.inputs] }, '$1')).toEqual({ kind: 'bad-inputs' });
  });
});
