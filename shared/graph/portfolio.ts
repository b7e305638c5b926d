// An owner's portfolio from the pages of a v2 property search by owner name (or of a v4 search of
// ownership records, read by the fields the service's catalog names): every holding (address,
// SSL, use, assessment, last sale, each cited), the holdings grouped by the owner name after
// normalisation with the published spellings listed, the total assessed value (derived, saying from how
// many holdings and whether any lack a value), and a count that is never partial without saying so:
// "252 holdings" when every page is held, "20 of 252 loaded" when not.
import { documentCitation } from '../cited/citation.ts';
import type { Cite } from '../cited/citation-book.ts';
import type { CitedValue } from '../cited/value.ts';
import { derivedValue } from '../cited/derived.ts';
import { isRecord } from '../json-data.ts';
import { derive } from '../cited/derivation.ts';
import { V2SearchResponseSchema, type V2SearchData } from '../service/v2.ts';
import { V4SearchResponseSchema, type V4SearchData } from '../service/v4.ts';
import { recordFactItem, recordFieldMap, roleNumber, type CatalogItemFields } from '../service/record-fields.ts';
import { citationOf, citedFact, readAnswer, text, unavailable, type Json } from './answers.ts';
import { ownerNameKey, ownerNodeId, sslText } from './relations.ts';

export interface PortfolioHolding {
  propertyRef: string;
  /** What the holding opens: its parcel or unit when the answer names one, else the property. */
  openId: string;
  openKind: string;
  /** The owner name exactly as published for this holding; null when none is published (Alexandria publishes none). */
  published: string | null;
  owner: CitedValue;
  address: CitedValue;
  /** DC: the SSL; Alexandria: the account number. */
  identifier: CitedValue;
  use: CitedValue;
  assessed: CitedValue;
  lastSalePrice: CitedValue;
  lastSaleDate: CitedValue;
}

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
  loaded: number;
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
const NOT_IN_ANSWER = 'Not in the search answer for this holding.';
const notRecognised = (label: string) => `Not recognised by Plat: the record names no field Plat reads as the ${label.toLowerCase()}; the record is shown as published.`;
const NO_OWNER = '(no owner name published)';

type Item = Json & { entity_ref: string; entity_kind: string };

function holdingOf(propertyRef: string, items: readonly Item[], cite: Cite): PortfolioHolding {
  const property = items.find((item) => item.entity_kind === 'property');
  const land = items.find((item) => item.entity_kind !== 'property');
  // The property carries every fact; its parcel or unit (perhaps alone on this page) carries the same ones.
  const facts: Json = { ...(isRecord(land?.facts) ? land.facts : {}), ...(isRecord(property?.facts) ? property.facts : {}) };
  // A v4 record's roles Plat could not find are not recognised, not missing from the answer.
  const unknown = new Set(items.flatMap((item) => (Array.isArray(item.unknownFacts) ? item.unknownFacts : [])));
  const missing = (field: string, label: string) => unavailable(field, label, unknown.has(field) ? notRecognised(label) : NOT_IN_ANSWER);
  const value = (field: string, label: string, display?: (raw: string | number | boolean | null) => string) =>
    citedFact(field, label, facts[field], cite, display) ?? missing(field, label);
  const ssl = citedFact('ssl', 'SSL', facts.ssl, cite, (raw) => sslText(String(raw)));
  const use = citedFact('use_code', 'Use code', facts.use_code, cite) ?? citedFact('land_use', 'Land use', facts.land_use, cite);
  const owner = value('owner_name', 'Owner name');
  return {
    propertyRef,
    openId: land?.entity_ref ?? propertyRef,
    openKind: land?.entity_kind ?? 'property',
    published: typeof owner.raw === 'string' ? owner.raw : null,
    owner,
    address: value('address', 'Address'),
    identifier: ssl ?? citedFact('account_no', 'Account number', facts.account_no, cite) ?? missing('ssl', 'SSL'),
    use: use ?? missing('use_code', 'Use'),
    assessed: value('assessed_value_dollars', 'Assessed value'),
    lastSalePrice: value('last_sale_price_dollars', 'Last sale price'),
    lastSaleDate: value('last_sale_date', 'Last sale date'),
  };
}

/**
 * The sum of the holdings' assessed values: derived, citing the sources (not each record) of the
 * values summed, and saying how many holdings it covers, how many lack a value, and whether holdings
 * remain unloaded.
 */
