import { describe, expect, it } from 'vitest';
import { envelope } from '../../../shared/graph/test-kit.ts';
import { holdingsCountText } from '../../../shared/graph/portfolio.ts';
import { holdingSources, lastSaleText, nextCursorOf, portfolioScreen, variantsText } from './owner-model.ts';

describe('portfolioScreen', () => {
  it('never gives a partial count alone: the screen and each owner group say how much is loaded', () => {
    const screen = portfolioScreen('DISTRICT OF COLUMBIA', [envelope('searchDc1'), envelope('searchDc2')]);
    expect(holdingsCountText(screen.portfolio)).toBe('20 of 252 holdings loaded');
    expect(screen.owners.map((owner) => [owner.name, owner.countText])).toEqual([['DISTRICT OF COLUMBIA', '20 holdings in the loaded pages (20 of 252 loaded)']]);
    expect(screen.exact?.name).toBe('DISTRICT OF COLUMBIA');
    // The group's total says it is not the owner's whole value.
    expect(screen.exact?.totalAssessed.derivedFrom).toContain('Not every holding of the search is loaded (20 of 252 loaded).');
  });

  it('counts a search held whole as it is, and puts the searched owner’s own name first', () => {
    expect(holdingsCountText(portfolioScreen('ABDOLLAH POOZESH', [envelope('searchPoozesh')]).portfolio)).toBe('2 holdings');
    const pugh = portfolioScreen('norman a pugh newby', [envelope('searchPugh')]);
    expect(pugh.exact?.name).toBe('NORMAN A PUGH-NEWBY');
    expect(pugh.owners[0]).toBe(pugh.exact);
    expect(pugh.owners.map((owner) => owner.key)).toEqual(['NORMAN A PUGH NEWBY', 'DANIEL PUGH', 'NORMAN PUGH NEWBY', 'RICHARD A PUGH']);
    expect(portfolioScreen('PUGH', [envelope('searchPugh')]).exact).toBeNull();
  });

  it('says when the service does not say how many more there are', () => {
    expect(holdingsCountText({ complete: false, loaded: 50, rows: 50, matched: null })).toBe('50 holdings loaded; more pages not loaded (the service does not say how many)');
  });

  it('lists the other published spellings of a name with their counts', () => {
    const newby = portfolioScreen('PUGH', [envelope('searchPugh')]).owners.find((owner) => owner.key === 'NORMAN A PUGH NEWBY');
    expect(newby && variantsText(newby)).toBe('Also published as NORMAN A PUGH NEWBY (1 holding).');
    expect(variantsText({ variants: [{ published: 'JOEL KUIPERS', count: 1 }] })).toBeNull();
  });
});

/** The answer with its last sale price published as 0 (OTR's way of writing a transfer without a market price). */
function withZeroPrice(answer: Record<string, unknown>): Record<string, unknown> {
  for (const item of (answer.data as { items: Array<{ facts: Record<string, { value: unknown }> }> }).items) {
    const price = item.facts.last_sale_price_dollars;
    if (price) price.value = 0;
  }
  return answer;
}

describe('a holding', () => {
  const [kuipers] = portfolioScreen('JOEL KUIPERS', [envelope('searchKuipers')]).portfolio.holdings;

  it('reads its last sale with its price and date, a zero price in the one wording: non-market or no price', () => {
    expect(kuipers && lastSaleText(kuipers)).toBe('$1,361,000 on 2013-12-17');
    const dated = { status: 'reported' as const, display: '2001-09-13' };
    // A $0 sale, as the answer publishes it: formatted once (shared/report/format.ts), in the project's words.
    const sold = { ...kuipers!.lastSaleDate, ...dated };
    const price = portfolioScreen('JOEL KUIPERS', [withZeroPrice(envelope('searchKuipers'))]).portfolio.holdings[0]!.lastSalePrice;
    expect(lastSaleText({ lastSalePrice: price, lastSaleDate: sold })).toBe('$0 (non-market or no price) on 2001-09-13');
    expect(lastSaleText({ lastSalePrice: price, lastSaleDate: sold })).not.toMatch(/non-market transfer/);
    const none = { ...kuipers!.lastSaleDate, status: 'unavailable' as const, raw: null, display: '—' };
    expect(lastSaleText({ lastSalePrice: none, lastSaleDate: none })).toBe('no recorded sale');
  });

  it('cites each record once, with the values it gives', () => {
    const screen = portfolioScreen('JOEL KUIPERS', [envelope('searchKuipers')]);
    const holding = screen.portfolio.holdings[0]!;
    const sources = holdingSources(holding, screen.citations);
    expect(sources.map((source) => [source.citation.sourceId, source.supports])).toEqual([
      ['dc_otr_ownership', ['Owner name', 'Address', 'SSL', 'Use code']],
      ['dc_otr_assessment', ['Assessed value']],
      ['dc_otr_sale', ['Last sale price', 'Last sale date']],
    ]);
    expect(sources.every((source) => source.citation.recordRef?.startsWith('rec_'))).toBe(true);
  });
});

describe('nextCursorOf', () => {
  it('reads the next page’s cursor, and none from the last page or an error', () => {
    expect(nextCursorOf(envelope('searchDc1'))).toMatch(/^ey/);
    expect(nextCursorOf(envelope('searchKuipers'))).toBeNull();
    expect(nextCursorOf(envelope('connectedNotFound'))).toBeNull();
  });
});
