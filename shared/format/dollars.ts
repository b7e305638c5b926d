// Publishers' money: dollars, not Plat's micro-USD (those are formatUsd's, in shared/money.ts). An
// amount keeps the cents its publisher gave: "18402.50" reads "$18,402.50", a whole-dollar 18403
// reads "$18,403". Plat's own computed dollars (adjustments, totals) are whole: formatDollars.
import { groupThousands, MINUS, roundedDigits } from './number.ts';

/** A publisher's amount: its value in dollars and its digits as published (sign apart). */
export interface PublishedDollars {
  dollars: number;
  negative: boolean;
  whole: string;
  /** The decimals as published ("50" of "18402.50"); empty for a whole-dollar amount. */
  cents: string;
}

// "18402.50", "$1,302,760", "-250", "−250.5": an optional sign and "$", digits (grouped or not), decimals.
const DOLLAR_TEXT = /^([-−]?)\s*\$?\s*([-−]?)((?:\d{1,3}(?:,\d{3})+)|\d+)(?:\.(\d+))?$/;

/** Reads a published amount (a number or its text); null when the value is not an amount of dollars. */
export function readPublishedDollars(value: unknown): PublishedDollars | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    const [whole = '0', fraction = ''] = Math.abs(value).toFixed(Number.isInteger(value) ? 0 : 6).split('.');
    // A number drops its trailing zeros (18402.50 arrives as 18402.5): its cents are at least two digits.
    const cents = fraction.replace(/0+$/, '');
    return { dollars: value, negative: value < 0, whole, cents: cents === '' ? '' : cents.padEnd(2, '0') };
  }
  if (typeof value !== 'string') return null;
  const match = DOLLAR_TEXT.exec(value.trim());
  if (!match) return null;
  const [, signBefore = '', signAfter = '', grouped = '0', cents = ''] = match;
  if (signBefore !== '' && signAfter !== '') return null;
  const whole = grouped.replaceAll(',', '').replace(/^0+(?=\d)/, '');
  const negative = signBefore !== '' || signAfter !== '';
  const dollars = Number(`${whole}${cents === '' ? '' : `.${cents}`}`) * (negative ? -1 : 1);
  return { dollars: dollars === 0 ? 0 : dollars, negative: negative && dollars !== 0, whole, cents };
}

/** "$18,402.50", "$18,403", "−$250": a published amount with the cents it was published with. */
export function formatPublishedAmount(amount: PublishedDollars): string {
  return `${amount.negative ? MINUS : ''}$${groupThousands(amount.whole)}${amount.cents === '' ? '' : `.${amount.cents}`}`;
}

/** A publisher's dollar amount for reading; a value that is not an amount is returned as published. */
export function formatPublishedDollars(value: number | string): string {
  const amount = readPublishedDollars(value);
  return amount === null ? String(value) : formatPublishedAmount(amount);
}

/** An amount Plat computed in dollars, to the cent ("$772.52" per sq ft): rounded half up, grouped. */
export function formatDollarsAndCents(dollars: number): string {
  const { whole, fraction, zero } = roundedDigits(dollars, 2);
  return `${dollars < 0 && !zero ? MINUS : ''}$${groupThousands(whole)}.${fraction}`;
}

/** An amount a person entered, its cents kept when it has them: 150 → "$150", 152.5 → "$152.50", −1667 → "−$1,667". */
export function formatDollarsAsEntered(dollars: number): string {
  const { fraction } = roundedDigits(dollars, 2);
  return fraction === '00' ? formatDollarsAndCents(dollars).replace(/\.00$/, '') : formatDollarsAndCents(dollars);
}
