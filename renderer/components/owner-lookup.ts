// Owner lookup as pure functions, shared by the Owners view and the find box: the v2 property search
// that finds every holding whose owner name contains the typed text (any case, any word order,
// accents folded: the service folds all three), what such a search will match in words, and the
// answer pages turned into holdings grouped by the owner name exactly as the publisher printed it.
import type { V2CatalogData, V2EntitySummary, V2PropertySearchInput } from '../../shared/service/v2.ts';
import type { CitedValue } from './cited-value.ts';
import type { CitationView } from '../../shared/cited/citation.ts';
import { findJurisdiction, type JurisdictionCode } from '../../shared/jurisdictions.ts';
import { encodeSearchFilter, type V4SearchRecord } from '../../shared/service/v4.ts';
import { fieldForRole, recordFactItem, recordFieldMap, roleSearchProblem, roleWords, type CatalogItemFields } from '../../shared/service/record-fields.ts';
import { foldToLatin, latinSpellings, MAX_TWO_WAY_LETTERS, nonLatinLetters, twoWayLetterCount } from '../../shared/latin-fold.ts';
import { isRecord } from '../../shared/json-data.ts';
import { CitationBook } from '../../shared/cited/citation-book.ts';
import type { CitedValue as SharedCitedValue } from '../../shared/cited/value.ts';
import { holdingsOf, type OwnershipRow } from '../../shared/graph/holdings.ts';

export const OWNER_NAME_MAX = 100;
/** A page holds up to 100 search items; each holding is its property plus its parcel or unit. */
export const PAGE_LIMIT = 100;

/**
 * Why the typed name cannot be searched yet, or null when it can. Checked before pricing, so a name
 * the service could not match is never sent (nor charged): the rolls print Latin capitals, and the
 * service matches accents by folding them (shared/latin-fold.ts), the same fold used here.
 */
export function ownerNameProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'Type part of an owner’s name.';
  if (trimmed.length > OWNER_NAME_MAX) return `Use at most ${OWNER_NAME_MAX} characters (this is ${trimmed.length}).`;
  const foreign = nonLatinLetters(trimmed);
  if (foreign.length > 0) {
    return `The public rolls in Plat’s sample print owner names in Latin letters; type the name as the roll prints it (${foreign.slice(0, 6).join(' ')}${foreign.length > 6 ? ' …' : ''} ${foreign.length === 1 ? 'is not a Latin letter' : 'are not Latin letters'}).`;
  }
  if (twoWayLetterCount(trimmed) > MAX_TWO_WAY_LETTERS) {
    return `Use at most ${MAX_TWO_WAY_LETTERS} of the letters Ä, Ö and Ü: each is searched two ways (Ü as U and as UE).`;
  }
  const letters = foldToLatin(trimmed).replace(/[^A-Z0-9]/g, '');
  if (letters.length < 2) return 'Type at least two letters or digits of the name.';
  return null;
}

/** Spellings listed in a description before "and N more". */
const SPELLINGS_SHOWN = 4;

/**
 * What a search for the typed name matches, beyond its case and word order: null for plain Latin
 * text, else "accents ignored: also MULLER, MUELLER" (every spelling the service tries).
 */
export function ownerSpellingNote(text: string): string | null {
  const trimmed = text.trim();
  const spellings = latinSpellings(trimmed).filter((spelling) => spelling !== trimmed.toUpperCase());
  if (spellings.length === 0) return null;
  const shown = spellings.slice(0, SPELLINGS_SHOWN).join(', ');
  const more = spellings.length - SPELLINGS_SHOWN;
  return `accents ignored: also ${shown}${more > 0 ? ` and ${more} more ${more === 1 ? 'spelling' : 'spellings'}` : ''}`;
}

/** The typed name as a search: Owner name contains “MÜLLER” (accents ignored: also MULLER, MUELLER). */
export function describeOwnerQuery(text: string): string {
  const note = ownerSpellingNote(text);
  return `Owner name contains “${text.trim()}”${note ? ` (${note})` : ''}`;
}

/**
 * The search for one page. Properties with their parcel or condominium unit: the property carries the
 * facts, the parcel or unit is what the entity page can list connections for.
 */
