import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { microUsdFromDollars } from '../money.ts';
import { ownerPortfolio } from './portfolio.ts';
import { PORTFOLIO_CSV_HEADER, portfolioCsv, portfolioSummary } from './portfolio-export.ts';
import { envelope } from './test-kit.ts';

// The sample's first two pages of DISTRICT OF COLUMBIA's holdings: 20 parcels.
const dc = () => {
  const book = new CitationBook();
  return { portfolio: ownerPortfolio('DISTRICT OF COLUMBIA', [envelope('searchDc1'), envelope('searchDc2')], book.cite), book };
};

describe('a portfolio in brief', () => {
  it('counts holdings by use, their assessed values adding up to the portfolio’s total, and the span of last sales', () => {
    const { portfolio } = dc();
    const summary = portfolioSummary(portfolio.holdings);
    expect(summary.holdings).toBe(20);
    expect(summary.byUse[0]).toEqual({ use: '194', holdings: 8, assessed: microUsdFromDollars(3_148_750), unassessed: 0 });
    expect(portfolioSummary(portfolio.holdings, 20).byUse.find((line) => line.use === '87')).toMatchObject({ holdings: 1, unassessed: 1 });
    expect(summary.byUse).toHaveLength(6);
    expect(summary.otherUses).toMatchObject({ uses: 5, holdings: 5, unassessed: 1 });
    const lines = [...summary.byUse, summary.otherUses!];
    expect(lines.reduce((sum, line) => sum + line.holdings, 0)).toBe(20);
    // One decision: the by-use sums add up to the total the owner page states.
    expect(lines.reduce((sum, line) => sum + line.assessed, 0)).toBe(microUsdFromDollars(Number(portfolio.totalAssessed.raw)));
    expect(portfolioSummary(portfolio.holdings, 20).otherUses).toBeNull();
    expect(summary.lastSales).toEqual({ earliest: '2001-09-13', latest: '2001-09-13', dated: 2, undated: 18 });
  });
});

describe('the portfolio as CSV', () => {
  it('writes one row per holding with its values and every source cited in full', () => {
    const { portfolio, book } = dc();
    const lines = portfolioCsv(portfolio.owners, book.all()).split('\r\n');
    expect(lines[0]).toBe(PORTFOLIO_CSV_HEADER.join(','));
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines[1]).toMatch(/^DISTRICT OF COLUMBIA,0175 0826,1617 U ST NW,84,"\$5,607,920",— \(Not in the search answer for this holding\.\),/);
    for (const line of lines.slice(1, -1)) expect(line).toMatch(/DC Office of Tax and Revenue; Real Property Tax Database: .*; as of 2017-02-05; record rec_/);
  });
});
