// Ordinary least squares with an intercept, the one place Plat fits it: the comparables' regression
// (shared/comparables/regression.ts) and the derivation rules Verify recomputes its figures with
// (shared/cited/derivation.ts) both call this, so a figure and its check cannot drift apart. The
// algebra is ml-regression-multivariate-linear's and the t quantile jStat's.
import MultivariateLinearRegression from 'ml-regression-multivariate-linear';
import jStat from 'jstat';

export const CONFIDENCE = 0.95;

export interface OlsFit {
  n: number;
  /** Predictors, the intercept not counted. */
  p: number;
  /** One per predictor, in the design's column order. */
  coefficients: number[];
  stdErrors: number[];
  intercept: number;
  interceptStdError: number;
  r2: number;
  adjustedR2: number;
  /** n − p − 1. */
  df: number;
  /** Student's t quantile for the two-sided 95 % interval at `df`. */
  t: number;
  meanResponse: number;
}

/** 1 − SSres/SStot of fitted values against observed ones (NaN when the response does not vary). */
export function rSquared(observed: readonly number[], fitted: readonly number[]): number {
  const mean = observed.reduce((sum, value) => sum + value, 0) / observed.length;
  let residual = 0;
  let total = 0;
  observed.forEach((value, index) => {
    residual += (value - (fitted[index] ?? Number.NaN)) ** 2;
    total += (value - mean) ** 2;
  });
  return total === 0 ? Number.NaN : 1 - residual / total;
}

/** The fit of y on the columns of x (rows are observations) with an intercept. */
export function olsFit(x: readonly (readonly number[])[], y: readonly number[]): OlsFit {
  const n = y.length;
  const p = x[0]?.length ?? 0;
  const rows = x.map((row) => [...row]);
  const model = new MultivariateLinearRegression(rows, y.map((value) => [value]), { intercept: true, statistics: true });
  const fitted = model.predict(rows).map((row) => row[0] ?? Number.NaN);
  const r2 = rSquared(y, fitted);
  const df = n - p - 1;
  // The library puts the intercept's row last.
  return {
    n,
    p,
    coefficients: Array.from({ length: p }, (_, index) => model.weights[index]?.[0] ?? Number.NaN),
    stdErrors: Array.from({ length: p }, (_, index) => model.stdErrors[index] ?? Number.NaN),
    intercept: model.weights[p]?.[0] ?? Number.NaN,
    interceptStdError: model.stdErrors[p] ?? Number.NaN,
    r2,
    adjustedR2: 1 - ((1 - r2) * (n - 1)) / df,
    df,
    t: df > 0 ? jStat.studentt.inv(1 - (1 - CONFIDENCE) / 2, df) : Number.NaN,
    meanResponse: y.reduce((sum, value) => sum + value, 0) / n,
  };
}

/** R² of one column explained by the others (with an intercept): near 1 means it adds nothing of its own. */
export function explainedByOthers(columns: readonly (readonly number[])[], index: number): number {
  const rows = columns[0]?.length ?? 0;
  const others = columns.filter((_, column) => column !== index);
  const target = columns[index] ?? [];
  const x = Array.from({ length: rows }, (_, row) => others.map((column) => column[row] ?? Number.NaN));
  const model = new MultivariateLinearRegression(x, target.map((value) => [value]), { intercept: true, statistics: false });
  return rSquared(target, model.predict(x).map((row) => row[0] ?? Number.NaN));
}

/**
 * How a coefficient becomes a rate in the grid's sense: `dollars` as it is (dollars per unit),
 * `negated-dollars` for age (older worth less reads as a positive rate), `percent-of-mean` for time
 * (−coefficient ÷ the mean price × 100, % per month).
 */
export const rateScales = ['dollars', 'negated-dollars', 'percent-of-mean'] as const;
export type RateScale = (typeof rateScales)[number];

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor)) / factor;
  return rounded === 0 ? 0 : rounded;
};

/**
 * A coefficient and its interval in the rate's unit and sign, rounded as an appraiser writes a rate
 * (whole dollars; hundredths of a percent for time). A sign flip swaps the interval's ends.
 */
export function rateEstimate(scale: RateScale, coefficient: number, stdError: number, t: number, meanResponse: number) {
  const low = coefficient - t * stdError;
  const high = coefficient + t * stdError;
  if (scale === 'percent-of-mean') {
    const toRate = (value: number) => round((-value / meanResponse) * 100, 2);
    return { value: toRate(coefficient), ciLow: toRate(high), ciHigh: toRate(low) };
  }
  if (scale === 'negated-dollars') return { value: round(-coefficient, 0), ciLow: round(-high, 0), ciHigh: round(-low, 0) };
  return { value: round(coefficient, 0), ciLow: round(low, 0), ciHigh: round(high, 0) };
}

/** A design as derivation inputs: n, p, the n × p predictors row by row, then the n responses. */
export function flattenDesign(x: readonly (readonly number[])[], y: readonly number[]): number[] {
  return [y.length, x[0]?.length ?? 0, ...x.flat(), ...y];
}

/** The design back from `flattenDesign`'s numbers, or null when they are not one (wrong shape, not finite). */
export function readDesign(inputs: readonly (number | string)[]): { x: number[][]; y: number[] } | null {
  const [n, p] = inputs;
  if (typeof n !== 'number' || typeof p !== 'number' || !Number.isInteger(n) || !Number.isInteger(p) || n < 1 || p < 1) return null;
  if (inputs.length !== 2 + n * p + n) return null;
  const numbers = inputs.slice(2);
  if (!numbers.every((value): value is number => typeof value === 'number' && Number.isFinite(value))) return null;
  const x = Array.from({ length: n }, (_, row) => numbers.slice(row * p, row * p + p));
  return { x, y: numbers.slice(n * p) };
}