export function ownerSearchBody(areaUid: string, name: string, cursor?: string): V2PropertySearchInput {
  return {
    area_uid: areaUid,
    filters: [{ field: 'owner_name', op: 'contains', value: name.trim() }],
    entity_kinds: ['property', 'parcel', 'unit'],
    projection: 'fact_summary',
    limit: PAGE_LIMIT,
    ...(cursor === undefined ? {} : { cursor }),
  };
}

// ---------------------------------------------------------------------------------------------
// Areas that hold owner names (v2 catalog, coverage facet, ownership domain)

export interface OwnerArea {
  /**
   * What an owner search names as its area: the coverage row's area id, or, when the service gives
   * none, its jurisdiction code (the spec leaves the area id's form open).
   */
  areaUid: string;
  /** The jurisdiction code the row gives, when it gives one. */
  jurisdiction: string | null;
  /** Whether the service named the area by an area id (else `areaUid` is its jurisdiction code). */
  areaGiven: boolean;
  name: string;
  note: string;
}

/** The free catalog request that says which areas publish owner names (the v2 coverage facet, ownership domain). */
export const ownerCoverageRequest = { query: { facet: 'coverage' as const, domain_key: 'ownership' } };

export interface OwnerCoverage {
  /** Areas whose records carry owner names: the only ones worth searching (and paying for). */
  searchable: OwnerArea[];
  /** Places without owner names, with the service's own note. */
  without: Array<{ name: string; note: string }>;
}

// The spec does not show a coverage row's keys: each part is read under any of the names a service may
// give it, first found wins.
const AREA_KEYS = ['area_uid', 'area_id', 'area_ref', 'area'];
const JURISDICTION_KEYS = ['jurisdiction', 'jurisdiction_code', 'fips', 'county_fips', 'geoid', 'state'];
const DOMAIN_KEYS = ['domain_key', 'domain', 'domains', 'covers', 'coverage_domain', 'data_domain'];
const STATUS_KEYS = ['status', 'coverage_status', 'availability', 'coverage'];
const NAME_KEYS = ['name', 'label', 'jurisdiction_name', 'area_name'];
const NOTE_KEYS = ['note', 'notes', 'description', 'limitation'];

/** A status saying the area has none of it: anything else (partial, available, full, a date…) says it has some. */
const NONE_STATUS = /^(none|unavailable|not[ _-]?available|not[ _-]?covered|no|absent|missing|no[ _-]?data)$/i;
/** A domain about owners (`ownership`, `owner`, `owner_names`). */
const OWNERSHIP_DOMAIN = /owner/i;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '');
const firstText = (row: Record<string, unknown>, keys: readonly string[]): string => keys.map((key) => text(row[key])).find((value) => value !== '') ?? '';

/** The domains a row speaks for (one, or a list); null when it names none (the request asked for ownership). */
function domainsOf(row: Record<string, unknown>): string[] | null {
  for (const key of DOMAIN_KEYS) {
    const value = row[key];
    if (Array.isArray(value)) return value.map(text).filter((domain) => domain !== '');
    if (text(value) !== '') return [text(value)];
  }
  return null;
}

/**
 * Which areas publish owner names, from the coverage rows as the service writes them: an area id if
 * given, else a jurisdiction code; a row about another domain is not about owners; a row whose status
 * says none (or unavailable) is listed among the places without owner names, with its note.
 */
export function ownerCoverage(data: V2CatalogData): OwnerCoverage {
  const searchable: OwnerArea[] = [];
  const without: OwnerCoverage['without'] = [];
  for (const row of data.items) {
    const domains = domainsOf(row);
    if (domains !== null && !domains.some((domain) => OWNERSHIP_DOMAIN.test(domain))) continue;
    const areaId = firstText(row, AREA_KEYS);
    const jurisdiction = firstText(row, JURISDICTION_KEYS);
    const name = firstText(row, NAME_KEYS) || areaId || jurisdiction;
    const note = firstText(row, NOTE_KEYS);
    const areaUid = areaId || jurisdiction;
    if (!NONE_STATUS.test(firstText(row, STATUS_KEYS)) && areaUid !== '') {
      if (!searchable.some((area) => area.areaUid === areaUid)) searchable.push({ areaUid, jurisdiction: jurisdiction || null, areaGiven: areaId !== '', name, note });
    } else {
      without.push({ name, note });
    }
  }
  return { searchable, without };
}

