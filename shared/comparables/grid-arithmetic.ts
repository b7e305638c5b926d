// The grid's arithmetic, one function per operation, and how each result prints. The grid
// (adjustments.ts) computes with these, and the derivation rules (shared/cited/derivation.ts) make the
// printed figures again from the same functions, so "Verify a report" checks the very arithmetic the
// grid did. Imports only formatters (not the model): both sides may use it without a cycle.
import { formatDollars } from '../money.ts';
import { formatNumber, MINUS } from '../format/number.ts';
import { formatPercentRate, formatShareOfPrice } from '../format/percent.ts';
import { formatDollarsAsEntered } from '../format/dollars.ts';

/** The average month: 365.25 days / 12. One definition for the grid, the regression and the workings. */
export const DAYS_PER_MONTH = 365.25 / 12;

/** Rounds to whole dollars, half away from zero (so +x and −x round alike), never −0. */
export function roundDollars(value: number): number {
  const rounded = Math.sign(value) * Math.round(Math.abs(value));
  return rounded === 0 ? 0 : rounded;
}

/** One decimal, half away from zero, never −0. */
export function roundOneDecimal(value: number): number {
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * 10)) / 10;
  return rounded === 0 ? 0 : rounded;
}

/** The market-conditions adjustment: price × % per month × months (days ÷ 30.4375), whole dollars. */
export const timeAdjustment = (price: number, pctPerMonth: number, days: number): number => roundDollars(((price * pctPerMonth) / 100) * (days / DAYS_PER_MONTH));

/** A rate times a difference (subject − comp for a feature, comp age − subject age for age), whole dollars. */
export const rateTimesDifference = (rate: number, first: number, second: number): number => roundDollars(rate * (first - second));

/** The net adjustment: the sum of the rounded adjustments. */
export const netOf = (amounts: readonly number[]): number => amounts.reduce((sum, amount) => sum + amount, 0);

/** The gross adjustment: the sum of the rounded adjustments' sizes. */
export const grossOf = (amounts: readonly number[]): number => amounts.reduce((sum, amount) => sum + Math.abs(amount), 0);

/** An amount as a percent of the sale price, one decimal; 0 when there is no price to divide by. */
export const percentOfPrice = (amount: number, price: number): number => (price > 0 ? roundOneDecimal((amount / price) * 100) : 0);

/** An adjustment as the grid prints it: "+$52,313", "−$201,300", "$0". */
export function formatAdjustment(amount: number): string {
  if (amount === 0) return '$0';
  return `${amount > 0 ? '+' : MINUS}$${formatNumber(Math.abs(amount))}`;
}

/** A percent of the sale price as the grid prints it: "2.3 %", "−4.1 %". */
export const formatPricePercent = formatShareOfPrice;

/** The range of adjusted prices as printed: "$1,650,000 to $1,736,000". */
export const formatRange = (low: number, high: number): string => `${formatDollars(low)} to ${formatDollars(high)}`;

/**
 * A rate in its unit (a rate's `unit` in model.ts: "$ per sq ft", "% per month"): "$150 per sq ft",
 * "−$1,667 per year", "0.25 % per month" (a time rate to hundredths of a percent).
 */
export function rateInUnit(unit: string, value: number): string {
  if (unit.startsWith('%')) return `${formatPercentRate(value)}${unit.slice(1)}`;
  // "$ per bath (half bath counts ½)": the dollars as entered (cents kept), then the unit's words (the note stays with the rate's label).
  const words = unit.replace(/^\$\s*/, '').replace(/\s*\(.*\)$/, '');
  return `${formatDollarsAsEntered(value)} ${words}`;
}
