import { describe, expect, it } from 'vitest';
import type { CitationFields } from '../cited/citation.ts';
import { isNewConstruction, mergeAgreeing, resolveCandidates, sameValue, yearBuiltFromPermits, type Candidate } from './conflicts.ts';

const cite = (publisher: string, recordRef: string, synthetic = false): CitationFields => ({
  publisher, dataset: null, asOf: null, sourceId: null, recordRef, releaseId: null, sha256: null, officialUrl: null, synthetic, note: null,
});
const candidate = (over: Partial<Candidate>): Candidate => ({
  key: 'k', raw: 'x', display: 'x', status: 'reported', citations: [cite('DC Office of Tax and Revenue', 'rec_a')], derivedFrom: null, note: null, rank: 0, ...over,
});

describe('sources that agree and disagree', () => {
  it('reads values as equal across case, spacing and number-as-text', () => {
    expect(sameValue('Joel  Kuipers', 'JOEL KUIPERS')).toBe(true);
    expect(sameValue('1302760', 1302760)).toBe(true);
    expect(sameValue('304 ADAMS AV', '304 ADAMS AVE')).toBe(false);
  });

  it('pools the citations of agreeing sources, and drops a weaker copy of a published value', () => {
    const merged = mergeAgreeing([
      candidate({ key: 'a' }),
      candidate({ key: 'b', citations: [cite('City of Alexandria', 'rec_b')], rank: 1 }),
      candidate({ key: 'c', status: 'synthetic', citations: [cite('Plat synthetic sample', 'rec_c', true)], rank: 2 }),
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.citations.map((c) => c.recordRef)).toEqual(['rec_a', 'rec_b']);
  });

  it('prefers published, then derived, then synthetic, and the report before the summary', () => {
    const r = resolveCandidates(
      [candidate({ key: 's', raw: 1890, status: 'synthetic', rank: 0 }), candidate({ key: 'd', raw: 2013, status: 'derived', rank: 3 })],
      null,
    );
    expect(r.chosen.key).toBe('d');
    expect(r.choice?.by).toBe('plat');
    const disagree = resolveCandidates([candidate({ key: 'sum', raw: 'B', rank: 1 }), candidate({ key: 'rep', raw: 'A', rank: 0 })], null);
    expect(disagree.chosen.key).toBe('rep');
    expect(disagree.choice?.reason).toMatch(/subject's own report/);
    expect(resolveCandidates([candidate({})], null).choice).toBeNull();
  });
});

describe('new construction permits', () => {
  it('tells new construction from additions to an existing building', () => {
    expect(isNewConstruction({ description: 'NEW SFD CONSTRUCTION ON A VACANT LOT', recordType: 'NEW BUILDING' })).toBe(true);
    expect(isNewConstruction({ description: 'NEW CONSTRUCTION OF A THREE STORY, SINGLE FAMILY, ROW HOUSE', recordType: null })).toBe(true);
    expect(isNewConstruction({ description: 'AN EXISTING 2-FL SFD WITH A TWO-STORY REAR ADDITION', recordType: 'NEW BUILDING' })).toBe(false);
    expect(isNewConstruction({ description: 'NEW REAR DWELLING', recordType: 'NEW BUILDING' })).toBe(false);
    expect(isNewConstruction({ description: null, recordType: 'NEW BUILDING' })).toBe(false);
  });

  it('gives the earliest contradicting permit as a derived "or later" year, and nothing when none contradicts', () => {
    const permits = [
      { recordNumber: 'B2', recordType: 'NEW BUILDING', description: 'NEW SFD CONSTRUCTION ON A VACANT LOT', date: '2015-01-02', citations: [cite('DCRA', 'rec_2')] },
      { recordNumber: 'B1', recordType: 'NEW BUILDING', description: 'NEW SFD CONSTRUCTION ON A VACANT LOT', date: '2013-03-20', citations: [cite('DCRA', 'rec_1')] },
    ];
    expect(yearBuiltFromPermits(permits, 1890, 3)).toMatchObject({ key: 'permit:B1', raw: 2013, display: '2013 or later', status: 'derived' });
    expect(yearBuiltFromPermits(permits, 2016, 3)).toBeNull();
  });
});