/** The free catalog request that lists the jurisdictions, for the area ids a coverage without them leaves out. */
export const areaDirectoryRequest = { query: { facet: 'jurisdictions' as const } };

/** The area ids a catalog item names: `area_uids` (a list), `area_uid`, or `areas` (ids or `{area_uid}` objects). */
function areaIdsIn(item: Record<string, unknown>): string[] {
  const list = Array.isArray(item.area_uids) ? item.area_uids : Array.isArray(item.areas) ? item.areas : [item.area_uid ?? item.area_id];
  return [...new Set(list.map((entry) => (isRecord(entry) ? firstText(entry, AREA_KEYS) : text(entry))).filter((id) => id !== ''))];
}

/**
 * Each jurisdiction's one area id, from the jurisdictions facet (the spec does not show its items:
 * read as coverage rows are). A jurisdiction naming several areas, or none, is left out: Plat does
 * not pick one for it.
 */
export function areaIdsByJurisdiction(data: V2CatalogData): Map<string, string> {
  const ids = new Map<string, string>();
  for (const item of data.items) {
    const jurisdiction = firstText(item, JURISDICTION_KEYS);
    const areas = areaIdsIn(item);
    if (jurisdiction !== '' && areas.length === 1 && areas[0] !== undefined) ids.set(jurisdiction, areas[0]);
  }
  return ids;
}

/** The coverage with each area known only by its jurisdiction code given the area id the service lists for it, when it lists one. */
export function withAreaIds(coverage: OwnerCoverage, ids: ReadonlyMap<string, string>): OwnerCoverage {
  const searchable = coverage.searchable.map((area) => {
    const id = area.areaGiven || area.jurisdiction === null ? undefined : ids.get(area.jurisdiction);
    return id === undefined ? area : { ...area, areaUid: id, areaGiven: true };
  });
  return { ...coverage, searchable };
}

/**
 * The area an owner opened from elsewhere (an entity record's area id, or none) is searched in: the
 * one with that area id or jurisdiction code; with none asked, the first. A coverage that names its
 * areas by jurisdiction code only cannot be compared with a record's area id: its one area is taken
 * then (and the page names it), never one of several.
 */
export function ownerAreaFor(searchable: readonly OwnerArea[], asked: string | null): OwnerArea | null {
  if (asked === null) return searchable[0] ?? null;
  const found = searchable.find((area) => area.areaUid === asked || area.jurisdiction === asked);
  if (found) return found;
  const only = searchable.length === 1 ? searchable[0] : undefined;
  return only && !only.areaGiven ? only : null;
}

// ---------------------------------------------------------------------------------------------
// Holdings

export interface Holding {
  propertyRef: string;
  /** The entity the holding opens: its parcel or unit when the answer named one, else the property. */
  openId: string;
  openKind: string;
  ownerName: string;
  owner: CitedValue | null;
  address: CitedValue | null;
  /** DC: the SSL; Alexandria: the account number. */
  identifier: CitedValue | null;
  identifierScheme: 'ssl' | 'account' | null;
  use: CitedValue | null;
  assessed: CitedValue | null;
  lastSalePrice: CitedValue | null;
  lastSaleDate: CitedValue | null;
  /** The distinct sources of the values shown (one chip each). */
  citations: CitationView[];
}

type SearchItem = V2EntitySummary & Record<string, unknown>;

function citationKey(citation: CitationView): string {
  return [citation.publisher, citation.dataset, citation.asOf, citation.synthetic].join('|');
}

/**
 * Items of every loaded page as holdings, in the order the service ranked them: one per parcel, as
 * shared/graph/holdings.ts decides (a parcel the roll lists on two rows is one holding), read here
 * into the cited values the find box and the owner lookup show.
 */
