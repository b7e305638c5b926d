// An adjustment rate as a person reads it, one way for the Comparables view, the report on screen, the
// PDF and the grid's workings: a time rate in percent to two decimals, a money rate in dollars with the
// cents the appraiser typed ($152.50), a real minus sign. A regression's estimate is shown rounded as
// "Accept" would store it (half away from zero), so screen and paper read the same figure.
import { roundedDigits } from '../format/number.ts';
import { formatPercentRate, PERCENT_RATE_DECIMALS } from '../format/percent.ts';
import { formatDollarsAsEntered } from '../format/dollars.ts';
import { rateLabels, type RateKey } from './model.ts';
import { rateInUnit } from './grid-arithmetic.ts';

/**
 * A rate rounded as it reads (time to hundredths of a percent, money to whole dollars, half away from
 * zero on its decimal form): what "Accept" stores is the number the appraiser was shown.
 */
export function roundRate(key: RateKey, value: number): number {
  const { whole, fraction, zero } = roundedDigits(value, rateLabels[key].unit.startsWith('%') ? PERCENT_RATE_DECIMALS : 0);
  if (zero) return 0;
  return (value < 0 ? -1 : 1) * Number(fraction === '' ? whole : `${whole}.${fraction}`);
}

/** The rate's number alone: "0.50 %", "−$1,667", "$152.50". */
export function rateNumberText(key: RateKey, value: number): string {
  return rateLabels[key].unit.startsWith('%') ? formatPercentRate(value) : formatDollarsAsEntered(value);
}

/** A regression's estimate of a rate, rounded as "Accept" stores it: "−$1,103", "−0.98 %". */
export function estimateNumberText(key: RateKey, value: number): string {
  return rateNumberText(key, roundRate(key, value));
}

/** A rate in its unit: "$150 per sq ft", "−$1,667 per year", "0.25 % per month" (grid-arithmetic.ts makes it, for the derivation rules too). */
export function rateText(key: RateKey, value: number): string {
  return rateInUnit(rateLabels[key].unit, value);
}

/** A regression's suggested rate (rounded as "Accept" stores it) with its 95 % interval when the regression gives one: "$150 per sq ft ($120 per sq ft to $180 per sq ft)". */
export function rateWithInterval(key: RateKey, estimate: { value: number; ciLow: number | null; ciHigh: number | null }): string {
  const rounded = (value: number) => rateText(key, roundRate(key, value));
  const interval = estimate.ciLow !== null && estimate.ciHigh !== null ? ` (${rounded(estimate.ciLow)} to ${rounded(estimate.ciHigh)})` : '';
  return `${rounded(estimate.value)}${interval}`;
}
