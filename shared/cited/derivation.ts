// How a derived value is made from its inputs, by rule name: the builder makes the value with the
// rule and writes the rule and its inputs beside it (citations.json), and "Verify a report" makes it
// again from those inputs. A rule named here is the only place its arithmetic lives.
import type { z } from 'zod';
import type { DerivationSchema } from './value.ts';
import { formatDollars } from '../money.ts';
import {
  formatAdjustment,
  formatPricePercent,
  formatRange,
  grossOf,
  netOf,
  percentOfPrice,
  rateInUnit,
  rateTimesDifference,
  roundDollars,
  timeAdjustment,
} from '../comparables/grid-arithmetic.ts';
import { formatCount, formatFixed } from '../format/number.ts';
import { formatPercent } from '../format/percent.ts';
import { olsFit, rateEstimate, rateScales, readDesign, type RateScale } from '../stats/ols.ts';
import { MARKET_RULES } from '../market/market-rules.ts';

/** A rule and its inputs, as stored beside the value (the schema is in value.ts). */
export type Derivation = z.infer<typeof DerivationSchema>;

/** A rule: the value as printed, from its inputs; null when the inputs are not the rule's. */
type Rule = (inputs: readonly (number | string)[]) => string | null;

const amounts = (inputs: readonly (number | string)[]): number[] | null =>
  inputs.every((input): input is number => typeof input === 'number' && Number.isFinite(input)) ? (inputs as number[]) : null;

const isAmount = (input: number | string | undefined): input is number => typeof input === 'number' && Number.isFinite(input);
const checkedAdjustment = (amount: number): string | null => (Number.isFinite(amount) ? formatAdjustment(amount) : null);

/** Every rule by its name. Comparables' adjusted prices and indicated value join here (issue 21). */
export const DERIVATION_RULES: Readonly<Record<string, Rule>> = {
  /** A total of dollar amounts, printed in whole dollars (an owner portfolio's total assessed value; a publisher may give cents). */
  'sum-of-dollars': (inputs) => {
    const dollars = amounts(inputs);
    if (dollars === null || dollars.length === 0) return null;
    const total = dollars.reduce((sum, value) => sum + value, 0);
    return Number.isFinite(total) ? formatDollars(total) : null;
  },

  // The sales comparison grid (issue 21): every figure the appraiser adds, from the grid's own
  // arithmetic (shared/comparables/grid-arithmetic.ts). Inputs are whole dollars unless named.

  /** The appraiser's rate as entered: [rate, its unit ("$ per sq ft", "% per month")] → "$150 per sq ft". */
  'appraiser-rate': (inputs) => {
    const [rate, unit] = inputs;
    return inputs.length === 2 && isAmount(rate) && typeof unit === 'string' && /^(\$|%) /.test(unit) ? rateInUnit(unit, rate) : null;
  },
  /** An amount the appraiser entered (a lump-sum adjustment): [amount] → "+$5,000". */
  'appraiser-adjustment': (inputs) => (inputs.length === 1 && isAmount(inputs[0]) ? formatAdjustment(roundDollars(inputs[0])) : null),
  /** An adjustment from a rate: [rate, first, second] → rate × (first − second), whole dollars ("+$52,313"). */
  'adjustment-rate-times-difference': (inputs) => {
    const numbers = amounts(inputs);
    return numbers?.length === 3 ? checkedAdjustment(rateTimesDifference(numbers[0]!, numbers[1]!, numbers[2]!)) : null;
  },
  /** The market-conditions adjustment: [sale price, % per month, days to the effective date] → price × % × days ÷ 30.4375. */
  'adjustment-time': (inputs) => {
    const numbers = amounts(inputs);
    return numbers?.length === 3 ? checkedAdjustment(timeAdjustment(numbers[0]!, numbers[1]!, numbers[2]!)) : null;
  },
  /** The net adjustment: [each adjustment] → their sum ("−$12,500"); no adjustments make $0. */
  'sum-of-adjustments': (inputs) => {
    const numbers = amounts(inputs);
    return numbers === null ? null : checkedAdjustment(netOf(numbers));
  },
  /** The gross adjustment: [each adjustment] → the sum of their sizes ("$62,500"). */
  'gross-of-adjustments': (inputs) => {
    const numbers = amounts(inputs);
    const gross = numbers === null ? null : grossOf(numbers);
    return gross !== null && Number.isFinite(gross) ? formatDollars(gross) : null;
  },
  /** An amount as a percent of the sale price: [amount, price] → "2.3 %" (one decimal). */
  'percent-of-price': (inputs) => {
    const numbers = amounts(inputs);
    return numbers?.length === 2 && numbers[1]! > 0 ? formatPricePercent(percentOfPrice(numbers[0]!, numbers[1]!)) : null;
  },
  /** The adjusted sale price: [sale price, net adjustment] → "$1,702,500". */
  'price-plus-net': (inputs) => {
    const numbers = amounts(inputs);
    return numbers?.length === 2 && Number.isFinite(numbers[0]! + numbers[1]!) ? formatDollars(numbers[0]! + numbers[1]!) : null;
  },
  /** The range of the adjusted prices of the comps given weight: [each adjusted price] → "$1,650,000 to $1,736,000". */
  'range-of-adjusted-prices': (inputs) => {
    const numbers = amounts(inputs);
    return numbers === null || numbers.length === 0 ? null : formatRange(Math.min(...numbers), Math.max(...numbers));
  },
  /** The appraiser's indicated value, with the range it was reconciled from: [value, range low, range high] → "$1,700,000". */
  'appraiser-value': (inputs) => {
    const numbers = amounts(inputs);
    return numbers !== null && (numbers.length === 1 || numbers.length === 3) && Number.isInteger(numbers[0]) ? formatDollars(numbers[0]!) : null;
  },

  // The comparables' regression (issue 21): each figure refitted from the design it was fitted on,
  // inputs `n, p, predictors row by row, sale prices` (shared/stats/ols.ts flattenDesign), a rate's
  // preceded by its scale, unit words and column.
  /** The number of sales the regression was fitted on. */
  'ols-n': (inputs) => {
    const design = readDesign(inputs);
    return design === null ? null : formatCount(design.y.length);
  },
  /** R² of the fit, to three decimals. */
  'ols-r2': (inputs) => {
    const fit = olsDesignFit(inputs);
    return fit === null || !Number.isFinite(fit.r2) ? null : formatFixed(fit.r2, 3);
  },
  /** A suggested rate: the column's coefficient in the rate's scale and unit ("−$249,052 per bath"). */
  'ols-rate': (inputs) => {
    const estimate = olsRateEstimate(inputs);
    return estimate === null ? null : rateDisplay(estimate.scale, estimate.unit, estimate.value);
  },
  /** A suggested rate's 95 % confidence interval ("$83 per sq ft to $183 per sq ft"). */
  'ols-rate-interval': (inputs) => {
    const estimate = olsRateEstimate(inputs);
    return estimate === null ? null : `${rateDisplay(estimate.scale, estimate.unit, estimate.ciLow)} to ${rateDisplay(estimate.scale, estimate.unit, estimate.ciHigh)}`;
  },
  /** Market conditions and the time trend (shared/market/). */
  ...MARKET_RULES,
};

