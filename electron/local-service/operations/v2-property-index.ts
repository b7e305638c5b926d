// The property index behind v2 property searches: every property of the sample with its search
// fields, plus the folded forms that make text filters forgiving (any case, any punctuation, words in
// any order). Built once per store as a view over the store's own properties, then filtered, ranked
// and sorted here, because the store's `contains` is a plain upper-case substring test: "smith john"
// would not find "JOHN SMITH", nor "obrien" find "O'BRIEN", and owner lookup is what the app uses
// this search for.
import type { CellValue, PointLocation, PropertyField, SampleStore, StoredProperty } from '../sample-store.ts';
import { equalityKey, foldForSearch, normaliseAddress, normaliseOwnerName, parseSsl } from '../sample-keys.ts';
import { ServiceFailure } from '../operation.ts';
import { isIsoDate, type V2SearchFilter } from '../../../shared/service/index.ts';
import { latinSpellings, MAX_TWO_WAY_LETTERS, twoWayLetterCount } from '../../../shared/latin-fold.ts';

export type PropertyFieldType = 'string' | 'number' | 'date';

export interface PropertyFieldSpec {
  field: PropertyField;
  dataType: PropertyFieldType;
  description: string;
  /** The sources a value of this field is read from. */
  sourceIds: readonly string[];
  /** Values cited to Plat's synthetic source, never to a publisher. */
  synthetic: boolean;
}

const OTR = ['dc_otr_ownership'];
const ALEXANDRIA_PARCELS = ['va_alexandria_parcels'];
const SYNTHETIC = ['plat_synthetic_characteristics'];
const LOCATION = ['dc_gis_square_points', 'va_alexandria_address_points'];

function coordinate(field: 'lat' | 'lon', name: string): PropertyFieldSpec {
  return { field, dataType: 'number', description: `${name} of the best point the sample has (DC: tax square centroid, approximate)`, sourceIds: LOCATION, synthetic: false };
}

function imputed(field: PropertyField, what: string): PropertyFieldSpec {
  return { field, dataType: 'number', description: `SYNTHETIC ${what}, copied from a DC CAMA record near the lot’s tax square`, sourceIds: SYNTHETIC, synthetic: true };
}

/** The fields a property search filters and sorts on (the store's property fields). */
export const PROPERTY_FIELD_SPECS: readonly PropertyFieldSpec[] = [
  { field: 'address', dataType: 'string', description: 'Premise address as published (unit included for condominium units)', sourceIds: [...OTR, ...ALEXANDRIA_PARCELS], synthetic: false },
  { field: 'owner_name', dataType: 'string', description: 'Owner of record as OTR published it (DC only)', sourceIds: OTR, synthetic: false },
  { field: 'ssl', dataType: 'string', description: 'DC Square-Suffix-Lot, canonical 12-character form', sourceIds: OTR, synthetic: false },
  { field: 'account_no', dataType: 'string', description: 'Alexandria real estate account number', sourceIds: ALEXANDRIA_PARCELS, synthetic: false },
  { field: 'use_code', dataType: 'string', description: 'OTR use code (11 single-family row, 16/17 condominium, ...)', sourceIds: OTR, synthetic: false },
  { field: 'land_use', dataType: 'string', description: 'Alexandria land use description', sourceIds: ALEXANDRIA_PARCELS, synthetic: false },
  { field: 'zoning', dataType: 'string', description: 'Alexandria zoning', sourceIds: ALEXANDRIA_PARCELS, synthetic: false },
  { field: 'neighborhood', dataType: 'string', description: 'OTR assessment neighborhood', sourceIds: OTR, synthetic: false },
  { field: 'sub_neighborhood', dataType: 'string', description: 'OTR assessment sub-neighborhood (A-G)', sourceIds: OTR, synthetic: false },
  { field: 'homestead', dataType: 'string', description: 'OTR homestead flag: yes, no or unknown (eq also takes true/false)', sourceIds: OTR, synthetic: false },
  { field: 'assessed_value_dollars', dataType: 'number', description: 'Tax year 2016 assessed value, whole dollars', sourceIds: ['dc_otr_assessment'], synthetic: false },
  { field: 'last_sale_price_dollars', dataType: 'number', description: 'Last recorded sale price, whole dollars (0 = non-market or no price)', sourceIds: ['dc_otr_sale'], synthetic: false },
  { field: 'last_sale_date', dataType: 'date', description: 'Last sale recordation date (ISO date)', sourceIds: ['dc_otr_sale'], synthetic: false },
  coordinate('lat', 'Latitude'),
  coordinate('lon', 'Longitude'),
  imputed('imputed_year_built', 'year built'),
  imputed('imputed_bedrooms', 'bedrooms'),
  imputed('imputed_full_bathrooms', 'full bathrooms'),
  imputed('imputed_gross_building_area_sqft', 'gross building area'),
  imputed('imputed_land_area_sqft', 'land area'),
];

