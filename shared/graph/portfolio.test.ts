import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { CitedValueSchema } from '../cited/value.ts';
import { ownerPortfolio } from './portfolio.ts';
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
    const embedded = ownerPortfolio('GERRY M COATES', [ownershipPage('embedded')], new CitationBook().cite, embeddedCatalog);
    const independent = ownerPortfolio('GERRY M COATES', [ownershipPage('independent')], new CitationBook().cite, independentCatalog);
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
    const [holding] = ownerPortfolio('X', [ownershipPage('independent')], new CitationBook().cite, catalog).holdings;
    expect(holding?.owner).toMatchObject({ status: 'unavailable', limitation: expect.stringMatching(/^Not recognised by Plat: .*owner name/) });
    expect(holding?.address.display).toBe('934 N ST NW');
  });
});
