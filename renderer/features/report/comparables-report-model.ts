// How the report's comparables section reads, as pure functions of the document: rates in their own
// units, the grid's tables on paper, the rows no source fills, the regression's left-out sales by reason.
import { rateLabels, type ComparableWeight, type RateKey } from '../../../shared/comparables/model.ts';
import type { CitedValue } from '../../../shared/cited/value.ts';
import { formatPricePercent, rateInUnit } from '../../../shared/comparables/grid-arithmetic.ts';

/** Comps per printed grid table: URAR pages carry three, and four value columns fit a portrait page. */
export const PRINT_COMPS_PER_TABLE = 3;

/** The grid's columns in tables of at most `size` comps (each table repeats the subject); one empty table when there are none. */
export function chunkColumns(count: number, size: number): Array<{ from: number; to: number }> {
  const step = Math.max(1, size);
  const chunks: Array<{ from: number; to: number }> = [];
  for (let from = 0; from < count; from += step) chunks.push({ from, to: Math.min(count, from + step) });
  return chunks.length > 0 ? chunks : [{ from: 0, to: 0 }];
}

/** A rate in its unit ("$150 per sq ft", "0.25 % per month"): the grid's own formatter, which the derivation rule uses too. */
export const rateText = (key: RateKey, value: number): string => rateInUnit(rateLabels[key].unit, value);

/** A suggested rate with its 95 % interval when the regression gives one: "$150 per sq ft ($120 per sq ft to $180 per sq ft)". */
export function rateWithInterval(key: RateKey, estimate: { value: number; ciLow: number | null; ciHigh: number | null }): string {
  const interval = estimate.ciLow !== null && estimate.ciHigh !== null ? ` (${rateText(key, estimate.ciLow)} to ${rateText(key, estimate.ciHigh)})` : '';
  return `${rateText(key, estimate.value)}${interval}`;
}

/** A percent of the sale price as the grid prints it, to one decimal: "−8.9 %", "14.6 %". */
export const percentText = formatPricePercent;

export const weightText = (weight: ComparableWeight): string => ({ most: 'Most weight', less: 'Less weight', none: 'No weight' })[weight];

/**
 * The reason every cell of a grid row gives when none of them has a value and the row adjusts
 * nothing ("Not in the sample."): printed once across the row. Null when any cell has a value, the
 * reasons differ, or an adjustment was made on the row.
 */
export function sharedUnavailableReason(values: readonly CitedValue[], adjusted: boolean): string | null {
  if (adjusted || values.length === 0) return null;
  const reasons = new Set(values.map((value) => (value.status === 'unavailable' ? (value.limitation ?? '') : null)));
  if (reasons.size !== 1) return null;
  const [reason] = reasons;
  return reason ? reason.replace(/\.$/, '') : null;
}

/**
 * The sales the regression left out, by why, in the order first met: named by address, except the
 * sales published without one (`unaddressed`, by id), which are counted: each is listed by its record
 * among the sales not used.
 */
export function excludedGroups(
  excluded: ReadonlyArray<{ id: string; address: string; why: string }>,
  unaddressed: ReadonlySet<string> = new Set(),
): Array<{ why: string; count: number; addresses: string[]; unaddressed: number }> {
  const groups = new Map<string, { why: string; count: number; addresses: string[]; unaddressed: number }>();
  for (const sale of excluded) {
    let group = groups.get(sale.why);
    if (!group) groups.set(sale.why, (group = { why: sale.why, count: 0, addresses: [], unaddressed: 0 }));
    group.count += 1;
    if (unaddressed.has(sale.id)) group.unaddressed += 1;
    else group.addresses.push(sale.address);
  }
  return [...groups.values()];
}

/** A group of left-out sales in words: "1807 RIGGS PL NW; 1736 U ST NW and 3 sales with no published address (listed by record under the sales not used)". */
export function excludedWords(group: { addresses: string[]; unaddressed: number }): string {
  const named = group.addresses.join('; ');
  if (group.unaddressed === 0) return named;
  const rest = `${group.unaddressed} ${group.unaddressed === 1 ? 'sale' : 'sales'} with no published address (listed by record under the sales analyzed and not used)`;
  return named ? `${named}; and ${rest}` : rest;
}
