// The store's public face: what operation authors program against (SampleStore) and every shape it
// hands out. The implementation is store.ts over one module per topic.
import type {
  AreaUid,
  EntityKind,
  IdentifierScheme,
  LinkMethod,
  LocationPrecision,
  NormalisedAddress,
  Predicate,
  EntityPrefix,
} from '../sample-keys.ts';

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

/**
 * A property as the store keeps it for searches: shared by every caller, never copied. Its numbers
 * mean something only to the store: propertyRefs formats its ids from them.
 */
export interface StoredProperty {
  readonly entityNo: number;
  readonly area: AreaUid;
  readonly attributes: Readonly<Record<PropertyField, CellValue>>;
  /** Records the attributes came from (the synthetic record last, when there is one). */
  readonly recNos: readonly number[];
  readonly location: PointLocation | null;
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
  /** An area's properties in entity order, as the store keeps them: what searchProperties pages through, without ids formatted. */
  propertiesIn(areaUid: string): readonly StoredProperty[];
  /** A stored property's entity id and the refs of the records its attributes came from (searchProperties' entity_id and source_refs). */
  propertyRefs(property: StoredProperty): { entityRef: string; sourceRefs: string[] };
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
  /** Builds every lazy index now (1 to 3 s, about 55 MB), so no first query pays for one. Call once at service start. */
  warm(): void;
  close(): void;
}
