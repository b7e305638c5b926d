// Reading one property of a kept v3 answer (the subject of `report_subject_v1`, or a sale of
// `report_comparables_v1`) into the grid's cited values: every value cites the records the answer
// names for it (`source_refs`, placed in a source by shared/cited/source-refs.ts); building
// characteristics the sample made up are `synthetic` and cite the synthetic sample, never OTR; what
// the answer lacks is `unavailable` and says why.
import { readPublishedDollars } from '../format/dollars.ts';
import { formatNumber, formatSqft } from '../format/number.ts';
import { formatYear } from '../format/year.ts';
import { isRecord } from '../json-data.ts';
import { formatFieldValue } from '../report/format.ts';
import { asSynthetic, documentCitation, publisherName, type CitationFields, type CitationView } from '../cited/citation.ts';
import { citeRef, indexV3Sources } from '../cited/source-refs.ts';
import type { Cite } from '../cited/citation-book.ts';
import type { CitedValue, ValueStatus } from '../cited/value.ts';
import { rateLabels, type FeatureNumbers, type GridProperty, type GridRowKey, type LonLat, type RateKey } from './model.ts';
import { conditionStep, gradeStep } from './scales.ts';

export type Json = Record<string, unknown>;

export const NOT_IN_SAMPLE = 'Not in the sample.';

/** The grid's row names, URAR's where it has one. */
export const gridRowLabels: Record<GridRowKey, string> = {
  address: 'Address',
  proximity: 'Proximity to subject',
  salePrice: 'Sale price',
  // The area rows name the measure as published where the properties are known (areaRowLabel).
  pricePerSqft: 'Sale price per sq ft of the area as published',
  dataSource: 'Data source and identifier',
  saleType: 'Sale type',
  saleDate: 'Date of sale',
  site: 'Site (land area)',
  style: 'Design (style)',
  quality: 'Quality of construction (grade)',
  actualAge: 'Actual age (year built)',
  condition: 'Condition',
  rooms: 'Total rooms',
  bedrooms: 'Bedrooms',
  baths: 'Baths (full.half)',
  gla: 'Area as published (measure not stated)',
  stories: 'Stories',
  heatingCooling: 'Heating / cooling',
  fireplaces: 'Fireplaces',
  exterior: 'Exterior walls',
  units: 'Units',
};

// ---------------------------------------------------------------------------------------------
// The area measure, as published

/**
 * What the area a property's answer gives measures: gross living area (GLA), gross building area
 * (GBA: DC CAMA's, which counts more than living space) or an area whose measure the answer does not
 * state. Decided from the field the answer publishes it under, never assumed.
 */
export type AreaMeasure = 'gla' | 'gba' | 'unstated';

export const areaMeasureWords: Record<AreaMeasure, { row: string; basis: string; value: string }> = {
  gla: { row: 'Gross living area', basis: 'gross living area', value: 'gross living area' },
  gba: { row: 'Gross building area (published; stands in for GLA)', basis: 'gross building area', value: 'gross building area (GBA)' },
  unstated: { row: 'Area as published (measure not stated)', basis: 'area as published (measure not stated)', value: 'area as published (measure not stated)' },
};

const LIVING_FIELDS = ['living_area_sqft', 'gross_living_area_sqft', 'gla_sqft'];
const GROSS_FIELDS = ['gross_area_sqft', 'gross_building_area_sqft', 'gba_sqft'];
const lower = (json: Json): Map<string, unknown> => new Map(Object.entries(json).map(([key, value]) => [key.toLowerCase(), value]));

/** The building area a profile publishes and its measure, or null; land and lot areas are not building areas. */
export function areaOf(profile: Json): { sqft: number; measure: AreaMeasure; field: string } | null {
  const fields = lower(profile);
  const first = (names: string[]) => names.map((name) => [name, num(fields.get(name))] as const).find(([, value]) => value !== null);
  const living = first(LIVING_FIELDS);
  if (living) return { sqft: living[1]!, measure: 'gla', field: living[0] };
  const gross = first(GROSS_FIELDS);
  if (gross) return { sqft: gross[1]!, measure: 'gba', field: gross[0] };
  const other = [...fields.entries()].find(([key, value]) => num(value) !== null && /(area|sq_?ft|square_f)/.test(key) && !/(land|lot|site)/.test(key));
  return other ? { sqft: num(other[1])!, measure: 'unstated', field: other[0] } : null;
}