function totalAssessed(holdings: readonly PortfolioHolding[], partial: string | null, cite: Cite, sourcesOf: (holding: PortfolioHolding) => Json | null): CitedValue {
  const field = 'total_assessed_value_dollars';
  const label = 'Total assessed value';
  // A value published as text ("2014890.00") is summed as the amount it says.
  const amount = (holding: PortfolioHolding) => roleNumber(holding.assessed.raw === null ? { status: 'unknown' } : { status: 'found', field: 'assessed', value: holding.assessed.raw });
  const valued = holdings.filter((holding) => holding.assessed.status !== 'unavailable' && amount(holding) !== null);
  const lacking = holdings.length - valued.length;
  if (valued.length === 0) {
    return unavailable(field, label, holdings.length === 0 ? 'No holdings loaded.' : `None of the ${plural(holdings.length, 'holding')} has an assessed value in the answers.`);
  }
  const amounts = valued.map((holding) => amount(holding) ?? 0);
  const derivation = { rule: 'sum-of-dollars', inputs: amounts };
  const sum = amounts.reduce((total, value) => total + value, 0);
  const covered = lacking === 0 ? (valued.length === 1 ? 'its one holding' : `all ${plural(valued.length, 'holding')}`) : `${valued.length} of ${plural(holdings.length, 'holding')} (${lacking} ${lacking === 1 ? 'has' : 'have'} no assessed value in the answers)`;
  return derivedValue(
    {
      field,
      label,
      raw: sum,
      display: derive(derivation),
      rule: `Sum of the assessed values of ${covered}.${partial ? ` ${partial}` : ''}`,
      // Each holding's assessed value, cited to its source as a whole: one endnote per source, not per holding.
      inputs: valued.map((holding) => {
        const view = citationOf(sourcesOf(holding));
        return { name: `the assessed value of ${holding.address.display}`, citations: view ? [documentCitation({ ...view, recordRef: null, extra: {} })] : [] };
      }),
      limitation: lacking > 0 || partial ? 'Not the owner’s whole assessed value: some holdings are missing from the sum.' : null,
      derivation,
    },
    cite,
  );
}

/**
 * The portfolio of the owners an owner-name search found, from its pages in order. A page that is
 * an error or unreadable is named in `problems`; the holdings of the other pages are kept.
 */
export function ownerPortfolio(searched: string, pages: readonly unknown[], cite: Cite, catalog: readonly CatalogItemFields[] = []): Portfolio {
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
  const holdings = [...byProperty].map(([propertyRef, items]) => holdingOf(propertyRef, items, cite));
  const loaded = holdings.length;
  const total = matched;
  const complete = lastPageHeld && problems.length === 0 && (total === null || loaded >= total);
  const countText = complete
    ? plural(loaded, 'holding')
    : total === null
      ? `${loaded.toLocaleString('en-US')} loaded; more pages not loaded (the service does not say how many)`
      : `${loaded.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} loaded`;
  const partial = complete ? null : `Not every holding of the search is loaded (${countText}).`;
  const assessmentSource = (holding: PortfolioHolding) => {
    const items = byProperty.get(holding.propertyRef) ?? [];
    for (const item of items) if (isRecord(item.facts) && isRecord(item.facts.assessed_value_dollars)) return item.facts.assessed_value_dollars.citation as Json;
    return null;
  };

  const groups = new Map<string, PortfolioHolding[]>();
  for (const holding of holdings) {
    const key = holding.published === null ? '' : ownerNameKey(holding.published);
    const list = groups.get(key);
    if (list) list.push(holding);
    else groups.set(key, [holding]);
  }
  const owners = [...groups].map(([key, list]): PortfolioOwner => {
    const counts = new Map<string, number>();
    for (const holding of list) if (holding.published !== null) counts.set(holding.published, (counts.get(holding.published) ?? 0) + 1);
    const variants = [...counts].map(([published, count]) => ({ published, count })).sort((a, b) => b.count - a.count);
    const name = variants[0]?.published ?? null;
    return {
      ownerId: name === null || key === '' ? null : ownerNodeId(name),
      key,
      name: name === null || key === '' ? NO_OWNER : name,
      variants,
      holdings: list,
      countText: complete ? plural(list.length, 'holding') : `${plural(list.length, 'holding')} in the loaded pages (${countText})`,
      totalAssessed: totalAssessed(list, partial, cite, assessmentSource),
    };
  });
  return { searched: searched.trim(), matched: total, loaded, complete, countText, holdings, owners, totalAssessed: totalAssessed(holdings, partial, cite, assessmentSource), problems };
}
