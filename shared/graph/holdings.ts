// A holding is a parcel: the one place that turns ownership rows (a v2 owner search's property with
// its parcel or unit, or a v4 ownership record) into holdings keyed by the parcel (SSL, else account).
// The OTR roll lists 1,049 SSLs on two rows, usually with the assessment on one only: the rows of one
// parcel become one holding citing every row, and each value is taken once, from the row that carries
// it. A name group (an owner-name variant, a spouse form) shows only what its own rows carry; a value
// only the parcel's other row carries is shown marked as such and left out of the group's total.
import type { Cite } from '../cited/citation-book.ts';
import type { CitationView } from '../cited/citation.ts';
import type { CitedValue } from '../cited/value.ts';
import { isRecord } from '../json-data.ts';
import { roleNumber } from '../service/record-fields.ts';
import { citationOf, citedFact, unavailable, type Json } from './answers.ts';
import { ownerNameKey, sslText } from './relations.ts';

/** One row of the roll as the answers give it: its property (the row's own facts) and its parcel or unit. */
export interface OwnershipRow {
  propertyRef: string;
  /** The answer's items about this row: the property, its parcel or unit, or one v4 record. */
  items: ReadonlyArray<Json & { entity_ref: string; entity_kind: string }>;
}

export interface HoldingRecord {
  propertyRef: string;
  /** The owner name exactly as this row publishes it; null when it publishes none. */
  published: string | null;
  /** The row's owner name, cited to the row. */
  owner: CitedValue;
}

export interface PortfolioHolding {
  /** The parcel: `ssl:0451 0022`, `account:…`, or the entity when neither is published. */
  parcelKey: string;
  /** The first row's property (what the holding is listed by). */
  propertyRef: string;
  /** What the holding opens: its parcel or unit when the answer names one, else the property. */
  openId: string;
  openKind: string;
  /** The owner name as the first row publishes it; null when none is published (Alexandria publishes none). */
  published: string | null;
  /** Every row of the roll this holding rests on, each cited. */
  records: HoldingRecord[];
  owner: CitedValue;
  address: CitedValue;
  /** DC: the SSL; Alexandria: the account number. */
  identifier: CitedValue;
  use: CitedValue;
  assessed: CitedValue;
  lastSalePrice: CitedValue;
  lastSaleDate: CitedValue;
  /** The fields shown from the parcel's other row, not from the rows of this holding (left out of totals). */
  fromOtherRow: string[];
}

/** What a value carried only by another row of the parcel says beside it. */
export const FROM_OTHER_ROW = 'from the parcel’s other row';

const NOT_IN_ANSWER = 'Not in the search answer for this holding.';
const notRecognised = (label: string) => `Not recognised by Plat: the record names no field Plat reads as the ${label.toLowerCase()}; the record is shown as published.`;

interface RowFacts {
  row: OwnershipRow;
  /** The facts the row itself publishes (its property's, or the v4 record's). */
  own: Json;
  /** The facts of its parcel or unit, which the service gathers from every row of the parcel. */
  land: Json;
  landItem: (Json & { entity_ref: string; entity_kind: string }) | undefined;
  unknown: Set<string>;
}

const factsOf = (item: Json | undefined): Json => (item && isRecord(item.facts) ? item.facts : {});

function rowFacts(row: OwnershipRow): RowFacts {
  const property = row.items.find((item) => item.entity_kind === 'property');
  const landItem = row.items.find((item) => item.entity_kind !== 'property');
  // Without its property on the page (a v4 record, or a page boundary) the row is read from what is there.
  const own = property ? factsOf(property) : factsOf(landItem);
  const unknown = new Set(row.items.flatMap((item) => (Array.isArray(item.unknownFacts) ? (item.unknownFacts as string[]) : [])));
  return { row, own, land: factsOf(landItem), landItem, unknown };
}

const factValue = (fact: unknown): string | null => (isRecord(fact) && (typeof fact.value === 'string' || typeof fact.value === 'number') ? String(fact.value) : null);

/** The parcel a row is about: its SSL, else its account number, else its parcel or unit, else its property. */
export function parcelKeyOf(row: OwnershipRow): string {
  const { own, land, landItem } = rowFacts(row);
  const ssl = factValue(own.ssl) ?? factValue(land.ssl);
  if (ssl !== null && ssl.trim() !== '') return `ssl:${sslText(ssl)}`;
  const account = factValue(own.account_no) ?? factValue(land.account_no);
  if (account !== null && account.trim() !== '') return `account:${account.trim()}`;
  return landItem?.entity_ref ?? row.propertyRef;
}

/** The owner-name group a row belongs to: its own published name, normalised ('' for none). */
export function rowNameKey(row: OwnershipRow): string {
  const published = factValue(rowFacts(row).own.owner_name);
  return published === null ? '' : ownerNameKey(published);
}

type Display = (raw: string | number | boolean | null) => string;

interface Picked {
  value: CitedValue;
  /** The citation of the fact the value was read from (to cite a total by its source). */
  source: CitationView | null;
  borrowed: boolean;
}

/**
 * A holding of `rows` (one parcel), each value from the first of those rows that carries it; a value
 * none of them carries comes from `others` (the parcel's other rows in the answers, then the parcel's
 * own facts) and is marked as from the parcel's other row.
 */
