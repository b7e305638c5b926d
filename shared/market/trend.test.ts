import { describe, expect, it } from 'vitest';
import MLR from 'ml-regression-multivariate-linear';
import { CitationBook } from '../cited/citation-book.ts';
import { recompute } from '../cited/derivation.ts';
import { comparableSale } from '../comparables/test-kit.ts';
import { fitSimpleOls, DAYS_PER_MONTH } from './simple-regression.ts';
import { marketTrend } from './trend.ts';

const EFFECTIVE = '2017-01-01';
const dateBefore = (days: number) => new Date(Date.parse(`${EFFECTIVE}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const salesOf = (days: number[], prices: number[]) =>
  days.map((d, index) => comparableSale({ id: `s${index}`, address: `${index + 1} Test St NW`, saleDate: dateBefore(d), priceDollars: prices[index]! }));

// Rising prices toward the effective date (jStat's t quantile agrees with SciPy's to about 1e-9, so
// the interval is compared to 7 decimals). Reference numbers from scipy.stats.linregress and
// scipy.stats.t.ppf (SciPy 1.17.1) on x = days / (365.25 / 12), y = ln(price): pasted as fixed expectations.
const RISING_DAYS = [10, 25, 40, 70, 95, 120, 150, 190, 230, 260, 300, 350];
const RISING_PRICES = [812_000, 790_000, 805_000, 770_000, 781_000, 760_000, 748_000, 752_000, 731_000, 725_000, 718_000, 702_000];
const SCIPY = { slope: -0.012154002429705284, intercept: 13.598465088218706, stderr: 0.0008978208820988024, r2: 0.9482552805365694, slopeLow: -0.014154472019234213, slopeHigh: -0.010153532840176355 };
const SCIPY_PCT = { rate: 1.2228162459748448, low: 1.0205254860269797, high: 1.4255120874778093 };

// Noisy and flat: the interval straddles zero (scipy: −0.103 % per month, −0.786 % to +0.584 %).
const FLAT_DAYS = [5, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330];
const FLAT_PRICES = [700_000, 760_000, 690_000, 745_000, 705_000, 750_000, 698_000, 742_000, 710_000, 735_000, 702_000, 748_000];

describe('the log-price trend', () => {
  it('matches SciPy’s slope, intercept, standard error and interval', () => {
    const fit = fitSimpleOls(RISING_DAYS.map((d) => d / DAYS_PER_MONTH), RISING_PRICES.map(Math.log))!;
    expect(fit.slope).toBeCloseTo(SCIPY.slope, 12);
    expect(fit.intercept).toBeCloseTo(SCIPY.intercept, 10);
    expect(fit.slopeStdError).toBeCloseTo(SCIPY.stderr, 12);
    expect(fit.r2).toBeCloseTo(SCIPY.r2, 10);
    expect(fit.slopeLow).toBeCloseTo(SCIPY.slopeLow, 9);
    expect(fit.slopeHigh).toBeCloseTo(SCIPY.slopeHigh, 9);
  });

  it('agrees with a second method (ml-regression-multivariate-linear’s least squares)', () => {
    const x = RISING_DAYS.map((d) => [d / DAYS_PER_MONTH]);
    const y = RISING_PRICES.map((p) => [Math.log(p)]);
    const mlr = new MLR(x, y);
    const fit = fitSimpleOls(x.map((row) => row[0]!), y.map((row) => row[0]!))!;
    expect(fit.slope).toBeCloseTo(mlr.weights[0]![0]!, 10);
    expect(fit.intercept).toBeCloseTo(mlr.weights[1]![0]!, 10);
    expect(fit.slopeStdError).toBeCloseTo(mlr.stdErrors[0]!, 10);
  });

  it('offers the rate as % per month when 10 or more sales give an interval clear of zero', () => {
    const trend = marketTrend({ sales: salesOf(RISING_DAYS, RISING_PRICES), effectiveDate: EFFECTIVE, monthsRead: 12, cite: new CitationBook().cite });
    expect(trend.price.pctPerMonth).toBeCloseTo(SCIPY_PCT.rate, 9);
    expect(trend.price.pctLow).toBeCloseTo(SCIPY_PCT.low, 7);
    expect(trend.price.pctHigh).toBeCloseTo(SCIPY_PCT.high, 7);
    expect(trend.price.supported).toBe(true);
    expect(trend.offer).toBe(1.22);
    expect(trend.price.rate.display).toBe('+1.22 % per month');
    expect(trend.price.interval.display).toBe('+1.02 % to +1.43 % per month');
    expect(recompute(trend.price.rate.derivation!, trend.price.rate.display)).toEqual({ kind: 'same' });
    expect(recompute(trend.price.interval.derivation!, trend.price.interval.display)).toEqual({ kind: 'same' });
    expect(trend.conclusion).toMatch(/^Supported: \+1\.22 % per month/);
    // Quarterly medians for comparison, by hand: days 0–92 (4 sales, (790,000 + 805,000) / 2), 93–184, 185–275, 276–366.
    expect(trend.quarters.map((q) => [q.count, q.medianPrice])).toEqual([
      [4, 797_500],
      [3, 760_000],
      [3, 731_000],
      [2, 710_000],
    ]);
  });

  it('concludes “no time adjustment supported” when the interval straddles zero', () => {
    const trend = marketTrend({ sales: salesOf(FLAT_DAYS, FLAT_PRICES), effectiveDate: EFFECTIVE, monthsRead: 12, cite: new CitationBook().cite });
    expect(trend.price.pctPerMonth).toBeCloseTo(-0.10320736848655754, 9);
    expect(trend.price.pctLow).toBeCloseTo(-0.7856832575602768, 7);
    expect(trend.price.pctHigh).toBeCloseTo(0.5839631388081967, 7);
    expect(trend.offer).toBeNull();
    expect(trend.conclusion).toMatch(/^No time adjustment supported over 12 months: The 95 % interval .* includes zero/);
  });

  it('concludes “not supported” with fewer than 10 sales, or when the sales read are shorter than the window', () => {
    const few = marketTrend({ sales: salesOf(RISING_DAYS.slice(0, 9), RISING_PRICES.slice(0, 9)), effectiveDate: EFFECTIVE, monthsRead: 12, cite: new CitationBook().cite });
    expect(few.offer).toBeNull();
    expect(few.price.reasons[0]).toBe('9 sales in the 12-month window: at least 10 are needed.');
    const short = marketTrend({ sales: salesOf(RISING_DAYS, RISING_PRICES), effectiveDate: EFFECTIVE, windowMonths: 24, monthsRead: 12, cite: new CitationBook().cite });
    expect(short.offer).toBeNull();
    expect(short.price.reasons).toContain('The sales read reach back 12 months only: widen the search’s period to 24 months for this window.');
    // No published area (the sample's areas are copied): no $/sq ft fit, said so.
    expect(short.pricePerSqft.reasons[0]).toMatch(/No sale in the window has a published building area/);
  });
});