const SPEC_BY_FIELD = new Map<string, PropertyFieldSpec>(PROPERTY_FIELD_SPECS.map((spec) => [spec.field, spec]));

export function propertyFieldSpec(field: string): PropertyFieldSpec | undefined {
  return SPEC_BY_FIELD.get(field);
}

/** A property field's description, as v2 lists it; v3's datasets say the same of their fields and add where each holds. */
export function propertyFieldDescription(field: PropertyField): string {
  return SPEC_BY_FIELD.get(field)?.description ?? '';
}

export interface IndexedProperty {
  /** Position in the index: the store's entity order, the tie-breaker of every sort. */
  ordinal: number;
  areaUid: string;
  attributes: Readonly<Record<PropertyField, CellValue>>;
  location: PointLocation | null;
  /** The property's id, formatted when asked (only results need it). */
  readonly entityRef: string;
  /** Records the attributes were read from (the synthetic record last, when there is one), formatted when asked. */
  readonly sourceRefs: readonly string[];
  /** Folded forms for text filters, computed on first use (undefined until then). */
  folds: {
    owner?: string | null;
    address?: string | null;
    addressNormalised?: string | null;
    addressNormalisedFolded?: string | null;
  };
}

/**
 * An entry over the store's own property (its attributes and location shared, not copied). Ids are
 * formatted on demand: held for every property they would cost more than the rest of the index.
 */
class IndexEntry implements IndexedProperty {
  readonly areaUid: string;
  readonly attributes: Readonly<Record<PropertyField, CellValue>>;
  readonly location: PointLocation | null;
  readonly folds: IndexedProperty['folds'] = {};
  readonly ordinal: number;
  private readonly store: SampleStore;
  private readonly stored: StoredProperty;

  constructor(store: SampleStore, stored: StoredProperty, ordinal: number) {
    this.store = store;
    this.stored = stored;
    this.ordinal = ordinal;
    this.areaUid = stored.area;
    this.attributes = stored.attributes;
    this.location = stored.location;
  }

  get entityRef(): string {
    return this.store.propertyRefs(this.stored).entityRef;
  }

  get sourceRefs(): readonly string[] {
    return this.store.propertyRefs(this.stored).sourceRefs;
  }
}

/** normaliseOwnerName of the owner, or null. */
function ownerFold(entry: IndexedProperty): string | null {
  if (entry.folds.owner === undefined) {
    const owner = entry.attributes.owner_name;
    entry.folds.owner = typeof owner === 'string' ? normaliseOwnerName(owner) : null;
  }
  return entry.folds.owner;
}

/** foldForSearch of the address as published, or null. */
function addressFold(entry: IndexedProperty): string | null {
  if (entry.folds.address === undefined) {
    const address = entry.attributes.address;
    entry.folds.address = typeof address === 'string' ? foldForSearch(address) : null;
  }
  return entry.folds.address;
}

