// The v2 catalog's facets: jurisdictions, authorities (publishers), coverage (what the sample holds
// per area and domain, including the places it holds nothing), dictionary (fields per entity kind),
// capabilities (operations, prices, limits) and sources. Counts, dates and checksums are read from
// the store; only the words describing coverage are written here.
import type { SampleSource, SampleStore } from '../sample-store.ts';
import { jurisdictions } from '../../../shared/jurisdictions.ts';
import { serviceOperations } from '../../../shared/service/index.ts';
import type { PriceRule, V2CatalogFacet, V2CatalogQuery } from '../../../shared/service/index.ts';
import { PROPERTY_FIELD_SPECS } from './v2-property-index.ts';

export type CatalogItem = Record<string, unknown>;

export interface CatalogListing {
  items: CatalogItem[];
  /** Source ids the items speak for, for the provenance block. */
  sourceIds: string[];
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------
// Areas and coverage

interface CoverageArea {
  area_uid: string | null;
  jurisdiction: string;
  state: string;
  state_abbreviation: string;
  name: string;
}

const AREAS: readonly CoverageArea[] = [
  { area_uid: 'area_us_dc', jurisdiction: '11001', state: '11', state_abbreviation: 'DC', name: 'Washington, DC' },
  { area_uid: 'area_us_va_alexandria', jurisdiction: '51510', state: '51', state_abbreviation: 'VA', name: 'Alexandria, VA' },
  { area_uid: null, jurisdiction: '24', state: '24', state_abbreviation: 'MD', name: 'Maryland (every county and Baltimore city)' },
  {
    area_uid: null,
    jurisdiction: '51',
    state: '51',
    state_abbreviation: 'VA',
    name: 'Northern Virginia outside Alexandria (Arlington, Fairfax, Loudoun, Fairfax city, Falls Church)',
  },
];

export const coverageDomains = ['ownership', 'assessment', 'sale', 'tax', 'permit', 'building_characteristics', 'parcel', 'address', 'location'] as const;
export type CoverageDomain = (typeof coverageDomains)[number];

export const propertyClasses = ['residential', 'condominium', 'commercial', 'land'] as const;

interface CoverageSpec {
  status: 'partial' | 'none';
  sourceIds: readonly string[];
  /** Classes of property the row speaks for; all of them unless said. */
  propertyClasses?: readonly string[];
  note: string;
}

const NONE_MD = 'No Maryland property records in the sample: no SDAT, Montgomery or Prince George\'s County data was found (county outlines only).';
const NONE_VA = 'No records for these jurisdictions in the sample: no Arlington, Fairfax or Loudoun data was found.';

/** Coverage by area (keyed by the area's jurisdiction code) and domain. */
const COVERAGE: Record<string, Record<CoverageDomain, CoverageSpec>> = {
  '11001': {
    ownership: { status: 'partial', sourceIds: ['dc_otr_ownership'], note: 'Owner of record of every lot and condominium unit in OTR assessment neighborhood OLD CITY II only (Dupont Circle, Logan Circle, Shaw, U Street).' },
    assessment: { status: 'partial', sourceIds: ['dc_otr_assessment'], note: 'Tax year 2016 assessed value, OLD CITY II only.' },
    sale: { status: 'partial', sourceIds: ['dc_otr_sale', 'dc_cama_residential'], note: 'Last recorded sale per lot in OLD CITY II (price 0 = non-market or no price); CAMA residential sale prices citywide, without a sale date or a lot.' },
    tax: { status: 'none', sourceIds: [], note: 'No tax bills, balances or payments in the sample.' },
    permit: { status: 'partial', sourceIds: ['dc_dcra_new_building_permits'], note: 'New-building construction permits citywide, issued 2012-01-03 to 2016-01-21; no other permit types.' },
    building_characteristics: {
      status: 'partial',
      sourceIds: ['dc_cama_residential', 'plat_synthetic_characteristics'],
      propertyClasses: ['residential'],
      note: 'Real CAMA residential characteristics citywide, tied to no lot. The characteristics on OLD CITY II record lots are SYNTHETIC (plat_synthetic_characteristics), copied from a CAMA record of the same use code near the lot’s tax square (the k-th lot of a tax square (by SSL) takes the k-th nearest record of its use code to the square’s centroid, so it is not necessarily the record nearest the lot): not a record of the lot. None for condominiums or commercial property.',
    },
    parcel: { status: 'partial', sourceIds: ['dc_otr_ownership', 'dc_dcra_new_building_permits'], note: 'Lots and condominium units (SSL) of OLD CITY II, and the lots permits name citywide.' },
    address: { status: 'partial', sourceIds: ['dc_otr_ownership', 'dc_dcra_new_building_permits'], note: 'Addresses as OTR and DCRA published them; MAR ids from permits only.' },
    location: { status: 'partial', sourceIds: ['dc_gis_square_points', 'dc_dcra_new_building_permits', 'dc_cama_residential'], note: 'OTR lots are placed at their tax square centroid (approximate: a median of about 100 m off); permits and CAMA rows have their own points.' },
  },
  '51510': {
    ownership: { status: 'none', sourceIds: [], note: 'No owner names for Alexandria in the sample.' },
    assessment: { status: 'none', sourceIds: [], note: 'No assessed values for Alexandria in the sample.' },
    sale: { status: 'none', sourceIds: [], note: 'No sales for Alexandria in the sample.' },
    tax: { status: 'none', sourceIds: [], note: 'No tax bills or balances for Alexandria in the sample.' },
    permit: { status: 'none', sourceIds: [], note: 'No permits for Alexandria in the sample.' },
    building_characteristics: { status: 'none', sourceIds: [], note: 'No building characteristics for Alexandria in the sample.' },
    parcel: { status: 'partial', sourceIds: ['va_alexandria_parcels'], note: 'Parcels in Del Ray with real estate account number, land use and zoning.' },
    address: { status: 'partial', sourceIds: ['va_alexandria_address_points', 'va_alexandria_parcels'], note: 'Address points in ZIP 22301 and 22305 (Del Ray, Potomac Yard, Arlandria).' },
    location: { status: 'partial', sourceIds: ['va_alexandria_address_points'], note: 'Address points; parcels matched to an address point by exact address.' },
  },
};

function noneEverywhere(note: string): Record<CoverageDomain, CoverageSpec> {
  const none: CoverageSpec = { status: 'none', sourceIds: [], note };
  return { ownership: none, assessment: none, sale: none, tax: none, permit: none, building_characteristics: none, parcel: none, address: none, location: none };
}
COVERAGE['24'] = noneEverywhere(NONE_MD);
COVERAGE['51'] = noneEverywhere(NONE_VA);

function sourcesOf(store: SampleStore, ids: readonly string[]): SampleSource[] {
  return ids.map((id) => store.getSource(id)).filter((source): source is SampleSource => source !== null);
}

function areaMatches(area: CoverageArea, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  return (
    area.area_uid === filter ||
    area.jurisdiction === filter ||
    area.state === filter ||
    area.state_abbreviation.toLowerCase() === f ||
    area.name.toLowerCase().includes(f)
  );
}

function coverageItems(store: SampleStore, query: V2CatalogQuery, warnings: string[]): CatalogListing {
  if (query.domain_key !== undefined && !(coverageDomains as readonly string[]).includes(query.domain_key)) {
    warnings.push(`domain_key "${query.domain_key}" is not one of ${coverageDomains.join(', ')}`);
  }
  if (query.property_class !== undefined && !(propertyClasses as readonly string[]).includes(query.property_class)) {
    warnings.push(`property_class "${query.property_class}" is not one of ${propertyClasses.join(', ')}`);
  }
  const items: CatalogItem[] = [];
  const sourceIds = new Set<string>();
  for (const area of AREAS) {
    if (query.filter !== undefined && !areaMatches(area, query.filter)) continue;
    const specs = COVERAGE[area.jurisdiction];
    if (!specs) continue;
    for (const domain of coverageDomains) {
      if (query.domain_key !== undefined && domain !== query.domain_key) continue;
      const spec = specs[domain];
      const classes = spec.propertyClasses ?? propertyClasses;
      if (query.property_class !== undefined && !classes.includes(query.property_class)) continue;
      const sources = sourcesOf(store, spec.sourceIds);
      for (const source of sources) sourceIds.add(source.source_id);
      items.push({
        area_uid: area.area_uid,
        jurisdiction: area.jurisdiction,
        state: area.state,
        name: area.name,
        domain_key: domain,
        property_classes: [...classes],
        status: spec.status,
        records: sources.reduce((n, source) => n + source.records, 0),
        source_ids: sources.map((source) => source.source_id),
        synthetic_source_ids: sources.filter((source) => source.synthetic).map((source) => source.source_id),
        as_of: sources.reduce<string | null>((max, source) => (max === null || source.as_of > max ? source.as_of : max), null),
        note: spec.note,
      });
    }
  }
  return { items, sourceIds: [...sourceIds], warnings };
}

// ---------------------------------------------------------------------------------------------
// Jurisdictions and authorities

function jurisdictionItems(store: SampleStore, query: V2CatalogQuery, warnings: string[]): CatalogListing {
  const items: CatalogItem[] = [];
  const sourceIds = new Set<string>();
  const f = query.filter?.trim().toLowerCase();
  for (const j of jurisdictions) {
    if (
      f !== undefined &&
      query.filter !== j.code &&
      query.filter !== j.stateCode &&
      j.stateAbbreviation.toLowerCase() !== f &&
      !j.name.toLowerCase().includes(f)
    ) {
      continue;
    }
    // A state code covers its counties, as in the v4 catalog.
    const sources = store.listSources({ jurisdiction: j.code });
    for (const source of sources) sourceIds.add(source.source_id);
    const areaUids = AREAS.filter((area) => area.area_uid !== null && (area.jurisdiction === j.code || area.state === j.code)).map((area) => area.area_uid as string);
    items.push({
      jurisdiction: j.code,
      name: j.name,
      kind: j.kind,
      state: j.stateCode,
      state_abbreviation: j.stateAbbreviation,
      area_uids: areaUids,
      coverage: sources.length > 0 ? 'partial' : 'none',
      source_ids: sources.map((source) => source.source_id),
      records: sources.reduce((n, source) => n + source.records, 0),
    });
  }
  return { items, sourceIds: [...sourceIds], warnings };
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

function authorityItems(store: SampleStore, warnings: string[]): CatalogListing {
  const byPublisher = new Map<string, SampleSource[]>();
  for (const source of store.listSources()) {
    const list = byPublisher.get(source.publisher) ?? [];
    list.push(source);
    byPublisher.set(source.publisher, list);
  }
  const items: CatalogItem[] = [...byPublisher].map(([publisher, sources]) => ({
    authority_ref: `auth_${slug(publisher)}`,
    name: publisher,
    synthetic: sources.some((source) => source.synthetic),
    jurisdictions: [...new Set(sources.map((source) => source.jurisdiction))],
    source_ids: sources.map((source) => source.source_id),
    datasets: [...new Set(sources.map((source) => source.dataset))],
    official_urls: [...new Set(sources.map((source) => source.official_url))],
  }));
  return { items, sourceIds: store.listSources().map((source) => source.source_id), warnings };
}

// ---------------------------------------------------------------------------------------------
// Dictionary

interface FactFieldSpec {
  field: string;
  dataType: 'string' | 'number' | 'date';
  description: string;
  sourceIds: readonly string[];
  synthetic: boolean;
  kinds: readonly string[];
}

const LAND_KINDS = ['property', 'parcel', 'unit', 'tax_account'];
const ALL_KINDS = ['property', 'parcel', 'unit', 'tax_account', 'address'];
const OTR = ['dc_otr_ownership'];
const VA_PARCELS = ['va_alexandria_parcels'];
const SYNTH = ['plat_synthetic_characteristics'];

function synthetic(field: string, dataType: 'string' | 'number', words: string): FactFieldSpec {
  return { field, dataType, description: `SYNTHETIC ${words}, copied from a DC CAMA residential record near the lot’s tax square`, sourceIds: SYNTH, synthetic: true, kinds: ['property', 'parcel'] };
}

/** Entity attributes (GET /api/v2/entities/{ref} `attributes`, search `fact_summary` facts). */
const FACT_FIELDS: readonly FactFieldSpec[] = [
  { field: 'owner_name', dataType: 'string', description: 'Owner of record as published', sourceIds: OTR, synthetic: false, kinds: LAND_KINDS },
  { field: 'address', dataType: 'string', description: 'Address as published', sourceIds: [...OTR, 'dc_dcra_new_building_permits', ...VA_PARCELS, 'va_alexandria_address_points'], synthetic: false, kinds: ALL_KINDS },
  { field: 'ssl', dataType: 'string', description: 'DC Square-Suffix-Lot, canonical form', sourceIds: OTR, synthetic: false, kinds: LAND_KINDS },
  { field: 'account_no', dataType: 'string', description: 'Alexandria real estate account number', sourceIds: VA_PARCELS, synthetic: false, kinds: ['property', 'parcel', 'tax_account'] },
  { field: 'use_code', dataType: 'string', description: 'OTR use code', sourceIds: OTR, synthetic: false, kinds: LAND_KINDS },
  { field: 'land_use', dataType: 'string', description: 'Alexandria land use', sourceIds: VA_PARCELS, synthetic: false, kinds: ['property', 'parcel', 'tax_account'] },
  { field: 'zoning', dataType: 'string', description: 'Alexandria zoning', sourceIds: VA_PARCELS, synthetic: false, kinds: ['property', 'parcel', 'tax_account'] },
  { field: 'zip', dataType: 'string', description: 'ZIP code as published', sourceIds: ['dc_dcra_new_building_permits', ...VA_PARCELS, 'va_alexandria_address_points'], synthetic: false, kinds: ALL_KINDS },
  { field: 'neighborhood', dataType: 'string', description: 'OTR assessment neighborhood', sourceIds: OTR, synthetic: false, kinds: LAND_KINDS },
  { field: 'sub_neighborhood', dataType: 'string', description: 'OTR assessment sub-neighborhood', sourceIds: OTR, synthetic: false, kinds: LAND_KINDS },
  { field: 'homestead', dataType: 'string', description: 'OTR homestead flag (yes, no, unknown)', sourceIds: OTR, synthetic: false, kinds: LAND_KINDS },
  { field: 'assessed_value_dollars', dataType: 'number', description: 'Assessed value, whole dollars', sourceIds: ['dc_otr_assessment'], synthetic: false, kinds: LAND_KINDS },
  { field: 'assessment_year', dataType: 'number', description: 'Tax year of the assessed value (2016, from the column name)', sourceIds: ['dc_otr_assessment'], synthetic: false, kinds: LAND_KINDS },
  { field: 'last_sale_price_dollars', dataType: 'number', description: 'Last recorded sale price, whole dollars (0 = non-market or no price)', sourceIds: ['dc_otr_sale'], synthetic: false, kinds: LAND_KINDS },
  { field: 'last_sale_date', dataType: 'date', description: 'Last sale recordation date', sourceIds: ['dc_otr_sale'], synthetic: false, kinds: LAND_KINDS },
  synthetic('year_built', 'number', 'actual year built'),
  synthetic('year_remodeled', 'number', 'year remodeled'),
  synthetic('bedrooms', 'number', 'bedrooms'),
  synthetic('full_bathrooms', 'number', 'full bathrooms'),
  synthetic('half_bathrooms', 'number', 'half bathrooms'),
  synthetic('rooms', 'number', 'rooms'),
  synthetic('stories', 'number', 'stories'),
  synthetic('gross_building_area_sqft', 'number', 'gross building area (sq ft)'),
  synthetic('land_area_sqft', 'number', 'land area (sq ft)'),
  synthetic('style', 'string', 'style'),
  synthetic('structure', 'string', 'structure'),
  synthetic('grade', 'string', 'grade'),
  synthetic('condition', 'string', 'condition'),
  synthetic('heating', 'string', 'heating'),
  synthetic('air_conditioning', 'string', 'air conditioning'),
  synthetic('dwelling_units', 'number', 'dwelling units'),
  synthetic('kitchens', 'number', 'kitchens'),
  synthetic('fireplaces', 'number', 'fireplaces'),
  synthetic('exterior_wall', 'string', 'exterior wall'),
  synthetic('roof', 'string', 'roof'),
  synthetic('interior_wall', 'string', 'interior wall'),
];

const DICTIONARY_ENTITIES = ['property', 'parcel', 'unit', 'tax_account', 'address'] as const;

function dictionaryItems(query: V2CatalogQuery, warnings: string[]): CatalogListing {
  const rows = new Map<string, CatalogItem & { used_in: string[]; source_ids: string[] }>();
  const add = (entity: string, field: string, dataType: string, description: string, sourceIds: readonly string[], isSynthetic: boolean, usedIn: string, extra: CatalogItem = {}) => {
    const key = `${entity}\n${field}`;
    const existing = rows.get(key);
    if (existing) {
      if (!existing.used_in.includes(usedIn)) existing.used_in.push(usedIn);
      for (const id of sourceIds) if (!existing.source_ids.includes(id)) existing.source_ids.push(id);
      Object.assign(existing, extra);
      return;
    }
    rows.set(key, { entity_name: entity, field_key: field, data_type: dataType, description, synthetic: isSynthetic, source_ids: [...sourceIds], used_in: [usedIn], ...extra });
  };
  for (const spec of PROPERTY_FIELD_SPECS) {
    add('property', spec.field, spec.dataType, spec.description, spec.sourceIds, spec.synthetic, 'property_search', {
      filter_ops: spec.dataType === 'string' ? ['eq', 'contains'] : ['eq', 'gte', 'lte'],
      sortable: true,
    });
  }
  for (const spec of FACT_FIELDS) {
    for (const kind of spec.kinds) add(kind, spec.field, spec.dataType, spec.description, spec.sourceIds, spec.synthetic, 'entity_attributes');
  }
  if (query.entity_name !== undefined && !(DICTIONARY_ENTITIES as readonly string[]).includes(query.entity_name)) {
    warnings.push(`entity_name "${query.entity_name}" has no fields in the sample; entities: ${DICTIONARY_ENTITIES.join(', ')}`);
  }
  const items = [...rows.values()]
    .filter((row) => query.entity_name === undefined || row.entity_name === query.entity_name)
    .filter((row) => query.data_type === undefined || row.data_type === query.data_type)
    .filter((row) => query.field_key === undefined || row.field_key === query.field_key)
    .sort((a, b) => DICTIONARY_ENTITIES.indexOf(a.entity_name as (typeof DICTIONARY_ENTITIES)[number]) - DICTIONARY_ENTITIES.indexOf(b.entity_name as (typeof DICTIONARY_ENTITIES)[number]));
  return { items, sourceIds: [...new Set(items.flatMap((row) => row.source_ids))], warnings };
}

// ---------------------------------------------------------------------------------------------
// Capabilities and sources

/** Limits Plat's local service applies, per operation (docs/service-contract.md). */
const OPERATION_LIMITS: Record<string, Record<string, unknown>> = {
  'v4.search': { limit: { min: 1, max: 100, default: 50 }, filter_fields_max: 5, filter_chars_max: 2000, cursor_chars_max: 512 },
  'v4.catalog': {},
  'v4.connected': { depth: { min: 1, max: 3, default: 2 }, limit: { min: 1, max: 100, default: 50 }, cursor_chars_max: 512 },
  'v4.summary': { fields_chars_max: 1000 },
  'v3.recordQuery': { limit: { min: 1, max: 100, default: 20 }, cursor_chars_max: 4096, radius_miles: { min_exclusive: 0, max: 5 } },
  'v2.searchProperties': { limit: { min: 1, max: 100, default: 20 }, filters_max: 20, predicates_max: 100, cursor_chars_max: 4096, area_uid_chars_max: 128 },
  'v2.resolveEntities': { items: { min: 1, max: 100 }, identifiers_per_item: { min: 1, max: 10 }, candidate_limit: { min: 1, max: 50, default: 10 }, candidates_per_item_max: 500 },
  'v2.getCatalog': { page_size: { min: 1, max: 100, default: 50 }, cursor_chars_max: 4096 },
  'v2.getEntity': { entity_ref_chars_max: 512 },
  'v2.traverseRelationships': {
    depth: { min: 1, max: 3, default: 1 },
    max_nodes: { min: 1, max: 200, default: 100 },
    max_edges: { min: 1, max: 200, default: 200 },
    page_size: { min: 1, max: 100, default: 50 },
    predicates_max: 50,
    cursor_chars_max: 4096,
  },
};

function priceOf(rule: PriceRule): Record<string, unknown> {
  if (rule.kind === 'by_v3_variant') {
    return { rule: rule.kind, variants: Object.fromEntries(Object.entries(rule.variants).map(([variant, flat]) => [variant, priceOf(flat)])) };
  }
  return { rule: rule.kind, micro_usd: 'microUsd' in rule ? rule.microUsd : 0 };
}

function capabilityItems(warnings: string[]): CatalogListing {
  const items: CatalogItem[] = Object.values(serviceOperations).map((operation) => ({
    operation: operation.name,
    generation: operation.generation,
    envelope_operation: operation.envelopeOperation,
    method: operation.method,
    path: operation.path,
    idempotency_key: operation.idempotencyKey,
    price: priceOf(operation.price),
    limits: OPERATION_LIMITS[operation.name] ?? {},
  }));
  return { items, sourceIds: [], warnings };
}

function sourceItems(store: SampleStore, warnings: string[]): CatalogListing {
  const items: CatalogItem[] = store.listSources().map((source) => ({
    source_ref: source.source_id,
    source_id: source.source_id,
    kind: source.kind,
    publisher: source.publisher,
    dataset: source.dataset,
    description: source.description,
    jurisdiction: source.jurisdiction,
    state: source.state,
    area_uid: AREAS.find((area) => area.jurisdiction === source.jurisdiction)?.area_uid ?? null,
    release_id: String(source.release_id),
    captured_at: source.as_of,
    sha256: source.sha256,
    official_url: source.official_url,
    records: source.records,
    synthetic: source.synthetic,
    location_precision: source.location_precision,
    input_file: source.input_file,
    fields: source.fields.map((field) => ({ name: field.name, type: field.type })),
  }));
  return { items, sourceIds: items.map((item) => String(item['source_id'])), warnings };
}

/** What each facet accepts: `data.capabilities` of every catalog answer. */
export const catalogFacetCapabilities: CatalogItem[] = [
  { facet: 'jurisdictions', parameters: ['filter', 'page_size', 'cursor'], filter: 'a jurisdiction code, a state code or abbreviation (its counties too), or part of a name' },
  { facet: 'authorities', parameters: ['page_size', 'cursor'], filter: null },
  { facet: 'coverage', parameters: ['filter', 'domain_key', 'property_class', 'page_size', 'cursor'], filter: 'an area_uid, a jurisdiction or state code, a state abbreviation, or part of an area name', domain_keys: [...coverageDomains], property_classes: [...propertyClasses] },
  { facet: 'dictionary', parameters: ['entity_name', 'data_type', 'field_key', 'page_size', 'cursor'], filter: null, entity_names: [...DICTIONARY_ENTITIES], data_types: ['string', 'number', 'date'] },
  { facet: 'capabilities', parameters: ['page_size', 'cursor'], filter: null },
  { facet: 'sources', parameters: ['page_size', 'cursor'], filter: null },
];

/** Every item of a facet that the query's filters keep, in a stable order. */
export function catalogListing(store: SampleStore, query: V2CatalogQuery): CatalogListing {
  const warnings: string[] = [];
  const facet: V2CatalogFacet = query.facet;
  switch (facet) {
    case 'jurisdictions':
      return jurisdictionItems(store, query, warnings);
    case 'authorities':
      return authorityItems(store, warnings);
    case 'coverage':
      return coverageItems(store, query, warnings);
    case 'dictionary':
      return dictionaryItems(query, warnings);
    case 'capabilities':
      return capabilityItems(warnings);
    case 'sources':
      return sourceItems(store, warnings);
  }
}
