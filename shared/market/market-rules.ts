// The named rules (shared/cited/derivation.ts) that make the market-conditions figures and the time
// trend from their inputs, so "Verify a report" makes each again: a count of sales, a median price,
// a median price per square foot, the trend between two medians, and the log-price trend's monthly
// rate and its 95 % interval. Kept here, beside the figures they make, and joined into the one list.
import { formatDollars } from '../money.ts';
import { formatDollarsAndCents } from '../format/dollars.ts';
import { formatCount } from '../format/number.ts';
import { formatPercent } from '../format/percent.ts';
import { logTrendPctPerMonth, median } from './simple-regression.ts';

type Inputs = readonly (number | string)[];

const numbers = (inputs: Inputs): number[] | null =>
  inputs.every((input): input is number => typeof input === 'number' && Number.isFinite(input)) ? (inputs as number[]) : null;

/** Pairs (a, b) from [a1, b1, a2, b2, …]; null for an odd count or anything not a number. */
function pairs(inputs: Inputs): Array<[number, number]> | null {
  const all = numbers(inputs);
  if (all === null || all.length === 0 || all.length % 2 !== 0) return null;
  const out: Array<[number, number]> = [];
  for (let i = 0; i < all.length; i += 2) out.push([all[i]!, all[i + 1]!]);
  return out;
}

/** The trend's word from two medians: beyond ± the threshold percent is a change, within it stable. */
export function trendWord(recent: number, prior: number, thresholdPct: number): { word: 'Increasing' | 'Stable' | 'Declining'; changePct: number } {
  const changePct = ((recent - prior) / prior) * 100;
  return { word: changePct > thresholdPct ? 'Increasing' : changePct < -thresholdPct ? 'Declining' : 'Stable', changePct };
}

export const perMonth = (pct: number): string => `${formatPercent(pct, 2, { signed: true })} per month`;

export const MARKET_RULES: Readonly<Record<string, (inputs: Inputs) => string | null>> = {
  /** How many sales: the inputs are the sales' record refs, each once. */
  'count-of-sales': (inputs) => (inputs.every((input) => typeof input === 'string') && new Set(inputs).size === inputs.length ? formatCount(inputs.length) : null),
  /** The median of whole-dollar prices (the mean of the middle two for an even count), in whole dollars. */
  'median-of-dollars': (inputs) => {
    const dollars = numbers(inputs);
    const middle = dollars === null ? null : median(dollars);
    return middle === null ? null : formatDollars(middle);
  },
  /** The median of price ÷ area over pairs (price, area in sq ft), to the cent. */
  'median-of-price-per-sqft': (inputs) => {
    const rows = pairs(inputs);
    if (rows === null || rows.some(([, area]) => !(area > 0))) return null;
    const middle = median(rows.map(([price, area]) => price / area));
    return middle === null ? null : `${formatDollarsAndCents(middle)} per sq ft`;
  },
  /** The trend from a prior figure (a median, a count over as many months) to a recent one, by a threshold in percent: [recent, prior, threshold]. */
  'trend-by-threshold': (inputs) => {
    const all = numbers(inputs);
    if (all === null || all.length !== 3 || !(all[1]! > 0) || !(all[2]! >= 0)) return null;
    const { word, changePct } = trendWord(all[0]!, all[1]!, all[2]!);
    return `${word} (${formatPercent(changePct, 1, { signed: true })})`;
  },
  /** The log-price trend's rate: pairs (days before the effective date, amount) → % per month. */
  'log-price-trend-pct-per-month': (inputs) => {
    const rows = pairs(inputs);
    const trend = rows === null ? null : logTrendPctPerMonth(rows.map(([days]) => days), rows.map(([, amount]) => amount));
    return trend === null ? null : perMonth(trend.pct);
  },
  /** Its 95 % interval, from the same pairs. */
  'log-price-trend-ci95': (inputs) => {
    const rows = pairs(inputs);
    const trend = rows === null ? null : logTrendPctPerMonth(rows.map(([days]) => days), rows.map(([, amount]) => amount));
    return trend === null ? null : `${formatPercent(trend.low, 2, { signed: true })} to ${perMonth(trend.high)}`;
  },
};
