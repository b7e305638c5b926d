// How a DC SSL and a US street address are written canonically. Shared by the embedded service (its
// sample build and store: sample-keys.ts re-exports these) and by the request schemas, so what a
// person types, the key Plat caches a request under and what the service looks up are one form.
// Pure: no I/O, no Node built-ins.
import { foldToLatin, nonLatinLetters } from '../latin-fold.ts';

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
// What a person types, in one form: inputs that differ only by case, spacing or punctuation are the
// same request (one cache key, one Idempotency fingerprint, one wire request, so never two charges).

// A trailing city, state or ZIP code ("…, Washington DC 20009", "… Alexandria, VA"): the sample's
// addresses are premises, and after a DC quadrant the address normaliser would read it as a unit.
const STATE = '(?:DC|D C|DISTRICT OF COLUMBIA|VA|VIRGINIA)';
// ZIP codes of DC (200xx to 205xx) and Northern Virginia (220xx to 223xx) only: OTR writes unit
// numbers such as 00101 after the quadrant, and those must stay units.
const ZIP = '(?:20[0-5]|22[0-3])\\d{2}(?:-\\d{4})?';
const LOCALITY = new RegExp(`(?:\\s+(?:WASHINGTON|ALEXANDRIA)(?=\\s+(?:${STATE}|${ZIP})))?(?:\\s+${STATE})?(?:\\s+${ZIP})?\\s*$`);

/** The address without a trailing city, state or ZIP code; upper case, punctuation as spaces. */
export function withoutLocality(raw: string): string {
  // A city alone is taken off only after a comma ("…, Washington"): "100 MOUNT WASHINGTON" is a street.
  const upper = raw.toUpperCase().replace(/,\s*(?:WASHINGTON|ALEXANDRIA)\s*$/, '');
  const s = upper.replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();
  const m = LOCALITY.exec(s);
  if (!m || m[0].trim() === '') return s;
  const rest = s.slice(0, m.index).trim();
  // Only when a street address is left ("DC" alone stays as typed), and a unit number is not a ZIP code.
  return /^\d/.test(rest) && rest.includes(' ') && !/(?:\bUNIT|\bAPT|\bSTE|\bSUITE|#)$/.test(rest) ? rest : s;
}

/** A typed address in the form the service's records are keyed by (`1708 21st st nw, Washington DC` → `1708 21ST ST NW`). */
export function canonicalAddress(raw: string): string {
  const text = withoutLocality(foldToLatin(raw));
  return normaliseAddress(text)?.full ?? text;
}

/** `0065 0007`, `0065    0007`, `0065-0007`, `0065/0007`, `65-7`, `BD0000650007` → `0065    0007`; anything else as typed, upper case. */
export function canonicalSsl(raw: string): string {
  const text = raw.trim().toUpperCase().replace(/\s+/g, ' ');
  return parseSsl(text.replace(/\s*\/\s*/, ' '))?.canonical ?? text;
}

/** A square-form SSL with square 0000 or lot 0000: a placeholder some records carry, never a parcel. */
export function isPlaceholderSsl(ssl: ParsedSsl): boolean {
  return ssl.form === 'square' && (ssl.square === '0000' || ssl.lot === '0000');
}

/** Alexandria account numbers and MAR ids: digits without spaces, dashes or leading zeros (`013 244-500` → `13244500`). */
export function canonicalNumber(raw: string): string {
  const text = raw.trim().toUpperCase().replace(/\s+/g, ' ');
  const digits = text.replace(/[\s-]/g, '');
  return /^\d+$/.test(digits) ? digits.replace(/^0+(?=\d)/, '') : text;
}

export type TypedIdentifierScheme = 'address' | 'ssl' | 'account_no' | 'mar_id' | 'entity_ref';

/** An identifier value in its canonical form (see the functions above); entity ids in lower case. */
export function canonicalIdentifier(scheme: TypedIdentifierScheme, raw: string): string {
  switch (scheme) {
    case 'address':
      return canonicalAddress(raw);
    case 'ssl':
      return canonicalSsl(raw);
    case 'account_no':
    case 'mar_id':
      return canonicalNumber(raw);
    case 'entity_ref':
      return raw.trim().toLowerCase();
  }
}

/**
 * Why a typed identifier cannot name anything in a US property record, or null when it can: letters
 * with no Latin spelling (the records are written in Latin capitals and digits), nothing but
 * punctuation, or a placeholder SSL.
 */
export function identifierProblem(scheme: TypedIdentifierScheme, raw: string): string | null {
  const foreign = nonLatinLetters(raw);
  if (foreign.length > 0) {
    return `has letters with no Latin spelling (${foreign.slice(0, 5).join(' ')}); property records here are written in Latin letters and digits`;
  }
  if (!/[\p{L}\p{N}]/u.test(raw)) return 'must contain letters or digits';
  if (scheme === 'ssl') {
    const ssl = parseSsl(canonicalSsl(raw));
    if (ssl && isPlaceholderSsl(ssl)) {
      return `${ssl.canonical.replace(/\s+/, ' ')} is a placeholder some records carry (square or lot 0000), not a parcel's SSL`;
    }
  }
  return null;
}
