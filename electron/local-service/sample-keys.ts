// Keys shared by the sample-data build (scripts/build-sample-data.ts) and the read-only store
// (sample-store.ts): how ids are derived, how an address, an SSL and an owner name are normalised,
// and the constants of the sample's entity model. Both sides must agree exactly, or a lookup typed
// by a user would not find what the build indexed, so this file is the one place these rules live.
// No I/O.
import { createHash } from 'node:crypto';
import { foldToLatin } from '../../shared/latin-fold.ts';

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
// SSL (DC Square-Suffix-Lot)

export interface ParsedSsl {
  /** Canonical form: square+suffix left-aligned in 8 characters, then the 4-digit lot (`0150    0295`); for PAR/RES/PI keys the compact published form (`PAR 02600014`). */
  canonical: string;
  /** `square`: a square-suffix-lot; `par`/`res`: an old parcel or federal reservation key; `pi`: a possessory interest. */
  form: 'square' | 'par' | 'res' | 'pi';
  square: string | null;
  suffix: string | null;
  lot: string | null;
}

/**
 * Parses an SSL in the forms the sources and people use: canonical `0150    0295`, any run of
 * spaces or a dash between square and lot (`0150 0295`, `150-295`), a square suffix (`0242N 2035`),
 * the OTR scraper's `BD` form (`BD0001500295`, `BD00515N2001`), and `PAR`/`RES`/`PI` keys.
 * Returns null for anything else (the permit file holds a few such values, kept as published).
 */
export function parseSsl(input: string): ParsedSsl | null {
  const s = input.trim().toUpperCase();
  let m = /^BD0{0,2}(\d{4})([A-Z]{0,2})(\d{4})$/.exec(s);
  if (!m) m = /^(\d{1,4})([A-Z]{0,4})(?:\s+|\s*-\s*)(\d{1,4})$/.exec(s);
  if (!m) m = /^(\d{4})([A-Z]{1,4})(\d{4})$/.exec(s);
  if (m) {
    const square = (m[1] ?? '').padStart(4, '0');
    const suffix = m[2] ?? '';
    const lot = (m[3] ?? '').padStart(4, '0');
    return { canonical: `${(square + suffix).padEnd(8, ' ')}${lot}`, form: 'square', square, suffix, lot };
  }
  const p = /^(PAR|RES)\s*(\d{8})$/.exec(s);
  if (p) return { canonical: `${p[1]} ${p[2]}`, form: p[1] === 'PAR' ? 'par' : 'res', square: null, suffix: null, lot: null };
  if (/^PI\d{10}$/.test(s)) return { canonical: s, form: 'pi', square: null, suffix: null, lot: null };
  return null;
}

/**
 * DC numbers condominium units as lots 2000 and up on their square (record lots stay below 1000,
 * assessment-and-taxation lots in the 800s and 900s), so a lot of 2000 or more is a unit, not land.
 */
export function isCondoUnitSsl(ssl: ParsedSsl): boolean {
  return ssl.form === 'square' && ssl.lot !== null && Number(ssl.lot) >= 2000;
}

// ---------------------------------------------------------------------------------------------
// Addresses

export interface NormalisedAddress {
  /** The premise (street) address without unit: `555 MASSACHUSETTS AVE NW`. */
  premise: string;
  /** Unit designator without its label and leading zeros (`101`, `G2-271`), or null. */
  unit: string | null;
  /** Premise plus ` UNIT <unit>` when there is a unit. */
  full: string;
  /** Whether the premise begins with a house number (street segments such as `8TH ST NW` do not). */
  hasHouseNumber: boolean;
}

// USPS standard street suffix abbreviations for the forms found in the DC and Alexandria files.
const STREET_TYPES: Record<string, string> = {
  AV: 'AVE', AVE: 'AVE', AVENUE: 'AVE',
  ST: 'ST', STREET: 'ST',
  RD: 'RD', ROAD: 'RD',
  DR: 'DR', DRIVE: 'DR',
  PL: 'PL', PLACE: 'PL',
  CT: 'CT', COURT: 'CT',
  CIR: 'CIR', CR: 'CIR', CIRCLE: 'CIR',
  TER: 'TER', TR: 'TER', TERRACE: 'TER',
  LN: 'LN', LA: 'LN', LANE: 'LN',
  BLVD: 'BLVD', BV: 'BLVD', BOULEVARD: 'BLVD',
  HWY: 'HWY', HY: 'HWY', HIGHWAY: 'HWY',
  PKWY: 'PKWY', PARKWAY: 'PKWY',
  ALY: 'ALY', ALLEY: 'ALY',
  CRES: 'CRES', CRESCENT: 'CRES',
  SQ: 'SQ', SQUARE: 'SQ',
  WAY: 'WAY', WALK: 'WALK', ROW: 'ROW', PLZ: 'PLZ', PLAZA: 'PLZ',
};
const DC_QUADRANTS = new Set(['NW', 'NE', 'SE', 'SW']);

