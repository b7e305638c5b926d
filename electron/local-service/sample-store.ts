// The read-only store over the embedded sample data (assets/sample-data/sample.db, built by
// scripts/build-sample-data.ts). Operations (v4, v3, v2) answer from it; it knows nothing of HTTP,
// envelopes or prices. Every method is synchronous (node:sqlite), so an operation runs in one turn
// of the event loop. Point look-ups go to SQLite indexes; searches, spatial queries, owner and
// address look-ups use in-memory indexes built lazily on first use (tens of milliseconds once), so
// a query never parses thousands of JSON rows. Every value handed out carries its citation.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import {
  AREA_ALEXANDRIA,
  AREA_CODES,
  DATASET_IDS,
  AREA_DC,
  AREA_JURISDICTION,
  ENTITY_ID_PATTERN,
  ENTITY_PREFIX_KIND,
  IDENTIFIER_SCHEMES,
  LINK_METHODS,
  METERS_PER_MILE,
  METHOD_PRECISION,
  POINT_FIELDS,
  PRECISION_CODES,
  PREDICATES,
  RECORD_REF_PATTERN,
  SAMPLE_SCHEMA_VERSION,
  distanceMeters,
  equalityKey,
  normaliseAddress,
  normaliseOwnerName,
  parseSsl,
  permitSslKey,
  relationshipRef,
  rowPoint,
  sameOwnerConfidence,
  uuidToBytes,
} from './sample-keys.ts';
import { latinSpellings } from '../../shared/latin-fold.ts';
import { canonicalAddress, canonicalNumber, canonicalSsl, isPlaceholderSsl } from '../../shared/service/identifiers.ts';
import type {
  AreaUid,
  EntityKind,
  EntityPrefix,
  IdentifierScheme,
  LinkMethod,
  LocationPrecision,
  NormalisedAddress,
  Predicate,
} from './sample-keys.ts';

export type { AreaUid, EntityKind, EntityPrefix, IdentifierScheme, LinkMethod, LocationPrecision, NormalisedAddress, Predicate };
export { AREA_ALEXANDRIA, AREA_DC, PREDICATES };

// ---------------------------------------------------------------------------------------------
// Public types

export type CellValue = string | number | boolean | null;
export type FieldType = 'string' | 'number' | 'date' | 'boolean';

/** One column of a source, with the publisher's own name. */
export interface SourceField {
  name: string;
  type: FieldType;
  description: string;
  /** The first non-empty value in the source. */
  example: CellValue;
}

/** A published source: one per (dataset, record kind). The v4 catalog lists these. */
export interface SampleSource {
  /** `^[a-z0-9_]{1,100}$` */
  source_id: string;
  /** Record kind, `^[a-z_]{1,40}$`: ownership, assessment, sale, permit, residential_characteristics, tax_square, parcel, address, imputed_characteristics. */
  kind: string;
  /** County-level code: `11001` (DC) or `51510` (Alexandria). */
  jurisdiction: string;
  /** State code: `11` or `51`. */
  state: string;
  /** The real publisher, or "Plat synthetic sample (not a public record)". */
  publisher: string;
  dataset: string;
  description: string;
  /** The data's own date as an ISO date-time (see docs/service-notes.md for how each was chosen). */
  as_of: string;
  official_url: string;
  /** Integer release id: the as_of date as YYYYMMDD. */
  release_id: number;
  /** sha256 of the input file (for the synthetic source: of its two inputs' hashes). */
  sha256: string;
  /** Record count. */
  records: number;
  /** True only for Plat's synthetic source: never a public record. */
  synthetic: boolean;
  /** How exact the records' points are. */
  location_precision: LocationPrecision;
  /** Input file under shared/data the source was built from; null for the synthetic source. */
  input_file: string | null;
  fields: SourceField[];
}

/** Where a value came from. Every fact, record, location and link the store returns carries one. */
export interface Citation {
  source_id: string;
  record_ref: string;
  publisher: string;
  dataset: string;
  as_of: string;
  release_id: number;
  sha256: string;
  official_url: string;
  synthetic: boolean;
}

/** A source without a particular record: for lists of the sources behind a value set. */
export type SourceCitation = Omit<Citation, 'record_ref'>;

export interface PointLocation {
  lat: number;
  lon: number;
  precision: LocationPrecision;
}

export interface SampleRecord {
  /** `rec_<uuid>` */
  record_ref: string;
  kind: string;
  source_id: string;
  jurisdiction: string;
  /** The source's as_of, as an ISO date-time. */
  published_at: string;
  citation: Citation;
  /** The full source row, the publisher's field names, numbers as numbers, empty as null. Frozen. */
  data: Readonly<Record<string, CellValue>>;
  /** Ids of the entities the record is about. */
  q_ids: string[];
  /** The row's own point (for OTR rows the tax square centroid), or null. */
  location: PointLocation | null;
  /** What the record cannot be trusted for, in plain words (a permit's placeholder SSL keys no parcel); empty for most. */
  limitations: string[];
}

export interface EntityIdentifier {
  /** `ssl`, `ssl_as_published`, `address`, `unit_designator`, `account_no`, `mar_id`, `address_point_objectid`. */
  scheme: IdentifierScheme;
  value: string;
}

export interface EntityLocation extends PointLocation {
  /** The record the point was read from, and its citation. */
  record_ref: string;
  citation: Citation;
}

export interface SampleEntity {
  /** `<prefix>_<uuid>` */
  entity_id: string;
  prefix: EntityPrefix;
  /** v2 entity kind: property, parcel, tax_account, address, unit. */
  entity_kind: EntityKind;
  area_uid: AreaUid;
  status: 'current';
  coverage_status: 'available';
  identifiers: EntityIdentifier[];
  /** One real (never synthetic) value per fact field, from the entity's own records first. */
  attributes: Record<string, CellValue>;
  /** Records about this entity (ordered: its defining row's records first). */
  source_refs: string[];
  /** The distinct sources of those records. */
  sources: SourceCitation[];
  /** Earliest as_of among the records about it (YYYY-MM-DD). */
  valid_from: string;
  /** Always null: the sample holds one snapshot per source. */
  valid_to: null;
  location: EntityLocation | null;
}

export type Direction = 'out' | 'in' | 'both';

export interface SampleRelationship {
  /** `rel_<uuid>`, stable: derived from subject, predicate and object. */
  relationship_ref: string;
  subject_ref: string;
  predicate: Predicate;
  /** An entity id, or for `permitted_by` the permit's record_ref. */
  object_ref: string;
  object_type: 'entity' | 'record';
  /** Direction relative to the entity asked about. */
  direction: 'out' | 'in';
  precision: 'exact' | 'approximate';
  method: LinkMethod;
  confidence: number;
  status: 'current';
  valid_from: string;
  valid_to: null;
  /** The records that support the link. */
  source_refs: string[];
  /** For owner links the normalised owner name; for address matches the normalised address. */
  basis: string | null;
  /** Plain answer to "why are these two linked?". */
  explanation: string;
}

export interface ConnectedEntity {
  entity_id: string;
  entity_kind: EntityKind;
  prefix: EntityPrefix;
  /** Predicate of the link by which it was first reached. */
  relation: Predicate;
  /** Direction of that link as seen from `via`. */
  direction: 'out' | 'in';
  /** The entity it was reached from. */
  via: string;
  /** Links from the start. */
  depth: number;
  relationship_ref: string;
  confidence: number;
}

export type FactField =
  | 'owner_name' | 'address' | 'ssl' | 'account_no' | 'use_code' | 'land_use' | 'zoning' | 'zip'
  | 'neighborhood' | 'sub_neighborhood' | 'homestead'
  | 'assessed_value_dollars' | 'assessment_year'
  | 'last_sale_price_dollars' | 'last_sale_date'
  | 'year_built' | 'year_remodeled' | 'bedrooms' | 'full_bathrooms' | 'half_bathrooms' | 'rooms' | 'stories'
  | 'gross_building_area_sqft' | 'land_area_sqft' | 'style' | 'structure' | 'grade' | 'condition'
  | 'heating' | 'air_conditioning' | 'dwelling_units' | 'kitchens' | 'fireplaces' | 'exterior_wall' | 'roof' | 'interior_wall';

/** Building-characteristic fact fields (from the synthetic source in this sample). */
export const BUILDING_FACT_FIELDS: readonly FactField[] = [
  'year_built', 'year_remodeled', 'bedrooms', 'full_bathrooms', 'half_bathrooms', 'rooms', 'stories',
  'gross_building_area_sqft', 'land_area_sqft', 'style', 'structure', 'grade', 'condition', 'heating',
  'air_conditioning', 'dwelling_units', 'kitchens', 'fireplaces', 'exterior_wall', 'roof', 'interior_wall',
];

export interface Fact {
  field: FactField;
  value: string | number | boolean;
  /** The publisher's column the value was read from. */
  source_field: string;
  citation: Citation;
  /**
   * `reported`: as the publisher printed it. `derived`: computed from published values (a canonical
   * SSL, a value joined from another record, a building address read off its units' addresses): the
   * citation is the record it was derived from, `derived_from` names it and `note` says how.
   * `synthetic`: made up by the sample (the synthetic source).
   */
  status: 'reported' | 'derived' | 'synthetic';
  synthetic: boolean;
  /** `as_published`, `column_name` (assessment year), or the imputation method. */
  method: string;
  /** For imputed values the real record the value was copied from; for derived values the record it was derived from. */
  derived_from: string | null;
  note: string | null;
}

export interface PermitFact {
  record_ref: string;
  permit_id: string | null;
  record_type: string | null;
  status: string | null;
  issue_date: string | null;
  description: string | null;
  address: string | null;
  /** How the permit is tied to the entity. */
  method: LinkMethod;
  confidence: number;
  citation: Citation;
  /** What the permit cannot be trusted for (its placeholder SSL keys no parcel); usually empty. */
  limitations: string[];
}

export interface EntityFacts {
  entity_id: string;
  entity_kind: EntityKind;
  area_uid: AreaUid;
  /** Every value found, in preference order per field (the entity's own row first, real before synthetic). */
  facts: Fact[];
  permits: PermitFact[];
  location: EntityLocation | null;
  /** What the sample cannot say about this entity, in plain words. */
  limitations: string[];
}

/** A column of a stored row that its publisher did not print: the sample build derived it (docs/service-notes.md, "What is real, derived and synthetic"). */
export interface DerivedColumn {
  status: 'derived';
  /** `tax_square_centroid`, `canonical_ssl`, `address_point_match`. */
  method: string;
  /** The record the value came from: a DC GIS square point, an Alexandria address point, or the record itself (a canonical form of another of its columns). */
  derived_from: string;
  citation: Citation;
  note: string;
}

/** Where an entity's identifier value comes from: printed by a publisher, or derived by the service. */
export interface IdentifierProvenance {
  scheme: IdentifierScheme;
  value: string;
  status: 'reported' | 'derived';
  /** How a derived value was made (`address_normalised`, `premise_of_unit_addresses`, `unit_of_address`, `canonical_ssl`); `as_published` otherwise. */
  method: string;
  /** The record that printed the value, or the one it was derived from. */
  record_ref: string;
  citation: Citation;
  /** For derived values: how, in words, naming the published value. */
  note: string | null;
}

export interface FieldFilter {
  /** A source field name as the catalog lists it. */
  field: string;
  /** `eq`: equality on the publisher's value (trimmed, case- and space-insensitive; `"17"` = `17`). `gte`: numbers, or ISO dates. */
  op: 'eq' | 'gte';
  value: CellValue;
}

export interface RecordSearch {
  kind: string;
  /** State (`11`, `51`) or county code (`11001`, `51510`); a state matches its counties. */
  jurisdiction: string;
  sourceId?: string;
  /** At most 5. */
  filters?: FieldFilter[];
  /** `nextCursor` of the previous page. */
  cursor?: string | null;
  /** 1..100, default 50. */
  limit?: number;
}

