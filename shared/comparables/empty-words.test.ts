// The comparables' empty-list sentences tell the truth about the search: none run, still reading,
// run and found nothing, run and its answer not kept, or sales listed (every one chosen).
import { describe, expect, it } from 'vitest';
import { candidatesEmptyText, gridEmptyText, noCompsText, notUsedEmptyText, rangeBasisText, searchOutcome, supportEmptyText } from './empty-words.ts';

const run = (total: number, returned: number) => ({ total, returned });

describe('what the comparables say when a list is empty', () => {
  it('tells a search not run from one that returned nothing, one still being read, and one whose answer is not kept', () => {
    expect(searchOutcome(null, 0)).toEqual({ kind: 'none' });
    expect(searchOutcome(run(14, 14), 0, true)).toEqual({ kind: 'reading' });
    expect(searchOutcome(run(0, 0), 0)).toEqual({ kind: 'empty' });
    expect(searchOutcome(run(14, 14), 0)).toEqual({ kind: 'unread', returned: 14 });
    expect(searchOutcome(run(20, 14), 14)).toEqual({ kind: 'listed', listed: 14, total: 20 });
  });

  it('never says no search has run after one did, nor that a search returned nothing before one ran', () => {
    expect(candidatesEmptyText({ kind: 'none' })).toMatch(/^No search has been run yet/);
    expect(candidatesEmptyText({ kind: 'empty' })).toMatch(/^The search returned no sales/);
    expect(candidatesEmptyText({ kind: 'unread', returned: 1 })).toBe('The search returned 1 sale, but its answer is not kept with this assignment: run the search again to list them.');
    expect(candidatesEmptyText({ kind: 'listed', listed: 3, total: 3 })).toBeNull();
    expect(supportEmptyText({ kind: 'none' })).not.toMatch(/returned no sales/);
    expect(supportEmptyText({ kind: 'empty' })).toBeNull();
  });

  it('claims every sale is a chosen comp only when the search listed some', () => {
    for (const kind of ['none', 'empty', 'reading'] as const) expect(notUsedEmptyText({ kind })).not.toMatch(/chosen comp/);
    expect(notUsedEmptyText({ kind: 'unread', returned: 4 })).not.toMatch(/chosen comp/);
    expect(notUsedEmptyText({ kind: 'listed', listed: 1, total: 1 })).toBe('The one sale the search returned is a chosen comp.');
    expect(notUsedEmptyText({ kind: 'listed', listed: 1_204, total: 1_204 })).toBe('Every sale the search returned (1,204) is a chosen comp.');
    expect(noCompsText({ kind: 'empty' })).toMatch(/^The search returned no sales/);
    expect(gridEmptyText({ kind: 'empty' })).not.toMatch(/Choose comps/);
  });

  it('says which comps the range covers: those given weight, or every comp when none is', () => {
    expect(rangeBasisText(['most', 'none'])).toBe('comps given weight');
    expect(rangeBasisText(['none', 'none'])).toBe('every comp: none is given weight');
  });
});