export function holdingsFrom(items: readonly SearchItem[]): Holding[] {
  const rows = new Map<string, OwnershipRow>();
  for (const item of items) {
    const propertyRef = typeof item.property_ref === 'string' ? item.property_ref : item.entity_ref;
    const row = rows.get(propertyRef) ?? { propertyRef, items: [] };
    rows.set(propertyRef, { propertyRef, items: [...row.items, item as OwnershipRow['items'][number]] });
  }
  const book = new CitationBook();
  const { holdings } = holdingsOf([...rows.values()], book.cite);
  const citations = new Map(book.all().map((citation) => [citation.id, citation]));
  const shown = (value: SharedCitedValue): CitedValue | null => {
    const citation = citations.get(value.citationIds[0] ?? '');
    if (value.status === 'unavailable' || value.raw === null || !citation) return null;
    const { id: _id, note: _note, ...view } = citation;
    return { value: value.raw, text: value.display, citation: view, synthetic: value.status === 'synthetic', note: value.limitation };
  };
  return holdings.map((holding): Holding => {
    const values = [holding.owner, holding.address, holding.identifier, holding.use, holding.assessed, holding.lastSalePrice, holding.lastSaleDate].map(shown);
    const [owner, address, identifier, use, assessed, lastSalePrice, lastSaleDate] = values as [CitedValue | null, CitedValue | null, CitedValue | null, CitedValue | null, CitedValue | null, CitedValue | null, CitedValue | null];
    const distinct = new Map<string, CitationView>();
    for (const value of values) if (value) distinct.set(citationKey(value.citation), value.citation);
    return {
      propertyRef: holding.propertyRef,
      openId: holding.openId,
      openKind: holding.openKind,
      ownerName: holding.published ?? '(no owner name published)',
      owner,
      address,
      identifier,
      identifierScheme: identifier === null ? null : holding.identifier.field === 'ssl' ? 'ssl' : 'account',
      use,
      assessed,
      lastSalePrice,
      lastSaleDate,
      citations: [...distinct.values()],
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Owner lookup by v4 record search (kind `ownership` in a jurisdiction): the spec's own owner lookup,
// for a service whose coverage names no v2 area. The owner field and every field a holding shows are
// the ones the service's catalog names (shared/service/record-fields.ts), never Plat's own names.

export type OwnerRecordSearch =
  | { ok: true; field: string; parts: { query: { jurisdiction: JurisdictionCode; kind: 'ownership'; filter: string; limit: number; cursor?: string } } }
  | { ok: false; problem: string };

/**
 * The v4 search of ownership records by owner name (equality: the only text operator the spec
 * shows, so the name as the roll prints it), filtered on the field the catalog names for the owner;
 * when it names none, no search (and no charge), and why.
 */
export function ownerRecordSearch(catalog: readonly CatalogItemFields[], jurisdiction: JurisdictionCode, name: string, cursor?: string): OwnerRecordSearch {
  const map = recordFieldMap(catalog, 'ownership');
  const field = fieldForRole(map, 'owner_name');
  if (field === null) return { ok: false, problem: roleSearchProblem(map, 'owner_name', findJurisdiction(jurisdiction)?.name ?? jurisdiction, 'owner name') ?? '' };
  const filter = encodeSearchFilter({ conditions: [{ field, op: 'eq', value: name.trim().toUpperCase() }] });
  return { ok: true, field, parts: { query: { jurisdiction, kind: 'ownership', filter, limit: PAGE_LIMIT, ...(cursor === undefined ? {} : { cursor }) } } };
}

/** A holding read from a record, with the values Plat could not find in it ("owner name": not recognised by Plat, not blank). */
export type RecordHolding = Holding & { notRecognised: string[] };

/**
 * Ownership records (v4 search items) as holdings, one per record, each value cited to its record,
 * read by the fields the catalog names (else by the records' own names).
 */
export function holdingsFromRecords(records: readonly V4SearchRecord[], catalog: readonly CatalogItemFields[] = []): RecordHolding[] {
  const map = catalog.length > 0 ? recordFieldMap(catalog, 'ownership') : null;
  return records.map((record) => {
    const item = recordFactItem(record, map);
    const [holding] = holdingsFrom([item as unknown as SearchItem]);
    const unnamed = item.notRecognised.includes(roleWords('owner_name'));
    return { ...holding!, ...(unnamed ? { ownerName: '(owner name not recognised by Plat)' } : {}), notRecognised: item.notRecognised };
  });
}
