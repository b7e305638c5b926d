// The screening's decisions on the real answer kept in the fixture (0.5 mi around 1708 21st St NW,
// 2016, use code 24): one deed over two lots flagged, each lot naming the other; the same day and
// price squares apart said to be possibly chance; a screened-out sale out of the regression until
// taken in with a reason; and the not-used list keeping "not chosen by the appraiser" apart.
import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { readCandidates } from './candidates.ts';
import compsFixture from './fixtures/dc-1708-comps-2016.json' with { type: 'json' };
import { DEFAULT_CRITERIA, emptyComparablesWorkfile } from './model.ts';
import { analysisExclusion, regressionScreen, notUsedEntries, takeInNeeded, takenInWords } from './screening.ts';

type Item = { record_ref: string; sections: { identity: { address?: string; ssl?: string } } };
const envelope = () => structuredClone(compsFixture.envelope) as unknown as { data: { items: Item[] } };

function read(page = envelope()) {
  const book = new CitationBook();
  const set = readCandidates([page], { subject: null, criteria: DEFAULT_CRITERIA, effectiveDate: '2017-01-01', subjectUseCode: '24' }, book.cite);
  const at = (address: string) => set.candidates.find((sale) => sale.address === address)!;
  return { set, at };
}

describe('multi-parcel sales', () => {
  it('flags 1717 and 1719 Corcoran St NW (one square, one day, one price), each naming the other', () => {
    const { set, at } = read();
    expect(set.candidates.filter((sale) => sale.flags.includes('multi_parcel')).map((sale) => sale.address).sort()).toEqual(['1717 CORCORAN ST NW', '1719 CORCORAN ST NW']);
    const lot = at('1717 CORCORAN ST NW');
    expect(lot.relatedLots).toEqual([expect.objectContaining({ address: '1719 CORCORAN ST NW', candidateId: at('1719 CORCORAN ST NW').id })]);
    expect(lot.screenedOut).toEqual({
      reason: 'multi_parcel',
      note: 'Multi-parcel sale: the same recordation date (2016-07-26) and price ($1,650,000) are recorded on another lot: 1719 CORCORAN ST NW (SSL 0155    0168, use code 24). One deed over several lots: the price is not this lot’s alone.',
    });
  });

  it('says the same day and price on a lot squares away may be chance, and still screens it for the appraiser to judge', () => {
    const page = envelope();
    const item = page.data.items.find((entry) => entry.sections.identity.address === '1719 CORCORAN ST NW')!;
    item.sections.identity.ssl = '0999    0001';
    const lot = read(page).at('1717 CORCORAN ST NW');
    expect(lot.screenedOut?.reason).toBe('multi_parcel');
    expect(lot.screenedOut?.note).toMatch(/Lots in different squares: one deed over lots apart, or the same day and price by chance; the deed says which\.$/);
  });

  it('never calls two listings of one lot a multi-parcel deed: the second is a duplicate record of the sale', () => {
    const page = envelope();
    const copy = structuredClone(page.data.items.find((entry) => entry.sections.identity.address === '1730 18TH ST NW')!);
    copy.record_ref = 'rec_another-listing';
    page.data.items.push(copy);
    const { set } = read(page);
    const listings = set.candidates.filter((sale) => sale.address === '1730 18TH ST NW');
    expect(listings.map((sale) => sale.flags.includes('multi_parcel'))).toEqual([false, false]);
    expect(listings[1]!.flags).toContain('duplicate_record');
    expect(listings[1]!.screenedOut?.reason).toBe('duplicate');
  });
});

describe('what the appraiser does with a screen', () => {
  it('keeps a screened-out sale out of the regression until taken in with a reason, and prints the act', () => {
    const { at } = read();
    const lot = at('1717 CORCORAN ST NW');
    const workfile = emptyComparablesWorkfile();
    expect(analysisExclusion(lot, workfile)).toMatch(/^screened out by Plat \(multi-parcel sale: Multi-parcel sale/);
    expect(regressionScreen(lot)).toMatch(/^multi-parcel sale: /);
    expect(takeInNeeded(lot, workfile)).toMatch(/^Multi-parcel sale/);
    const taken = { ...workfile, takenIn: { [lot.id]: { reason: 'A parking pad conveyed with the house.', at: '2026-11-27T21:00:00Z' } } };
    expect(analysisExclusion(lot, taken)).toBeNull();
    expect(takeInNeeded(lot, taken)).toBeNull();
    expect(takenInWords(lot, taken)).toMatch(/^Screened out by Plat \(Multi-parcel sale.*\) and taken in by the appraiser on 2026-11-27: “A parking pad conveyed with the house\.”$/);
    // A sale Plat did not screen is analyzed as it is.
    expect(analysisExclusion(at('1730 18TH ST NW'), workfile)).toBeNull();
  });

  it('lists an unchosen, unscreened sale as not chosen by the appraiser (no reason made up), a screened one as Plat’s', () => {
    const { set, at } = read();
    const entries = notUsedEntries(set.candidates, emptyComparablesWorkfile());
    expect(entries.find((entry) => entry.candidate === at('1730 18TH ST NW'))).toMatchObject({ by: 'not_chosen', reason: null, note: 'Not chosen by the appraiser.' });
    expect(entries.find((entry) => entry.candidate === at('1717 CORCORAN ST NW'))).toMatchObject({ by: 'plat', reason: 'multi_parcel' });
    expect(entries.every((entry) => entry.by !== 'plat' || entry.candidate.screenedOut !== null)).toBe(true);
  });
});
