import { describe, expect, it } from 'vitest';
import type { CitedValue } from '../../../shared/cited/value.ts';
import { chunkColumns, excludedGroups, excludedWords, sharedUnavailableReason } from './comparables-report-model.ts';

const cell = (status: CitedValue['status'], limitation: string | null = null): CitedValue => ({
  field: 'f',
  label: 'l',
  raw: status === 'unavailable' ? null : 1,
  display: status === 'unavailable' ? '—' : '1',
  status,
  citationIds: status === 'unavailable' ? [] : ['c1'],
  derivedFrom: null,
  limitation,
  alternatives: [],
  choice: null,
});

describe('the comparables section in words', () => {
  it('splits the grid into tables of at most three comps for paper', () => {
    expect(chunkColumns(4, 3)).toEqual([{ from: 0, to: 3 }, { from: 3, to: 4 }]);
    expect(chunkColumns(6, 3)).toEqual([{ from: 0, to: 3 }, { from: 3, to: 6 }]);
    expect(chunkColumns(2, 2)).toEqual([{ from: 0, to: 2 }]);
    expect(chunkColumns(0, 3)).toEqual([{ from: 0, to: 0 }]);
  });

  it('prints a row once across when no source fills any cell for the same reason and nothing is adjusted', () => {
    const none = cell('unavailable', 'Not in the sample.');
    expect(sharedUnavailableReason([none, none, none], false)).toBe('Not in the sample');
    expect(sharedUnavailableReason([none, none], true)).toBeNull();
    expect(sharedUnavailableReason([none, cell('unavailable', 'Another reason.')], false)).toBeNull();
    expect(sharedUnavailableReason([none, cell('reported')], false)).toBeNull();
  });

  it('groups the sales the regression left out by why, counting those with no published address', () => {
    const groups = excludedGroups(
      [
        { id: 'a', address: 'A ST NW', why: 'No sale date' },
        { id: 'b', address: 'B ST NW', why: 'Not arm’s length' },
        { id: 'c', address: 'DC CAMA sale c (no address published)', why: 'No sale date' },
        { id: 'd', address: 'DC CAMA sale d (no address published)', why: 'No sale date' },
      ],
      new Set(['c', 'd']),
    );
    expect(groups).toEqual([
      { why: 'No sale date', count: 3, addresses: ['A ST NW'], unaddressed: 2 },
      { why: 'Not arm’s length', count: 1, addresses: ['B ST NW'], unaddressed: 0 },
    ]);
    expect(groups.map(excludedWords)).toEqual([
      'A ST NW; and 2 sales with no published address (listed by record under the sales analyzed and not used)',
      'B ST NW',
    ]);
    expect(excludedWords({ addresses: [], unaddressed: 1 })).toBe('1 sale with no published address (listed by record under the sales analyzed and not used)');
  });
});