function holdingOf(rows: readonly RowFacts[], others: readonly RowFacts[], cite: Cite): { holding: PortfolioHolding; assessedSource: CitationView | null } {
  const first = rows[0]!;
  const unknown = new Set(rows.flatMap((row) => [...row.unknown]));
  const otherNames = [...new Set(others.map((row) => factValue(row.own.owner_name)).filter((name): name is string => name !== null))];
  const borrowedNote = `Shown ${FROM_OTHER_ROW}${otherNames.length > 0 ? ` (published under ${otherNames.join(', ')})` : ''}: no row of this name carries it.`;
  const pick = (field: string, label: string, display?: Display): Picked | null => {
    for (const row of rows) {
      const value = citedFact(field, label, row.own[field], cite, display);
      if (value) return { value, source: citationOf((row.own[field] as Json).citation), borrowed: false };
    }
    const fallbacks = [...others.map((row) => row.own[field]), ...rows.map((row) => row.land[field]), ...others.map((row) => row.land[field])];
    for (const fact of fallbacks) {
      const value = citedFact(field, label, fact, cite, display);
      if (value) return { value: { ...value, limitation: borrowedNote }, source: citationOf((fact as Json).citation), borrowed: true };
    }
    return null;
  };
  const missing = (field: string, label: string) => unavailable(field, label, unknown.has(field) ? notRecognised(label) : NOT_IN_ANSWER);
  const fromOtherRow: string[] = [];
  const value = (field: string, label: string, display?: Display): CitedValue => {
    const picked = pick(field, label, display);
    if (!picked) return missing(field, label);
    if (picked.borrowed) fromOtherRow.push(field);
    return picked.value;
  };
  const records = rows.map((row): HoldingRecord => {
    const owner = citedFact('owner_name', 'Owner name', row.own.owner_name, cite) ?? missing('owner_name', 'Owner name');
    return { propertyRef: row.row.propertyRef, published: typeof owner.raw === 'string' ? owner.raw : null, owner };
  });
  const ssl = pick('ssl', 'SSL', (raw) => sslText(String(raw)));
  const account = ssl ? null : pick('account_no', 'Account number');
  const identifier = ssl ?? account;
  if (identifier?.borrowed) fromOtherRow.push(identifier.value.field);
  const use = pick('use_code', 'Use code') ?? pick('land_use', 'Land use');
  if (use?.borrowed) fromOtherRow.push(use.value.field);
  const assessed = pick('assessed_value_dollars', 'Assessed value');
  if (assessed?.borrowed) fromOtherRow.push('assessed_value_dollars');
  const landItem = rows.find((row) => row.landItem)?.landItem;
  const holding: PortfolioHolding = {
    parcelKey: parcelKeyOf(first.row),
    propertyRef: first.row.propertyRef,
    openId: landItem?.entity_ref ?? first.row.propertyRef,
    openKind: landItem?.entity_kind ?? 'property',
    published: records[0]?.published ?? null,
    records,
    owner: records[0]?.owner ?? missing('owner_name', 'Owner name'),
    address: value('address', 'Address'),
    identifier: identifier?.value ?? missing('ssl', 'SSL'),
    use: use?.value ?? missing('use_code', 'Use'),
    assessed: assessed?.value ?? missing('assessed_value_dollars', 'Assessed value'),
    lastSalePrice: value('last_sale_price_dollars', 'Last sale price'),
    lastSaleDate: value('last_sale_date', 'Last sale date'),
    fromOtherRow,
  };
  return { holding, assessedSource: assessed?.source ?? null };
}

export interface Holdings {
  /** One holding per parcel, in the order the rows came. */
  holdings: PortfolioHolding[];
  /** How many rows of the roll they rest on. */
  rows: number;
  /** Each name group's holdings (its own rows only, values from the parcel's other row marked), by name key. */
  byName: Map<string, PortfolioHolding[]>;
  /** The source a holding's assessed value was read from (to cite a total by its source, not by each record). */
  assessedSource: (holding: PortfolioHolding) => CitationView | null;
}

/** The holdings of ownership rows: one per parcel, and each name group's view of its own rows. */
export function holdingsOf(rows: readonly OwnershipRow[], cite: Cite): Holdings {
  const parcels = new Map<string, RowFacts[]>();
  for (const row of rows) {
    const key = parcelKeyOf(row);
    const list = parcels.get(key) ?? [];
    if (!list.some((known) => known.row.propertyRef === row.propertyRef)) list.push(rowFacts(row));
    parcels.set(key, list);
  }
  const sources = new Map<PortfolioHolding, CitationView | null>();
  const made = (rowsOf: readonly RowFacts[], others: readonly RowFacts[]) => {
    const { holding, assessedSource } = holdingOf(rowsOf, others, cite);
    sources.set(holding, assessedSource);
    return holding;
  };
  const holdings: PortfolioHolding[] = [];
  const byName = new Map<string, PortfolioHolding[]>();
  let rowCount = 0;
  for (const list of parcels.values()) {
    rowCount += list.length;
    holdings.push(made(list, []));
    const names = new Map<string, RowFacts[]>();
    for (const row of list) {
      const key = rowNameKey(row.row);
      names.set(key, [...(names.get(key) ?? []), row]);
    }
    for (const [key, own] of names) {
      const group = byName.get(key) ?? [];
      group.push(names.size === 1 ? holdings.at(-1)! : made(own, list.filter((row) => !own.includes(row))));
      byName.set(key, group);
    }
  }
  return { holdings, rows: rowCount, byName, assessedSource: (holding) => sources.get(holding) ?? null };
}

/** A holding's assessed value as an amount (a value published as text, "2014890.00", read as what it says); null when not summable. */
export function assessedAmount(holding: PortfolioHolding): number | null {
  if (holding.assessed.status === 'unavailable' || holding.fromOtherRow.includes('assessed_value_dollars')) return null;
  return holding.assessed.raw === null ? null : roleNumber({ status: 'found', field: 'assessed', value: holding.assessed.raw });
}
