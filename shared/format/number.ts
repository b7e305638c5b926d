// Plain numbers as a person reads them: digits grouped in thousands, a real minus sign (U+2212), and
// areas in square feet. Hand-rolled rather than Intl: the comparables grid formats a few hundred
// numbers per recompute and Intl's formatters were most of its time (tested equal to Intl's en-US).

/** The minus sign every formatted negative number carries (a hyphen is not a minus). */
export const MINUS = '−';

/** "1234567" → "1,234,567" (a string of digits, no sign, no decimals). */
export function groupThousands(digits: string): string {
  let rest = digits;
  let grouped = '';
  while (rest.length > 3) {
    grouped = `,${rest.slice(-3)}${grouped}`;
    rest = rest.slice(0, -3);
  }
  return `${rest}${grouped}`;
}

/**
 * A number rounded half up to `decimals` places on its shortest decimal form ("717.045" → "717.05",
 * as Intl rounds), as unsigned digits: `whole` and `fraction` (`fraction` has exactly `decimals` digits).
 */
export function roundedDigits(value: number, decimals: number): { whole: string; fraction: string; zero: boolean } {
  const magnitude = Math.abs(value);
  // Shifting by the exponent in the text form rounds the decimal the reader sees, not the binary value.
  const shifted = Math.round(Number(`${magnitude}e${decimals}`));
  const units = Number.isFinite(shifted) ? shifted : Math.round(magnitude * 10 ** decimals);
  const text = String(units).padStart(decimals + 1, '0');
  const whole = decimals === 0 ? text : text.slice(0, -decimals);
  return { whole, fraction: decimals === 0 ? '' : text.slice(-decimals), zero: units === 0 };
}

/** "1,234.5": grouped, at most `maxDecimals` decimals (trailing zeros dropped), − for negatives. */
export function formatNumber(value: number, maxDecimals = 2): string {
  if (!Number.isFinite(value)) return String(value);
  const { whole, fraction, zero } = roundedDigits(value, maxDecimals);
  const trimmed = fraction.replace(/0+$/, '');
  return `${value < 0 && !zero ? MINUS : ''}${groupThousands(whole)}${trimmed === '' ? '' : `.${trimmed}`}`;
}

/** A whole count ("12 sales", "1,021 records"): grouped, rounded to a whole number. */
export function formatCount(value: number): string {
  return formatNumber(value, 0);
}

/** An area in square feet: "1,546 sq ft". */
export function formatSqft(value: number): string {
  return `${formatNumber(value)} sq ft`;
}

/** A statistic to exactly `digits` decimals, grouped, − for negatives: "−167,642.79", "0.870". */
export function formatFixed(value: number, digits: number): string {
  if (!Number.isFinite(value)) return String(value);
  const { whole, fraction, zero } = roundedDigits(value, digits);
  return `${value < 0 && !zero ? MINUS : ''}${groupThousands(whole)}${fraction === '' ? '' : `.${fraction}`}`;
}

/** A regression's R² or adjusted R², three decimals everywhere ("0.835"); "—" when it could not be estimated. */
export function formatR2(value: number | null): string {
  return value === null || !Number.isFinite(value) ? '—' : formatFixed(value, 3);
}