/** normaliseAddress(address).full, or null. */
function addressNormalised(entry: IndexedProperty): string | null {
  if (entry.folds.addressNormalised === undefined) {
    const address = entry.attributes.address;
    entry.folds.addressNormalised = typeof address === 'string' ? (normaliseAddress(address)?.full ?? null) : null;
  }
  return entry.folds.addressNormalised;
}

/** foldForSearch of the normalised address, for `contains`. */
function addressNormalisedFold(entry: IndexedProperty): string | null {
  if (entry.folds.addressNormalisedFolded === undefined) {
    const normalised = addressNormalised(entry);
    entry.folds.addressNormalisedFolded = normalised === null ? null : foldForSearch(normalised);
  }
  return entry.folds.addressNormalisedFolded;
}

export interface PropertyIndex {
  byArea: ReadonlyMap<string, readonly IndexedProperty[]>;
}

const indexes = new WeakMap<SampleStore, PropertyIndex>();

/** The index of a store, built on first use over the store's own properties (tens of milliseconds). */
export function propertyIndex(store: SampleStore): PropertyIndex {
  const cached = indexes.get(store);
  if (cached) return cached;
  const byArea = new Map<string, IndexedProperty[]>();
  let ordinal = 0;
  for (const area of store.areas()) {
    byArea.set(area.area_uid, store.propertiesIn(area.area_uid).map((stored) => new IndexEntry(store, stored, ordinal++)));
  }
  const index: PropertyIndex = { byArea };
  indexes.set(store, index);
  return index;
}

// ---------------------------------------------------------------------------------------------
// Filters

/** A 400 naming the request parameter at fault, with the same details shape as a schema refusal. */
export function invalidParameter(parameter: string, location: string, message: string): ServiceFailure {
  return new ServiceFailure(400, `invalid_${parameter}`, `${location}: ${message}`, {
    details: [{ parameter, location, message }],
  });
}

/** Free text folded for matching: the whole string and its words. */
interface FoldedText {
  whole: string;
  words: string[];
}

function folded(whole: string): FoldedText {
  return { whole, words: whole.split(' ').filter((word) => word !== '') };
}

/**
 * An owner-name value as the normalised names to look for: one per plain-Latin spelling (MÜLLER →
 * MULLER and MUELLER), each normalised like the roll's names. Letters with no Latin spelling stay in
 * (and match nothing in a Latin roll) instead of being dropped, which would widen the search.
 */
function ownerQueries(value: string, at: string): string[] {
  if (twoWayLetterCount(value) > MAX_TWO_WAY_LETTERS) {
    throw invalidParameter('filters', `${at}.value`, `may hold at most ${MAX_TWO_WAY_LETTERS} of the letters Ä, Ö, Ü (each is tried two ways)`);
  }
  const spellings = [...new Set(latinSpellings(value).map(normaliseOwnerName))].filter((spelling) => spelling !== '');
  if (spellings.length === 0) throw invalidParameter('filters', `${at}.value`, 'must contain a letter or digit');
  return spellings;
}

/**
 * How well folded text matches a folded query, best first, or null for no match:
 * 0 the same text, 1 the text starts with the query, 2 every query word starts a word of the text
 * (any order), 3 every query word occurs somewhere in the text.
 */
export function textMatchRank(text: string, query: FoldedText): number | null {
  if (query.words.length === 0) return null;
  if (text === query.whole) return 0;
  if (text.startsWith(query.whole)) return 1;
  const spaced = ` ${text}`;
  if (query.words.every((word) => spaced.includes(` ${word}`))) return 2;
  if (query.words.every((word) => text.includes(word))) return 3;
  return null;
}

/** The day a date filter compares by; the date must exist (2015-02-30 is refused, not rolled over). */
function filterDay(value: string | number | boolean, at: string, field: string): string {
  if (typeof value !== 'string' || !isIsoDate(value, { time: 'allowed' })) {
    throw invalidParameter('filters', `${at}.value`, `must be a date that exists, as YYYY-MM-DD, for ${field}`);
  }
  return value.slice(0, 10);
}

