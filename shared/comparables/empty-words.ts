// What the comparables work says when a list is empty, decided here once for the view and the report:
// whether a search ran, returned nothing, or returned sales this assignment no longer holds. Each of
// these sentences once lied ("No search has been run yet" after a search that found nothing; "Every
// sale the search returned is a chosen comp" when it returned none).
import { formatCount } from '../format/number.ts';
import type { CompSearchRun } from './model.ts';

/** Where the comparables search stands: none run; run, its sales still being read; run and nothing found; run, its sales not held; run, sales listed. */
export type SearchOutcome =
  | { kind: 'none' }
  | { kind: 'reading' }
  | { kind: 'empty' }
  | { kind: 'unread'; returned: number }
  | { kind: 'listed'; listed: number; total: number };

/** The outcome of the last search (`run`), given how many of its sales the analysis lists and whether the sales it just bought are still being read. */
export function searchOutcome(run: Pick<CompSearchRun, 'total' | 'returned'> | null, listed: number, reading = false): SearchOutcome {
  if (run === null) return { kind: 'none' };
  if (reading) return { kind: 'reading' };
  if (listed > 0) return { kind: 'listed', listed, total: Math.max(run.total, listed) };
  if (run.returned === 0 && run.total === 0) return { kind: 'empty' };
  return { kind: 'unread', returned: Math.max(run.returned, run.total) };
}

const sales = (count: number): string => `${formatCount(count)} ${count === 1 ? 'sale' : 'sales'}`;

export const NO_SEARCH_YET = 'No search has been run yet: set the criteria above and search. The price is shown before anything is bought.';
export const READING_SALES = 'Reading the sales this search bought…';
export const SEARCH_FOUND_NONE = 'The search returned no sales: widen the area, the dates or the living-area band and search again.';

/** The sales list's line when it lists none; null when it lists some. */
export function candidatesEmptyText(outcome: SearchOutcome): string | null {
  switch (outcome.kind) {
    case 'none':
      return NO_SEARCH_YET;
    case 'reading':
      return READING_SALES;
    case 'empty':
      return SEARCH_FOUND_NONE;
    case 'unread':
      return `The search returned ${sales(outcome.returned)}, but its answer is not kept with this assignment: run the search again to list them.`;
    case 'listed':
      return null;
  }
}

/** The "analyzed, not used" list's line when every listed sale is in the grid, or none is listed. */
export function notUsedEmptyText(outcome: SearchOutcome): string {
  switch (outcome.kind) {
    case 'none':
      return 'No search has been run yet: no sale has been analyzed.';
    case 'reading':
      return READING_SALES;
    case 'empty':
      return 'The search returned no sales: none was analyzed.';
    case 'unread':
      return 'The sales of the last search are not kept with this assignment: none is listed.';
    case 'listed':
      return outcome.listed === 1 ? 'The one sale the search returned is a chosen comp.' : `Every sale the search returned (${formatCount(outcome.listed)}) is a chosen comp.`;
  }
}

/** Why the sales comparison grid is empty, for the report's section. */
export function noCompsText(outcome: SearchOutcome): string {
  switch (outcome.kind) {
    case 'none':
      return 'No comparables search has been run for this assignment.';
    case 'reading':
      return READING_SALES;
    case 'empty':
      return 'The search returned no sales, so no comparable sale is chosen: the sales comparison grid is empty.';
    case 'unread':
      return 'The sales of the last search are not kept with this assignment: no comparable sale can be shown, and the sales comparison grid is empty.';
    case 'listed':
      return 'No comparable sales are chosen yet: the sales comparison grid is empty.';
  }
}

/** The regression's line when there is nothing to fit, where the regression's own words would speak of a search that did not run or whose answer is not held; null to use the regression's. */
export function supportEmptyText(outcome: SearchOutcome): string | null {
  switch (outcome.kind) {
    case 'none':
      return 'No search has been run yet: the suggested rates come from a regression over its sales.';
    case 'reading':
      return READING_SALES;
    case 'unread':
      return 'The sales of the last search are not kept with this assignment: run it again to compute adjustment support.';
    default:
      return null;
  }
}

/** The grid's line before any comp is chosen. */
export function gridEmptyText(outcome: SearchOutcome): string {
  return outcome.kind === 'listed' ? 'Choose comps on the map or in the list: each becomes a column.' : 'No sale to choose from yet: run a search that returns sales, then choose comps on the map or in the list.';
}

/** Which comps the range of adjusted prices covers: those given weight, or (none is) every comp. */
export function rangeBasisText(weights: readonly string[]): string {
  return weights.some((weight) => weight !== 'none') ? 'comps given weight' : 'every comp: none is given weight';
}