/** The measure the area row holds across properties: one name when they agree, each value's own when they do not. */
export function areaMeasureOf(properties: ReadonlyArray<{ areaMeasure?: AreaMeasure | null }>): AreaMeasure | 'mixed' | null {
  const measures = new Set(properties.map((property) => property.areaMeasure ?? null).filter((measure): measure is AreaMeasure => measure !== null));
  if (measures.size === 0) return null;
  return measures.size === 1 ? [...measures][0]! : 'mixed';
}

/** The area's name in a sentence's first words ("Gross building area (GBA)"), for these properties' measure. */
export function areaShortLabel(properties: ReadonlyArray<{ areaMeasure?: AreaMeasure | null }>): string {
  const measure = areaMeasureOf(properties);
  const words = measure === null || measure === 'mixed' ? 'area as published' : areaMeasureWords[measure].value;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A grid row's label for these properties: the area rows name the measure as published (GBA standing in for GLA says so). */
export function areaRowLabel(row: GridRowKey, properties: ReadonlyArray<{ areaMeasure?: AreaMeasure | null }>): string {
  if (row !== 'gla' && row !== 'pricePerSqft') return gridRowLabels[row];
  const measure = areaMeasureOf(properties);
  if (measure === null) return gridRowLabels[row];
  if (measure === 'mixed') return row === 'gla' ? 'Area as published (living or building area: see each value)' : 'Sale price per sq ft of the area as published (see each value)';
  return row === 'gla' ? areaMeasureWords[measure].row : `Sale price per sq ft of ${areaMeasureWords[measure].basis}`;
}

export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
export const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : []);
export const record = (value: unknown): Json | null => (isRecord(value) ? value : null);

export const sqft = formatSqft;

/** A year as published, a number or its digits ("1895"): its number for the grid's arithmetic and the text it was published as. */
function yearOf(value: unknown): { year: number; published: number | string } | null {
  if (typeof value === 'number' && Number.isInteger(value)) return { year: value, published: value };
  if (typeof value === 'string' && /^\d{4}$/.test(value.trim())) return { year: Number(value), published: value.trim() };
  return null;
}

/**
 * A publisher's dollar amount, written as a number, as text ("18402.50") or as a field cell
 * (`{value}`): the value as published (kept for the citation) and its dollars (for the arithmetic).
 */
export function amountOf(value: unknown): { published: number | string; dollars: number } | null {
  const published = isRecord(value) && 'value' in value ? value.value : value;
  if (typeof published !== 'number' && typeof published !== 'string') return null;
  const amount = readPublishedDollars(published);
  return amount === null ? null : { published: typeof published === 'string' ? published.trim() : published, dollars: amount.dollars };
}

// ---------------------------------------------------------------------------------------------
// Citations

/** The sources of one or more answers, and which source each cited record belongs to. */
export interface AnswerIndex {
  sources: Map<string, CitationView>;
  records: Map<string, CitationView>;
}

export const emptyIndex = (): AnswerIndex => ({ sources: new Map(), records: new Map() });

/** Adds an answer's `data.sources` to the index. */
export function indexSources(index: AnswerIndex, data: Json): void {
  indexV3Sources(index, data.sources);
}

/** A ref's citation; a ref the answer cites without naming its source still cites the ref, and says so. */
export function citationForRef(index: AnswerIndex, ref: string): CitationFields {
  return citeRef(index, ref);
}

/** A source as a whole (a sentence about the dataset, not one of its records). */
export const sourceCitation = (view: CitationView): CitationFields => documentCitation({ ...view, recordRef: null, extra: {} });

// ---------------------------------------------------------------------------------------------
// Cited values

export interface ValueParts {
  raw: CitedValue['raw'];
  display: string;
  status: Exclude<ValueStatus, 'unavailable'>;
  citations: CitationFields[];
  derivedFrom?: string | null;
  limitation?: string | null;
}

export function unavailableValue(row: GridRowKey, why: string): CitedValue {
  return {
    field: `comparables.${row}`,
    label: gridRowLabels[row],
    raw: null,
    display: '—',
    status: 'unavailable',
    citationIds: [],
    derivedFrom: null,
    limitation: why,
    alternatives: [],
    choice: null,
  };
}

