import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { CitedValueSchema } from '../cited/value.ts';
import { holdingsCountText, ownerPortfolio, searchCovers } from './portfolio.ts';
import { embeddedCatalog, independentCatalog, independentSearchEnvelope } from '../service/record-fields-fixtures.ts';
import { envelope, ids } from './test-kit.ts';

function portfolio(searched: string, pages: unknown[]) {
  const book = new CitationBook();
  return { result: ownerPortfolio(searched, pages, book.cite), book };
}

describe('ownerPortfolio', () => {
  it('says how much of a paged portfolio is loaded, never a partial count alone', () => {
    const { result } = portfolio('DISTRICT OF COLUMBIA', [envelope('searchDc1'), envelope('searchDc2')]);
    expect(result).toMatchObject({ matched: 252, loaded: 20, complete: false, countText: '20 of 252 loaded', problems: [] });
    expect(result.owners.map((owner) => [owner.name, owner.countText])).toEqual([['DISTRICT OF COLUMBIA', '20 holdings in the loaded pages (20 of 252 loaded)']]);
    expect(portfolio('DISTRICT OF COLUMBIA', [envelope('searchDc1')]).result.countText).toBe('10 of 252 loaded');
  });

  it('totals the assessed values it holds, derived, saying how many holdings lack one and that the rest are not loaded', () => {
    const { result, book } = portfolio('DISTRICT OF COLUMBIA', [envelope('searchDc1'), envelope('searchDc2')]);
    const valued = result.holdings.filter((holding) => typeof holding.assessed.raw === 'number');
    expect(valued).toHaveLength(19);
    const sum = valued.reduce((total, holding) => total + (holding.assessed.raw as number), 0);
    const total = result.totalAssessed;
    expect(CitedValueSchema.parse(total)).toEqual(total);
    expect(total).toMatchObject({ status: 'derived', raw: sum, limitation: 'Not the owner’s whole assessed value: some holdings are missing from the sum.' });
    expect(total.derivedFrom).toBe(
      'Sum of the assessed values of 19 of 20 holdings (1 has no assessed value in the answers). Not every holding of the search is loaded (20 of 252 loaded).',
    );
    // Cited to the assessment source, not to 19 separate records.
    expect(total.citationIds).toHaveLength(1);
    expect(book.all().find((citation) => citation.id === total.citationIds[0])).toMatchObject({ sourceId: 'dc_otr_assessment', recordRef: null });
    expect(result.holdings.find((holding) => holding.assessed.status === 'unavailable')?.assessed.limitation).toBe('Not in the search answer for this holding.');
  });

  it('gives a complete count and a whole total when every page is held', () => {
    const { result } = portfolio('ABDOLLAH POOZESH', [envelope('searchPoozesh')]);
    expect(result).toMatchObject({ matched: 2, loaded: 2, complete: true, countText: '2 holdings' });
    expect(result.totalAssessed.derivedFrom).toBe('Sum of the assessed values of all 2 holdings.');
    expect(result.totalAssessed.limitation).toBeNull();
  });

  it('says “its one holding”, not “all 1 holdings”, for an owner with one', () => {
    const { result } = portfolio('JOEL KUIPERS', [envelope('searchKuipers')]);
    expect(result.countText).toBe('1 holding');
    expect(result.totalAssessed.derivedFrom).toBe('Sum of the assessed values of its one holding.');
  });

  it('groups published spellings of one name after normalisation, and keeps a name without the middle initial apart', () => {
    const { result } = portfolio('PUGH', [envelope('searchPugh')]);
    expect(result.countText).toBe('7 holdings');
    const newby = result.owners.find((owner) => owner.key === 'NORMAN A PUGH NEWBY');
    expect(newby?.name).toBe('NORMAN A PUGH-NEWBY');
    expect(newby?.variants).toEqual([
      { published: 'NORMAN A PUGH-NEWBY', count: 3 },
      { published: 'NORMAN A PUGH NEWBY', count: 1 },
    ]);
    expect(newby?.countText).toBe('4 holdings');
    expect(newby?.ownerId).toBe('owner:NORMAN A PUGH NEWBY');
    expect(result.owners.map((owner) => owner.key)).toEqual(['DANIEL PUGH', 'NORMAN A PUGH NEWBY', 'NORMAN PUGH NEWBY', 'RICHARD A PUGH']);
  });

  it('keeps holdings whose records publish no owner name together, never as an owner called that', () => {
    const page = envelope('searchPugh');
    const items = (page.data as { items: Array<{ facts: Record<string, unknown>; property_ref: string }> }).items;
    const unnamed = items[0]?.property_ref;
    for (const item of items) if (item.property_ref === unnamed) delete item.facts.owner_name;
    const { result } = portfolio('PUGH', [page]);
    const group = result.owners.find((owner) => owner.key === '');
    expect(group).toMatchObject({ ownerId: null, name: '(no owner name published)', variants: [], countText: '1 holding' });
    expect(group?.holdings[0]?.owner).toMatchObject({ status: 'unavailable', limitation: 'Not in the search answer for this holding.' });
  });

  it('shows each holding’s address, SSL, use, assessment and last sale, each cited', () => {
    const { result, book } = portfolio('JOEL KUIPERS', [envelope('searchKuipers')]);
    const [holding] = result.holdings;
    expect(holding).toMatchObject({ openKind: 'parcel', published: 'JOEL KUIPERS' });
    expect([holding?.address.display, holding?.identifier.display, holding?.use.display, holding?.assessed.display, holding?.lastSalePrice.display, holding?.lastSaleDate.display]).toEqual([
      '1708 21ST ST NW',
      '0065 0007',
      '24',
      '$1,302,760',
      '$1,361,000',
      '2013-12-17',
    ]);
    const sources = new Set([holding?.address, holding?.assessed, holding?.lastSaleDate].map((value) => book.all().find((citation) => citation.id === value?.citationIds[0])?.sourceId));
    expect(sources).toEqual(new Set(['dc_otr_ownership', 'dc_otr_assessment', 'dc_otr_sale']));
  });

  it('keeps the pages it can read when one cannot be read, and counts a page held twice once', () => {
    const { result } = portfolio('DISTRICT OF COLUMBIA', [envelope('searchDc1'), envelope('connectedNotFound'), envelope('searchDc1')]);
    expect(result.loaded).toBe(10);
    expect(result.complete).toBe(false);
    expect(result.problems).toEqual([
      'The owner search (page 2) answer is an error (not_found): No entity parc_00000000-0000-5000-8000-000000000000 in the sample.',
    ]);
  });
});