function olsDesignFit(inputs: readonly (number | string)[]) {
  const design = readDesign(inputs);
  if (design === null || design.y.length <= (design.x[0]?.length ?? 0) + 1) return null;
  return olsFit(design.x, design.y);
}

/** A rate in its unit as the report prints it: "$150 per sq ft", "−$1,667 per year", "0.25 % per month". */
function rateDisplay(scale: RateScale, unit: string, value: number): string {
  const number = scale === 'percent-of-mean' ? formatPercent(value, 2) : formatDollars(value);
  return unit === '' ? number : `${number} ${unit}`;
}

function olsRateEstimate(inputs: readonly (number | string)[]) {
  const [scale, unit, column, ...rest] = inputs;
  if (typeof scale !== 'string' || !(rateScales as readonly string[]).includes(scale) || typeof unit !== 'string') return null;
  if (typeof column !== 'number' || !Number.isInteger(column) || column < 0) return null;
  const fit = olsDesignFit(rest);
  const coefficient = fit?.coefficients[column];
  const stdError = fit?.stdErrors[column];
  if (!fit || coefficient === undefined || stdError === undefined || !Number.isFinite(coefficient) || !Number.isFinite(stdError)) return null;
  return { scale: scale as RateScale, unit, ...rateEstimate(scale as RateScale, coefficient, stdError, fit.t, fit.meanResponse) };
}

export type Recomputed = { kind: 'same' } | { kind: 'differs'; recomputed: string } | { kind: 'unknown-rule' } | { kind: 'bad-inputs' };

/** Makes the value again from its inputs and says whether it is the value printed. */
export function recompute(derivation: Derivation, printed: string): Recomputed {
  const rule = Object.hasOwn(DERIVATION_RULES, derivation.rule) ? DERIVATION_RULES[derivation.rule] : undefined;
  if (!rule) return { kind: 'unknown-rule' };
  const value = rule(derivation.inputs);
  if (value === null) return { kind: 'bad-inputs' };
  return value === printed ? { kind: 'same' } : { kind: 'differs', recomputed: value };
}

/** The value a rule makes (for builders): throws when the inputs are not the rule's. */
export function derive(derivation: Derivation): string {
  const value = DERIVATION_RULES[derivation.rule]?.(derivation.inputs) ?? null;
  if (value === null) throw new Error(`the rule ${derivation.rule} cannot derive a value from these inputs`);
  return value;
}