/** A cited value; one without any citation cannot say where it came from, so it is unavailable and says so. */
export function citedValue(row: GridRowKey, parts: ValueParts, cite: Cite): CitedValue {
  if (parts.citations.length === 0) return unavailableValue(row, 'The answer gives this without citing a source.');
  const citations = parts.status === 'synthetic' ? parts.citations.map(asSynthetic) : parts.citations;
  return {
    field: `comparables.${row}`,
    label: gridRowLabels[row],
    raw: parts.raw,
    display: parts.display,
    status: parts.status,
    citationIds: [...new Set(citations.map(cite))],
    derivedFrom: parts.derivedFrom ?? null,
    limitation: parts.limitation ?? null,
    alternatives: [],
    choice: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Building characteristics

interface Profile {
  json: Json;
  synthetic: boolean;
  citations: CitationFields[];
  /** Said of every value of the profile (synthetic, or the CAMA extract's date). */
  note: string | null;
}

function profileOf(item: Json, index: AnswerIndex): Profile | null {
  const json = record(item.characteristics) ?? record(record(item.sections)?.building);
  if (!json || text(json.status) === 'unavailable') return null;
  const citations = strings(json.source_refs).map((ref) => citationForRef(index, ref));
  const synthetic = text(json.status) === 'synthetic' || citations.some((c) => c.synthetic);
  const copiedFrom = strings(json.derived_from);
  const note = synthetic
    ? `Synthetic: copied by the sample from ${copiedFrom.length > 0 ? `DC CAMA record ${copiedFrom.join(', ')}` : 'a DC CAMA record near its tax square'}, not a record of this property.`
    : text(json.limitations);
  return { json, synthetic, citations, note };
}

function profileValue(row: GridRowKey, profile: Profile | null, raw: string | number | null, display: string, cite: Cite, extra?: string): CitedValue {
  if (!profile || raw === null) return unavailableValue(row, NOT_IN_SAMPLE);
  const limitation = [profile.note, extra].filter((part): part is string => typeof part === 'string').join(' ') || null;
  return citedValue(row, { raw, display, status: profile.synthetic ? 'synthetic' : 'reported', citations: profile.citations, limitation }, cite);
}

function siteValue(profile: Profile | null, item: Json, index: AnswerIndex, cite: Cite): { value: CitedValue; sqft: number | null } {
  const area = num(profile?.json.land_area_sqft);
  if (area !== null) return { value: profileValue('site', profile, area, sqft(area), cite), sqft: area };
  // The subject report gives the land area as a field cell of its land section.
  const cell = record(record(record(item.sections)?.land)?.land_area_square_feet);
  const cellArea = cell && text(cell.value) !== null ? Number(cell.value) : Number.NaN;
  if (!cell || !Number.isFinite(cellArea) || text(cell.status) === 'unavailable') {
    return { value: unavailableValue('site', text(cell?.limitation) ?? NOT_IN_SAMPLE), sqft: null };
  }
  const citations = strings(cell.source_refs).map((ref) => citationForRef(index, ref));
  const synthetic = text(cell.status) === 'synthetic' || citations.some((c) => c.synthetic);
  const value = citedValue(
    'site',
    { raw: cellArea, display: sqft(cellArea), status: synthetic ? 'synthetic' : 'reported', citations, limitation: text(cell.note) ?? text(cell.limitation) },
    cite,
  );
  return { value, sqft: cellArea };
}

function bathsValue(profile: Profile | null, cite: Cite): { value: CitedValue; baths: number | null } {
  const full = num(profile?.json.full_bathrooms);
  const half = num(profile?.json.half_bathrooms);
  if (full === null) return { value: unavailableValue('baths', NOT_IN_SAMPLE), baths: null };
  if (half === null) {
    return { value: profileValue('baths', profile, `${full}`, `${full} full`, cite, 'Half baths are not in the sample.'), baths: null };
  }
  // URAR writes 3 full and 1 half bath as "3.1"; the grid counts a half bath as ½.
  return { value: profileValue('baths', profile, `${full}.${half}`, `${full}.${half}`, cite), baths: full + 0.5 * half };
}

function heatingCoolingValue(profile: Profile | null, cite: Cite): CitedValue {
  const heating = text(profile?.json.heating);
  const cooling = text(profile?.json.cooling);
  if (heating === null && cooling === null) return unavailableValue('heatingCooling', NOT_IN_SAMPLE);
  const display = `${heating ?? 'heating not in the sample'} / ${cooling ?? 'cooling not in the sample'}`;
  return profileValue('heatingCooling', profile, display, display, cite);
}

/** The rows every property has from its building profile and land, and the numbers the grid computes with. */
export function characteristicValues(item: Json, index: AnswerIndex, cite: Cite) {
  const profile = profileOf(item, index);
  const p = profile?.json ?? {};
  const grade = text(p.grade);
  const condition = text(p.condition);
  const builtYear = yearOf(p.year_built);
  const built = builtYear?.year ?? null;
  const remodeled = yearOf(p.year_remodeled);
  const area = areaOf(p);
  const gla = area?.sqft ?? null;
  const style = [text(p.building_type), text(p.style)].filter((part): part is string => part !== null).join(', ');
  const site = siteValue(profile, item, index, cite);
  const baths = bathsValue(profile, cite);
  const count = (row: GridRowKey, value: number | null) => profileValue(row, profile, value, value === null ? '—' : formatNumber(value), cite);
  const values = {
    site: site.value,
    style: profileValue('style', profile, style || null, style, cite),
    quality: profileValue('quality', profile, grade, grade ?? '—', cite, grade !== null && gradeStep(grade) === null ? 'Not on the DC CAMA grade scale: no grade step.' : undefined),
    actualAge: profileValue(
      'actualAge',
      profile,
      builtYear?.published ?? null,
      builtYear === null ? '—' : `Built ${formatYear(builtYear.published)}${remodeled !== null ? ` (remodeled ${formatYear(remodeled.published)})` : ''}`,
      cite,
    ),
    condition: profileValue('condition', profile, condition, condition ?? '—', cite, condition !== null && conditionStep(condition) === null ? 'Not a rating on the DC CAMA condition scale ("Default" means not rated): no condition step.' : undefined),
    rooms: count('rooms', num(p.rooms)),
    bedrooms: count('bedrooms', num(p.bedrooms)),
    baths: baths.value,
    gla: {
      ...profileValue(
        'gla',
        profile,
        gla,
        gla === null ? '—' : sqft(gla),
        cite,
        area?.measure === 'gba'
          ? 'Gross building area (GBA) as published: it stands in for the gross living area, which the answer does not give.'
          : area?.measure === 'unstated'
            ? `Published as “${area.field}”: the answer does not say whether it is living or building area.`
            : undefined,
      ),
      ...(area ? { label: areaMeasureWords[area.measure].row } : {}),
    },
    stories: count('stories', num(p.stories)),
    heatingCooling: heatingCoolingValue(profile, cite),
    fireplaces: count('fireplaces', num(p.fireplaces)),
    exterior: profileValue('exterior', profile, text(p.exterior_wall), text(p.exterior_wall) ?? '—', cite),
    units: count('units', num(p.units)),
  } satisfies Partial<Record<GridRowKey, CitedValue>>;
  const numbers: FeatureNumbers = {
    gla: values.gla.status === 'unavailable' ? null : gla,
    bedrooms: values.bedrooms.status === 'unavailable' ? null : num(p.bedrooms),
    baths: values.baths.status === 'unavailable' ? null : baths.baths,
    yearBuilt: values.actualAge.status === 'unavailable' ? null : built,
    gradeStep: values.quality.status === 'unavailable' ? null : gradeStep(grade),
    conditionStep: values.condition.status === 'unavailable' ? null : conditionStep(condition),
    landAreaSqft: values.site.status === 'unavailable' ? null : site.sqft,
  };
  // What the living area cites, for the values computed from it (price per sq ft).
  const glaCitations = values.gla.status === 'unavailable' ? [] : (profile?.citations ?? []);
  return { values, numbers, synthetic: profile?.synthetic ?? false, glaCitations, areaMeasure: area?.measure ?? null };
}

// ---------------------------------------------------------------------------------------------
// Identity, location, source

export function addressValue(item: Json, index: AnswerIndex, cite: Cite, missing: string): { value: CitedValue; address: string | null } {
  const identity = record(record(item.sections)?.identity);
  const address = text(identity?.address);
  if (address === null) return { value: unavailableValue('address', missing), address: null };
  const citations = strings(identity?.source_refs).map((ref) => citationForRef(index, ref));
  return { value: citedValue('address', { raw: address, display: address, status: 'reported', citations }, cite), address };
}

/** "DC Office of Tax and Revenue record rec_…, SSL 0093 0080": who holds the record the values come from, and how to find it there. */
export function dataSourceValue(item: Json, refs: string[], index: AnswerIndex, cite: Cite): CitedValue {
  const ref = refs[0];
  if (ref === undefined) return unavailableValue('dataSource', 'The answer names no record for this property.');
  const citation = citationForRef(index, ref);
  const ssl = text(record(record(item.sections)?.identity)?.ssl)?.replace(/\s+/g, ' ');
  const display = `${publisherName(citation.publisher)} record ${ref}${ssl ? `, SSL ${ssl}` : ''}`;
  return citedValue('dataSource', { raw: ref, display, status: 'reported', citations: [citation] }, cite);
}

const PRECISION_WORDS: Record<string, string> = {
  square_centroid: 'the centroid of its tax square (DC GIS square points), not the lot: a median of about 100 m off',
  cama_point: 'the point of its DC CAMA record',
  address_point: 'its address point',
};

export interface ItemLocation {
  lonLat: LonLat;
  approximate: boolean;
  precision: string;
  /** In words, for a derived value's `derivedFrom`. */
  words: string;
  citations: CitationFields[];
}

export function locationOf(location: unknown, index: AnswerIndex): ItemLocation | null {
  const json = record(location);
  const lat = num(json?.latitude);
  const lon = num(json?.longitude);
  if (!json || lat === null || lon === null) return null;
  const precision = text(json.precision) ?? 'unknown';
  return {
    lonLat: [lon, lat],
    approximate: precision === 'square_centroid',
    precision,
    words: PRECISION_WORDS[precision] ?? `its location (${precision.replace(/_/g, ' ')})`,
    citations: strings(json.source_refs).map((ref) => citationForRef(index, ref)),
  };
}

/** A sale price as published, its cents kept; OTR's 0 in its own words ("non-market or no price"). */
export function priceDisplay(price: number | string): string {
  return formatFieldValue('price_dollars', price);
}

/** The shell every grid property shares; the caller fills the sale rows. */
export function gridPropertyBase(item: Json, index: AnswerIndex, cite: Cite, id: string, missingAddress: string) {
  const { values, numbers, synthetic, glaCitations, areaMeasure } = characteristicValues(item, index, cite);
  const { value: address, address: addressText } = addressValue(item, index, cite, missingAddress);
  const location = locationOf(item.location, index);
  const property: Omit<GridProperty, 'values' | 'priorSales' | 'priorSalesNote'> = {
    id,
    propertyRef: text(item.property_ref) ?? id,
    address: addressText ?? missingAddress,
    location: location ? { lonLat: location.lonLat, approximate: location.approximate, precision: location.precision } : null,
    numbers,
    syntheticCharacteristics: synthetic,
    areaMeasure,
  };
  return { property, values: { ...values, address }, location, glaCitations };
}

/** The grid's properties (the subject, then the chosen comps), whose area measures name the area rows. */
export function gridProperties(analysis: { set: { subject: GridProperty | null }; chosen: readonly GridProperty[] }): GridProperty[] {
  return [...(analysis.set.subject ? [analysis.set.subject] : []), ...analysis.chosen];
}

/** A rate's label and unit for these properties: the area rate names the measure its row holds ("$ per sq ft of gross building area"). */
export function rateLabelFor(rate: RateKey, properties: ReadonlyArray<{ areaMeasure?: AreaMeasure | null }>): { label: string; unit: string } {
  if (rate !== 'glaPerSqft') return rateLabels[rate];
  const measure = areaMeasureOf(properties);
  if (measure === null || measure === 'mixed') return rateLabels[rate];
  return { label: areaMeasureWords[measure].row, unit: `$ per sq ft of ${areaMeasureWords[measure].basis}` };
}
