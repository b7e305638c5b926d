// An owner's portfolio from the pages of a v2 property search by owner name (or of a v4 search of
// ownership records, read by the fields the service's catalog names): every holding, a parcel
// (shared/graph/holdings.ts: address, SSL, use, assessment, last sale, each cited), the holdings grouped by the owner name after
// normalisation with the published spellings listed, the total assessed value (derived, saying from how
// many holdings and whether any lack a value), and a count that is never partial without saying so:
// "252 holdings" when every page is held, "20 of 252 loaded" when not.
import { documentCitation, type CitationView } from '../cited/citation.ts';
import type { Cite } from '../cited/citation-book.ts';
import type { CitedValue } from '../cited/value.ts';
import { derivedValue } from '../cited/derived.ts';
import { isRecord } from '../json-data.ts';
import { derive } from '../cited/derivation.ts';
import { V2SearchResponseSchema, type V2SearchData } from '../service/v2.ts';
import { V4SearchResponseSchema, type V4SearchData } from '../service/v4.ts';
import { recordFactItem, recordFieldMap, type CatalogItemFields } from '../service/record-fields.ts';
import { readAnswer, text, unavailable, type Json } from './answers.ts';
import { assessedAmount, holdingsOf, rowNameKey, type PortfolioHolding } from './holdings.ts';
import { ownerNameKey, ownerNodeId } from './relations.ts';

export type { PortfolioHolding } from './holdings.ts';

export interface PortfolioOwner {
  /** The owner's node in the graph (`owner:<normalised name>`); null for the holdings whose records publish no owner. */
  ownerId: string | null;
  /** The normalised name ('' for no published name). */
  key: string;
  /** The most used published spelling. */
  name: string;
  variants: Array<{ published: string; count: number }>;
  holdings: PortfolioHolding[];
  /** "82 holdings", or what the loaded pages hold of it when the search is partial. */
  countText: string;
  totalAssessed: CitedValue;
}

