import { describe, expect, it } from 'vitest';
import { matchJurisdictions } from './jurisdiction-match.ts';
import { nextPage, pageCursor, type PagedRun } from './search-store.ts';

describe('finding a jurisdiction', () => {
  it('matches names, abbreviations and codes, best first', () => {
    expect(matchJurisdictions('alexandria').map((j) => j.code)).toEqual(['51510']);
    expect(matchJurisdictions('prince george')[0]?.code).toBe('24033');
    expect(matchJurisdictions('24031')[0]?.name).toBe('Montgomery County, MD');
    expect(matchJurisdictions('va')[0]?.code).toBe('51');
    expect(matchJurisdictions('district').map((j) => j.code)).toEqual(['11', '11001']);
    expect(matchJurisdictions('zzz')).toEqual([]);
    expect(matchJurisdictions('')).toHaveLength(34);
  });
});

describe('paging by cursor', () => {
  const first: PagedRun<string> = { first: 'q', cursors: [], page: 0 };

  it('keeps the cursors of pages already reached so going back and forth costs nothing new', () => {
    const two = nextPage(first, 'c2');
    const three = nextPage(two, 'c3');
    expect(three).toEqual({ first: 'q', cursors: ['c2', 'c3'], page: 2 });
    expect(pageCursor(three)).toBe('c3');
    expect(pageCursor(three, 0)).toBe(undefined);
    const back = { ...three, page: 0 };
    // Forward again along the same cursor: the later page stays known.
    expect(nextPage(back, 'c2')).toEqual({ first: 'q', cursors: ['c2', 'c3'], page: 1 });
    // A different cursor means the pages after it are another sequence.
    expect(nextPage(back, 'other')).toEqual({ first: 'q', cursors: ['other'], page: 1 });
  });
});
