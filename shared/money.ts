// Money is integer micro-USD (millionths of a dollar) everywhere: the service reports charges and
// balances that way, and integers add up exactly where binary floats drift. Dollars appear only at
// the edges: parsed from what a person types, formatted for what a person reads.
import { z } from 'zod';
import { groupThousands, MINUS, roundedDigits } from './format/number.ts';

/** Integer micro-USD: $0.10 is 100000. */
export type MicroUsd = number;

export const MICRO_USD_PER_DOLLAR = 1_000_000;
export const MICRO_USD_PER_CENT = 10_000;

/** A stored amount: charge, price, balance, budget. Never negative. */
export const MicroUsdSchema = z
  .int({ error: 'must be a whole number of micro-USD' })
  .min(0, { error: 'must not be negative' });

/** A signed difference between amounts (ledger reconciliation, budget headroom). */
export const SignedMicroUsdSchema = z.int({ error: 'must be a whole number of micro-USD' });

/**
 * The wire form of the service's money headers (`X-Svc-Charged-Micro-USD`, `X-Svc-Balance-Micro-USD`):
 * plain decimal digits. Anything else (empty, signs, exponents, fractions) is a malformed response.
 */
export const MicroUsdHeaderSchema = z
  .string()
  .regex(/^\d{1,16}$/, { error: 'must be a whole number of micro-USD' })
  .transform(Number)
  .pipe(MicroUsdSchema);

/** Adds amounts exactly; throws rather than silently losing precision beyond 2^53. */
export function addMicroUsd(...amounts: MicroUsd[]): MicroUsd {
  let total = 0;
  for (const amount of amounts) {
    if (!Number.isSafeInteger(amount)) throw new RangeError(`not an integer micro-USD amount: ${amount}`);
    total += amount;
    if (!Number.isSafeInteger(total)) throw new RangeError('micro-USD total exceeds the exact integer range');
  }
  return total;
}

/**
 * Converts a dollar amount held as a JS number (a literal in code, a value from a form library) to
 * micro-USD, rounding to the nearest micro-dollar. Goes through the number's decimal rendering so
 * 0.1 gives exactly 100000 rather than 100000.00000000001.
 */
export function microUsdFromDollars(dollars: number): MicroUsd {
  if (!Number.isFinite(dollars)) throw new RangeError(`not a finite dollar amount: ${dollars}`);
  const magnitude = Math.abs(dollars);
  if (magnitude * MICRO_USD_PER_DOLLAR > Number.MAX_SAFE_INTEGER) {
    throw new RangeError(`dollar amount too large for exact micro-USD: ${dollars}`);
  }
  // toFixed(6) is correctly rounded from the exact binary value; the string is then read exactly.
  const micro = parseUnsignedDecimal(magnitude.toFixed(6));
  if (micro === undefined) throw new RangeError(`cannot convert ${dollars} to micro-USD`);
  return dollars < 0 && micro !== 0 ? -micro : micro;
}

export type ParseUsdResult = { ok: true; value: MicroUsd } | { ok: false; error: string };

// Optional sign, optional "$" (either order), digits with optional correct thousands grouping,
// and at most six decimals: a seventh decimal cannot be represented in micro-USD, so it is refused
// rather than rounded behind the user's back.
const USD_TEXT = /^(-?)\$?(-?)((?:\d{1,3}(?:,\d{3})+|\d+)?)(?:\.(\d{1,6}))?$/;

/** Reads a dollar amount as a person writes it ("1.25", "$1,250.00", "-0.0042") into micro-USD. */
export function safeParseUsd(text: string): ParseUsdResult {
  const trimmed = text.trim();
  const match = USD_TEXT.exec(trimmed);
  if (!match) {
    return { ok: false, error: `"${text}" is not a dollar amount (at most 6 decimal places)` };
  }
  const [, signBefore = '', signAfter = '', whole = '', fraction] = match;
  if (signBefore !== '' && signAfter !== '') return { ok: false, error: `"${text}" has two minus signs` };
  if (whole === '' && fraction === undefined) return { ok: false, error: `"${text}" is not a dollar amount` };
  const micro = parseUnsignedDecimal(`${whole.replaceAll(',', '') || '0'}.${fraction ?? ''}`);
  if (micro === undefined) return { ok: false, error: `"${text}" is too large` };
  const negative = signBefore !== '' || signAfter !== '';
  return { ok: true, value: negative && micro !== 0 ? -micro : micro };
}

/** Like {@link safeParseUsd} but throws a RangeError on bad input. */
export function parseUsd(text: string): MicroUsd {
  const result = safeParseUsd(text);
  if (!result.ok) throw new RangeError(result.error);
  return result.value;
}

// "123.45" (digits, optional point, up to six decimals) -> 123450000, or undefined past 2^53.
function parseUnsignedDecimal(text: string): MicroUsd | undefined {
  const [wholeDigits = '0', fractionDigits = ''] = text.split('.');
  const whole = Number(wholeDigits || '0');
  const fraction = Number(fractionDigits.padEnd(6, '0').slice(0, 6));
  const micro = whole * MICRO_USD_PER_DOLLAR + fraction;
  return Number.isSafeInteger(micro) && Number.isSafeInteger(whole) ? micro : undefined;
}

export interface FormatUsdOptions {
  /**
   * Fixed number of decimal places (0 to 6), rounded half away from zero. Without it the amount is
   * shown exactly: at least two decimals, more only when needed, so "$0.10", "$0.0042", "$1.234567".
   */
  precision?: number;
}

/**
 * Formats an amount of whole dollars Plat computed or a person entered (adjustments, adjusted prices,
 * totals; dollars, not micro-USD): "$1,302,760", "−$1,667", a fraction rounded half away from zero.
 * A publisher's amount keeps the cents it was published with: shared/format/dollars.ts.
 */
export function formatDollars(dollars: number): string {
  const { whole, zero } = roundedDigits(dollars, 0);
  return `${dollars < 0 && !zero ? MINUS : ''}$${groupThousands(whole)}`;
}

/** Formats micro-USD for a person: "$0.10", "$0.0042", "$1,250.00", "-$0.10". */
export function formatUsd(micro: MicroUsd, options: FormatUsdOptions = {}): string {
  if (!Number.isSafeInteger(micro)) throw new RangeError(`not an integer micro-USD amount: ${micro}`);
  const { precision } = options;
  if (precision !== undefined && !(Number.isInteger(precision) && precision >= 0 && precision <= 6)) {
    throw new RangeError(`precision must be an integer from 0 to 6, got ${precision}`);
  }
  let magnitude = Math.abs(micro);
  if (precision !== undefined) {
    // Round in integers: the unit is 10^(6 - precision) micro-USD.
    const unit = 10 ** (6 - precision);
    magnitude = Math.floor((magnitude + unit / 2) / unit) * unit;
  }
  const whole = Math.floor(magnitude / MICRO_USD_PER_DOLLAR);
  const fractionDigits = String(magnitude % MICRO_USD_PER_DOLLAR).padStart(6, '0');
  const decimals =
    precision !== undefined ? fractionDigits.slice(0, precision) : fractionDigits.replace(/0+$/, '').padEnd(2, '0');
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = micro < 0 && magnitude !== 0 ? '-' : '';
  return `${sign}$${grouped}${decimals === '' ? '' : `.${decimals}`}`;
}
