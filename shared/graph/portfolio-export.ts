// An owner's portfolio in brief and as a file: how many holdings, their assessed total by use, the
// span of their last sales (the owner page's summary), and one CSV row per holding with every source
// cited. Read from the holdings holdings.ts made (one per parcel); nothing is counted again here.
import { citationText } from '../cited/citation.ts';
import type { Citation, CitedValue } from '../cited/value.ts';
import { csvField } from '../csv.ts';
import { addMicroUsd, microUsdFromDollars, type MicroUsd } from '../money.ts';
import { assessedAmount, type PortfolioHolding } from './holdings.ts';
import type { PortfolioOwner } from './portfolio.ts';

export interface UseLine {
  /** The use code as published, or null for holdings whose records publish none. */
  use: string | null;
  holdings: number;
  /** The sum of the assessed values this use's holdings carry themselves (micro-USD). */
  assessed: MicroUsd;
  /** Holdings of this use with no assessed value of their own (none, or only on the parcel's other row). */
  unassessed: number;
}

export interface PortfolioSummary {
  holdings: number;
  /** By use, most holdings first (at most `uses` of them). */
  byUse: UseLine[];
  /** The uses after those, together (null when none is left out). */
  otherUses: (UseLine & { uses: number }) | null;
  lastSales: { earliest: string | null; latest: string | null; dated: number; undated: number };
}

const shownRaw = (value: CitedValue): string | null => (value.status === 'unavailable' || value.raw === null || String(value.raw).trim() === '' ? null : String(value.raw).trim());

/** Uses listed one by one in a summary; the rest are one line. */
export const USES_LISTED = 6;

/** The summary of a portfolio's holdings (each a parcel). */
export function portfolioSummary(holdings: readonly PortfolioHolding[], uses = USES_LISTED): PortfolioSummary {
  const byCode = new Map<string | null, UseLine>();
  const dates: string[] = [];
  for (const holding of holdings) {
    const use = shownRaw(holding.use);
    const line = byCode.get(use) ?? { use, holdings: 0, assessed: 0, unassessed: 0 };
    const amount = assessedAmount(holding);
    byCode.set(use, {
      ...line,
      holdings: line.holdings + 1,
      assessed: amount === null ? line.assessed : addMicroUsd(line.assessed, microUsdFromDollars(amount)),
      unassessed: line.unassessed + (amount === null ? 1 : 0),
    });
    const date = shownRaw(holding.lastSaleDate);
    if (date !== null) dates.push(date.slice(0, 10));
  }
  dates.sort();
  const ranked = [...byCode.values()].sort((a, b) => b.holdings - a.holdings || (a.use ?? '\uffff').localeCompare(b.use ?? '\uffff', undefined, { numeric: true }));
  const rest = ranked.slice(uses);
  const otherUses =
    rest.length === 0
      ? null
      : { use: null, uses: rest.length, holdings: rest.reduce((sum, line) => sum + line.holdings, 0), assessed: addMicroUsd(...rest.map((line) => line.assessed)), unassessed: rest.reduce((sum, line) => sum + line.unassessed, 0) };
  return { holdings: holdings.length, byUse: ranked.slice(0, uses), otherUses, lastSales: { earliest: dates[0] ?? null, latest: dates.at(-1) ?? null, dated: dates.length, undated: holdings.length - dates.length } };
}

export const PORTFOLIO_CSV_HEADER = ['Owner name', 'Parcel', 'Address', 'Use', 'Assessed value', 'Last sale price', 'Last sale date', 'Rows of the roll', 'Status', 'Sources'];

/** The portfolio as CSV (RFC 4180, CRLF): one row per holding (parcel) of each owner name, every value's sources cited in full. */
export function portfolioCsv(owners: readonly PortfolioOwner[], citations: readonly Citation[]): string {
  const byId = new Map(citations.map((citation) => [citation.id, citation]));
  const shown = (value: CitedValue) => (value.status === 'unavailable' ? `— (${value.limitation ?? 'unavailable'})` : value.limitation ? `${value.display} (${value.limitation})` : value.display);
  const lines = [PORTFOLIO_CSV_HEADER.join(',')];
  for (const owner of owners) {
    for (const holding of owner.holdings) {
      const values = [holding.identifier, holding.address, holding.use, holding.assessed, holding.lastSalePrice, holding.lastSaleDate, ...holding.records.map((record) => record.owner)];
      const sources = [...new Set(values.flatMap((value) => value.citationIds))].map((id) => (byId.has(id) ? citationText(byId.get(id)!) : `citation ${id} not in this document`)).join(' | ');
      const statuses = [...new Set(values.filter((value) => value.status !== 'unavailable').map((value) => value.status))].join('/');
      const row = [
        owner.name,
        shown(holding.identifier),
        shown(holding.address),
        shown(holding.use),
        shown(holding.assessed),
        shown(holding.lastSalePrice),
        shown(holding.lastSaleDate),
        holding.records.length,
        statuses,
        sources,
      ];
      lines.push(row.map(csvField).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
