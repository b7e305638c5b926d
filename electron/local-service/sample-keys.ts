// Keys shared by the sample-data build (scripts/build-sample-data.ts) and the read-only store
// (sample-store.ts): how ids are derived, how an address, an SSL and an owner name are normalised,
// and the constants of the sample's entity model. Both sides must agree exactly, or a lookup typed
// by a user would not find what the build indexed, so this file is the one place these rules live.
// No I/O.
import { createHash } from 'node:crypto';
import { foldToLatin } from '../../shared/latin-fold.ts';
import { isPlaceholderSsl, parseSsl, type ParsedSsl } from '../../shared/service/identifiers.ts';

// ---------------------------------------------------------------------------------------------
// Ids: name-based UUID v5 (RFC 9562 §5.5) over a source key, so the same input gives the same ids.

const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

export function uuidToBytes(uuid: string): Uint8Array {
  return Uint8Array.from(Buffer.from(uuid.replace(/-/g, ''), 'hex'));
}

export function uuidFromBytes(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** RFC 9562 UUID version 5: SHA-1 over namespace and name, version and variant bits set. */
export function uuidV5(name: string, namespace: string): string {
  const hash = createHash('sha1').update(uuidToBytes(namespace)).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return uuidFromBytes(bytes);
}

/** The namespace of every sample id, itself a v5 UUID in the URL namespace. */
export const SAMPLE_ID_NAMESPACE = uuidV5('https://plat.invalid/sample-data', URL_NAMESPACE);

/**
 * `rel_<uuid>` of an edge, from its subject, predicate and object refs. Edges are not stored with
 * their ref (the database would carry 150k more uuids); the store derives it the same way on read.
 */
export function relationshipRef(subjectRef: string, predicate: string, objectRef: string): string {
  return `rel_${uuidV5(`relationship:${subjectRef}:${predicate}:${objectRef}`, SAMPLE_ID_NAMESPACE)}`;
}

/** Bumped whenever the database layout or a key rule changes; the store refuses a db of another version. */
export const SAMPLE_SCHEMA_VERSION = 1;

/** Entity id prefixes (spec: `<prefix>_<uuid>`) and the v2 entity kind each stands for. */
export const ENTITY_PREFIX_KIND = {
  prop: 'property',
  parc: 'parcel',
  acct: 'tax_account',
  addr: 'address',
  unit: 'unit',
} as const;
export type EntityPrefix = keyof typeof ENTITY_PREFIX_KIND;
export type EntityKind = (typeof ENTITY_PREFIX_KIND)[EntityPrefix];
export const ENTITY_PREFIXES = Object.keys(ENTITY_PREFIX_KIND) as EntityPrefix[];

export const AREA_DC = 'area_us_dc';
export const AREA_ALEXANDRIA = 'area_us_va_alexandria';
export type AreaUid = typeof AREA_DC | typeof AREA_ALEXANDRIA;

/** County-level jurisdiction code of each area, and the state code it belongs to. */
export const AREA_JURISDICTION: Record<AreaUid, { county: string; state: string }> = {
  [AREA_DC]: { county: '11001', state: '11' },
  [AREA_ALEXANDRIA]: { county: '51510', state: '51' },
};

export const ENTITY_ID_PATTERN = /^(prop|parc|acct|addr|unit)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
export const RECORD_REF_PATTERN = /^rec_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Relationship predicates: the v2 set plus `same_owner` for owner links. */
export const PREDICATES = ['located_in', 'taxed_in', 'assessed_in', 'served_by', 'permitted_by', 'same_owner'] as const;
export type Predicate = (typeof PREDICATES)[number];

export type LocationPrecision = 'square_centroid' | 'address_point' | 'permit_point' | 'cama_point';

// Small integer codes for the repeated words of the database (value = index + 1), so 150k edges and
// 90k entities do not each carry the same strings.
export const AREA_CODES = [AREA_DC, AREA_ALEXANDRIA] as const;
/** Ordered worst to best: an entity keeps the best location any of its records gives. */
export const PRECISION_CODES = ['square_centroid', 'cama_point', 'permit_point', 'address_point'] as const satisfies readonly LocationPrecision[];
export const LINK_METHODS = ['same_row', 'ssl_match', 'address_match', 'owner_name_match'] as const;
export type LinkMethod = (typeof LINK_METHODS)[number];
/** A link read off one row or an exact SSL is exact; a match on a normalised name or address is not. */
export const METHOD_PRECISION: Record<LinkMethod, 'exact' | 'approximate'> = {
  same_row: 'exact',
  ssl_match: 'exact',
  address_match: 'approximate',
  owner_name_match: 'approximate',
};
export const IDENTIFIER_SCHEMES = ['ssl', 'ssl_as_published', 'address', 'unit_designator', 'account_no', 'mar_id', 'address_point_objectid'] as const;
export type IdentifierScheme = (typeof IDENTIFIER_SCHEMES)[number];

/** Dataset ids of the sample database (the `dataset` of each stored row). */
export const DATASET_IDS = {
  otr: 'dc_otr_real_property',
  permits: 'dc_dcra_new_building_permits',
  cama: 'dc_cama_residential',
  squares: 'dc_gis_square_points',
  vaParcels: 'va_alexandria_parcels',
  vaPoints: 'va_alexandria_address_points',
  synthetic: 'plat_synthetic_characteristics',
} as const;

/** The columns that hold a row's own point, per dataset. */
export const POINT_FIELDS: Record<string, readonly [string, string]> = {
  [DATASET_IDS.otr]: ['square_lat', 'square_lon'],
  [DATASET_IDS.permits]: ['LATITUDE', 'LONGITUDE'],
  [DATASET_IDS.cama]: ['LATITUDE', 'LONGITUDE'],
  [DATASET_IDS.squares]: ['lat', 'lon'],
  [DATASET_IDS.vaParcels]: ['lat', 'lon'],
  [DATASET_IDS.vaPoints]: ['lat', 'lon'],
  [DATASET_IDS.synthetic]: ['square_lat', 'square_lon'],
};

/** A row's point, or null; the permit layer writes 0,0 where it had none. */
export function rowPoint(dataset: string, values: Readonly<Record<string, unknown>>): { lat: number; lon: number } | null {
  const fields = POINT_FIELDS[dataset];
  if (!fields) return null;
  const lat = values[fields[0]];
  const lon = values[fields[1]];
  if (typeof lat !== 'number' || typeof lon !== 'number' || lat === 0 || lon === 0) return null;
  return { lat, lon };
}

// ---------------------------------------------------------------------------------------------
// SSL and address rules: shared with the request schemas (shared/service/identifiers.ts).

export { isCondoUnitSsl, isPlaceholderSsl, normaliseAddress, parseSsl } from '../../shared/service/identifiers.ts';
export type { NormalisedAddress, ParsedSsl } from '../../shared/service/identifiers.ts';

/** What a permit's SSL keys: the lot it names, or nothing, and then why when it gives one. */
export interface PermitSslKey {
  ssl: ParsedSsl | null;
  /** The placeholder the permit gives (square or lot 0000), which keys nothing; null otherwise. */
  placeholder: ParsedSsl | null;
  /** Why the SSL the permit gives keys no parcel (said on the permit wherever it is answered), or null. */
  problem: string | null;
}

/**
 * The SSL a permit row keys its lot by. The permits file gives the SSL as published (`SSL`) and,
 * where shared/data's build could read it, canonical (`SSL_CANONICAL`); an old PAR or RES key is read
 * from the published one. A placeholder (square or lot 0000: `0000 0000` is on permits at unrelated
 * addresses across the city) or a value that is not an SSL keys nothing, so the build never merges
 * unrelated permits into one real-looking parcel; the build and the store read a permit by this one rule.
 */
export function permitSslKey(values: Readonly<Record<string, unknown>>): PermitSslKey {
  const published = typeof values['SSL'] === 'string' ? values['SSL'].trim() : '';
  const canonical = typeof values['SSL_CANONICAL'] === 'string' ? values['SSL_CANONICAL'] : '';
  const fromPublished = parseSsl(published);
  const given = parseSsl(canonical) ?? fromPublished;
  const shown = `"${(published || canonical).replace(/\s+/g, ' ')}"`;
  if (given && isPlaceholderSsl(given)) {
    const zeros = given.square === '0000' && given.lot === '0000' ? 'square and lot 0000' : given.square === '0000' ? 'square 0000' : 'lot 0000';
    return {
      ssl: null,
      placeholder: given,
      problem: `Its published SSL ${shown} is a placeholder (${zeros}), not a valid parcel key: the permit is linked to no parcel, unit or lot by it, and other permits giving it are not thereby about the same land.`,
    };
  }
  const ssl = parseSsl(canonical) ?? (fromPublished && (fromPublished.form === 'par' || fromPublished.form === 'res') ? fromPublished : null);
  if (ssl || (published === '' && canonical === '')) return { ssl, placeholder: null, problem: null };
  return { ssl: null, placeholder: null, problem: `Its published SSL ${shown} is not one the sample reads as a valid parcel key: the permit is linked to no parcel, unit or lot by it.` };
}

// ---------------------------------------------------------------------------------------------
// Owner names

/**
 * Normalises an owner name for same-owner matching: upper case, accents folded to plain Latin
 * (`MÜLLER` → `MULLER`, `JOSÉ` → `JOSE`: shared/latin-fold.ts; a search tries every spelling, this
 * is the key form), `&` as `AND`, punctuation dropped, single spaces, and the usual spellings of
 * entity forms made one (`L.L.C.`, `L L C`, `Limited Liability Company` → `LLC`;
 * `Inc.`/`Incorporated` → `INC`; `Corp.`/`Corporation` → `CORP`; `L.P.`/`Limited Partnership` →
 * `LP`). Nothing else: `JOHN SMITH` and `JOHN A SMITH` stay apart. Letters with no Latin spelling
 * (名) are kept, never turned into spaces: a search for them must not become a search for the rest.
 */
export function normaliseOwnerName(raw: string): string {
  let s = foldToLatin(raw).replace(/&/g, ' AND ');
  s = s.replace(/['’]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  s = s.replace(/\bL L C\b/g, 'LLC').replace(/\bLIMITED LIABILITY (?:COMPANY|CO)\b/g, 'LLC');
  // `L P` only at the end: elsewhere it is as likely a person's initials.
  s = s.replace(/\bL L P\b/g, 'LLP').replace(/\bL P$/, 'LP').replace(/\bLIMITED PARTNERSHIP\b/g, 'LP');
  s = s.replace(/\bINCORPORATED\b/g, 'INC').replace(/\bCORPORATION\b/g, 'CORP');
  return s;
}

const ORGANISATION_MARKERS =
  /\b(LLC|LLP|LP|INC|CORP|CO|COMPANY|TRUST|TRUSTEES?|ASSOCIATION|ASSOCIATES|ASSN|CHURCH|BANK|PARTNERSHIP|PARTNERS|FOUNDATION|CONDOMINIUM|COOPERATIVE|COOP|SOCIETY|UNIVERSITY|EMBASSY|DISTRICT OF COLUMBIA|UNITED STATES|GOVERNMENT|HOUSING|PROPERTIES|REALTY|HOLDINGS|INVESTMENTS?|FUND|LIMITED|LTD|SA|INSTITUTE|COUNCIL|BOARD|AUTHORITY|CLUB)\b/;

/** Whether a normalised owner name reads as an organisation rather than a person. */
export function isOrganisationName(normalised: string): boolean {
  return ORGANISATION_MARKERS.test(normalised);
}

/**
 * Confidence that two holdings under one normalised owner name have the same owner. Organisation
 * names are rarely shared by strangers; personal names often are (two John Smiths), so a same-name
 * link between people is a lead, not a fact.
 */
export function sameOwnerConfidence(normalised: string): number {
  return isOrganisationName(normalised) ? 0.85 : 0.6;
}

/** Folds free text for case- and accent-insensitive partial matching of addresses and other text fields. */
export function foldForSearch(text: string): string {
  return foldToLatin(text).replace(/&/g, ' AND ').replace(/[^\p{L}\p{N}/]+/gu, ' ').replace(/\s+/g, ' ').trim();
}

/** The value form used by search equality: trimmed, single-spaced, upper case; numbers in their shortest form. */
export function equalityKey(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value !== 'string') return null;
  const s = value.trim().replace(/\s+/g, ' ').toUpperCase();
  if (s === '') return null;
  // A numeric string compares as its number, so `"017"`, `"17"` and `17` are one key.
  if (/^-?\d+(\.\d+)?$/.test(s)) return String(Number(s));
  return s;
}

// ---------------------------------------------------------------------------------------------
// Distance

const EARTH_RADIUS_M = 6_371_008.8;
export const METERS_PER_MILE = 1609.344;

/** Great-circle (haversine) distance in metres. */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLon = (lon2 - lon1) * toRad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The synthetic characteristics' dataset, named by what the build does: each residential lot of a
 * tax square takes a CAMA record of its use code by rank of distance to the square's centroid (the
 * k-th lot by SSL, the k-th nearest record), so the record is near the square, not necessarily the
 * nearest to the lot. sample.db files built before this name say "imputed from the nearest DC CAMA
 * residential record": the store reads that old name as this one (sample-store/rows.ts).
 */
export const SYNTHETIC_DATASET_NAME = 'Building characteristics copied from DC CAMA residential records of the same use code near the lot’s tax square';
export const SYNTHETIC_DATASET_NAME_BEFORE = 'Building characteristics imputed from the nearest DC CAMA residential record';