/** A filter checked and compiled to a test that also ranks (for `contains`). */
interface CompiledFilter {
  /** null: no match; otherwise a rank (0 for exact tests). */
  test(entry: IndexedProperty): number | null;
  ranks: boolean;
}

function numberOf(value: string | number | boolean): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

function compileFilter(filter: V2SearchFilter, index: number): CompiledFilter {
  const at = `filters.${index}`;
  const spec = propertyFieldSpec(filter.field);
  if (!spec) {
    throw invalidParameter('filters', `${at}.field`, `"${filter.field}" is not a property field; use one of ${PROPERTY_FIELD_SPECS.map((s) => s.field).join(', ')}`);
  }
  const field = spec.field;
  const value = filter.value;
  switch (filter.op) {
    case 'contains': {
      if (spec.dataType !== 'string') {
        throw invalidParameter('filters', `${at}.op`, `contains applies to text fields; ${field} is a ${spec.dataType} (use gte/lte)`);
      }
      const text = String(value);
      if (field === 'owner_name') {
        const queries = ownerQueries(text, at).map(folded);
        return {
          ranks: true,
          test: (entry) => {
            const owner = ownerFold(entry);
            if (owner === null) return null;
            let best: number | null = null;
            for (const query of queries) {
              const rank = textMatchRank(owner, query);
              if (rank !== null && (best === null || rank < best)) best = rank;
            }
            return best;
          },
        };
      }
      const query = folded(foldForSearch(text));
      if (query.words.length === 0) throw invalidParameter('filters', `${at}.value`, 'must contain a letter or digit');
      if (field === 'address') {
        // The normalised form finds "21st street" in "21ST ST NW"; the published form finds the rest.
        const normalised = normaliseAddress(text);
        const standard = normalised ? folded(foldForSearch(normalised.full)) : null;
        return {
          ranks: true,
          test: (entry) => {
            const publishedText = addressFold(entry);
            const normalText = standard ? addressNormalisedFold(entry) : null;
            const published = publishedText === null ? null : textMatchRank(publishedText, query);
            const viaNormal = standard && normalText !== null ? textMatchRank(normalText, standard) : null;
            if (published === null) return viaNormal;
            return viaNormal === null ? published : Math.min(published, viaNormal);
          },
        };
      }
      return {
        ranks: true,
        test: (entry) => {
          const v = entry.attributes[field];
          return v === null ? null : textMatchRank(foldForSearch(String(v)), query);
        },
      };
    }
    case 'eq': {
      if (spec.dataType === 'number') {
        const wanted = numberOf(value);
        if (wanted === null) throw invalidParameter('filters', `${at}.value`, `must be a number for ${field}`);
        return { ranks: false, test: (entry) => (entry.attributes[field] === wanted ? 0 : null) };
      }
      if (spec.dataType === 'date') {
        const day = filterDay(value, at, field);
        return { ranks: false, test: (entry) => (String(entry.attributes[field] ?? '').slice(0, 10) === day ? 0 : null) };
      }
      if (typeof value === 'boolean' && field !== 'homestead') {
        throw invalidParameter('filters', `${at}.value`, `must be text for ${field}`);
      }
      if (field === 'owner_name') {
        const spellings = new Set(ownerQueries(String(value), at));
        return { ranks: false, test: (entry) => (spellings.has(ownerFold(entry) ?? '') ? 0 : null) };
      }
      let key: string | null;
      let keyOf: (entry: IndexedProperty) => string | null;
      if (field === 'address') {
        key = normaliseAddress(String(value))?.full ?? null;
        keyOf = addressNormalised;
      } else if (field === 'ssl') {
        // Any written form of an SSL finds the canonical one (`65-4`, `0065 0004`, `BD0000650004`).
        key = parseSsl(String(value))?.canonical ?? String(value).trim().toUpperCase();
        keyOf = (entry) => (typeof entry.attributes.ssl === 'string' ? entry.attributes.ssl : null);
      } else if (field === 'homestead' && typeof value === 'boolean') {
        key = value ? 'YES' : 'NO';
        keyOf = (entry) => equalityKey(entry.attributes.homestead);
      } else {
        key = equalityKey(value);
        keyOf = (entry) => equalityKey(entry.attributes[field]);
      }
      if (key === null || key === '') throw invalidParameter('filters', `${at}.value`, 'must not be blank');
      const wanted = key;
      return { ranks: false, test: (entry) => (keyOf(entry) === wanted ? 0 : null) };
    }
    case 'gte':
    case 'lte': {
      const sign = filter.op === 'gte' ? 1 : -1;
      if (spec.dataType === 'number') {
        const bound = numberOf(value);
        if (bound === null) throw invalidParameter('filters', `${at}.value`, `must be a number for ${field}`);
        return {
          ranks: false,
          test: (entry) => {
            const v = entry.attributes[field];
            return typeof v === 'number' && (v - bound) * sign >= 0 ? 0 : null;
          },
        };
      }
      if (spec.dataType === 'date') {
        const day = filterDay(value, at, field);
        return {
          ranks: false,
          test: (entry) => {
            const v = entry.attributes[field];
            if (typeof v !== 'string') return null;
            const cmp = v.slice(0, 10) < day ? -1 : v.slice(0, 10) > day ? 1 : 0;
            return cmp * sign >= 0 ? 0 : null;
          },
        };
      }
      throw invalidParameter('filters', `${at}.op`, `${filter.op} compares numbers or dates; ${field} is text (use eq or contains)`);
    }
  }
}