function ordinal(n: string): string {
  const v = Number(n);
  const tens = v % 100;
  if (tens >= 11 && tens <= 13) return `${v}TH`;
  return `${v}${({ 1: 'ST', 2: 'ND', 3: 'RD' } as Record<number, string>)[v % 10] ?? 'TH'}`;
}

function normaliseUnit(raw: string): string | null {
  // Punctuation first, then every leading designator (`# : UNIT 4`, `UNIT UNIT`), so that
  // normalising an already normalised address changes nothing.
  let u = raw.replace(/[#:]/g, ' ').replace(/\s+/g, ' ').trim();
  while (/^(UNIT|APT|STE|SUITE)\b/.test(u)) u = u.replace(/^(UNIT|APT|STE|SUITE)\b\s*/, '');
  if (u === '' || u === 'N/A' || u === 'NA') return null;
  u = u.replace(/^0+(?=[0-9A-Z])/, '');
  return u;
}

/**
 * Normalises a premise address so the same place reads the same in every source: upper case,
 * single spaces, punctuation dropped, house number without leading zeros (`0555` → `555`), half
 * numbers split (`2101/2` → `210 1/2`), a letter suffix joined to its number (`1309 A HANCOCK` →
 * `1309A HANCOCK`, but not `40 N ST`), numbered streets as ordinals (`4 ST` → `4TH ST`), `MT` as
 * `MOUNT`, USPS street types (`AV`/`AVENUE` → `AVE`, `LA` → `LN`), and the unit split off
 * (`Unit: 00101`, `UNIT 13B`, `#4`, or anything after a DC quadrant such as `G2-271`).
 * Returns null when nothing is left.
 */
export function normaliseAddress(raw: string): NormalisedAddress | null {
  let s = raw.toUpperCase().replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();
  if (s === '') return null;
  let unit: string | null = null;
  const unitMatch = /\s(?:UNIT|APT|STE|SUITE)\b\s*:?\s*(.*)$|\s?#\s*(.*)$/.exec(s);
  if (unitMatch) {
    unit = normaliseUnit(unitMatch[1] ?? unitMatch[2] ?? '');
    s = s.slice(0, unitMatch.index).trim();
  }
  s = s.replace(/^(\d+)\s*-\s*(\d+)\b/, '$1-$2');
  let tokens = s.split(' ').filter((t) => t !== '');
  // A DC quadrant ends the street; what follows it is a unit (parking spaces, `000C5`).
  let quadrantAt = -1;
  for (let i = tokens.length - 1; i >= 1; i--) {
    if (DC_QUADRANTS.has(tokens[i] ?? '')) {
      quadrantAt = i;
      break;
    }
  }
  if (quadrantAt >= 0 && quadrantAt < tokens.length - 1) {
    unit ??= normaliseUnit(tokens.slice(quadrantAt + 1).join(' '));
    tokens = tokens.slice(0, quadrantAt + 1);
  }
  const first = tokens[0] ?? '';
  const hasHouseNumber = /^\d/.test(first);
  if (hasHouseNumber) {
    const half = /^(\d+)1\/2$/.exec(first);
    if (half && tokens[1] !== '1/2') tokens.splice(0, 1, half[1] ?? '', '1/2');
    tokens[0] = (tokens[0] ?? '').replace(/^0+(?=\d)/, '').replace(/-0+(?=\d)/, '-');
    const letter = tokens[1] ?? '';
    const next = tokens[2] ?? '';
    // Not N/S/E/W: those are directional prefixes (`201 E LURAY AVE`).
    // Only outside DC, where letter streets (`40 N ST NW`, `1906 T ST1/2 NW`) follow the number.
    // And only onto a bare number: `12A Q ST` already has its suffix, so normalising again keeps it.
    if (
      quadrantAt < 0 &&
      /^\d+(-\d+)?$/.test(tokens[0] ?? '') &&
      /^[A-DF-MO-RT-VX-Z]$/.test(letter) &&
      tokens.length >= 4 &&
      STREET_TYPES[next] === undefined &&
      !DC_QUADRANTS.has(next)
    ) {
      tokens.splice(0, 2, `${tokens[0]}${letter}`);
    }
  }
  // The street type is the last token before the quadrant (DC) or the last token (elsewhere).
  const streetEnd = DC_QUADRANTS.has(tokens[tokens.length - 1] ?? '') && tokens.length > 1 ? tokens.length - 2 : tokens.length - 1;
  for (let i = hasHouseNumber ? 1 : 0; i <= streetEnd; i++) {
    const t = tokens[i] ?? '';
    if (i === streetEnd) {
      const type = STREET_TYPES[t];
      if (type !== undefined && i > (hasHouseNumber ? 1 : 0)) {
        tokens[i] = type;
        const prev = tokens[i - 1] ?? '';
        if (/^\d+$/.test(prev) && i - 1 > 0) tokens[i - 1] = ordinal(prev);
      }
    } else if (t === 'MT') {
      tokens[i] = 'MOUNT';
    }
  }
  const premise = tokens.join(' ');
  if (premise === '') return null;
  return { premise, unit, full: unit === null ? premise : `${premise} UNIT ${unit}`, hasHouseNumber };
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
