// Ordinary least squares of one response on one predictor, by the closed-form formulas (slope =
// Sxy / Sxx, its standard error from the residual variance), with a Student's t interval from jStat.
// The market trend and the rule Verify recomputes it with (shared/cited/derivation.ts) both call this,
// so the fitted rate is worked out in one place.
import jStat from 'jstat';

export interface SimpleFit {
  n: number;
  slope: number;
  intercept: number;
  /** Standard error of the slope. */
  slopeStdError: number;
  /** The slope's two-sided interval at `confidence`. */
  slopeLow: number;
  slopeHigh: number;
  r2: number;
  /** Residual degrees of freedom (n − 2). */
  df: number;
  /** For the fitted line's interval at any x: the residual standard error, the mean of x, Sxx and the t quantile. */
  residualSe: number;
  meanX: number;
  sxx: number;
  t: number;
}

/** The fitted line at x with its interval for the mean response (s·√(1/n + (x − x̄)²/Sxx), Student's t). */
export function lineAt(fit: SimpleFit, x: number): { y: number; low: number; high: number } {
  const y = fit.intercept + fit.slope * x;
  const half = fit.t * fit.residualSe * Math.sqrt(1 / fit.n + ((x - fit.meanX) * (x - fit.meanX)) / fit.sxx);
  return { y, low: y - half, high: y + half };
}

/** The fit, or null when it cannot be made (fewer than 3 points, or every x the same). */
export function fitSimpleOls(xs: readonly number[], ys: readonly number[], confidence = 0.95): SimpleFit | null {
  const n = xs.length;
  if (n !== ys.length || n < 3) return null;
  let sumX = 0;
  let sumY = 0;
  for (let i = 0; i < n; i++) {
    sumX += xs[i]!;
    sumY += ys[i]!;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - meanX;
    const dy = ys[i]! - meanY;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0)) return null;
  const slope = sxy / sxx;
  const intercept = meanY - slope * meanX;
  const df = n - 2;
  const sse = Math.max(0, syy - slope * sxy);
  const slopeStdError = Math.sqrt(sse / df / sxx);
  const t = jStat.studentt.inv(1 - (1 - confidence) / 2, df);
  const r2 = syy > 0 ? 1 - sse / syy : 1;
  return { n, slope, intercept, slopeStdError, slopeLow: slope - t * slopeStdError, slopeHigh: slope + t * slopeStdError, r2, df, residualSe: Math.sqrt(sse / df), meanX, sxx, t };
}

/** Days in an average month (365.25 / 12): months before the effective date are days ÷ this. */
export const DAYS_PER_MONTH = 365.25 / 12;

/**
 * The trend of log(price) on months before the effective date, as a percent per month forward in
 * time: a slope b per month *before* the date is a change of exp(−b) − 1 per month toward it.
 * Inputs are pairs (days before the effective date, price or price per sq ft), as Verify keeps them.
 */
export function logTrendPctPerMonth(daysBefore: readonly number[], amounts: readonly number[]): { pct: number; low: number; high: number; fit: SimpleFit } | null {
  if (amounts.some((amount) => !(amount > 0))) return null;
  const fit = fitSimpleOls(
    daysBefore.map((days) => days / DAYS_PER_MONTH),
    amounts.map((amount) => Math.log(amount)),
  );
  if (fit === null) return null;
  const pct = (slope: number) => (Math.exp(-slope) - 1) * 100;
  // The interval's ends swap: a steeper slope before the date is a steeper decline toward it.
  return { pct: pct(fit.slope), low: pct(fit.slopeHigh), high: pct(fit.slopeLow), fit };
}

/** The median (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