export interface PropertyQuery {
  areaUid: string;
  filters: readonly V2SearchFilter[];
  sort?: { field: string; direction: 'asc' | 'desc' } | undefined;
}

function compareValues(a: CellValue, b: CellValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Every property of the area matching all filters, in result order: by `sort` when given (missing
 * values last, either direction), otherwise best text match first (when a `contains` filter
 * ranks), then the store's entity order. The same query always gives the same order, so offset
 * cursors are stable. Throws a 400 naming `filters` or `sort` for a field or value that cannot apply.
 */
export function queryProperties(index: PropertyIndex, query: PropertyQuery): IndexedProperty[] {
  const compiled = query.filters.map((filter, i) => compileFilter(filter, i));
  let sortSpec: PropertyFieldSpec | undefined;
  if (query.sort) {
    sortSpec = propertyFieldSpec(query.sort.field);
    if (!sortSpec) {
      throw invalidParameter('sort', 'sort.field', `"${query.sort.field}" is not a property field; use one of ${PROPERTY_FIELD_SPECS.map((s) => s.field).join(', ')}`);
    }
  }
  const candidates = index.byArea.get(query.areaUid) ?? [];
  // Ranks order the result only without a sort and with a ranking filter; otherwise no per-match
  // object is made, since candidates come in ordinal order already.
  const ranking = !sortSpec && compiled.some((filter) => filter.ranks);
  const matches: IndexedProperty[] = [];
  const ranked: Array<{ entry: IndexedProperty; rank: number }> = [];
  for (const entry of candidates) {
    let rank = 0;
    let ok = true;
    for (const filter of compiled) {
      const r = filter.test(entry);
      if (r === null) {
        ok = false;
        break;
      }
      if (filter.ranks) rank = Math.max(rank, r);
    }
    if (!ok) continue;
    if (ranking) ranked.push({ entry, rank });
    else matches.push(entry);
  }
  if (ranking) {
    ranked.sort((a, b) => a.rank - b.rank || a.entry.ordinal - b.entry.ordinal);
    return ranked.map((match) => match.entry);
  }
  if (sortSpec && query.sort) {
    const field = sortSpec.field;
    const sign = query.sort.direction === 'desc' ? -1 : 1;
    matches.sort((a, b) => {
      const x = a.attributes[field];
      const y = b.attributes[field];
      if (x === null || y === null) return x === y ? a.ordinal - b.ordinal : x === null ? 1 : -1;
      return compareValues(x, y) * sign || a.ordinal - b.ordinal;
    });
  }
  return matches;
}