export interface Portfolio {
  /** The text searched for. */
  searched: string;
  /** How many properties the search matched, as the service counts them; null when it does not say. */
  matched: number | null;
  /** Holdings (parcels) loaded. */
  loaded: number;
  /** Rows of the roll loaded (the service counts these: a parcel on two rows is one holding). */
  rows: number;
  complete: boolean;
  /** "252 holdings", or "20 of 252 loaded". */
  countText: string;
  holdings: PortfolioHolding[];
  owners: PortfolioOwner[];
  totalAssessed: CitedValue;
  /** Pages Plat could not read, in words (the other pages are kept). */
  problems: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const NO_OWNER = '(no owner name published)';

type Item = Json & { entity_ref: string; entity_kind: string };

/**
 * The sum of the holdings' assessed values, each parcel once: derived, citing the sources (not each
 * record) of the values summed, and saying how many holdings it covers, how many lack a value (or have
 * it only on the parcel's other row), and whether holdings remain unloaded.
 */
function totalAssessed(holdings: readonly PortfolioHolding[], partial: string | null, cite: Cite, sourceOf: (holding: PortfolioHolding) => CitationView | null): CitedValue {
  const field = 'total_assessed_value_dollars';
  const label = 'Total assessed value';
  const valued = holdings.filter((holding) => assessedAmount(holding) !== null);
  const lacking = holdings.length - valued.length;
  const elsewhere = holdings.filter((holding) => holding.fromOtherRow.includes('assessed_value_dollars')).length;
  const why = elsewhere === 0 ? 'no assessed value in the answers' : elsewhere === lacking ? `the assessed value only on the parcel’s other row` : `no assessed value on its own rows`;
  if (valued.length === 0) {
    return unavailable(field, label, holdings.length === 0 ? 'No holdings loaded.' : `None of the ${plural(holdings.length, 'holding')} has an assessed value ${elsewhere > 0 ? 'on its own rows (the parcel’s other row carries it)' : 'in the answers'}.`);
  }
  const amounts = valued.map((holding) => assessedAmount(holding) ?? 0);
  const derivation = { rule: 'sum-of-dollars', inputs: amounts };
  const sum = amounts.reduce((total, value) => total + value, 0);
  const covered = lacking === 0 ? (valued.length === 1 ? 'its one holding' : `all ${plural(valued.length, 'holding')}`) : `${valued.length} of ${plural(holdings.length, 'holding')} (${lacking} ${lacking === 1 ? 'has' : 'have'} ${why})`;
  return derivedValue(
    {
      field,
      label,
      raw: sum,
      display: derive(derivation),
      rule: `Sum of the assessed values of ${covered}.${partial ? ` ${partial}` : ''}`,
      // Each holding's assessed value, cited to its source as a whole: one endnote per source, not per holding.
      inputs: valued.map((holding) => {
        const view = sourceOf(holding);
        return { name: `the assessed value of ${holding.address.display}`, citations: view ? [documentCitation({ ...view, recordRef: null, extra: {} })] : [] };
      }),
      limitation: lacking > 0 || partial ? 'Not the owner’s whole assessed value: some holdings are missing from the sum.' : null,
      derivation,
    },
    cite,
  );
}

/**
 * The count of a search's holdings (parcels), never partial without saying so: "252 holdings" when
 * every page is held, else "20 of 252 loaded" (the summary line names the unit: "20 of 252 holdings
 * loaded"). The service counts rows of the roll; a parcel on two rows is one holding, and then the
 * rows are counted apart.
 */
function countWords(portfolio: Pick<Portfolio, 'complete' | 'loaded' | 'matched' | 'rows'>, unit: boolean): string {
  const { complete, loaded, matched, rows } = portfolio;
  const holdings = unit ? plural(loaded, 'holding') : loaded.toLocaleString('en-US');
  if (complete) return plural(loaded, 'holding');
  if (matched === null) return `${holdings} loaded; more pages not loaded (the service does not say how many)`;
  if (rows !== loaded) return `${plural(loaded, 'holding')} from ${rows.toLocaleString('en-US')} of ${plural(matched, 'record')} loaded`;
  return `${loaded.toLocaleString('en-US')} of ${unit ? plural(matched, 'holding') : matched.toLocaleString('en-US')} loaded`;
}

/** The summary line's count of holdings: "252 holdings", "50 of 252 holdings loaded". */
export const holdingsCountText = (portfolio: Pick<Portfolio, 'complete' | 'loaded' | 'matched' | 'rows'>): string => countWords(portfolio, true);

/**
 * Whether an owner-name search for `searched` lists every holding of the owner named `owner`: the
 * searched words, after normalisation, are words of the owner's name (a search for KUIPERS lists every
 * holding of JOEL KUIPERS). Plat's one reading of "an owner name containing it".
 */
export function searchCovers(searched: string, owner: string): boolean {
  const key = ownerNameKey(searched);
  const ownerKey = ownerNameKey(owner);
  return key !== '' && (key === ownerKey || ` ${ownerKey} `.includes(` ${key} `));
}

export interface PortfolioOptions {
  /** The v4 catalog, to read ownership records by the fields it names. */
  catalog?: readonly CatalogItemFields[];
  /**
   * Read a wider search's pages as the search for this owner name: only the rows published under a
   * name containing it (searchCovers) are kept, and the count is theirs.
   */
  within?: string;
}

/**
 * The portfolio of the owners an owner-name search found, from its pages in order. A page that is
 * an error or unreadable is named in `problems`; the holdings of the other pages are kept.
 */
export function ownerPortfolio(searched: string, pages: readonly unknown[], cite: Cite, options: PortfolioOptions = {}): Portfolio {
  const { catalog = [], within } = options;
  const problems: string[] = [];
  const byProperty = new Map<string, Item[]>();
  let matched: number | null = null;
  let lastPageHeld = false;
  const addItem = (item: Item) => {
    const propertyRef = text(item.property_ref) ?? item.entity_ref;
    const list = byProperty.get(propertyRef) ?? [];
    if (!list.some((known) => known.entity_ref === item.entity_ref)) list.push(item);
    byProperty.set(propertyRef, list);
  };
  const map = catalog.length > 0 ? recordFieldMap(catalog, 'ownership') : null;
  for (const [index, envelope] of pages.entries()) {
    // A v4 search of ownership records (the spec's owner lookup): each record read by the fields the catalog names.
    if (isRecord(envelope) && envelope.contract_version === 'svc-v4') {
      const read = readAnswer<V4SearchData>(V4SearchResponseSchema, envelope, `owner search (page ${index + 1})`);
      if (!read.ok) {
        problems.push(read.problem);
        continue;
      }
      if (!text(read.data.next_cursor) && !text(read.meta.next_cursor)) lastPageHeld = true;
      for (const record of read.data.items) addItem(recordFactItem(record, map) as unknown as Item);
      continue;
    }
    const read = readAnswer<V2SearchData>(V2SearchResponseSchema, envelope, `owner search (page ${index + 1})`);
    if (!read.ok) {
      problems.push(read.problem);
      continue;
    }
    if (typeof read.data.properties_matched === 'number') matched = read.data.properties_matched;
    if (!text(read.meta.next_cursor)) lastPageHeld = true;
    for (const item of read.data.items as Item[]) addItem(item);
  }
  const rows = [...byProperty].map(([propertyRef, items]) => ({ propertyRef, items }));
  const kept = within === undefined ? rows : rows.filter((row) => rowNameKey(row) !== '' && searchCovers(within, rowNameKey(row)));
  const found = holdingsOf(kept, cite);
  const { holdings } = found;
  const loaded = holdings.length;
  // The service counted the wider search's rows; a narrowed reading counts its own once every page is held.
  const total = within === undefined ? matched : lastPageHeld && problems.length === 0 ? found.rows : null;
  const complete = lastPageHeld && problems.length === 0 && (total === null || found.rows >= total);
  const countText = countWords({ complete, loaded, matched: total, rows: found.rows }, false);
  const partial = complete ? null : `Not every holding of the search is loaded (${countText}).`;

  const owners = [...found.byName].map(([key, list]): PortfolioOwner => {
    const counts = new Map<string, number>();
    for (const holding of list) {
      for (const published of new Set(holding.records.map((record) => record.published))) if (published !== null) counts.set(published, (counts.get(published) ?? 0) + 1);
    }
    const variants = [...counts].map(([published, count]) => ({ published, count })).sort((a, b) => b.count - a.count);
    const name = variants[0]?.published ?? null;
    return {
      ownerId: name === null || key === '' ? null : ownerNodeId(name),
      key,
      name: name === null || key === '' ? NO_OWNER : name,
      variants,
      holdings: list,
      countText: complete ? plural(list.length, 'holding') : `${plural(list.length, 'holding')} in the loaded pages (${countText})`,
      totalAssessed: totalAssessed(list, partial, cite, found.assessedSource),
    };
  });
  return {
    searched: (within ?? searched).trim(),
    matched: total,
    loaded,
    rows: found.rows,
    complete,
    countText,
    holdings,
    owners,
    totalAssessed: totalAssessed(holdings, partial, cite, found.assessedSource),
    problems,
  };
}