export interface RecordPage {
  items: SampleRecord[];
  /** Matches in all pages. */
  total: number;
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

export interface OwnerHolding {
  property_id: string;
  account_id: string | null;
  /** The parcel or condominium unit of the holding, when it has one. */
  land_id: string | null;
  ssl: string | null;
  /** Address as published. */
  address: string | null;
  /** Owner name as published on this holding's record. */
  owner_name: string;
  record_ref: string;
  citation: Citation;
}

export interface OwnerMatch {
  /** The normalised owner name the holdings share. */
  owner_key: string;
  match: 'exact' | 'partial';
  names_as_published: string[];
  holdings: OwnerHolding[];
  /** Confidence that the holdings have one owner (same-name strangers exist). */
  confidence: number;
}

export interface ResolutionCandidate {
  entity_id: string;
  entity_kind: EntityKind;
  prefix: EntityPrefix;
  area_uid: AreaUid;
  /** `exact`: the identifier or full address equals; `premise`: the street address equals, the unit differs or is absent; `partial`: contains the text. */
  match: 'exact' | 'premise' | 'partial';
  scheme: IdentifierScheme;
  matched_value: string;
  precision: 'exact' | 'approximate';
  method: string;
}

export interface AddressResolution {
  input: string;
  normalised: NormalisedAddress | null;
  candidates: ResolutionCandidate[];
  /** Candidates before the limit. */
  total: number;
}

export type PropertyField =
  | 'address' | 'owner_name' | 'ssl' | 'account_no' | 'use_code' | 'land_use' | 'zoning' | 'neighborhood' | 'sub_neighborhood'
  | 'homestead' | 'assessed_value_dollars' | 'last_sale_price_dollars' | 'last_sale_date' | 'lat' | 'lon'
  | 'imputed_year_built' | 'imputed_bedrooms' | 'imputed_full_bathrooms' | 'imputed_gross_building_area_sqft' | 'imputed_land_area_sqft';

export interface PropertyFilter {
  field: PropertyField;
  op: 'eq' | 'gte' | 'lte' | 'contains' | 'prefix' | 'exists';
  value?: CellValue;
}

export interface PropertySummary {
  entity_id: string;
  entity_kind: 'property';
  area_uid: AreaUid;
  status: 'current';
  /** Property facts for search and fact_summary. `imputed_*` values are synthetic (plat_synthetic_characteristics). */
  attributes: Readonly<Record<PropertyField, CellValue>>;
  /** Record refs the attributes came from. */
  source_refs: string[];
  location: PointLocation | null;
}

export interface PropertySearch {
  areaUid: string;
  filters?: PropertyFilter[];
  sort?: { field: PropertyField; direction: 'asc' | 'desc' };
  offset?: number;
  /** 1..100, default 20. */
  limit?: number;
}

export interface PropertyAggregation {
  areaUid: string;
  filters?: PropertyFilter[];
  /** One group per distinct value; all properties in one group when omitted. */
  groupBy?: PropertyField;
  /** Default `count`. Other measures need a numeric field (missing values are left out). */
  measure?: { op: 'count' | 'sum' | 'avg' | 'min' | 'max' | 'median'; field?: PropertyField };
}

export interface PropertyGroup {
  group: CellValue;
  count: number;
  /** The measure over the group's numeric values of the field; null for `count` or when none has one. */
  value: number | null;
  /** Properties in the group with a numeric value of the measured field. */
  measured: number;
}

export interface TraversalNode {
  entity_id: string;
  entity_kind: EntityKind;
  prefix: EntityPrefix;
  depth: number;
}

export interface Traversal {
  root_ref: string;
  nodes: TraversalNode[];
  /** Every link followed between two returned nodes, once. */
  edges: SampleRelationship[];
  truncated: boolean;
}

export interface SalesNearQuery {
  lat: number;
  lon: number;
  radiusMiles: number;
  /** Inclusive ISO dates on the sale (recordation) date. */
  fromDate?: string;
  toDate?: string;
  minPriceDollars?: number;
  maxPriceDollars?: number;
  /** OTR / CAMA use codes, e.g. ['11', '24']. */
  useCodes?: string[];
  /** Drop price-0 (non-market or no price) OTR transfers and unqualified CAMA sales. */
  marketOnly?: boolean;
  /** Also return DC CAMA sales, which have a price and real characteristics but no date. Date filters exclude them, unless `undatedDespiteDates`. */
  includeUndated?: boolean;
  /** With `includeUndated`: keep the undated sales when a date filter is given too (no date can be placed in the window: the caller flags them). */
  undatedDespiteDates?: boolean;
  /** Default 50, at most 500. */
  limit?: number;
}

export interface SaleNear {
  record_ref: string;
  source_id: string;
  kind: string;
  /** The OTR property sold; null for CAMA sales (not linked to a parcel). */
  property_id: string | null;
  sale_date: string | null;
  price_dollars: number;
  /** OTR: price > 0; CAMA: QUALIFIED = Q. */
  market_sale: boolean;
  use_code: string | null;
  address: string | null;
  location: PointLocation;
  distance_miles: number;
  citation: Citation;
}

export interface AreaSummary {
  area_uid: AreaUid;
  jurisdiction: string;
  state: string;
  name: string;
  properties: number;
}

export interface StoreInfo {
  schema_version: number;
  path: string;
  counts: Record<string, number>;
}

export class SampleStoreError extends Error {
  readonly code: 'missing_database' | 'schema_mismatch' | 'invalid_argument' | 'unknown_field' | 'invalid_filter' | 'invalid_cursor';
  constructor(code: SampleStoreError['code'], message: string) {
    super(message);
    this.name = 'SampleStoreError';
    this.code = code;
  }
}

/** What operation authors program against. Every method is synchronous and read-only. */
export interface SampleStore {
  /** Path of the open database. */
  readonly path: string;
  info(): StoreInfo;
  /** Sources, optionally narrowed to a jurisdiction (a state code includes its counties), a source or a kind. */
  listSources(filter?: { jurisdiction?: string; sourceId?: string; kind?: string }): SampleSource[];
  getSource(sourceId: string): SampleSource | null;
  /** Record kinds available in a jurisdiction (all when omitted). */
  kinds(jurisdiction?: string): string[];
  areas(): AreaSummary[];
  /** Records of one kind in one jurisdiction, filtered on source fields, in stable order, paged. */
  searchRecords(search: RecordSearch): RecordPage;
  /** One record by `rec_<uuid>`; null when unknown or malformed. */
  getRecord(recordRef: string): SampleRecord | null;
  /** In the order asked; unknown refs are skipped. */
  getRecords(recordRefs: readonly string[]): SampleRecord[];
  /** Records whose q_ids include the entity. */
  recordsAbout(entityId: string, filter?: { kind?: string; sourceId?: string }): SampleRecord[];
  /** One entity by `<prefix>_<uuid>`; null when unknown (or the prefix does not match the uuid's kind). */
  getEntity(entityId: string): SampleEntity | null;
  /**
   * Why no entity has this id, when the sample knows: it would be the parcel or unit of a placeholder
   * SSL (`0000 0000`) the build refused as a parcel key. Null for any other unknown id.
   */
  missingEntityNote(entityId: string): string | null;
  /** Links of an entity, `out` (it is the subject), `in` or `both` (default), optionally only some predicates; owner links included. */
  relationships(entityId: string, options?: { direction?: Direction; predicates?: readonly string[]; includeRecordObjects?: boolean }): SampleRelationship[];
  /** Breadth-first walk over entity-to-entity links, each entity once at its least depth. */
  connected(entityId: string, options?: { depth?: number; predicates?: readonly string[]; maxNodes?: number }): { items: ConnectedEntity[]; truncated: boolean } | null;
  /** Nodes and edges within `depth` links (v2 traversal), following `direction` from each node, within the caps. */
  traverse(
    entityId: string,
    options?: { depth?: number; direction?: Direction; predicates?: readonly string[]; maxNodes?: number; maxEdges?: number },
  ): Traversal | null;
  /** Owner lookup by exact normalised name or case-insensitive partial name. */
  findOwners(name: string, options?: { match?: 'exact' | 'partial'; limit?: number }): { owners: OwnerMatch[]; total: number };
  /** Normalises the text as the build did; `exact` full-address matches, else `premise` (a unit's building), else `partial` at word starts. Default limit 20. */
  resolveAddress(text: string, options?: { areaUid?: string; limit?: number }): AddressResolution;
  /** SSL (canonical or as published), account_no, mar_id, address_point_objectid, unit_designator, or address. */
  resolveIdentifier(scheme: string, value: string, options?: { areaUid?: string; limit?: number }): ResolutionCandidate[];
  /** Properties of an area filtered on their facts, optionally sorted (missing values last), paged by offset. */
  searchProperties(search: PropertySearch): { items: PropertySummary[]; total: number };
  /** Counts (or sum, average, min, max, median of a numeric fact) of an area's properties, grouped by a fact. */
  aggregateProperties(query: PropertyAggregation): PropertyGroup[];
  /** Sales within a radius (comparables): nearest first, the latest first at one distance; each cited. */
  salesNear(query: SalesNearQuery): SaleNear[];
  /** Every fact about an entity with its citation, its permits, its location and what the sample lacks. */
  factsFor(entityId: string): EntityFacts | null;
  /** The columns of a record its publisher did not print (derived upstream), with what each came from; empty for a record with none. */
  derivedColumns(recordRef: string): Record<string, DerivedColumn>;
  /** Each identifier of an entity with where its value comes from: a publisher's record, or derived by the service (and from what). */
  identifierProvenance(entityId: string): IdentifierProvenance[] | null;
  /** Builds every lazy index now (1 to 3 s, about 70 MB), so no first query pays for one. Call once at service start. */
  warm(): void;
  close(): void;
}

// ---------------------------------------------------------------------------------------------
// Opening

/** assets/sample-data/sample.db of this checkout (or, bundled, of the working directory). */
export function defaultSampleDbPath(): string {
  const here = typeof import.meta.url === 'string' ? path.dirname(fileURLToPath(import.meta.url)) : null;
  return here ? path.resolve(here, '../../assets/sample-data/sample.db') : path.resolve('assets/sample-data/sample.db');
}

/** Opens the sample database read-only. Throws SampleStoreError when it is missing or of another schema version. */
export function openSampleStore(dbPath: string = defaultSampleDbPath()): SampleStore {
  if (!existsSync(dbPath)) {
    throw new SampleStoreError('missing_database', `no sample database at ${dbPath}; run \`npm run sample-data\``);
  }
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    if (Number(row?.value) !== SAMPLE_SCHEMA_VERSION) {
      throw new SampleStoreError('schema_mismatch', `sample database schema ${row?.value ?? 'unknown'} is not ${SAMPLE_SCHEMA_VERSION}; run \`npm run sample-data\``);
    }
    return new SqliteSampleStore(db, dbPath);
  } catch (error) {
    db.close();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Implementation

/** A stored row: its cells in the dataset's field order (objects are built only for output). */
interface DecodedRow {
  no: number;
  dataset: string;
  cells: readonly CellValue[];
  /** Field name → cell index, shared by the dataset's rows. */
  fields: ReadonlyMap<string, number>;
  q: readonly number[];
}

/** A row's value of one field; null when empty or when the row's dataset has no such field. */
function cellOf(row: DecodedRow | undefined, field: string): CellValue {
  if (!row) return null;
  const i = row.fields.get(field);
  return i === undefined ? null : (row.cells[i] ?? null);
}

/** A row's own point (POINT_FIELDS of its dataset), or null. */
function pointOf(row: DecodedRow): { lat: number; lon: number } | null {
  const fields = POINT_FIELDS[row.dataset];
  if (!fields) return null;
  return rowPoint(row.dataset, { [fields[0]]: cellOf(row, fields[0]), [fields[1]]: cellOf(row, fields[1]) });
}

interface SourceInfo {
  no: number;
  source: SampleSource;
  dataset: string;
  first: number;
  last: number;
  citation: SourceCitation;
  fieldTypes: Map<string, FieldType>;
}

interface EntityRow {
  entity_no: number;
  uuid: Uint8Array;
  prefix: string;
  area: number;
  primary_row_no: number;
  valid_from: number;
  precision: number | null;
  location_rec_no: number | null;
}

interface EdgeRow {
  subject_no: number;
  predicate: number;
  object: number;
  method: number;
  confidence: number;
  source_rec_nos: string;
  basis: string | null;
}

/** All records of one kind, decoded once, with per-field indexes built on first use. */
interface KindTable {
  recNos: Int32Array;
  sources: SourceInfo[];
  /** Index into `sources` per position. */
  sourceOf: Uint8Array;
  rows: DecodedRow[];
  eq: Map<string, Map<string, number[]>>;
  /** Positions with a comparable value, sorted by it. */
  ordered: Map<string, { positions: Int32Array; keys: Array<number | string> }>;
}

interface OwnerIndex {
  keys: string[];
  byKey: Map<string, number>;
  /** owner_no - 1 → holdings (account_no, property_no, row_no). */
  holdings: Array<Array<{ account: number; property: number; row: number }>>;
  byAccount: Map<number, number[]>;
}

interface PropertyIndexEntry {
  /** Position in the property index. */
  index: number;
  entityNo: number;
  area: AreaUid;
  attributes: Record<PropertyField, CellValue>;
  /** Records the attributes came from (refs are formatted only for results). */
  recNos: number[];
  location: PointLocation | null;
}

interface SaleIndex {
  /** Sorted by latitude; the facts a comparable search filters on, read once from the rows. */
  entries: Array<{
    lat: number; lon: number; recNo: number; row: DecodedRow; undated: boolean; price: number; date: string | null;
    dateNumber: number; market: boolean; useCode: string | null; useKey: string | null;
  }>;
}

const MAX_FILTERS = 5;
const OTR_NON_MARKET_NOTE = 'Price 0: OTR writes 0 for a non-market transfer or a sale without a price (non-market or no price; it does not say which)';

// Fact extraction: which column of which source gives which fact.
interface FactSpec {
  field: FactField;
  column: string;
}
const FACT_SPECS: Record<string, FactSpec[]> = {
  dc_otr_ownership: [
    { field: 'owner_name', column: 'owner' },
    { field: 'address', column: 'address' },
    { field: 'ssl', column: 'ssl' },
    { field: 'use_code', column: 'use_code' },
    { field: 'neighborhood', column: 'neighborhood' },
    { field: 'sub_neighborhood', column: 'sub_neighborhood' },
    { field: 'homestead', column: 'homestead' },
  ],
  dc_otr_assessment: [{ field: 'assessed_value_dollars', column: 'assessment_2016' }],
  dc_otr_sale: [
    { field: 'last_sale_price_dollars', column: 'last_sale_price' },
    { field: 'last_sale_date', column: 'last_sale_recordation_date' },
  ],
  dc_dcra_new_building_permits: [
    { field: 'address', column: 'FULL_ADDRESS' },
    { field: 'zip', column: 'ZIPCODE' },
  ],
  va_alexandria_parcels: [
    { field: 'account_no', column: 'account_no' },
    { field: 'address', column: 'address' },
    { field: 'land_use', column: 'land_use' },
    { field: 'zoning', column: 'zoning' },
    { field: 'zip', column: 'zip' },
  ],
  va_alexandria_address_points: [
    { field: 'address', column: 'full_address' },
    { field: 'zip', column: 'zip' },
  ],
  plat_synthetic_characteristics: [
    { field: 'year_built', column: 'AYB' },
    { field: 'year_remodeled', column: 'YR_RMDL' },
    { field: 'bedrooms', column: 'BEDRM' },
    { field: 'full_bathrooms', column: 'BATHRM' },
    { field: 'half_bathrooms', column: 'HF_BATHRM' },
    { field: 'rooms', column: 'ROOMS' },
    { field: 'stories', column: 'STORIES' },
    { field: 'gross_building_area_sqft', column: 'GBA' },
    { field: 'land_area_sqft', column: 'LANDAREA' },
    { field: 'style', column: 'STYLE_D' },
    { field: 'structure', column: 'STRUCT_D' },
    { field: 'grade', column: 'GRADE' },
    { field: 'condition', column: 'CNDTN' },
    { field: 'heating', column: 'HEAT' },
    { field: 'air_conditioning', column: 'AC' },
    { field: 'dwelling_units', column: 'NUM_UNITS' },
    { field: 'kitchens', column: 'KITCHENS' },
    { field: 'fireplaces', column: 'FIREPLACES' },
    { field: 'exterior_wall', column: 'EXTWALL' },
    { field: 'roof', column: 'ROOF' },
    { field: 'interior_wall', column: 'INTWALL' },
  ],
};
/** An address entity speaks for the address, not for the many properties behind it. */
const ADDRESS_FACT_FIELDS = new Set<FactField>(['address', 'zip']);
const KIND_ORDER: Record<EntityPrefix, number> = { addr: 0, prop: 1, unit: 2, parc: 3, acct: 4 };
const ENTITY_PREFIX_LIST: readonly EntityPrefix[] = ['prop', 'parc', 'acct', 'addr', 'unit'];

const isoDate = (yyyymmdd: number): string => {
  const s = String(yyyymmdd);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
};

function compareKeys(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

class SqliteSampleStore implements SampleStore {
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly sourceInfos: SourceInfo[];
  private readonly sourceById: Map<string, SourceInfo>;
  private readonly datasetFields = new Map<string, string[]>();
  private readonly datasetFieldIndex = new Map<string, ReadonlyMap<string, number>>();
  /** Per dataset, an object with every field set to null: cloning it gives output objects one shared, fast shape. */
  private readonly datasetTemplates = new Map<string, Readonly<Record<string, CellValue>>>();
  private readonly datasetRanges: Array<{ dataset: string; first: number; last: number }> = [];
  private readonly statements: {
    row: StatementSync;
    recordByUuid: StatementSync;
    entityByUuid: StatementSync;
    identifiers: StatementSync;
    rowsOfEntity: StatementSync;
    edgesOut: StatementSync;
    edgesIn: StatementSync;
    linksOut: StatementSync;
    linksIn: StatementSync;
  };
  private readonly rowCache = new Map<number, DecodedRow>();
  private readonly kindTables = new Map<string, KindTable>();
  private recRows: Int32Array | null = null;
  /** Ids a parcel or unit of a placeholder SSL would have (meta `placeholder_ssl_keys`), read on first use. */
  private placeholderKeys: Map<string, { ssl: string; entity_id: string; record_refs: string[] }> | null = null;
  /** 16 bytes per record: the uuid of its ref, formatted on demand (strings would cost 400 bytes each). */
  private recUuids: Buffer | null = null;
  /** Short repeated cell strings ("Warm Cool", "OLD CITY II") shared instead of stored once per row. */
  private readonly interned = new Map<string, string>();
  private identifierIndex: {
    /** Per scheme (code - 1): value → entity number(s). */
    exact: Array<Map<string, number | number[]>>;
    /** Distinct address identifier values, alphabetical, with their entities. */
    addresses: Array<{ value: string; entities: readonly number[] }>;
    /** `\n <value> ` per address, concatenated: one native indexOf scans them all. */
    haystack: string;
    starts: Int32Array;
  } | null = null;
  private entityMetaCache: { prefix: Uint8Array; area: Uint8Array; uuids: Buffer } | null = null;
  private ownerIndex: OwnerIndex | null = null;
  private propertyIndex: PropertyIndexEntry[] | null = null;
  /** Equality keys of one property field, by index position, built on first filter on the field. */
  private readonly propertyEqKeys = new Map<PropertyField, Array<string | null>>();
  private saleIndex: SaleIndex | null = null;

  constructor(db: DatabaseSync, dbPath: string) {
    this.db = db;
    this.path = dbPath;
    const datasets = db.prepare('SELECT dataset, fields, first_row_no, last_row_no FROM datasets ORDER BY first_row_no').all() as Array<{
      dataset: string; fields: string; first_row_no: number; last_row_no: number;
    }>;
    for (const d of datasets) {
      const fields = JSON.parse(d.fields) as string[];
      this.datasetFields.set(d.dataset, fields);
      this.datasetFieldIndex.set(d.dataset, new Map(fields.map((name, i) => [name, i])));
      this.datasetTemplates.set(d.dataset, JSON.parse(JSON.stringify(Object.fromEntries(fields.map((name) => [name, null])))) as Record<string, CellValue>);
      this.datasetRanges.push({ dataset: d.dataset, first: d.first_row_no, last: d.last_row_no });
    }
    const sources = db.prepare('SELECT source_no, dataset, first_rec_no, last_rec_no, body FROM sources ORDER BY source_no').all() as Array<{
      source_no: number; dataset: string; first_rec_no: number; last_rec_no: number; body: string;
    }>;
    this.sourceInfos = sources.map((s) => {
      const source = deepFreeze(JSON.parse(s.body) as SampleSource);
      const citation: SourceCitation = Object.freeze({
        source_id: source.source_id, publisher: source.publisher, dataset: source.dataset, as_of: source.as_of,
        release_id: source.release_id, sha256: source.sha256, official_url: source.official_url, synthetic: source.synthetic,
      });
      return {
        no: s.source_no, source, dataset: s.dataset, first: s.first_rec_no, last: s.last_rec_no, citation,
        fieldTypes: new Map(source.fields.map((field) => [field.name, field.type])),
      };
    });
    this.sourceById = new Map(this.sourceInfos.map((s) => [s.source.source_id, s]));
    this.statements = {
      row: db.prepare('SELECT data, q FROM source_rows WHERE row_no = ?'),
      recordByUuid: db.prepare('SELECT rec_no, row_no FROM records WHERE uuid = ?'),
      entityByUuid: db.prepare('SELECT * FROM entities WHERE uuid = ?'),
      identifiers: db.prepare('SELECT scheme, value FROM identifiers WHERE entity_no = ? ORDER BY ord'),
      rowsOfEntity: db.prepare('SELECT row_no FROM row_entities WHERE entity_no = ? ORDER BY row_no'),
      edgesOut: db.prepare('SELECT * FROM edges WHERE subject_no = ?'),
      // `object > 0` lets SQLite use the partial index (it cannot prove it of a bound parameter).
      edgesIn: db.prepare('SELECT * FROM edges WHERE object = ? AND object > 0 ORDER BY subject_no, predicate'),
      linksOut: db.prepare('SELECT predicate, object, confidence FROM edges WHERE subject_no = ? AND object > 0'),
      linksIn: db.prepare('SELECT subject_no, predicate, confidence FROM edges WHERE object = ? AND object > 0 ORDER BY subject_no, predicate'),
    };
    this.statements.linksOut.setReturnArrays(true);
    this.statements.linksIn.setReturnArrays(true);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  info(): StoreInfo {
    const counts: Record<string, number> = {};
    for (const table of ['sources', 'source_rows', 'records', 'entities', 'identifiers', 'row_entities', 'edges', 'owner_names', 'owners']) {
      counts[table] = (this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    }
    return { schema_version: SAMPLE_SCHEMA_VERSION, path: this.path, counts };
  }

  warm(): void {
    for (const kind of new Set(this.sourceInfos.map((s) => s.source.kind))) this.kindTable(kind);
    this.identifiers();
    this.owners();
    this.properties();
    this.sales();
  }

  // --- sources ---------------------------------------------------------------------------------

  private sourcesIn(jurisdiction: string | undefined): SourceInfo[] {
    if (jurisdiction === undefined) return this.sourceInfos;
    return this.sourceInfos.filter((s) => s.source.jurisdiction === jurisdiction || s.source.state === jurisdiction);
  }

  listSources(filter: { jurisdiction?: string; sourceId?: string; kind?: string } = {}): SampleSource[] {
    return this.sourcesIn(filter.jurisdiction)
      .filter((s) => (filter.sourceId === undefined || s.source.source_id === filter.sourceId) && (filter.kind === undefined || s.source.kind === filter.kind))
      .map((s) => s.source);
  }

  getSource(sourceId: string): SampleSource | null {
    return this.sourceById.get(sourceId)?.source ?? null;
  }

  kinds(jurisdiction?: string): string[] {
    return [...new Set(this.sourcesIn(jurisdiction).map((s) => s.source.kind))];
  }

  areas(): AreaSummary[] {
    const counts = new Map<string, number>();
    for (const p of this.properties()) counts.set(p.area, (counts.get(p.area) ?? 0) + 1);
    return [
      { area_uid: AREA_DC, ...AREA_JURISDICTION[AREA_DC], name: 'Washington, DC', properties: counts.get(AREA_DC) ?? 0 },
      { area_uid: AREA_ALEXANDRIA, ...AREA_JURISDICTION[AREA_ALEXANDRIA], name: 'Alexandria, VA', properties: counts.get(AREA_ALEXANDRIA) ?? 0 },
    ].map(({ county, ...rest }): AreaSummary => ({ ...rest, area_uid: rest.area_uid as AreaUid, jurisdiction: county }));
  }

  // --- rows and records ------------------------------------------------------------------------

  private datasetOfRow(rowNo: number): string {
    for (const range of this.datasetRanges) if (rowNo >= range.first && rowNo <= range.last) return range.dataset;
    throw new Error(`row ${rowNo} is in no dataset`);
  }

  private row(rowNo: number): DecodedRow {
    const cached = this.rowCache.get(rowNo);
    if (cached) return cached;
    const raw = this.statements.row.get(rowNo) as { data: string; q: string } | undefined;
    if (!raw) throw new Error(`sample row ${rowNo} missing`);
    const dataset = this.datasetOfRow(rowNo);
    const fields = this.datasetFields.get(dataset) ?? [];
    const decoded = this.decodeRow(rowNo, dataset, fields, raw.data, raw.q);
    this.rowCache.set(rowNo, decoded);
    return decoded;
  }

  private decodeRow(rowNo: number, dataset: string, fields: readonly string[], data: string, q: string): DecodedRow {
    const cells = JSON.parse(data) as CellValue[];
    for (let i = 0; i < fields.length; i++) {
      const v = cells[i];
      if (v === undefined) cells[i] = null;
      else if (typeof v === 'string' && v.length <= 24) {
        const shared = this.interned.get(v);
        if (shared === undefined) this.interned.set(v, v);
        else cells[i] = shared;
      }
    }
    return { no: rowNo, dataset, cells: Object.freeze(cells), fields: this.datasetFieldIndex.get(dataset) ?? new Map(), q: Object.freeze(JSON.parse(q) as number[]) };
  }

  /** The row as the publisher's field → value object, frozen: what a record's `data` is. */
  private rowValues(row: DecodedRow): Readonly<Record<string, CellValue>> {
    const values: Record<string, CellValue> = { ...(this.datasetTemplates.get(row.dataset) ?? {}) };
    const fields = this.datasetFields.get(row.dataset) ?? [];
    for (let i = 0; i < fields.length; i++) values[fields[i] ?? ''] = row.cells[i] ?? null;
    return Object.freeze(values);
  }

  private sourceOfRec(recNo: number): SourceInfo {
    for (const s of this.sourceInfos) if (recNo >= s.first && recNo <= s.last) return s;
    throw new Error(`record ${recNo} is in no source`);
  }

  /** rec_no → row_no and rec_no → record_ref for every record, loaded once. */
  private recordRows(): Int32Array {
    if (this.recRows) return this.recRows;
    const last = this.sourceInfos.reduce((max, s) => Math.max(max, s.last), 0);
    // Rows as arrays and the uuid as hex text: a blob or an object per row costs several times more.
    const statement = this.db.prepare('SELECT rec_no, row_no, hex(uuid) FROM records');
    statement.setReturnArrays(true);
    const rows = new Int32Array(last + 1);
    const uuids = Buffer.alloc((last + 1) * 16);
    for (const [recNo, rowNo, hex] of statement.all() as unknown as Array<[number, number, string]>) {
      rows[recNo] = rowNo;
      uuids.write(hex, recNo * 16, 16, 'hex');
    }
    this.recRows = rows;
    this.recUuids = uuids;
    return rows;
  }

  /** The records of one row, in source order (at most one per source). */
  private recordsOfRow(rowNo: number): number[] {
    const recRows = this.recordRows();
    const dataset = this.datasetOfRow(rowNo);
    const out: number[] = [];
    for (const s of this.sourceInfos) {
      if (s.dataset !== dataset) continue;
      // Records of a source follow row order, so a binary search finds the row's record.
      let lo = s.first;
      let hi = s.last;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const r = recRows[mid] ?? 0;
        if (r === rowNo) {
          out.push(mid);
          break;
        }
        if (r < rowNo) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    return out;
  }

  private recordRefOf(recNo: number): string {
    this.recordRows();
    const uuids = this.recUuids;
    if (!uuids || recNo < 1 || (recNo + 1) * 16 > uuids.length) throw new Error(`record ${recNo} missing`);
    return `rec_${dashedUuid(uuids.toString('hex', recNo * 16, recNo * 16 + 16))}`;
  }

  private citation(recNo: number, recordRef?: string): Citation {
    const s = this.sourceOfRec(recNo);
    return { ...s.citation, record_ref: recordRef ?? this.recordRefOf(recNo) };
  }

  private entityIdOf(entityNo: number): string {
    const { uuids } = this.entityMeta();
    if (entityNo < 1 || (entityNo + 1) * 16 > uuids.length) throw new Error(`entity ${entityNo} missing`);
    return `${this.prefixOfNo(entityNo)}_${dashedUuid(uuids.toString('hex', entityNo * 16, entityNo * 16 + 16))}`;
  }

  private buildRecord(recNo: number, recordRef?: string): SampleRecord {
    const source = this.sourceOfRec(recNo);
    const row = this.row(this.recordRows()[recNo] ?? 0);
    const ref = recordRef ?? this.recordRefOf(recNo);
    const point = pointOf(row);
    const data = this.rowValues(row);
    const ssl = source.source.kind === 'permit' ? permitSslKey(data) : null;
    return {
      record_ref: ref,
      kind: source.source.kind,
      source_id: source.source.source_id,
      jurisdiction: source.source.jurisdiction,
      published_at: source.source.as_of,
      citation: { ...source.citation, record_ref: ref },
      data,
      q_ids: row.q.map((no) => this.entityIdOf(no)),
      location: point ? { ...point, precision: source.source.location_precision } : null,
      limitations: ssl?.problem ? [ssl.problem] : [],
    };
  }

  private recNoOfRef(recordRef: string): number | null {
    const m = RECORD_REF_PATTERN.exec(recordRef);
    if (!m) return null;
    const r = this.statements.recordByUuid.get(uuidToBytes(m[1] ?? '')) as { rec_no: number } | undefined;
    return r ? r.rec_no : null;
  }

  getRecord(recordRef: string): SampleRecord | null {
    const recNo = this.recNoOfRef(recordRef);
    return recNo === null ? null : this.buildRecord(recNo, recordRef);
  }

  getRecords(recordRefs: readonly string[]): SampleRecord[] {
    const out: SampleRecord[] = [];
    for (const ref of recordRefs) {
      const record = this.getRecord(ref);
      if (record) out.push(record);
    }
    return out;
  }

  recordsAbout(entityId: string, filter: { kind?: string; sourceId?: string } = {}): SampleRecord[] {
    const entity = this.entityRow(entityId);
    if (!entity) return [];
    return this.recordNosAbout(entity)
      .filter((recNo) => {
        const s = this.sourceOfRec(recNo).source;
        return (filter.kind === undefined || s.kind === filter.kind) && (filter.sourceId === undefined || s.source_id === filter.sourceId);
      })
      .map((recNo) => this.buildRecord(recNo));
  }

  /** Records about an entity: its defining row's records first, then by row. */
  private recordNosAbout(entity: EntityRow): number[] {
    const rows = (this.statements.rowsOfEntity.all(entity.entity_no) as Array<{ row_no: number }>).map((r) => r.row_no);
    rows.sort((a, b) => (a === entity.primary_row_no ? -1 : b === entity.primary_row_no ? 1 : a - b));
    return rows.flatMap((rowNo) => this.recordsOfRow(rowNo));
  }

  // --- record search ---------------------------------------------------------------------------

  private kindTable(kind: string): KindTable {
    const cached = this.kindTables.get(kind);
    if (cached) return cached;
    const sources = this.sourceInfos.filter((s) => s.source.kind === kind);
    const total = sources.reduce((n, s) => n + (s.last - s.first + 1), 0);
    const recNos = new Int32Array(total);
    const sourceOf = new Uint8Array(total);
    const rows: DecodedRow[] = new Array<DecodedRow>(total);
    const recRows = this.recordRows();
    let i = 0;
    sources.forEach((s, sourceIndex) => {
      // One range read per source: a record's rows are consecutive within its dataset.
      const firstRow = recRows[s.first] ?? 0;
      const lastRow = recRows[s.last] ?? 0;
      const fields = this.datasetFields.get(s.dataset) ?? [];
      const byRowNo = new Map<number, DecodedRow>();
      const stmt = this.db.prepare('SELECT row_no, data, q FROM source_rows WHERE row_no BETWEEN ? AND ?');
      for (const raw of stmt.iterate(firstRow, lastRow) as Iterable<{ row_no: number; data: string; q: string }>) {
        let decoded = this.rowCache.get(raw.row_no);
        if (!decoded) {
          decoded = this.decodeRow(raw.row_no, s.dataset, fields, raw.data, raw.q);
          this.rowCache.set(raw.row_no, decoded);
        }
        byRowNo.set(raw.row_no, decoded);
      }
      for (let recNo = s.first; recNo <= s.last; recNo++, i++) {
        recNos[i] = recNo;
        sourceOf[i] = sourceIndex;
        const row = byRowNo.get(recRows[recNo] ?? 0);
        if (!row) throw new Error(`record ${recNo}: row missing`);
        rows[i] = row;
      }
    });
    const table: KindTable = { recNos, sources, sourceOf, rows, eq: new Map(), ordered: new Map() };
    this.kindTables.set(kind, table);
    return table;
  }

  private eqIndex(table: KindTable, field: string): Map<string, number[]> {
    let index = table.eq.get(field);
    if (index) return index;
    index = new Map();
    for (let i = 0; i < table.rows.length; i++) {
      const key = equalityKey(cellOf(table.rows[i], field));
      if (key === null) continue;
      let list = index.get(key);
      if (!list) index.set(key, (list = []));
      list.push(i);
    }
    table.eq.set(field, index);
    return index;
  }

  private orderedIndex(table: KindTable, field: string, type: FieldType): { positions: Int32Array; keys: Array<number | string> } {
    let index = table.ordered.get(field);
    if (index) return index;
    const entries: Array<{ i: number; key: number | string }> = [];
    for (let i = 0; i < table.rows.length; i++) {
      const v = cellOf(table.rows[i], field);
      if (type === 'number' && typeof v === 'number') entries.push({ i, key: v });
      else if (type === 'date' && typeof v === 'string') entries.push({ i, key: v });
    }
    entries.sort((a, b) => compareKeys(a.key, b.key) || a.i - b.i);
    index = { positions: Int32Array.from(entries.map((e) => e.i)), keys: entries.map((e) => e.key) };
    table.ordered.set(field, index);
    return index;
  }

  searchRecords(search: RecordSearch): RecordPage {
    const limit = search.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new SampleStoreError('invalid_argument', 'limit must be an integer from 1 to 100');
    const filters = search.filters ?? [];
    if (filters.length > MAX_FILTERS) throw new SampleStoreError('invalid_filter', `at most ${MAX_FILTERS} field filters`);
    let after = 0;
    if (search.cursor !== undefined && search.cursor !== null) {
      const m = /^r([0-9a-z]{1,10})$/.exec(search.cursor);
      if (!m) throw new SampleStoreError('invalid_cursor', 'cursor is not one this store issued');
      after = parseInt(m[1] ?? '', 36);
    }
    const allowed = this.sourcesIn(search.jurisdiction).filter(
      (s) => s.source.kind === search.kind && (search.sourceId === undefined || s.source.source_id === search.sourceId),
    );
    if (allowed.length === 0) return { items: [], total: 0, nextCursor: null };
    // A field must exist in at least one searched source, with a type its operator can compare.
    const typeOf = (field: string): FieldType => {
      for (const s of allowed) {
        const type = s.fieldTypes.get(field);
        if (type) return type;
      }
      throw new SampleStoreError('unknown_field', `no ${search.kind} source in this jurisdiction has a field named ${field}`);
    };
    const table = this.kindTable(search.kind);
    const allowedIndexes = new Set(allowed.map((s) => table.sources.indexOf(s)));

    // Each filter offers an index slice (positions in rec_no order) and a direct test on a row. The
    // smallest slice drives the scan; the other filters are tested on its rows only.
    const plans = filters.map((filter) => {
      const type = typeOf(filter.field);
      if (filter.op === 'eq') {
        const key = equalityKey(filter.value);
        const positions = key === null ? this.nullPositions(table, filter.field) : (this.eqIndex(table, filter.field).get(key) ?? []);
        return { size: positions.length, eq: true, positions: () => positions, test: (row: DecodedRow) => equalityKey(cellOf(row, filter.field)) === key };
      }
      if (filter.op === 'gte') {
        if (type !== 'number' && type !== 'date') throw new SampleStoreError('invalid_filter', `gte needs a number or date field; ${filter.field} is a ${type}`);
        let bound: number | string;
        if (type === 'number') {
          bound = typeof filter.value === 'string' && filter.value.trim() !== '' ? Number(filter.value) : typeof filter.value === 'number' ? filter.value : NaN;
          if (!Number.isFinite(bound)) throw new SampleStoreError('invalid_filter', `gte on ${filter.field} needs a number`);
        } else {
          bound = String(filter.value ?? '');
          if (!/^\d{4}-\d{2}-\d{2}/.test(bound)) throw new SampleStoreError('invalid_filter', `gte on ${filter.field} needs an ISO date`);
        }
        const index = this.orderedIndex(table, filter.field, type);
        let lo = 0;
        let hi = index.keys.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (compareKeys(index.keys[mid] ?? '', bound) < 0) lo = mid + 1;
          else hi = mid;
        }
        const from = lo;
        const test = (row: DecodedRow) => {
          const v = cellOf(row, filter.field);
          return (type === 'number' ? typeof v === 'number' : typeof v === 'string') && compareKeys(v as number | string, bound) >= 0;
        };
        // A mask walked in position order yields the slice in rec_no order without sorting it.
        const positions = () => {
          const mask = new Uint8Array(table.rows.length);
          for (let k = from; k < index.positions.length; k++) mask[index.positions[k] ?? 0] = 1;
          const out: number[] = [];
          for (let i = 0; i < mask.length; i++) if (mask[i] === 1) out.push(i);
          return out;
        };
        return { size: index.keys.length - from, eq: false, positions, test };
      }
      throw new SampleStoreError('invalid_filter', `unknown operator ${String((filter as { op: unknown }).op)}; use eq or gte`);
    });
    // An equality slice is already in order, so it drives whenever there is one; the smallest wins.
    const cost = (plan: (typeof plans)[number]) => (plan.eq ? plan.size : table.rows.length + plan.size);
    const driver = plans.reduce<(typeof plans)[number] | null>((best, plan) => (best === null || cost(plan) < cost(best) ? plan : best), null);
    const others = plans.filter((plan) => plan !== driver);
    const accept = (i: number): boolean => {
      if (!allowedIndexes.has(table.sourceOf[i] ?? -1)) return false;
      const row = table.rows[i];
      return row !== undefined && others.every((plan) => plan.test(row));
    };

    const items: SampleRecord[] = [];
    let total = 0;
    let lastRecNo = 0;
    let more = false;
    const take = (i: number) => {
      const recNo = table.recNos[i] ?? 0;
      if (recNo <= after) return;
      if (items.length < limit) {
        items.push(this.buildRecord(recNo));
        lastRecNo = recNo;
      } else {
        more = true;
      }
    };
    if (driver === null) {
      // No field filter: the total is the sources' sizes, and only the page is read.
      total = allowed.reduce((n, s) => n + (s.last - s.first + 1), 0);
      for (let i = lowerBound(table.recNos, after + 1); i < table.recNos.length && !more; i++) if (accept(i)) take(i);
    } else {
      for (const i of driver.positions()) {
        if (!accept(i)) continue;
        total++;
        take(i);
      }
    }
    return { items, total, nextCursor: more ? `r${lastRecNo.toString(36)}` : null };
  }

  private nullPositions(table: KindTable, field: string): number[] {
    const out: number[] = [];
    for (let i = 0; i < table.rows.length; i++) if (equalityKey(cellOf(table.rows[i], field)) === null) out.push(i);
    return out;
  }

  // --- entities --------------------------------------------------------------------------------

  private entityRow(entityId: string): EntityRow | null {
    const m = ENTITY_ID_PATTERN.exec(entityId);
    if (!m) return null;
    const e = this.statements.entityByUuid.get(uuidToBytes(m[2] ?? '')) as EntityRow | undefined;
    if (!e || e.prefix !== m[1]) return null;
    return e;
  }

  /** The entity's point without building its citation. */
  private entityPoint(e: EntityRow): PointLocation | null {
    if (e.location_rec_no === null || e.precision === null) return null;
    const row = this.row(this.recordRows()[e.location_rec_no] ?? 0);
    const point = pointOf(row);
    return point ? { ...point, precision: PRECISION_CODES[e.precision - 1] ?? 'square_centroid' } : null;
  }

  private entityLocation(e: EntityRow): EntityLocation | null {
    if (e.location_rec_no === null || e.precision === null) return null;
    const record = this.buildRecord(e.location_rec_no);
    if (!record.location) return null;
    return {
      lat: record.location.lat, lon: record.location.lon,
      precision: PRECISION_CODES[e.precision - 1] ?? 'square_centroid',
      record_ref: record.record_ref, citation: record.citation,
    };
  }

  getEntity(entityId: string): SampleEntity | null {
    const e = this.entityRow(entityId);
    if (!e) return null;
    const prefix = e.prefix as EntityPrefix;
    const identifiers = (this.statements.identifiers.all(e.entity_no) as Array<{ scheme: number; value: string }>).map((i) => ({
      scheme: IDENTIFIER_SCHEMES[i.scheme - 1] ?? 'address',
      value: i.value,
    }));
    const recNos = this.recordNosAbout(e);
    const facts = this.collectFacts(e, recNos);
    const attributes: Record<string, CellValue> = {};
    for (const fact of facts) if (!fact.synthetic && !(fact.field in attributes)) attributes[fact.field] = fact.value;
    const sourceRefs = recNos.map((recNo) => this.recordRefOf(recNo));
    const sources = [...new Set(recNos.map((recNo) => this.sourceOfRec(recNo)))].map((s) => s.citation);
    return {
      entity_id: entityId,
      prefix,
      entity_kind: ENTITY_PREFIX_KIND[prefix],
      area_uid: (AREA_CODES[e.area - 1] ?? AREA_DC) as AreaUid,
      status: 'current',
      coverage_status: 'available',
      identifiers,
      attributes,
      source_refs: sourceRefs,
      sources,
      valid_from: isoDate(e.valid_from),
      valid_to: null,
      location: this.entityLocation(e),
    };
  }

  missingEntityNote(entityId: string): string | null {
    if (this.placeholderKeys === null) {
      const row = this.db.prepare("SELECT value FROM meta WHERE key = 'placeholder_ssl_keys'").get() as { value: string } | undefined;
      // A database built before the build listed them simply knows none.
      const listed = row ? (JSON.parse(row.value) as Array<{ ssl: string; entity_id: string; record_refs: string[] }>) : [];
      this.placeholderKeys = new Map(listed.map((key) => [key.entity_id, key]));
    }
    const key = this.placeholderKeys.get(entityId.trim().toLowerCase());
    if (!key) return null;
    const kind = key.entity_id.startsWith('unit_') ? 'unit' : 'parcel';
    const permits = key.record_refs.length === 1 ? 'the one permit that gives it keeps' : `the ${key.record_refs.length} permits that give it keep`;
    return `${entityId} would be the ${kind} of SSL ${key.ssl.replace(/\s+/g, ' ')}, a placeholder (square or lot 0000), not a valid parcel key: the sample makes no ${kind} of it, and ${permits} only ${key.record_refs.length === 1 ? 'its address' : 'their own addresses'}.`;
  }

  // --- relationships ---------------------------------------------------------------------------

  private edgeRelationship(edge: EdgeRow, direction: 'out' | 'in'): SampleRelationship {
    const predicate = PREDICATES[edge.predicate - 1] ?? 'located_in';
    const method = LINK_METHODS[edge.method - 1] ?? 'same_row';
    const subjectRef = this.entityIdOf(edge.subject_no);
    const objectIsEntity = edge.object > 0;
    const objectRef = objectIsEntity ? this.entityIdOf(edge.object) : this.recordRefOf(-edge.object);
    const recNos = JSON.parse(edge.source_rec_nos) as number[];
    const sources = recNos.map((recNo) => this.sourceOfRec(recNo));
    const validFrom = sources.reduce((min, s) => (s.source.as_of < min ? s.source.as_of : min), '9999-12-31T00:00:00Z').slice(0, 10);
    return {
      relationship_ref: relationshipRef(subjectRef, predicate, objectRef),
      subject_ref: subjectRef,
      predicate,
      object_ref: objectRef,
      object_type: objectIsEntity ? 'entity' : 'record',
      direction,
      precision: METHOD_PRECISION[method],
      method,
      confidence: edge.confidence,
      status: 'current',
      valid_from: validFrom,
      valid_to: null,
      source_refs: recNos.map((recNo) => this.recordRefOf(recNo)),
      basis: edge.basis,
      explanation: explain(predicate, method, edge.basis, sources[0]?.source),
    };
  }

  private ownerRelationships(accountNo: number): Array<{ other: number; relationship: SampleRelationship }> {
    const owners = this.owners();
    const out: Array<{ other: number; relationship: SampleRelationship }> = [];
    const seen = new Set<number>();
    for (const ownerNo of owners.byAccount.get(accountNo) ?? []) {
      const holdings = owners.holdings[ownerNo - 1] ?? [];
      const key = owners.keys[ownerNo - 1] ?? '';
      const others = [...new Set(holdings.map((h) => h.account))].filter((a) => a !== accountNo).sort((a, b) => a - b);
      for (const other of others) {
        if (seen.has(other)) continue;
        seen.add(other);
        // One undirected link per pair: the lower entity number is the subject.
        const [subjectNo, objectNo] = accountNo < other ? [accountNo, other] : [other, accountNo];
        const subjectRef = this.entityIdOf(subjectNo);
        const objectRef = this.entityIdOf(objectNo);
        const rows = holdings.filter((h) => h.account === subjectNo || h.account === objectNo).map((h) => h.row);
        const recNos = [...new Set(rows)].sort((a, b) => a - b).flatMap((row) => this.recordsOfRow(row).filter((r) => this.sourceOfRec(r).source.kind === 'ownership'));
        out.push({
          other,
          relationship: {
            relationship_ref: relationshipRef(subjectRef, 'same_owner', objectRef),
            subject_ref: subjectRef,
            predicate: 'same_owner',
            object_ref: objectRef,
            object_type: 'entity',
            direction: subjectNo === accountNo ? 'out' : 'in',
            precision: 'approximate',
            method: 'owner_name_match',
            confidence: sameOwnerConfidence(key),
            status: 'current',
            valid_from: (this.sourceById.get('dc_otr_ownership')?.source.as_of ?? '').slice(0, 10),
            valid_to: null,
            source_refs: recNos.map((recNo) => this.recordRefOf(recNo)),
            basis: key,
            explanation: explain('same_owner', 'owner_name_match', key, this.sourceById.get('dc_otr_ownership')?.source),
          },
        });
      }
    }
    return out;
  }

  private relationshipsOf(entityNo: number, direction: Direction, predicates: ReadonlySet<string> | null, includeRecordObjects: boolean): Array<{ other: number | null; relationship: SampleRelationship }> {
    const out: Array<{ other: number | null; relationship: SampleRelationship }> = [];
    const wanted = (predicate: number) => predicates === null || predicates.has(PREDICATES[predicate - 1] ?? '');
    if (direction !== 'in') {
      for (const edge of this.statements.edgesOut.all(entityNo) as unknown as EdgeRow[]) {
        if (!wanted(edge.predicate) || (edge.object < 0 && !includeRecordObjects)) continue;
        out.push({ other: edge.object > 0 ? edge.object : null, relationship: this.edgeRelationship(edge, 'out') });
      }
    }
    if (direction !== 'out') {
      for (const edge of this.statements.edgesIn.all(entityNo) as unknown as EdgeRow[]) {
        if (!wanted(edge.predicate)) continue;
        out.push({ other: edge.subject_no, relationship: this.edgeRelationship(edge, 'in') });
      }
    }
    if (predicates === null || predicates.has('same_owner')) {
      for (const link of this.ownerRelationships(entityNo)) {
        if (direction === 'both' || link.relationship.direction === direction) out.push(link);
      }
    }
    return out;
  }

  relationships(entityId: string, options: { direction?: Direction; predicates?: readonly string[]; includeRecordObjects?: boolean } = {}): SampleRelationship[] {
    const e = this.entityRow(entityId);
    if (!e) return [];
    const predicates = options.predicates && options.predicates.length > 0 ? new Set(options.predicates) : null;
    return this.relationshipsOf(e.entity_no, options.direction ?? 'both', predicates, options.includeRecordObjects ?? true).map((r) => r.relationship);
  }

  /** Entity-to-entity links of one entity without refs or sources: what a walk needs, cheaply. */
  private links(entityNo: number, predicates: ReadonlySet<string> | null): Array<{ other: number; predicate: Predicate; out: boolean; confidence: number }> {
    const out: Array<{ other: number; predicate: Predicate; out: boolean; confidence: number }> = [];
    const wanted = (p: Predicate) => predicates === null || predicates.has(p);
    for (const [predicateCode, object, confidence] of this.statements.linksOut.all(entityNo) as unknown as Array<[number, number, number]>) {
      const predicate = PREDICATES[predicateCode - 1] ?? 'located_in';
      if (wanted(predicate)) out.push({ other: object, predicate, out: true, confidence });
    }
    for (const [subject, predicateCode, confidence] of this.statements.linksIn.all(entityNo) as unknown as Array<[number, number, number]>) {
      const predicate = PREDICATES[predicateCode - 1] ?? 'located_in';
      if (wanted(predicate)) out.push({ other: subject, predicate, out: false, confidence });
    }
    if (wanted('same_owner')) {
      const owners = this.owners();
      const seen = new Set<number>([entityNo]);
      for (const ownerNo of owners.byAccount.get(entityNo) ?? []) {
        const confidence = sameOwnerConfidence(owners.keys[ownerNo - 1] ?? '');
        for (const h of owners.holdings[ownerNo - 1] ?? []) {
          if (seen.has(h.account)) continue;
          seen.add(h.account);
          out.push({ other: h.account, predicate: 'same_owner', out: entityNo < h.account, confidence });
        }
      }
    }
    return out;
  }

  connected(entityId: string, options: { depth?: number; predicates?: readonly string[]; maxNodes?: number } = {}): { items: ConnectedEntity[]; truncated: boolean } | null {
    const root = this.entityRow(entityId);
    if (!root) return null;
    const depth = options.depth ?? 2;
    if (!Number.isInteger(depth) || depth < 1 || depth > 3) throw new SampleStoreError('invalid_argument', 'depth must be 1, 2 or 3');
    const maxNodes = options.maxNodes ?? 500;
    if (!Number.isInteger(maxNodes) || maxNodes < 1) throw new SampleStoreError('invalid_argument', 'maxNodes must be a positive integer');
    const predicates = options.predicates && options.predicates.length > 0 ? new Set(options.predicates) : null;
    const seen = new Set<number>([root.entity_no]);
    const items: ConnectedEntity[] = [];
    let frontier: Array<{ no: number; id: string }> = [{ no: root.entity_no, id: entityId }];
    let truncated = false;
    for (let level = 1; level <= depth && frontier.length > 0 && !truncated; level++) {
      const next: Array<{ no: number; id: string }> = [];
      for (const node of frontier) {
        for (const link of this.links(node.no, predicates)) {
          if (seen.has(link.other)) continue;
          if (items.length >= maxNodes) {
            truncated = true;
            break;
          }
          seen.add(link.other);
          const id = this.entityIdOf(link.other);
          const prefix = id.slice(0, 4) as EntityPrefix;
          const [subjectRef, objectRef] = link.out ? [node.id, id] : [id, node.id];
          items.push({
            entity_id: id, entity_kind: ENTITY_PREFIX_KIND[prefix], prefix, relation: link.predicate, direction: link.out ? 'out' : 'in',
            via: node.id, depth: level, relationship_ref: relationshipRef(subjectRef, link.predicate, objectRef), confidence: link.confidence,
          });
          next.push({ no: link.other, id });
        }
        if (truncated) break;
      }
      frontier = next;
    }
    return { items, truncated };
  }

  traverse(
    entityId: string,
    options: { depth?: number; direction?: Direction; predicates?: readonly string[]; maxNodes?: number; maxEdges?: number } = {},
  ): Traversal | null {
    const root = this.entityRow(entityId);
    if (!root) return null;
    const depth = options.depth ?? 1;
    const maxNodes = options.maxNodes ?? 50;
    const maxEdges = options.maxEdges ?? 100;
    if (!Number.isInteger(depth) || depth < 1 || depth > 3) throw new SampleStoreError('invalid_argument', 'depth must be 1, 2 or 3');
    if (![maxNodes, maxEdges].every((n) => Number.isInteger(n) && n >= 1)) throw new SampleStoreError('invalid_argument', 'maxNodes and maxEdges must be positive integers');
    const predicates = options.predicates && options.predicates.length > 0 ? new Set(options.predicates) : null;
    const direction = options.direction ?? 'both';
    const depthOf = new Map<number, number>([[root.entity_no, 0]]);
    const nodes: TraversalNode[] = [{ entity_id: entityId, entity_kind: ENTITY_PREFIX_KIND[root.prefix as EntityPrefix], prefix: root.prefix as EntityPrefix, depth: 0 }];
    const edges = new Map<string, SampleRelationship>();
    let truncated = false;
    let frontier = [root.entity_no];
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const next: number[] = [];
      for (const no of frontier) {
        for (const { other, relationship } of this.relationshipsOf(no, direction, predicates, false)) {
          if (other === null || edges.has(relationship.relationship_ref)) continue;
          if (edges.size >= maxEdges) {
            truncated = true;
            break;
          }
          if (!depthOf.has(other)) {
            if (nodes.length >= maxNodes) {
              truncated = true;
              continue;
            }
            depthOf.set(other, level);
            const prefix = this.prefixOfNo(other);
            nodes.push({ entity_id: this.entityIdOf(other), entity_kind: ENTITY_PREFIX_KIND[prefix], prefix, depth: level });
            next.push(other);
          }
          // The same link seen from its other end has the same ref: keep it once, as first seen.
          edges.set(relationship.relationship_ref, relationship);
        }
      }
      frontier = next;
    }
    return { root_ref: entityId, nodes, edges: [...edges.values()], truncated };
  }

  // --- owners ----------------------------------------------------------------------------------

  private owners(): OwnerIndex {
    if (this.ownerIndex) return this.ownerIndex;
    const keys = (this.db.prepare('SELECT owner_key FROM owner_names ORDER BY owner_no').all() as Array<{ owner_key: string }>).map((r) => r.owner_key);
    const holdings: OwnerIndex['holdings'] = keys.map(() => []);
    const byAccount = new Map<number, number[]>();
    for (const r of this.db.prepare('SELECT owner_no, account_no, property_no, row_no FROM owners ORDER BY owner_no, row_no').iterate() as Iterable<{
      owner_no: number; account_no: number; property_no: number; row_no: number;
    }>) {
      holdings[r.owner_no - 1]?.push({ account: r.account_no, property: r.property_no, row: r.row_no });
      let list = byAccount.get(r.account_no);
      if (!list) byAccount.set(r.account_no, (list = []));
      if (!list.includes(r.owner_no)) list.push(r.owner_no);
    }
    this.ownerIndex = { keys, byKey: new Map(keys.map((key, i) => [key, i + 1])), holdings, byAccount };
    return this.ownerIndex;
  }

  findOwners(name: string, options: { match?: 'exact' | 'partial'; limit?: number } = {}): { owners: OwnerMatch[]; total: number } {
    // Every plain-Latin spelling of the name (MÜLLER: MULLER and MUELLER), normalised like the keys.
    const spellings = [...new Set(latinSpellings(name).map(normaliseOwnerName))].filter((spelling) => spelling !== '');
    if (spellings.length === 0) return { owners: [], total: 0 };
    const limit = options.limit ?? 50;
    const index = this.owners();
    const matches: Array<{ ownerNo: number; exact: boolean }> = [];
    const exactNos = new Set(spellings.flatMap((spelling) => index.byKey.get(spelling) ?? []));
    for (const ownerNo of exactNos) matches.push({ ownerNo, exact: true });
    if (options.match === 'partial') {
      index.keys.forEach((key, i) => {
        if (!exactNos.has(i + 1) && spellings.some((spelling) => key.includes(spelling))) matches.push({ ownerNo: i + 1, exact: false });
      });
    }
    // Exact first, then names that start with the text, then the rest; alphabetical within each.
    const startsWithName = (key: string) => spellings.some((spelling) => key.startsWith(spelling));
    const rank = (m: { ownerNo: number; exact: boolean }) => (m.exact ? 0 : startsWithName(index.keys[m.ownerNo - 1] ?? '') ? 1 : 2);
    matches.sort((a, b) => rank(a) - rank(b) || compareKeys(index.keys[a.ownerNo - 1] ?? '', index.keys[b.ownerNo - 1] ?? ''));
    const owners = matches.slice(0, limit).map((m) => this.ownerMatch(m.ownerNo, m.exact));
    return { owners, total: matches.length };
  }

  private ownerMatch(ownerNo: number, exact: boolean): OwnerMatch {
    const index = this.owners();
    const key = index.keys[ownerNo - 1] ?? '';
    const holdings: OwnerHolding[] = (index.holdings[ownerNo - 1] ?? []).map((h) => {
      const row = this.row(h.row);
      const ownership = this.recordsOfRow(h.row).find((recNo) => this.sourceOfRec(recNo).source.kind === 'ownership') ?? 0;
      const land = row.q.map((no) => this.entityIdOf(no)).find((id) => id.startsWith('parc_') || id.startsWith('unit_')) ?? null;
      const ref = this.recordRefOf(ownership);
      return {
        property_id: this.entityIdOf(h.property),
        account_id: this.entityIdOf(h.account),
        land_id: land,
        ssl: typeof cellOf(row, 'ssl') === 'string' ? String(cellOf(row, 'ssl')) : null,
        address: typeof cellOf(row, 'address') === 'string' ? String(cellOf(row, 'address')) : null,
        owner_name: String(cellOf(row, 'owner') ?? ''),
        record_ref: ref,
        citation: this.citation(ownership, ref),
      };
    });
    return {
      owner_key: key,
      match: exact ? 'exact' : 'partial',
      names_as_published: [...new Set(holdings.map((h) => h.owner_name))],
      holdings,
      confidence: sameOwnerConfidence(key),
    };
  }

  // --- resolution ------------------------------------------------------------------------------

  private identifiers(): NonNullable<SqliteSampleStore['identifierIndex']> {
    if (this.identifierIndex) return this.identifierIndex;
    const addressScheme = IDENTIFIER_SCHEMES.indexOf('address') + 1;
    // Rows as arrays: object rows cost more than the index itself. The table is clustered by entity.
    // A value held by one entity (most) maps to its number, not to a one-element array.
    const statement = this.db.prepare('SELECT entity_no, scheme, value FROM identifiers');
    statement.setReturnArrays(true);
    const exact = IDENTIFIER_SCHEMES.map(() => new Map<string, number | number[]>());
    for (const [entityNo, scheme, value] of statement.all() as unknown as Array<[number, number, string]>) {
      const byValue = exact[scheme - 1];
      if (!byValue) continue;
      const held = byValue.get(value);
      if (held === undefined) byValue.set(value, entityNo);
      else if (typeof held === 'number') byValue.set(value, [held, entityNo]);
      else held.push(entityNo);
    }
    const addressEntities = [...(exact[addressScheme - 1] ?? new Map<string, number | number[]>())].map(([value, held]) => [value, entityList(held)] as const);
    const addresses = addressEntities.map(([value, entities]) => ({ value, entities })).sort((a, b) => compareKeys(a.value, b.value));
    const starts = new Int32Array(addresses.length);
    const parts: string[] = [];
    let offset = 0;
    addresses.forEach((a, k) => {
      starts[k] = offset;
      const part = `\n ${a.value} `;
      parts.push(part);
      offset += part.length;
    });
    this.identifierIndex = { exact, addresses, haystack: parts.join(''), starts };
    return this.identifierIndex;
  }

  /**
   * Kind, area and uuid of every entity by entity_no, loaded once: ids are formatted from it and
   * results filtered on it before they are built. The table itself is keyed by uuid, which is how
   * ids are looked up.
   */
  private entityMeta(): { prefix: Uint8Array; area: Uint8Array; uuids: Buffer } {
    if (this.entityMetaCache) return this.entityMetaCache;
    const statement = this.db.prepare('SELECT entity_no, prefix, area, hex(uuid) FROM entities');
    statement.setReturnArrays(true);
    const rows = statement.all() as unknown as Array<[number, EntityPrefix, number, string]>;
    const last = rows.reduce((max, [no]) => Math.max(max, no), 0);
    const prefix = new Uint8Array(last + 1);
    const area = new Uint8Array(last + 1);
    const uuids = Buffer.alloc((last + 1) * 16);
    for (const [no, entityPrefix, entityArea, hex] of rows) {
      prefix[no] = ENTITY_PREFIX_LIST.indexOf(entityPrefix);
      area[no] = entityArea;
      uuids.write(hex, no * 16, 16, 'hex');
    }
    this.entityMetaCache = { prefix, area, uuids };
    return this.entityMetaCache;
  }

  private prefixOfNo(entityNo: number): EntityPrefix {
    return ENTITY_PREFIX_LIST[this.entityMeta().prefix[entityNo] ?? 0] ?? 'prop';
  }

  private candidate(entityNo: number, match: ResolutionCandidate['match'], scheme: IdentifierScheme, value: string, method: string): ResolutionCandidate {
    const prefix = this.prefixOfNo(entityNo);
    return {
      entity_id: this.entityIdOf(entityNo), entity_kind: ENTITY_PREFIX_KIND[prefix], prefix,
      area_uid: (AREA_CODES[(this.entityMeta().area[entityNo] ?? 1) - 1] ?? AREA_DC) as AreaUid, match, scheme, matched_value: value,
      precision: match === 'exact' ? 'exact' : 'approximate', method,
    };
  }

  private entityInArea(entityNo: number, areaUid: string | undefined): boolean {
    if (areaUid === undefined) return true;
    return AREA_CODES[(this.entityMeta().area[entityNo] ?? 1) - 1] === areaUid;
  }

  resolveAddress(text: string, options: { areaUid?: string; limit?: number } = {}): AddressResolution {
    const limit = options.limit ?? 20;
    // The request schemas send this form already; a caller that did not is read the same way.
    const normalised = normaliseAddress(canonicalAddress(text));
    if (!normalised) return { input: text, normalised: null, candidates: [], total: 0 };
    const index = this.identifiers();
    const scheme = IDENTIFIER_SCHEMES.indexOf('address') + 1;
    // rank: 0 exact, 1 premise, 2 partial at the start of an address, 3 partial inside one.
    const hits: Array<{ no: number; rank: number; value: string }> = [];
    const seen = new Set<number>();
    const add = (no: number, rank: number, value: string) => {
      if (seen.has(no) || !this.entityInArea(no, options.areaUid)) return;
      seen.add(no);
      hits.push({ no, rank, value });
    };
    const byAddress = index.exact[scheme - 1];
    for (const no of entityList(byAddress?.get(normalised.full))) add(no, 0, normalised.full);
    if (normalised.unit !== null) for (const no of entityList(byAddress?.get(normalised.premise))) add(no, 1, normalised.premise);
    if (hits.length === 0) {
      // Partial: the typed text at a word start inside a normalised address.
      const needle = ` ${normalised.full}`;
      let at = index.haystack.indexOf(needle);
      while (at >= 0) {
        const k = upperBound(index.starts, at) - 1;
        const entry = index.addresses[k];
        if (!entry) break;
        for (const no of entry.entities) add(no, at === (index.starts[k] ?? 0) + 1 ? 2 : 3, entry.value);
        const next = index.starts[k + 1];
        if (next === undefined) break;
        at = index.haystack.indexOf(needle, next);
      }
    }
    hits.sort((a, b) => a.rank - b.rank || compareKeys(a.value, b.value) || KIND_ORDER[this.prefixOfNo(a.no)] - KIND_ORDER[this.prefixOfNo(b.no)] || a.no - b.no);
    const rankMatch = ['exact', 'premise', 'partial', 'partial'] as const;
    const candidates = hits.slice(0, limit).map((h) => this.candidate(h.no, rankMatch[h.rank] ?? 'partial', 'address', h.value, 'address_match'));
    return { input: text, normalised, candidates, total: hits.length };
  }

  resolveIdentifier(scheme: string, value: string, options: { areaUid?: string; limit?: number } = {}): ResolutionCandidate[] {
    const limit = options.limit ?? 20;
    if (scheme === 'address') return this.resolveAddress(value, options).candidates;
    if (!(IDENTIFIER_SCHEMES as readonly string[]).includes(scheme)) {
      throw new SampleStoreError('invalid_argument', `unknown identifier scheme ${scheme}; use one of ${IDENTIFIER_SCHEMES.join(', ')}`);
    }
    const index = this.identifiers();
    const lookups: Array<{ scheme: IdentifierScheme; value: string }> = [];
    const trimmed = value.trim();
    if (scheme === 'ssl' || scheme === 'ssl_as_published') {
      // Either form finds both: the canonical SSL and the form OTR published. A placeholder
      // (`0000 0000`, which some permits carry) is no parcel's SSL: it finds nothing.
      const parsed = parseSsl(canonicalSsl(trimmed));
      if (parsed && isPlaceholderSsl(parsed)) return [];
      if (parsed) lookups.push({ scheme: 'ssl', value: parsed.canonical });
      lookups.push({ scheme: 'ssl_as_published', value: trimmed.toUpperCase() });
    } else if (scheme === 'unit_designator') {
      lookups.push({ scheme, value: trimmed.toUpperCase().replace(/^0+(?=[0-9A-Z])/, '') });
    } else if (scheme === 'account_no' || scheme === 'mar_id') {
      lookups.push({ scheme, value: canonicalNumber(trimmed) });
    } else {
      lookups.push({ scheme: scheme as IdentifierScheme, value: trimmed });
    }
    const out: ResolutionCandidate[] = [];
    const seen = new Set<number>();
    for (const lookup of lookups) {
      const code = IDENTIFIER_SCHEMES.indexOf(lookup.scheme) + 1;
      for (const no of [...entityList(index.exact[code - 1]?.get(lookup.value))].sort((a, b) => a - b)) {
        if (seen.has(no) || !this.entityInArea(no, options.areaUid)) continue;
        seen.add(no);
        out.push(this.candidate(no, 'exact', lookup.scheme, lookup.value, `${lookup.scheme}_match`));
      }
    }
    out.sort((a, b) => KIND_ORDER[a.prefix] - KIND_ORDER[b.prefix]);
    return out.slice(0, limit);
  }

  // --- property search -------------------------------------------------------------------------

  private properties(): PropertyIndexEntry[] {
    if (this.propertyIndex) return this.propertyIndex;
    const out: PropertyIndexEntry[] = [];
    const statement = this.db.prepare(
      "SELECT entity_no, area, primary_row_no, precision, location_rec_no FROM entities WHERE prefix = 'prop' ORDER BY entity_no",
    );
    statement.setReturnArrays(true);
    const rows = (statement.all() as unknown as Array<[number, number, number, number | null, number | null]>).map(
      ([entityNo, area, primaryRowNo, precision, locationRecNo]): EntityRow => ({
        entity_no: entityNo, uuid: new Uint8Array(0), prefix: 'prop', area, primary_row_no: primaryRowNo, valid_from: 0,
        precision, location_rec_no: locationRecNo,
      }),
    );
    const imputedBySsl = new Map<string, { row: DecodedRow; recNo: number }>();
    const synthetic = this.sourceById.get('plat_synthetic_characteristics');
    if (synthetic) {
      const table = this.kindTable(synthetic.source.kind);
      table.rows.forEach((row, i) => imputedBySsl.set(String(cellOf(row, 'ssl')), { row, recNo: table.recNos[i] ?? 0 }));
    }
    // The property's defining row and its records give every attribute (one row per property).
    for (const kind of ['ownership', 'assessment', 'sale', 'parcel']) this.kindTable(kind);
    for (const e of rows) {
      const row = this.row(e.primary_row_no);
      const v = this.rowValues(row);
      const recNos = this.recordsOfRow(row.no);
      const str = (x: CellValue | undefined): CellValue => (x === undefined ? null : x);
      const attributes: Record<PropertyField, CellValue> = {
        address: str(v['address']), owner_name: str(v['owner']), ssl: str(v['ssl']), account_no: str(v['account_no']),
        use_code: str(v['use_code']), land_use: str(v['land_use']), zoning: str(v['zoning']), neighborhood: str(v['neighborhood']),
        sub_neighborhood: str(v['sub_neighborhood']), homestead: str(v['homestead']), assessed_value_dollars: str(v['assessment_2016']),
        last_sale_price_dollars: null, last_sale_date: null, lat: null, lon: null,
        imputed_year_built: null, imputed_bedrooms: null, imputed_full_bathrooms: null, imputed_gross_building_area_sqft: null, imputed_land_area_sqft: null,
      };
      // Sale facts only where a sale record exists (a row without a recordation date has no sale).
      if (recNos.some((recNo) => this.sourceOfRec(recNo).source.kind === 'sale')) {
        attributes.last_sale_price_dollars = str(v['last_sale_price']);
        attributes.last_sale_date = str(v['last_sale_recordation_date']);
      }
      const sourceRecNos = [...recNos];
      const imputed = typeof v['ssl'] === 'string' ? imputedBySsl.get(v['ssl']) : undefined;
      if (imputed) {
        attributes.imputed_year_built = cellOf(imputed.row, 'AYB');
        attributes.imputed_bedrooms = cellOf(imputed.row, 'BEDRM');
        attributes.imputed_full_bathrooms = cellOf(imputed.row, 'BATHRM');
        attributes.imputed_gross_building_area_sqft = cellOf(imputed.row, 'GBA');
        attributes.imputed_land_area_sqft = cellOf(imputed.row, 'LANDAREA');
        sourceRecNos.push(imputed.recNo);
      }
      const location = this.entityPoint(e);
      if (location) {
        attributes.lat = location.lat;
        attributes.lon = location.lon;
      }
      out.push({ index: out.length, entityNo: e.entity_no, area: (AREA_CODES[e.area - 1] ?? AREA_DC) as AreaUid, attributes: Object.freeze(attributes), recNos: sourceRecNos, location });
    }
    this.propertyIndex = out;
    return out;
  }

  /** Properties of an area that pass every filter, in entity order. */
  private matchProperties(areaUid: string, filters: readonly PropertyFilter[]): PropertyIndexEntry[] {
    for (const f of filters) {
      if (!PROPERTY_FIELDS.has(f.field)) throw new SampleStoreError('unknown_field', `unknown property field ${f.field}`);
    }
    // Each filter becomes one test with its operand prepared once.
    const tests = filters.map((f): ((entry: PropertyIndexEntry) => boolean) => {
      const field = f.field;
      switch (f.op) {
        case 'exists':
          return (p) => p.attributes[field] !== null;
        case 'eq': {
          const key = equalityKey(f.value ?? null);
          let keys = this.propertyEqKeys.get(field);
          if (!keys) {
            keys = this.properties().map((p) => equalityKey(p.attributes[field]));
            this.propertyEqKeys.set(field, keys);
          }
          const known = keys;
          return (p) => key !== null && known[p.index] === key;
        }
        case 'gte':
        case 'lte': {
          const bound = f.value;
          if (bound === null || bound === undefined || bound === '') throw new SampleStoreError('invalid_filter', `${f.op} on ${field} needs a value`);
          const numeric = Number(bound);
          const sign = f.op === 'gte' ? 1 : -1;
          return (p) => {
            const v = p.attributes[field];
            if (v === null) return false;
            const cmp = typeof v === 'number' ? v - numeric : compareKeys(String(v), String(bound));
            return !Number.isNaN(cmp) && cmp * sign >= 0;
          };
        }
        case 'contains':
        case 'prefix': {
          const needle = String(f.value ?? '').toUpperCase();
          const prefix = f.op === 'prefix';
          return (p) => {
            const v = p.attributes[field];
            if (v === null) return false;
            const text = String(v).toUpperCase();
            return prefix ? text.startsWith(needle) : text.includes(needle);
          };
        }
        default:
          throw new SampleStoreError('invalid_filter', `unknown operator ${String(f.op)}; use eq, gte, lte, contains, prefix or exists`);
      }
    });
    return this.properties().filter((p) => p.area === areaUid && tests.every((test) => test(p)));
  }

  aggregateProperties(query: PropertyAggregation): PropertyGroup[] {
    const measure = query.measure ?? { op: 'count' as const };
    for (const field of [query.groupBy, measure.field]) {
      if (field !== undefined && !PROPERTY_FIELDS.has(field)) throw new SampleStoreError('unknown_field', `unknown property field ${field}`);
    }
    if (measure.op !== 'count' && measure.field === undefined) throw new SampleStoreError('invalid_argument', `${measure.op} needs a field`);
    const groups = new Map<string, { group: CellValue; values: number[]; count: number }>();
    for (const p of this.matchProperties(query.areaUid, query.filters ?? [])) {
      const group = query.groupBy === undefined ? null : p.attributes[query.groupBy];
      const key = JSON.stringify(group);
      let entry = groups.get(key);
      if (!entry) groups.set(key, (entry = { group, values: [], count: 0 }));
      entry.count++;
      const v = measure.field === undefined ? null : p.attributes[measure.field];
      if (typeof v === 'number') entry.values.push(v);
    }
    const value = (values: number[]): number | null => {
      if (measure.op === 'count') return null;
      if (values.length === 0) return null;
      const sorted = [...values].sort((a, b) => a - b);
      switch (measure.op) {
        case 'sum':
          return values.reduce((a, b) => a + b, 0);
        case 'avg':
          return values.reduce((a, b) => a + b, 0) / values.length;
        case 'min':
          return sorted[0] ?? null;
        case 'max':
          return sorted[sorted.length - 1] ?? null;
        case 'median': {
          const mid = sorted.length >> 1;
          return sorted.length % 2 === 1 ? (sorted[mid] ?? null) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
        }
        default:
          throw new SampleStoreError('invalid_argument', `unknown measure ${String(measure.op)}`);
      }
    };
    // Largest groups first, then by group value, so the order is the same every time.
    return [...groups.values()]
      .map((g) => ({ group: g.group, count: g.count, value: value(g.values), measured: g.values.length }))
      .sort((a, b) => b.count - a.count || compareKeys(String(a.group ?? ''), String(b.group ?? '')));
  }

  searchProperties(search: PropertySearch): { items: PropertySummary[]; total: number } {
    const limit = search.limit ?? 20;
    const offset = search.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new SampleStoreError('invalid_argument', 'limit must be an integer from 1 to 100');
    if (!Number.isInteger(offset) || offset < 0) throw new SampleStoreError('invalid_argument', 'offset must be a whole number');
    if (search.sort && !PROPERTY_FIELDS.has(search.sort.field)) throw new SampleStoreError('unknown_field', `unknown property field ${search.sort.field}`);
    let matches = this.matchProperties(search.areaUid, search.filters ?? []);
    if (search.sort) {
      const { field, direction } = search.sort;
      const sign = direction === 'desc' ? -1 : 1;
      // Values first, missing values last, then entity order: a stable, repeatable order for paging.
      matches = matches.sort((a, b) => {
        const x = a.attributes[field];
        const y = b.attributes[field];
        if (x === null || y === null) return x === y ? a.entityNo - b.entityNo : x === null ? 1 : -1;
        const cmp = typeof x === 'number' && typeof y === 'number' ? x - y : compareKeys(String(x), String(y));
        return cmp * sign || a.entityNo - b.entityNo;
      });
    }
    const items = matches.slice(offset, offset + limit).map((p) => ({
      entity_id: this.entityIdOf(p.entityNo), entity_kind: 'property' as const, area_uid: p.area, status: 'current' as const,
      attributes: p.attributes, source_refs: p.recNos.map((recNo) => this.recordRefOf(recNo)), location: p.location,
    }));
    return { items, total: matches.length };
  }

  // --- sales near a point ----------------------------------------------------------------------

  private sales(): SaleIndex {
    if (this.saleIndex) return this.saleIndex;
    const entries: SaleIndex['entries'] = [];
    for (const [kind, undated] of [['sale', false], ['residential_characteristics', true]] as const) {
      const table = this.kindTable(kind);
      table.rows.forEach((row, i) => {
        const point = pointOf(row);
        if (!point) return;
        const v = this.rowValues(row);
        const price = Number(undated ? v['PRICE'] : v['last_sale_price']);
        const date = undated ? null : typeof v['last_sale_recordation_date'] === 'string' ? v['last_sale_recordation_date'] : null;
        const useCode = undated ? v['USECODE'] : v['use_code'];
        entries.push({
          lat: point.lat, lon: point.lon, recNo: table.recNos[i] ?? 0, row, undated, price, date,
          dateNumber: date === null ? 0 : Number(date.slice(0, 10).replace(/-/g, '')),
          market: undated ? v['QUALIFIED'] === 'Q' : price > 0,
          useCode: typeof useCode === 'string' ? useCode : null,
          useKey: equalityKey(useCode ?? null),
        });
      });
    }
    entries.sort((a, b) => a.lat - b.lat || a.recNo - b.recNo);
    this.saleIndex = { entries };
    return this.saleIndex;
  }

  salesNear(query: SalesNearQuery): SaleNear[] {
    const { lat, lon, radiusMiles } = query;
    if (![lat, lon, radiusMiles].every(Number.isFinite) || radiusMiles <= 0 || radiusMiles > 25) {
      throw new SampleStoreError('invalid_argument', 'lat and lon must be numbers and radiusMiles between 0 and 25');
    }
    const limit = query.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new SampleStoreError('invalid_argument', 'limit must be an integer from 1 to 500');
    const radiusM = radiusMiles * METERS_PER_MILE;
    // Bounding box first (latitude by binary search, then longitude), exact distance after.
    const dLat = radiusM / 111_320;
    const dLon = radiusM / (111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
    const { entries } = this.sales();
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((entries[mid]?.lat ?? 0) < lat - dLat) lo = mid + 1;
      else hi = mid;
    }
    const dated = query.fromDate !== undefined || query.toDate !== undefined;
    const useKeys = query.useCodes ? new Set(query.useCodes.map((c) => equalityKey(c))) : null;
    const hits: number[] = [];
    const distances: number[] = [];
    for (let i = lo; i < entries.length; i++) {
      const e = entries[i];
      if (!e || e.lat > lat + dLat) break;
      if (Math.abs(e.lon - lon) > dLon) continue;
      if (e.undated && (!query.includeUndated || (dated && !query.undatedDespiteDates))) continue;
      if (query.marketOnly && !e.market) continue;
      if (query.minPriceDollars !== undefined && e.price < query.minPriceDollars) continue;
      if (query.maxPriceDollars !== undefined && e.price > query.maxPriceDollars) continue;
      // An undated sale still here was asked for despite the dates: the window cannot hold or exclude it.
      if (query.fromDate !== undefined && !e.undated && (e.date === null || e.date < query.fromDate)) continue;
      if (query.toDate !== undefined && !e.undated && (e.date === null || e.date.slice(0, 10) > query.toDate)) continue;
      if (useKeys && !useKeys.has(e.useKey)) continue;
      const distance = distanceMeters(lat, lon, e.lat, e.lon);
      if (distance > radiusM) continue;
      hits.push(i);
      distances.push(distance);
    }
    // Nearest first; at one distance (OTR sales share their square's centroid) the latest sale first.
    // A native sort of packed (centimetres, index) keys finds the nearest; only the page, widened to
    // its whole last tie group, is ordered with the full comparator.
    const packed = new Float64Array(hits.length);
    const slot = 1 << 20; // more than the sample's sales; 40 km in centimetres times this stays below 2^53
    for (let k = 0; k < hits.length; k++) packed[k] = Math.round((distances[k] ?? 0) * 100) * slot + k;
    packed.sort();
    let window = Math.min(limit, packed.length);
    const cutoff = Math.floor((packed[window - 1] ?? 0) / slot);
    while (window < packed.length && Math.floor((packed[window] ?? 0) / slot) === cutoff) window++;
    const order = Array.from(packed.subarray(0, window), (key) => key % slot);
    order.sort((a, b) => {
      const ea = entries[hits[a] ?? 0];
      const eb = entries[hits[b] ?? 0];
      return Math.round((distances[a] ?? 0) * 100) - Math.round((distances[b] ?? 0) * 100) || (eb?.dateNumber ?? 0) - (ea?.dateNumber ?? 0) || (ea?.recNo ?? 0) - (eb?.recNo ?? 0);
    });
    return order.slice(0, limit).map((k) => {
      const e = entries[hits[k] ?? 0];
      if (!e) throw new Error('sale index out of range');
      const source = this.sourceOfRec(e.recNo);
      const ref = this.recordRefOf(e.recNo);
      return {
        record_ref: ref,
        source_id: source.source.source_id,
        kind: source.source.kind,
        property_id: e.undated ? null : (e.row.q.map((no) => this.entityIdOf(no)).find((id) => id.startsWith('prop_')) ?? null),
        sale_date: e.date,
        price_dollars: e.price,
        market_sale: e.market,
        use_code: e.useCode,
        address: e.undated ? null : typeof cellOf(e.row, 'address') === 'string' ? String(cellOf(e.row, 'address')) : null,
        location: { lat: e.lat, lon: e.lon, precision: source.source.location_precision },
        distance_miles: (distances[k] ?? 0) / METERS_PER_MILE,
        citation: { ...source.citation, record_ref: ref },
      };
    });
  }

  // --- facts -----------------------------------------------------------------------------------

  // --- derived columns ---------------------------------------------------------------------------

  private squarePoints: Map<string, number> | null = null;
  private addressPoints: Map<string, number> | null = null;

  /** The DC GIS square point record of a tax square, by square and suffix. */
  private squarePointRec(square: CellValue, suffix: CellValue): number | null {
    if (!this.squarePoints) {
      const map = new Map<string, number>();
      const table = this.kindTable('tax_square');
      table.rows.forEach((row, i) => map.set(`${String(cellOf(row, 'square') ?? '')}|${String(cellOf(row, 'suffix') ?? '')}`, table.recNos[i] ?? 0));
      this.squarePoints = map;
    }
    return this.squarePoints.get(`${String(square ?? '')}|${String(suffix ?? '')}`) ?? null;
  }

  /** The Alexandria address point record with this objectid. */
  private addressPointRec(objectId: CellValue): number | null {
    if (!this.addressPoints) {
      const map = new Map<string, number>();
      const table = this.kindTable('address');
      table.rows.forEach((row, i) => map.set(String(cellOf(row, 'objectid')), table.recNos[i] ?? 0));
      this.addressPoints = map;
    }
    return objectId === null ? null : (this.addressPoints.get(String(objectId)) ?? null);
  }

  /**
   * The columns of a row its publisher did not print (shared/data's build_sample.py added them, and
   * their field descriptions say so): each with the record it came from and how, so no answer cites
   * them as the publisher's.
   */
  private derivedColumnsOf(row: DecodedRow, recNo: number): Record<string, DerivedColumn> {
    const out: Record<string, DerivedColumn> = {};
    const self = () => ({ derived_from: this.recordRefOf(recNo), citation: this.citation(recNo) });
    const from = (rec: number | null) => (rec === null ? self() : { derived_from: this.recordRefOf(rec), citation: this.citation(rec) });
    if (row.dataset === DATASET_IDS.otr) {
      if (cellOf(row, 'square_lat') !== null || cellOf(row, 'square_lon') !== null) {
        const square = cellOf(row, 'square');
        const suffix = cellOf(row, 'suffix');
        const point = from(this.squarePointRec(square, suffix));
        const note = `The centroid of tax square ${String(square)}${suffix === null ? '' : String(suffix)} (DC GIS Square Points), not a point of this lot: approximate, a median of about 100 m from the lot. OTR publishes no coordinates.`;
        for (const column of ['square_lat', 'square_lon']) {
          if (cellOf(row, column) !== null) out[column] = { status: 'derived', method: 'tax_square_centroid', ...point, note };
        }
      }
      const published = cellOf(row, 'ssl_as_published');
      if (cellOf(row, 'ssl') !== null && cellOf(row, 'ssl') !== published) {
        out['ssl'] = { status: 'derived', method: 'canonical_ssl', ...self(), note: `The canonical form of the SSL OTR published as "${String(published)}".` };
      }
    } else if (row.dataset === DATASET_IDS.permits) {
      const canonical = cellOf(row, 'SSL_CANONICAL');
      if (canonical !== null && canonical !== cellOf(row, 'SSL')) {
        out['SSL_CANONICAL'] = { status: 'derived', method: 'canonical_ssl', ...self(), note: `The canonical form of the SSL the permit gives as "${String(cellOf(row, 'SSL'))}".` };
      }
    } else if (row.dataset === DATASET_IDS.vaParcels) {
      const objectId = cellOf(row, 'address_point_objectid');
      const point = from(this.addressPointRec(objectId));
      const note = `From the City of Alexandria address point ${String(objectId)} matched to this parcel by exact address; the parcel layer does not publish it.`;
      for (const column of ['zip', 'lat', 'lon', 'address_point_objectid']) {
        if (cellOf(row, column) !== null) out[column] = { status: 'derived', method: 'address_point_match', ...point, note };
      }
    }
    return out;
  }

  derivedColumns(recordRef: string): Record<string, DerivedColumn> {
    const recNo = this.recNoOfRef(recordRef);
    if (recNo === null) return {};
    return this.derivedColumnsOf(this.row(this.recordRows()[recNo] ?? 0), recNo);
  }

  // --- facts -----------------------------------------------------------------------------------

  private collectFacts(e: EntityRow, recNos: number[]): Fact[] {
    const facts: Fact[] = [];
    const addressOnly = e.prefix === 'addr';
    for (const recNo of recNos) {
      const source = this.sourceOfRec(recNo);
      const specs = FACT_SPECS[source.source.source_id];
      if (!specs) continue;
      const row = this.row(this.recordRows()[recNo] ?? 0);
      let citation: Citation | null = null;
      const cite = () => (citation ??= this.citation(recNo));
      let derived: Record<string, DerivedColumn> | null = null;
      for (const spec of specs) {
        if (addressOnly && !ADDRESS_FACT_FIELDS.has(spec.field)) continue;
        const value = cellOf(row, spec.column);
        if (value === null || value === undefined) continue;
        const synthetic = source.source.synthetic;
        derived ??= synthetic ? {} : this.derivedColumnsOf(row, recNo);
        const made = derived[spec.column];
        if (made) {
          // Cited to the record it came from, never as this publisher's column.
          facts.push({
            field: spec.field, value, source_field: spec.column, citation: made.citation, status: 'derived', synthetic: false,
            method: made.method, derived_from: made.derived_from, note: made.note,
          });
          continue;
        }
        facts.push({
          field: spec.field,
          value,
          source_field: spec.column,
          citation: cite(),
          status: synthetic ? 'synthetic' : 'reported',
          synthetic,
          method: synthetic ? String(cellOf(row, 'method')) : 'as_published',
          derived_from: synthetic ? String(cellOf(row, 'cama_record_ref')) : null,
          note: synthetic
            ? `Synthetic: copied from DC CAMA record ${String(cellOf(row, 'cama_record_ref'))}, ${String(cellOf(row, 'distance_m'))} m from this lot's square centroid; not a record of this lot`
            : spec.field === 'last_sale_price_dollars' && value === 0 ? OTR_NON_MARKET_NOTE : null,
        });
      }
      if (source.source.source_id === 'dc_otr_assessment' && !addressOnly) {
        // The roll is for tax year 2016: the column name says so, and that is the fact's source.
        facts.push({
          field: 'assessment_year', value: 2016, source_field: 'assessment_2016', citation: cite(), status: 'reported', synthetic: false,
          method: 'column_name', derived_from: null, note: null,
        });
      }
    }
    // A derived value the record it came from also states as published is that record's fact, once.
    const published = new Set(facts.filter((f) => f.status === 'reported').map((f) => `${f.field}|${f.citation.record_ref}|${equalityKey(f.value)}`));
    const kept = facts.filter((f) => f.status !== 'derived' || !published.has(`${f.field}|${f.citation.record_ref}|${equalityKey(f.value)}`));
    return addressOnly ? this.buildingAddressFacts(e, kept) : kept;
  }

  /**
   * An address entity is a premise: its address is a published address of that premise (`304 ADAMS
   * AV` for 304 ADAMS AVE), or, where the publishers print only unit addresses (a DC condominium:
   * `1711 MASSACHUSETTS AVE NW Unit: 1A`), the premise derived from them, marked so. Unit addresses
   * are the units' facts, not the building's.
   */
  private buildingAddressFacts(e: EntityRow, facts: Fact[]): Fact[] {
    const premise = this.identifiersOf(e).find((i) => i.scheme === 'address')?.value;
    if (premise === undefined) return facts;
    const isAddress = (f: Fact) => f.field === 'address';
    const own = facts.filter((f) => isAddress(f) && normaliseAddress(String(f.value))?.full === premise);
    const units = facts.filter((f) => isAddress(f) && normaliseAddress(String(f.value))?.premise === premise && normaliseAddress(String(f.value))?.unit !== null);
    const others = facts.filter((f) => !isAddress(f));
    if (own.length > 0) return [...own, ...others];
    const example = units[0];
    if (example === undefined) return others;
    return [
      {
        field: 'address', value: premise, source_field: example.source_field, citation: example.citation, status: 'derived', synthetic: false,
        method: 'premise_of_unit_addresses', derived_from: example.citation.record_ref,
        note: `The building address, derived by the service from the ${units.length === 1 ? 'unit address' : `${units.length} unit addresses`} ${example.citation.publisher} published (e.g. "${String(example.value)}"); it publishes no address for the building itself.`,
      },
      ...others,
    ];
  }

  private identifiersOf(e: EntityRow): EntityIdentifier[] {
    return (this.statements.identifiers.all(e.entity_no) as Array<{ scheme: number; value: string }>).map((i) => ({
      scheme: IDENTIFIER_SCHEMES[i.scheme - 1] ?? 'address',
      value: i.value,
    }));
  }

  identifierProvenance(entityId: string): IdentifierProvenance[] | null {
    const e = this.entityRow(entityId);
    if (!e) return null;
    const recNos = this.recordNosAbout(e);
    const facts = this.collectFacts(e, recNos);
    const defining = recNos[0];
    const key = (v: unknown) => equalityKey(v);
    // Records about the entity holding `value` in `column`, as published (MAR ids on permits, address point ids).
    const publishedIn = (column: string, value: string): number | undefined =>
      recNos.find((recNo) => {
        const row = this.row(this.recordRows()[recNo] ?? 0);
        return key(cellOf(row, column)) === key(value) && !(column in this.derivedColumnsOf(row, recNo));
      });
    return this.identifiersOf(e).map((identifier): IdentifierProvenance => {
      const { scheme, value } = identifier;
      const reported = (recNo: number): IdentifierProvenance => ({
        scheme, value, status: 'reported', method: 'as_published', record_ref: this.recordRefOf(recNo), citation: this.citation(recNo), note: null,
      });
      const derived = (fact: Fact, method: string, note: string): IdentifierProvenance => ({
        scheme, value, status: 'derived', method, record_ref: fact.citation.record_ref, citation: fact.citation, note,
      });
      const sameFact = facts.find((f) => f.field === scheme && key(f.value) === key(value));
      if (sameFact?.status === 'reported') {
        return { scheme, value, status: 'reported', method: 'as_published', record_ref: sameFact.citation.record_ref, citation: sameFact.citation, note: null };
      }
      if (sameFact?.status === 'derived') return derived(sameFact, sameFact.method, sameFact.note ?? '');
      if (scheme === 'address' || scheme === 'unit_designator') {
        const addresses = facts.filter((f) => f.field === 'address' && f.status === 'reported');
        const read = (f: Fact) => normaliseAddress(String(f.value));
        const by = (f: Fact) => `${f.citation.publisher} (${f.citation.dataset})`;
        if (scheme === 'unit_designator') {
          const unit = addresses.find((f) => read(f)?.unit === value);
          if (unit) return derived(unit, 'unit_of_address', `The unit of the address "${String(unit.value)}" as ${by(unit)} published it, without its label and leading zeros.`);
        } else {
          const whole = addresses.find((f) => read(f)?.full === value);
          if (whole) return derived(whole, 'address_normalised', `Normalised by the service from "${String(whole.value)}" as ${by(whole)} published it (USPS street type, upper case, single spaces).`);
          const unit = addresses.find((f) => read(f)?.premise === value);
          if (unit) {
            return derived(unit, 'premise_of_unit_addresses', `The building address, derived by the service from the unit address "${String(unit.value)}" as ${by(unit)} published it.`);
          }
        }
      }
      const column = { ssl_as_published: 'ssl_as_published', mar_id: 'MARADDRESSREPOSITORYID', address_point_objectid: 'objectid', account_no: 'account_no', ssl: 'ssl' }[scheme as string];
      const holder = column === undefined ? undefined : publishedIn(column, value);
      if (holder !== undefined) return reported(holder);
      const ssl = scheme === 'ssl' ? facts.find((f) => f.field === 'ssl') : undefined;
      if (ssl) return derived(ssl, 'canonical_ssl', `The canonical form of the SSL ${ssl.citation.publisher} published as "${String(ssl.value)}".`);
      return reported(defining ?? 0);
    });
  }

  factsFor(entityId: string): EntityFacts | null {
    const e = this.entityRow(entityId);
    if (!e) return null;
    const prefix = e.prefix as EntityPrefix;
    const area = (AREA_CODES[e.area - 1] ?? AREA_DC) as AreaUid;
    const recNos = this.recordNosAbout(e);
    const facts = this.collectFacts(e, recNos);
    const permits: PermitFact[] = [];
    const permitLinks = new Map<number, { method: LinkMethod; confidence: number }>();
    for (const edge of this.statements.edgesOut.all(e.entity_no) as unknown as EdgeRow[]) {
      if (edge.object < 0 && PREDICATES[edge.predicate - 1] === 'permitted_by') {
        permitLinks.set(-edge.object, { method: LINK_METHODS[edge.method - 1] ?? 'same_row', confidence: edge.confidence });
      }
    }
    for (const recNo of recNos) {
      if (this.sourceOfRec(recNo).source.kind !== 'permit') continue;
      if (!permitLinks.has(recNo)) permitLinks.set(recNo, { method: 'same_row', confidence: 1 });
    }
    for (const [recNo, link] of [...permitLinks].sort((a, b) => a[0] - b[0])) {
      const record = this.buildRecord(recNo);
      const v = record.data;
      const text = (x: CellValue | undefined) => (x === null || x === undefined ? null : String(x));
      permits.push({
        record_ref: record.record_ref, permit_id: text(v['PERMIT_ID']), record_type: text(v['PERMIT_SUBTYPE_NAME']),
        status: text(v['APPLICATION_STATUS_NAME']), issue_date: text(v['ISSUE_DATE']), description: text(v['DESC_OF_WORK']),
        address: text(v['FULL_ADDRESS']), method: link.method, confidence: link.confidence, citation: record.citation,
        limitations: record.limitations,
      });
    }
    const limitations: string[] = [];
    const has = (field: FactField) => facts.some((f) => f.field === field);
    const hasReal = (field: FactField) => facts.some((f) => f.field === field && !f.synthetic);
    if (prefix !== 'addr') {
      if (area === AREA_ALEXANDRIA) {
        limitations.push('No assessed values, sales, owners or building characteristics for Alexandria in the sample (the parcel layer has account, address, land use and zoning only).');
      } else {
        if (BUILDING_FACT_FIELDS.some((f) => has(f))) {
          limitations.push('Building characteristics are synthetic (plat_synthetic_characteristics): copied from a nearby DC CAMA residential record of the same use code, not a record of this lot. The OTR roll publishes none.');
        } else {
          limitations.push(prefix === 'unit'
            ? 'No building characteristics for condominium units in the sample: the OTR roll has none and the CAMA extract holds no condominiums.'
            : 'No building characteristics in the sample for this lot: the OTR roll has none, and no CAMA record of its use code lies within 1 km.');
        }
        if (!hasReal('assessed_value_dollars') && prefix !== 'parc') limitations.push('No tax year 2016 assessed value on the OTR roll for this lot.');
        if (!hasReal('last_sale_date')) limitations.push('No recorded sale on the OTR roll for this lot.');
        limitations.push('Tax bills, balances and land area are not in the sample.');
      }
    }
    const location = this.entityLocation(e);
    if (location?.precision === 'square_centroid') {
      limitations.push('Location is the centroid of the tax square (approximate: a median of about 100 m from the lot).');
    }
    return { entity_id: entityId, entity_kind: ENTITY_PREFIX_KIND[prefix], area_uid: area, facts, permits, location, limitations };
  }
}

const PROPERTY_FIELDS = new Set<string>([
  'address', 'owner_name', 'ssl', 'account_no', 'use_code', 'land_use', 'zoning', 'neighborhood', 'sub_neighborhood', 'homestead',
  'assessed_value_dollars', 'last_sale_price_dollars', 'last_sale_date', 'lat', 'lon', 'imputed_year_built', 'imputed_bedrooms',
  'imputed_full_bathrooms', 'imputed_gross_building_area_sqft', 'imputed_land_area_sqft',
]);

function entityList(held: number | number[] | undefined): readonly number[] {
  return held === undefined ? [] : typeof held === 'number' ? [held] : held;
}

/** `0123...` (32 hex digits, any case) as a lowercase 8-4-4-4-12 uuid. */
function dashedUuid(hex: string): string {
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** First index whose value is greater than `value`. */
function upperBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function explain(predicate: Predicate, method: LinkMethod, basis: string | null, source: SampleSource | undefined): string {
  const from = source ? `${source.publisher}, ${source.dataset}` : 'the sample';
  switch (method) {
    case 'same_row':
      return `One ${from} record names both (${predicate.replace('_', ' ')}).`;
    case 'ssl_match':
      return `Both carry the same SSL in ${from} (${predicate.replace('_', ' ')}).`;
    case 'address_match':
      return `The permit's address equals the property's after normalisation (${basis ?? ''}); the permit names no SSL, so the link is likely, not certain.`;
    case 'owner_name_match':
      return `Both tax accounts' owners read "${basis ?? ''}" after normalisation in ${from}. Same-name owners can be different people: a lead, not a fact.`;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
