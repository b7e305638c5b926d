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