describe('ownerPortfolio from v4 ownership records', () => {
  /** The OTR record of 934 N ST NW as a page of ownership records, in either dialect. */
  function ownershipPage(dialect: 'embedded' | 'independent'): Record<string, unknown> {
    const answer = envelope('sales934');
    for (const item of (answer.data as { items: Array<Record<string, unknown>> }).items) Object.assign(item, { kind: 'ownership', source_id: 'dc_otr_ownership' });
    return dialect === 'embedded' ? answer : independentSearchEnvelope(answer);
  }
  const row = (result: ReturnType<typeof ownerPortfolio>) =>
    result.holdings.map((holding) => [holding.owner.display, holding.address.display, holding.identifier.display, holding.lastSaleDate.raw, holding.openId]);

  it('reads owner, address, SSL and last sale from either dialect’s names, and totals the assessed value published as text', () => {
    const embedded = ownerPortfolio('GERRY M COATES', [ownershipPage('embedded')], new CitationBook().cite, { catalog: embeddedCatalog });
    const independent = ownerPortfolio('GERRY M COATES', [ownershipPage('independent')], new CitationBook().cite, { catalog: independentCatalog });
    expect(row(independent)).toEqual(row(embedded));
    expect(row(independent)).toEqual([['GERRY M COATES', '934 N ST NW', '0368 0909', '2014-02-26', ids.parcel934]]);
    expect(independent).toMatchObject({ complete: true, countText: '1 holding', problems: [] });
    expect(independent.totalAssessed.raw).toBe(2014890);
    expect(independent.holdings[0]?.assessed.raw).toBe('2014890.00');
    // The total keeps the amounts it summed, read from the text, for Verify to make it again.
    expect(independent.totalAssessed).toMatchObject({ display: '$2,014,890', derivation: { rule: 'sum-of-dollars', inputs: [2014890] } });
  });

  it('says a value whose field it cannot find is not recognised, not missing', () => {
    const catalog = independentCatalog.map((item) => (item.kind === 'ownership' ? { ...item, fields: ['SSL', 'TITULAR', 'PREMISEADD'] } : item));
    const [holding] = ownerPortfolio('X', [ownershipPage('independent')], new CitationBook().cite, { catalog }).holdings;
    expect(holding?.owner).toMatchObject({ status: 'unavailable', limitation: expect.stringMatching(/^Not recognised by Plat: .*owner name/) });
    expect(holding?.address.display).toBe('934 N ST NW');
  });
});

