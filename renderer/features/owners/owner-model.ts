// What the owner screens show, as pure functions of the owner-search pages held: the portfolio
// (shared/graph/portfolio.ts: holdings grouped by the owner name after normalisation, honest counts,
// the derived total) with its citations numbered in one book, the searched owner's own group first,
// and the words the screens put around it.
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import type { Citation, CitedValue } from '../../../shared/cited/value.ts';
import { ownerPortfolio, type Portfolio, type PortfolioHolding, type PortfolioOwner } from '../../../shared/graph/portfolio.ts';
import { ownerNameKey } from '../../../shared/graph/relations.ts';
import { isRecord } from '../../../shared/json-data.ts';

export interface PortfolioScreen {
  portfolio: Portfolio;
  /** The citations every value of the portfolio refers to, by id. */
  citations: ReadonlyMap<string, Citation>;
  /** The owner groups, the one whose name is the searched name first, then as the service ranked them. */
  owners: PortfolioOwner[];
  /** The group published under the searched name itself, when the pages hold one. */
  exact: PortfolioOwner | null;
}

/**
 * The portfolio of the owner-search pages held, in page order (a page not yet bought is left out by the
 * caller); read as the search for `within` when the pages are a wider search's that covers it.
 */
export function portfolioScreen(searched: string, envelopes: readonly unknown[], within?: string): PortfolioScreen {
  const book = new CitationBook();
  const portfolio = ownerPortfolio(searched, envelopes, book.cite, within === undefined ? {} : { within });
  const key = ownerNameKey(within ?? searched);
  const exact = portfolio.owners.find((owner) => owner.key === key) ?? null;
  const owners = exact ? [exact, ...portfolio.owners.filter((owner) => owner !== exact)] : portfolio.owners;
  return { portfolio, citations: new Map(book.all().map((citation) => [citation.id, citation])), owners, exact };
}

/** The cursor of the page after this one, or null when it is the last (or not a readable answer). */
export function nextCursorOf(envelope: unknown): string | null {
  if (!isRecord(envelope) || envelope.status !== 'ok' || !isRecord(envelope.meta)) return null;
  const cursor = envelope.meta.next_cursor;
  return typeof cursor === 'string' && cursor !== '' ? cursor : null;
}

/** "$1,361,000 on 2013-12-17", "$0 (non-market or no price) on 1998-07-22", "no recorded sale". */
export function lastSaleText(holding: Pick<PortfolioHolding, 'lastSalePrice' | 'lastSaleDate'>): string {
  const { lastSalePrice: price, lastSaleDate: date } = holding;
  const dated = date.status === 'unavailable' ? null : date.display;
  // The price as formatted once (shared/report/format.ts): OTR's 0 reads "non-market or no price" there.
  const priced = price.status === 'unavailable' ? null : price.display;
  if (priced === null && dated === null) return 'no recorded sale';
  if (priced === null) return `on ${dated}`;
  return dated === null ? priced : `${priced} on ${dated}`;
}

/** The published spellings of a group beyond its name: "also published as NORMAN A PUGH NEWBY (1 holding)"; null for one spelling. */
export function variantsText(owner: Pick<PortfolioOwner, 'variants'>): string | null {
  const others = owner.variants.slice(1);
  if (others.length === 0) return null;
  const listed = others.map((variant) => `${variant.published} (${variant.count} ${variant.count === 1 ? 'holding' : 'holdings'})`);
  return `Also published as ${listed.join(', ')}.`;
}

export interface HoldingSource {
  citation: Citation;
  /** The values of the holding it gives: "Owner name, Address, SSL, Use code". */
  supports: string[];
  /** What the answer notes on some of those values ("0 means a transfer without a market price"). */
  notes: string[];
}

/**
 * What a holding's values rest on: each record once (a value's note makes its citation differ from the
 * record's other values', yet it is one record), with the values it gives and the notes on them.
 */
export function holdingSources(holding: PortfolioHolding, citations: ReadonlyMap<string, Citation>): HoldingSource[] {
  // Every row of the parcel is a record the holding rests on, each cited once.
  const values: CitedValue[] = [...holding.records.map((record) => record.owner), holding.address, holding.identifier, holding.use, holding.assessed, holding.lastSalePrice, holding.lastSaleDate];
  const sources = new Map<string, HoldingSource>();
  for (const value of values) {
    for (const id of value.citationIds) {
      const citation = citations.get(id);
      if (!citation) continue;
      const key = citation.recordRef === null ? id : `${citation.sourceId ?? ''}|${citation.recordRef}|${String(citation.synthetic)}`;
      const entry = sources.get(key) ?? { citation: { ...citation, note: null }, supports: [], notes: [] };
      if (!entry.supports.includes(value.label)) entry.supports.push(value.label);
      if (citation.note && !entry.notes.includes(citation.note)) entry.notes.push(citation.note);
      sources.set(key, entry);
    }
  }
  return [...sources.values()];
}
