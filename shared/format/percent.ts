// Percentages, one way: fixed decimals, a real minus sign (U+2212), a space before "%" ("−2.26 %").
import { MINUS, roundedDigits } from './number.ts';

// "-2.26 %", "−2.26%", "+0.5", "12": an optional sign (hyphen, minus or plus), digits, an optional "%".
const PERCENT_TEXT = /^([-−+]?)\s*(\d+(?:\.\d+)?)\s*%?$/;

/**
 * A percentage with `decimals` fixed decimals: -2.256 → "−2.26 %"; a percentage published as text
 * ("-2.26 %") reads the same way; text that is not a percentage is returned as published.
 * `signed` puts a + on positive values, as adjustments are written.
 */
export function formatPercent(value: number | string, decimals = 2, options: { signed?: boolean } = {}): string {
  let number: number;
  if (typeof value === 'string') {
    const match = PERCENT_TEXT.exec(value.trim());
    if (!match) return value;
    number = Number(match[2]) * (match[1] === '' || match[1] === '+' ? 1 : -1);
  } else {
    number = value;
  }
  if (!Number.isFinite(number)) return String(value);
  const { whole, fraction, zero } = roundedDigits(number, decimals);
  const sign = zero ? '' : number < 0 ? MINUS : options.signed ? '+' : '';
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`} %`;
}

/** Decimals of a share of a sale price (a net or gross adjustment): one, on screen, on paper and in the review notes. */
export const SHARE_OF_PRICE_DECIMALS = 1;
/** Decimals of a rate in percent (market conditions, per month): two. */
export const PERCENT_RATE_DECIMALS = 2;

/** A net or gross adjustment as a share of the comp's sale price: "−12.0 %", "17.7 %". */
export function formatShareOfPrice(pct: number): string {
  return formatPercent(pct, SHARE_OF_PRICE_DECIMALS);
}

/** A rate in percent: "0.50 %", "−0.98 %" (the unit's words, "per month", follow it). */
export function formatPercentRate(pct: number): string {
  return formatPercent(pct, PERCENT_RATE_DECIMALS);
}