describe('a holding is a parcel (the real roll: parcels the OTR roll lists on two rows)', () => {
  const groupOf = (result: ReturnType<typeof ownerPortfolio>, key: string) => result.owners.find((owner) => owner.key === key);

  it('BRUNO A CHUMPITAZI MD PC: 3 holdings worth $5,235,130, not 5 rows worth $7,784,560', () => {
    const { result, book } = portfolio('BRUNO A CHUMPITAZI MD PC', [envelope('searchBruno')]);
    const bruno = groupOf(result, 'BRUNO A CHUMPITAZI MD PC');
    expect(bruno?.holdings.map((holding) => [holding.identifier.display, holding.assessed.raw])).toEqual([
      ['0451 0022', 1656250],
      ['0451 0827', 2685700],
      ['0451 0829', 893180],
    ]);
    expect(bruno?.countText).toBe('3 holdings');
    expect(bruno?.totalAssessed).toMatchObject({ raw: 5235130, display: '$5,235,130', derivedFrom: 'Sum of the assessed values of all 3 holdings.' });
    // The search's count: 4 parcels (0451 0828 is published under another name) from the service's 6 rows.
    expect(result).toMatchObject({ loaded: 4, rows: 6, matched: 6, complete: true, countText: '4 holdings' });
    // A parcel on two rows cites both rows.
    const twoRows = bruno?.holdings[0];
    expect(twoRows?.records.map((record) => book.all().find((citation) => citation.id === record.owner.citationIds[0])?.recordRef?.slice(0, 12))).toEqual([
      'rec_4286a245',
      'rec_f0b6f55c',
    ]);
  });

  it('counts a partial search’s parcels apart from the rows the service counts', () => {
    const page = envelope('searchBruno');
    (page.meta as Record<string, unknown>).next_cursor = 'eyJuZXh0IjoxfQ';
    (page.data as Record<string, unknown>).properties_matched = 60;
    const { result } = portfolio('BRUNO A CHUMPITAZI MD PC', [page]);
    expect(result).toMatchObject({ complete: false, loaded: 4, rows: 6, countText: '4 holdings from 6 of 60 records loaded' });
    expect(holdingsCountText(result)).toBe('4 holdings from 6 of 60 records loaded');
  });

  it('CINDY CHANG: 3 parcels worth $446,040, not 4 holdings worth $817,080', () => {
    const { result } = portfolio('CINDY CHANG', [envelope('searchCindyChang')]);
    const cindy = groupOf(result, 'CINDY CHANG');
    expect(cindy?.holdings).toHaveLength(3);
    expect(cindy?.totalAssessed.raw).toBe(446040);
    expect(cindy?.variants).toEqual([{ published: 'CINDY CHANG', count: 3 }]);
  });

  it('"anthony c cheng": 4 parcels; the spouse-form group shows only what its own rows carry', () => {
    const { result } = portfolio('anthony c cheng', [envelope('searchCheng')]);
    expect(result.holdings).toHaveLength(4);
    expect(result.totalAssessed.raw).toBe(734150 + 1792610 + 434860 + 285800);
    const own = groupOf(result, 'ANTHONY C CHENG');
    expect(own?.holdings).toHaveLength(4);
    expect(own?.totalAssessed.raw).toBe(3247420);
    expect(own?.holdings.every((holding) => holding.fromOtherRow.length === 0)).toBe(true);
    const spouse = groupOf(result, 'ANTHONY C CHENG YUN L CHENG');
    expect(spouse?.holdings).toHaveLength(4);
    // The assessment is on the other row: shown, marked as such, and not summed for this name.
    for (const holding of spouse?.holdings ?? []) {
      expect(holding.fromOtherRow).toContain('assessed_value_dollars');
      expect(holding.assessed.limitation).toBe('Shown from the parcel’s other row (published under ANTHONY C CHENG): no row of this name carries it.');
    }
    expect(spouse?.totalAssessed).toMatchObject({ status: 'unavailable', raw: null });
    expect(spouse?.totalAssessed.limitation).toBe('None of the 4 holdings has an assessed value on its own rows (the parcel’s other row carries it).');
  });
});

describe('a wider search read as one owner’s', () => {
  it('covers an owner whose name holds the searched words, never a name that merely shares letters', () => {
    expect(searchCovers('PUGH', 'NORMAN A PUGH-NEWBY')).toBe(true);
    expect(searchCovers('norman a pugh newby', 'NORMAN A PUGH-NEWBY')).toBe(true);
    expect(searchCovers('PUG', 'NORMAN A PUGH-NEWBY')).toBe(false);
    expect(searchCovers('NORMAN A PUGH-NEWBY', 'PUGH')).toBe(false);
  });

  it('keeps only the rows published under a name containing the owner’s, and counts them whole', () => {
    const { result } = { result: ownerPortfolio('PUGH', [envelope('searchPugh')], new CitationBook().cite, { within: 'NORMAN A PUGH-NEWBY' }) };
    expect(result.owners.map((owner) => owner.key)).toEqual(['NORMAN A PUGH NEWBY']);
    expect(result).toMatchObject({ searched: 'NORMAN A PUGH-NEWBY', complete: true, loaded: 4, matched: 4, countText: '4 holdings' });
  });
});
