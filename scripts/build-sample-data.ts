// Builds the embedded service's sample database (assets/sample-data/sample.db) and its manifest
// from the real public-record files in ../shared/data. Run with `npm run sample-data` (optionally
// `--from DIR`, `--out DIR`). Deterministic: the same input files give the same rows, the same ids
// and the same row numbers, because every id is a name-based UUID over a source key and every
// number follows input order. See docs/service-notes.md, "Sample data", for the model.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { parse } from 'csv-parse/sync';
import {
  AREA_ALEXANDRIA,
  AREA_CODES,
  AREA_DC,
  DATASET_IDS,
  IDENTIFIER_SCHEMES,
  LINK_METHODS,
  PRECISION_CODES,
  PREDICATES,
  SAMPLE_ID_NAMESPACE,
  SAMPLE_SCHEMA_VERSION,
  distanceMeters,
  isCondoUnitSsl,
  isPlaceholderSsl,
  normaliseAddress,
  normaliseOwnerName,
  parseSsl,
  permitSslKey,
  rowPoint,
  uuidToBytes,
  uuidV5,
} from '../electron/local-service/sample-keys.ts';
import type {
  AreaUid,
  EntityPrefix,
  IdentifierScheme,
  LinkMethod,
  LocationPrecision,
  ParsedSsl,
  Predicate,
} from '../electron/local-service/sample-keys.ts';

// ---------------------------------------------------------------------------------------------
// Ids (uuidV5 and the namespace live in sample-keys.ts, which the store shares).

/** `<prefix>_<uuid>` for an entity key such as `parcel:dc:ssl:0150    0295`. */
export function entityId(prefix: EntityPrefix, key: string): string {
  return `${prefix}_${uuidV5(key, SAMPLE_ID_NAMESPACE)}`;
}

/** `rec_<uuid>` for one record of a source: the source id and the row's own key. */
export function recordRef(sourceId: string, rowKey: string): string {
  return `rec_${uuidV5(`record:${sourceId}:${rowKey}`, SAMPLE_ID_NAMESPACE)}`;
}

/** Entity keys: one per kind, area and the source key that identifies the thing. */
export const entityKeys = {
  dcProperty: (sslAsPublished: string) => `property:dc:otr:${sslAsPublished}`,
  dcParcel: (ssl: ParsedSsl) => `parcel:dc:ssl:${ssl.canonical}`,
  dcUnit: (ssl: ParsedSsl) => `unit:dc:ssl:${ssl.canonical}`,
  dcAccount: (ssl: ParsedSsl) => `tax_account:dc:ssl:${ssl.canonical}`,
  dcAddress: (premise: string) => `address:dc:${premise}`,
  vaProperty: (accountNo: string) => `property:va-alexandria:account_no:${accountNo}`,
  vaParcel: (accountNo: string) => `parcel:va-alexandria:account_no:${accountNo}`,
  vaAccount: (accountNo: string) => `tax_account:va-alexandria:account_no:${accountNo}`,
  vaAddress: (premise: string) => `address:va-alexandria:${premise}`,
};

// ---------------------------------------------------------------------------------------------
// Typed values

export type FieldType = 'string' | 'number' | 'date' | 'boolean';
export type CellValue = string | number | boolean | null;

export interface FieldSpec {
  name: string;
  type: FieldType;
  description: string;
}

/** Converts one CSV cell to its column type; empty (and the R export's `NA`) is null. */
export function typedCell(raw: string | undefined, type: FieldType, where: string): CellValue {
  const s = (raw ?? '').trim();
  if (s === '' || s === 'NA') return null;
  switch (type) {
    case 'number': {
      if (!/^-?\d+(\.\d+)?$/.test(s)) throw new Error(`${where}: "${s}" is not a number`);
      return Number(s);
    }
    case 'boolean':
      if (/^(true|yes|y|1)$/i.test(s)) return true;
      if (/^(false|no|n|0)$/i.test(s)) return false;
      throw new Error(`${where}: "${s}" is not a boolean`);
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(s)) throw new Error(`${where}: "${s}" is not an ISO date`);
      return s;
    default:
      return raw ?? '';
  }
}

// ---------------------------------------------------------------------------------------------
// Datasets: the input files, their columns (the publishers' names) and what each column means.

const f = (name: string, type: FieldType, description: string): FieldSpec => ({ name, type, description });

export interface DatasetSpec {
  id: string;
  file: string;
  fields: FieldSpec[];
}

export const DATASETS = {
  otr: {
    id: DATASET_IDS.otr,
    file: 'dc/otr_real_property_old_city_ii.csv',
    fields: [
      f('ssl', 'string', 'Square-Suffix-Lot in canonical 12-character form (square and suffix padded to 8, then the 4-digit lot); normalised by the sample build from ssl_as_published'),
      f('ssl_as_published', 'string', 'SSL as the OTR page showed it (1,061 rows in the scraper\'s BD + zero-padded form)'),
      f('square', 'string', 'Tax square'),
      f('suffix', 'string', 'Square suffix letter (N, S, E, W); empty when none'),
      f('lot', 'string', 'Lot; 2000 and above are condominium units'),
      f('address', 'string', 'Premise address as OTR printed it (condominium units with "Unit:")'),
      f('owner', 'string', 'Owner name as OTR printed it'),
      f('neighborhood', 'string', 'OTR assessment neighborhood'),
      f('sub_neighborhood', 'string', 'OTR assessment sub-neighborhood (A-G)'),
      f('use_code', 'string', 'OTR property use code (11 single-family row, 16/17 condominium, 24 conversion, ...)'),
      f('last_sale_price', 'number', 'Price of the last sale in whole dollars; 0 means a non-market transfer or no price'),
      f('last_sale_recordation_date', 'date', 'Recordation date of the last sale'),
      f('assessment_2016', 'number', 'Total assessed value for tax year 2016 in whole dollars'),
      f('homestead', 'string', 'Homestead deduction flag read from the OTR detail page: yes, no or unknown'),
      f('square_lat', 'number', 'Latitude of the tax square centroid (DC GIS square points): approximate, not the parcel'),
      f('square_lon', 'number', 'Longitude of the tax square centroid (DC GIS square points): approximate, not the parcel'),
      f('otr_url', 'string', 'The OTR Real Property detail page of this SSL'),
    ],
  },
  permits: {
    id: DATASET_IDS.permits,
    file: 'dc/dcra_new_building_permits_2012_2016.csv',
    fields: [
      f('OBJECTID', 'number', 'GIS object id in the published permit layer'),
      f('DCRAINTERNALNUMBER', 'number', 'DCRA internal permit number'),
      f('ISSUE_DATE', 'date', 'Date the permit was issued'),
      f('PERMIT_ID', 'string', 'Permit number'),
      f('PERMIT_TYPE_NAME', 'string', 'Permit type (CONSTRUCTION)'),
      f('PERMIT_SUBTYPE_NAME', 'string', 'Permit subtype (NEW BUILDING)'),
      f('PERMIT_CATEGORY_NAME', 'string', 'Permit category (empty in this extract)'),
      f('APPLICATION_STATUS_NAME', 'string', 'Application status (PERMIT ISSUED, COMPLETED, ...)'),
      f('FULL_ADDRESS', 'string', 'Premise address of the work'),
      f('DESC_OF_WORK', 'string', 'Description of the work'),
      f('SSL', 'string', 'Square-Suffix-Lot as entered on the permit'),
      f('ZONING', 'string', 'Zoning district'),
      f('PERMIT_APPLICANT', 'string', 'Applicant name'),
      f('FEE_TYPE', 'string', 'Fees charged, by type'),
      f('FEES_PAID', 'number', 'Fees paid in dollars'),
      f('OWNER_NAME', 'string', 'Owner named on the permit'),
      f('LASTMODIFIEDDATE', 'date', 'Time the permit record was last modified'),
      f('CITY', 'string', 'City'),
      f('STATE', 'string', 'State'),
      f('LATITUDE', 'number', 'Latitude of the permit address (0 when the publisher had no point)'),
      f('LONGITUDE', 'number', 'Longitude of the permit address (0 when the publisher had no point)'),
      f('XCOORD', 'number', 'X coordinate, Maryland State Plane (metres)'),
      f('YCOORD', 'number', 'Y coordinate, Maryland State Plane (metres)'),
      f('ZIPCODE', 'string', 'ZIP code'),
      f('MARADDRESSREPOSITORYID', 'number', 'DC Master Address Repository (MAR) address id; -100 and 0 mean none'),
      f('DCSTATADDRESSKEY', 'number', 'DC address key'),
      f('DCSTATLOCATIONKEY', 'number', 'DC location key'),
      f('WARD', 'string', 'Ward'),
      f('ANC', 'string', 'Advisory Neighborhood Commission'),
      f('SMD', 'string', 'Single Member District'),
      f('DISTRICT', 'string', 'Police district'),
      f('PSA', 'string', 'Police Service Area'),
      f('NEIGHBORHOODCLUSTER', 'string', 'Neighborhood cluster'),
      f('HOTSPOT2006NAME', 'string', 'Crime hot spot, 2006'),
      f('HOTSPOT2005NAME', 'string', 'Crime hot spot, 2005'),
      f('HOTSPOT2004NAME', 'string', 'Crime hot spot, 2004'),
      f('BUSINESSIMPROVEMENTDISTRICT', 'string', 'Business improvement district'),
      f('YEAR', 'number', 'Permit layer year'),
      f('SSL_CANONICAL', 'string', 'SSL in canonical 12-character form, added by the sample build where SSL parses'),
    ],
  },
  cama: {
    id: DATASET_IDS.cama,
    file: 'dc/cama_residential_sample.csv',
    fields: [
      f('index', 'number', 'Row index column of the cleaned extract (empty throughout)'),
      f('BATHRM', 'number', 'Full bathrooms'),
      f('HF_BATHRM', 'number', 'Half bathrooms'),
      f('HEAT', 'string', 'Heating type'),
      f('AC', 'string', 'Central air conditioning (Y/N)'),
      f('NUM_UNITS', 'number', 'Dwelling units'),
      f('ROOMS', 'number', 'Rooms'),
      f('BEDRM', 'number', 'Bedrooms'),
      f('AYB', 'number', 'Actual year built'),
      f('YR_RMDL', 'number', 'Year remodeled (one bad value, 2104, kept as published)'),
      f('STORIES', 'number', 'Stories'),
      f('PRICE', 'number', 'Sale price in dollars (no sale date in this extract)'),
      f('QUALIFIED', 'string', 'Sale qualification: Q qualified (arm\'s length), U unqualified'),
      f('SALE_NUM', 'number', 'Sale number of the parcel'),
      f('GBA', 'number', 'Gross building area in square feet'),
      f('STYLE_D', 'string', 'Style'),
      f('STRUCT_D', 'string', 'Structure'),
      f('GRADE', 'string', 'Construction grade'),
      f('CNDTN', 'string', 'Condition'),
      f('EXTWALL', 'string', 'Exterior wall'),
      f('ROOF', 'string', 'Roof'),
      f('INTWALL', 'string', 'Interior wall'),
      f('KITCHENS', 'number', 'Kitchens'),
      f('FIREPLACES', 'number', 'Fireplaces'),
      f('USECODE', 'string', 'OTR property use code'),
      f('LANDAREA', 'number', 'Land area in square feet'),
      f('ZIPCODE', 'string', 'ZIP code'),
      f('LATITUDE', 'number', 'Latitude of the property'),
      f('LONGITUDE', 'number', 'Longitude of the property'),
      f('CENSUS_TRACT', 'string', 'Census tract'),
      f('WARD', 'string', 'Ward'),
    ],
  },
  squares: {
    id: DATASET_IDS.squares,
    file: 'dc/geo/dc_square_centroids.csv',
    fields: [
      f('square', 'string', 'Tax square'),
      f('suffix', 'string', 'Square suffix; empty when none'),
      f('lat', 'number', 'Latitude of the square point'),
      f('lon', 'number', 'Longitude of the square point'),
    ],
  },
  vaParcels: {
    id: DATASET_IDS.vaParcels,
    file: 'va/alexandria_delray_parcels.csv',
    fields: [
      f('account_no', 'string', 'Real estate account number (realestate.alexandriava.gov)'),
      f('address', 'string', 'Parcel address'),
      f('land_use', 'string', 'Land use description (LANDDESC)'),
      f('zoning', 'string', 'Zoning'),
      f('zip', 'string', 'ZIP code from the matched address point'),
      f('lat', 'number', 'Latitude of the matched address point'),
      f('lon', 'number', 'Longitude of the matched address point'),
      f('address_point_objectid', 'number', 'objectid of the address point matched by exact address'),
    ],
  },
  vaPoints: {
    id: DATASET_IDS.vaPoints,
    file: 'va/alexandria_address_points_22301_22305.csv',
    fields: [
      f('objectid', 'number', 'Address point object id'),
      f('full_address', 'string', 'Full address'),
      f('st_prefix', 'string', 'Street direction prefix'),
      f('st_name', 'string', 'Street name'),
      f('st_type', 'string', 'Street type'),
      f('st_num', 'string', 'House number'),
      f('st_alpha', 'string', 'House number suffix (letter or 1/2)'),
      f('add_type', 'string', 'Address point type code'),
      f('zip', 'string', 'ZIP code'),
      f('lat', 'number', 'Latitude'),
      f('lon', 'number', 'Longitude'),
    ],
  },
  synthetic: {
    id: DATASET_IDS.synthetic,
    file: '',
    fields: [
      f('ssl', 'string', 'SSL of the OTR record lot the characteristics are imputed for'),
      f('use_code', 'string', 'OTR use code of that lot (matched to the CAMA USECODE)'),
      f('method', 'string', 'Imputation method (nearest_cama_same_usecode)'),
      f('cama_record_ref', 'string', 'record_ref of the real CAMA record the values were copied from'),
      f('distance_m', 'number', 'Metres from the lot\'s square centroid to that CAMA record'),
      f('rank_in_square', 'number', 'Rank of this lot among same-use lots of its square; the n-th lot takes the n-th nearest CAMA record'),
      f('square_lat', 'number', 'Latitude of the lot\'s square centroid (approximate)'),
      f('square_lon', 'number', 'Longitude of the lot\'s square centroid (approximate)'),
      f('BATHRM', 'number', 'Full bathrooms (copied from the CAMA record)'),
      f('HF_BATHRM', 'number', 'Half bathrooms (copied)'),
      f('ROOMS', 'number', 'Rooms (copied)'),
      f('BEDRM', 'number', 'Bedrooms (copied)'),
      f('AYB', 'number', 'Actual year built (copied)'),
      f('YR_RMDL', 'number', 'Year remodeled (copied)'),
      f('STORIES', 'number', 'Stories (copied)'),
      f('GBA', 'number', 'Gross building area, square feet (copied)'),
      f('LANDAREA', 'number', 'Land area, square feet (copied)'),
      f('NUM_UNITS', 'number', 'Dwelling units (copied)'),
      f('KITCHENS', 'number', 'Kitchens (copied)'),
      f('FIREPLACES', 'number', 'Fireplaces (copied)'),
      f('STYLE_D', 'string', 'Style (copied)'),
      f('STRUCT_D', 'string', 'Structure (copied)'),
      f('GRADE', 'string', 'Grade (copied)'),
      f('CNDTN', 'string', 'Condition (copied)'),
      f('HEAT', 'string', 'Heating (copied)'),
      f('AC', 'string', 'Air conditioning (copied)'),
      f('EXTWALL', 'string', 'Exterior wall (copied)'),
      f('ROOF', 'string', 'Roof (copied)'),
      f('INTWALL', 'string', 'Interior wall (copied)'),
    ],
  },
} satisfies Record<string, DatasetSpec>;

/** CAMA columns copied into a synthetic characteristics row. */
const IMPUTED_CAMA_FIELDS = DATASETS.synthetic.fields.map((field) => field.name).filter((name) => /^[A-Z_]+$/.test(name));

/** Imputation looks no further than this from the square centroid. */
const IMPUTATION_MAX_DISTANCE_M = 1000;

// ---------------------------------------------------------------------------------------------
// Sources: one per (dataset, record kind). as_of is the data's own date (see docs/service-notes.md).

export interface SourceSpec {
  source_id: string;
  dataset: DatasetSpec;
  kind: string;
  jurisdiction: '11001' | '51510';
  state: '11' | '51';
  publisher: string;
  dataset_name: string;
  as_of: string;
  official_url: string;
  synthetic: boolean;
  description: string;
  location_precision: LocationPrecision;
}

const OTR_PUBLISHER = 'DC Office of Tax and Revenue';
const OTR_DATASET = 'Real Property Tax Database: assessment neighborhood OLD CITY II (tax year 2016)';
const OTR_URL = 'https://www.taxpayerservicecenter.com/';
const OTR_AS_OF = '2017-02-05';

export const SOURCES: SourceSpec[] = [
  {
    source_id: 'dc_otr_ownership', dataset: DATASETS.otr, kind: 'ownership', jurisdiction: '11001', state: '11',
    publisher: OTR_PUBLISHER, dataset_name: OTR_DATASET, as_of: OTR_AS_OF, official_url: OTR_URL, synthetic: false,
    description: 'Owner of record of every lot and condominium unit in OLD CITY II, one record per OTR row',
    location_precision: 'square_centroid',
  },
  {
    source_id: 'dc_otr_assessment', dataset: DATASETS.otr, kind: 'assessment', jurisdiction: '11001', state: '11',
    publisher: OTR_PUBLISHER, dataset_name: OTR_DATASET, as_of: OTR_AS_OF, official_url: OTR_URL, synthetic: false,
    description: 'Tax year 2016 assessed value: the OTR rows that have one',
    location_precision: 'square_centroid',
  },
  {
    source_id: 'dc_otr_sale', dataset: DATASETS.otr, kind: 'sale', jurisdiction: '11001', state: '11',
    publisher: OTR_PUBLISHER, dataset_name: OTR_DATASET, as_of: OTR_AS_OF, official_url: OTR_URL, synthetic: false,
    description: 'Last recorded sale: the OTR rows with a recordation date (price 0 = non-market or no price)',
    location_precision: 'square_centroid',
  },
  {
    source_id: 'dc_dcra_new_building_permits', dataset: DATASETS.permits, kind: 'permit', jurisdiction: '11001', state: '11',
    publisher: 'DC Department of Consumer and Regulatory Affairs',
    dataset_name: 'Building Permits 2012-2016 (construction, new building)', as_of: '2016-01-22',
    official_url: 'https://opendata.dc.gov/', synthetic: false,
    description: 'New-building construction permits citywide, issued 2012-01-03 to 2016-01-21',
    location_precision: 'permit_point',
  },
  {
    source_id: 'dc_cama_residential', dataset: DATASETS.cama, kind: 'residential_characteristics', jurisdiction: '11001', state: '11',
    publisher: 'DC Office of the Chief Technology Officer (DC GIS)',
    dataset_name: 'Computer Assisted Mass Appraisal - Residential (from OTR\'s CAMA system)', as_of: '2022-11-20',
    official_url: 'https://opendata.dc.gov/', synthetic: false,
    description: 'Residential building characteristics and a sale price citywide; no SSL, no sale date: linked to nothing but coordinates',
    location_precision: 'cama_point',
  },
  {
    source_id: 'dc_gis_square_points', dataset: DATASETS.squares, kind: 'tax_square', jurisdiction: '11001', state: '11',
    publisher: 'DC Office of the Chief Technology Officer (DC GIS)', dataset_name: 'Square Points (active squares)',
    as_of: '2016-08-16', official_url: 'https://opendata.dc.gov/', synthetic: false,
    description: 'One point per active tax square and suffix: the approximate location of every OTR lot',
    location_precision: 'square_centroid',
  },
  {
    source_id: 'va_alexandria_parcels', dataset: DATASETS.vaParcels, kind: 'parcel', jurisdiction: '51510', state: '51',
    publisher: 'City of Alexandria GIS Division', dataset_name: 'Parcels (Del Ray area)', as_of: '2023-11-05',
    official_url: 'https://data-alexgis.opendata.arcgis.com/', synthetic: false,
    description: 'Parcels in Del Ray with real estate account number, land use and zoning; no values or sales',
    location_precision: 'address_point',
  },
  {
    source_id: 'va_alexandria_address_points', dataset: DATASETS.vaPoints, kind: 'address', jurisdiction: '51510', state: '51',
    publisher: 'City of Alexandria GIS Division', dataset_name: 'Address Points (ZIP 22301 and 22305)', as_of: '2022-02-28',
    official_url: 'https://data-alexgis.opendata.arcgis.com/', synthetic: false,
    description: 'Address points with coordinates in ZIP codes 22301 and 22305',
    location_precision: 'address_point',
  },
  {
    source_id: 'plat_synthetic_characteristics', dataset: DATASETS.synthetic, kind: 'imputed_characteristics', jurisdiction: '11001', state: '11',
    publisher: 'Plat synthetic sample (not a public record)',
    dataset_name: 'Building characteristics imputed from the nearest DC CAMA residential record', as_of: '2022-11-20',
    official_url: 'https://opendata.dc.gov/', synthetic: true,
    description: 'SYNTHETIC. The OTR lots have no building characteristics; for residential record lots, Plat copies those of a nearby real CAMA record of the same use code so comparables can be demonstrated. Not a fact about the lot.',
    location_precision: 'square_centroid',
  },
];

// ---------------------------------------------------------------------------------------------
// Build model

interface Row {
  no: number;
  dataset: DatasetSpec;
  /** Row's own key within its dataset, for record refs. */
  key: string;
  values: Record<string, CellValue>;
  q: Set<number>;
}

interface RecordDraft {
  no: number;
  ref: string;
  source: SourceSpec;
  row: Row;
  lat: number | null;
  lon: number | null;
}

interface EntityDraft {
  no: number;
  id: string;
  prefix: EntityPrefix;
  area: AreaUid;
  primaryRow: Row;
  precision: LocationPrecision | null;
  locationRec: RecordDraft | null;
  identifiers: Array<{ scheme: IdentifierScheme; value: string }>;
  identifierKeys: Set<string>;
  validFrom: string;
}

interface EdgeDraft {
  subject: EntityDraft;
  predicate: Predicate;
  object: EntityDraft | RecordDraft;
  method: LinkMethod;
  confidence: number;
  sources: Set<RecordDraft>;
  basis: string | null;
}

const code = <T>(list: readonly T[], value: T): number => {
  const index = list.indexOf(value);
  if (index < 0) throw new Error(`no code for ${String(value)}`);
  return index + 1;
};
const dateNumber = (isoDate: string): number => Number(isoDate.slice(0, 10).replace(/-/g, ''));

export interface BuildReport {
  dbPath: string;
  manifestPath: string;
  dbBytes: number;
  tables: Record<string, number>;
  recordsBySource: Record<string, number>;
  entitiesByKind: Record<string, number>;
  edgesByPredicate: Record<string, number>;
  ms: number;
}

function readCsv(file: string): { header: string[]; rows: string[][] } {
  const rows = parse(readFileSync(file, 'utf8'), { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  const header = rows.shift();
  if (!header) throw new Error(`${file}: empty`);
  return { header, rows };
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Builds the sample database from `fromDir` into `outDir` (sample.db + manifest.json). */
export function buildSampleData(options: { fromDir: string; outDir: string }): BuildReport {
  const started = performance.now();
  const { fromDir, outDir } = options;

  // --- read inputs -----------------------------------------------------------------------
  const inputs: Array<{ path: string; sha256: string; bytes: number }> = [];
  const rowsByDataset = new Map<string, Row[]>();
  let rowNo = 0;
  const loadDataset = (dataset: DatasetSpec, keyOf: (values: Record<string, CellValue>, index: number) => string): Row[] => {
    const file = path.join(fromDir, dataset.file);
    if (!existsSync(file)) throw new Error(`missing input ${file}`);
    inputs.push({ path: dataset.file, sha256: sha256(file), bytes: statSync(file).size });
    const { header, rows } = readCsv(file);
    const expected = dataset.fields.map((field) => field.name);
    if (header.join(',') !== expected.join(',')) {
      throw new Error(`${dataset.file}: columns ${header.join(',')} differ from the expected ${expected.join(',')}`);
    }
    const seen = new Map<string, number>();
    const out = rows.map((cells, index) => {
      const values: Record<string, CellValue> = {};
      dataset.fields.forEach((field, i) => {
        values[field.name] = typedCell(cells[i], field.type, `${dataset.file} row ${index + 2} ${field.name}`);
      });
      // Keys repeat only for rows published twice (Alexandria); the occurrence keeps each apart.
      const base = keyOf(values, index);
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      return { no: ++rowNo, dataset, key: count === 1 ? base : `${base}#${count}`, values, q: new Set<number>() };
    });
    rowsByDataset.set(dataset.id, out);
    return out;
  };
  const str = (v: CellValue | undefined): string => (v === null || v === undefined ? '' : String(v));
  const num = (v: CellValue | undefined): number | null => (typeof v === 'number' ? v : null);

  const otrRows = loadDataset(DATASETS.otr, (v) => str(v['ssl_as_published']));
  const permitRows = loadDataset(DATASETS.permits, (v) => str(v['OBJECTID']));
  const camaRows = loadDataset(DATASETS.cama, (_v, index) => `row:${index + 1}`);
  const squareRows = loadDataset(DATASETS.squares, (v) => `${str(v['square'])}${str(v['suffix'])}`);
  const vaParcelRows = loadDataset(DATASETS.vaParcels, (v) => str(v['account_no']));
  const vaPointRows = loadDataset(DATASETS.vaPoints, (v) => str(v['objectid']));
  const syntheticRows: Row[] = [];
  rowsByDataset.set(DATASETS.synthetic.id, syntheticRows);

  // --- synthetic characteristics (computed before records so the rows get record numbers) --
  const squarePoint = new Map<string, { lat: number; lon: number; row: Row }>();
  for (const row of squareRows) {
    const lat = num(row.values['lat']);
    const lon = num(row.values['lon']);
    if (lat !== null && lon !== null) squarePoint.set(`${str(row.values['square'])}${str(row.values['suffix'])}`, { lat, lon, row });
  }
  const camaByUse = new Map<string, Array<{ row: Row; index: number; lat: number; lon: number }>>();
  camaRows.forEach((row, index) => {
    const lat = num(row.values['LATITUDE']);
    const lon = num(row.values['LONGITUDE']);
    const use = str(row.values['USECODE']);
    if (lat === null || lon === null || use === '') return;
    let list = camaByUse.get(use);
    if (!list) camaByUse.set(use, (list = []));
    list.push({ row, index, lat, lon });
  });
  // One imputation per record lot (canonical SSL), from the row OTR publishes in canonical form.
  const lotRowBySsl = new Map<string, Row>();
  for (const row of otrRows) {
    const ssl = parseSsl(str(row.values['ssl']));
    if (!ssl || ssl.form !== 'square' || isCondoUnitSsl(ssl)) continue;
    const existing = lotRowBySsl.get(ssl.canonical);
    const canonicalForm = !str(row.values['ssl_as_published']).startsWith('BD');
    if (!existing || (canonicalForm && str(existing.values['ssl_as_published']).startsWith('BD'))) lotRowBySsl.set(ssl.canonical, row);
  }
  const imputationGroups = new Map<string, Array<{ ssl: string; row: Row }>>();
  for (const [ssl, row] of lotRowBySsl) {
    const use = str(row.values['use_code']);
    if (!camaByUse.has(use) || num(row.values['square_lat']) === null) continue;
    const group = `${str(row.values['square'])}${str(row.values['suffix'])}|${use}`;
    let list = imputationGroups.get(group);
    if (!list) imputationGroups.set(group, (list = []));
    list.push({ ssl, row });
  }
  const camaRecordRef = (row: Row) => recordRef('dc_cama_residential', row.key);
  const imputedFor = new Map<Row, { ssl: string }>();
  for (const group of [...imputationGroups.keys()].sort()) {
    const members = (imputationGroups.get(group) ?? []).sort((a, b) => (a.ssl < b.ssl ? -1 : a.ssl > b.ssl ? 1 : 0));
    const first = members[0];
    if (!first) continue;
    const lat = num(first.row.values['square_lat']) ?? 0;
    const lon = num(first.row.values['square_lon']) ?? 0;
    const use = str(first.row.values['use_code']);
    const nearest = (camaByUse.get(use) ?? [])
      .map((c) => ({ c, d: distanceMeters(lat, lon, c.lat, c.lon) }))
      .filter((x) => x.d <= IMPUTATION_MAX_DISTANCE_M)
      .sort((a, b) => a.d - b.d || a.c.index - b.c.index)
      .slice(0, members.length);
    nearest.forEach(({ c, d }, rank) => {
      const member = members[rank];
      if (!member) return;
      const values: Record<string, CellValue> = {
        ssl: member.ssl,
        use_code: use,
        method: 'nearest_cama_same_usecode',
        cama_record_ref: camaRecordRef(c.row),
        distance_m: Math.round(d),
        rank_in_square: rank + 1,
        square_lat: lat,
        square_lon: lon,
      };
      for (const name of IMPUTED_CAMA_FIELDS) values[name] = c.row.values[name] ?? null;
      const row: Row = { no: 0, dataset: DATASETS.synthetic, key: member.ssl, values, q: new Set() };
      syntheticRows.push(row);
      imputedFor.set(row, { ssl: member.ssl });
    });
  }
  syntheticRows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const row of syntheticRows) row.no = ++rowNo;

  // --- records: one per source row per kind, numbered source by source ---------------------
  const records: RecordDraft[] = [];
  const recordsByRow = new Map<Row, Map<string, RecordDraft>>();
  const sourceRanges = new Map<string, { first: number; last: number }>();
  const recordOf = (row: Row, kind: string): RecordDraft | undefined => recordsByRow.get(row)?.get(kind);
  const includeRow: Record<string, (row: Row) => boolean> = {
    dc_otr_assessment: (row) => row.values['assessment_2016'] !== null,
    dc_otr_sale: (row) => row.values['last_sale_recordation_date'] !== null,
  };
  SOURCES.forEach((source) => {
    const rows = rowsByDataset.get(source.dataset.id) ?? [];
    const first = records.length + 1;
    for (const row of rows) {
      if (includeRow[source.source_id] && !includeRow[source.source_id]?.(row)) continue;
      const point = rowPoint(source.dataset.id, row.values);
      const lat = point?.lat ?? null;
      const lon = point?.lon ?? null;
      const record: RecordDraft = { no: records.length + 1, ref: recordRef(source.source_id, row.key), source, row, lat, lon };
      records.push(record);
      let byKind = recordsByRow.get(row);
      if (!byKind) recordsByRow.set(row, (byKind = new Map()));
      byKind.set(source.kind, record);
    }
    sourceRanges.set(source.source_id, { first, last: records.length });
  });

  // --- entities ------------------------------------------------------------------------------
  const entities: EntityDraft[] = [];
  const entityByKey = new Map<string, EntityDraft>();
  const entity = (prefix: EntityPrefix, key: string, area: AreaUid, row: Row): EntityDraft => {
    let e = entityByKey.get(key);
    if (!e) {
      e = {
        no: entities.length + 1, id: entityId(prefix, key), prefix, area, primaryRow: row,
        precision: null, locationRec: null, identifiers: [], identifierKeys: new Set(), validFrom: '9999-12-31',
      };
      entities.push(e);
      entityByKey.set(key, e);
    }
    row.q.add(e.no);
    return e;
  };
  const identify = (e: EntityDraft, scheme: IdentifierScheme, value: string | null) => {
    if (value === null || value === '') return;
    const k = `${scheme}\u0000${value}`;
    if (e.identifierKeys.has(k)) return;
    e.identifierKeys.add(k);
    e.identifiers.push({ scheme, value });
  };
  const locate = (e: EntityDraft, rec: RecordDraft | undefined, precision: LocationPrecision) => {
    if (!rec || rec.lat === null || rec.lon === null) return;
    if (e.precision !== null && code(PRECISION_CODES, e.precision) >= code(PRECISION_CODES, precision)) return;
    e.precision = precision;
    e.locationRec = rec;
  };
  const edges = new Map<string, EdgeDraft>();
  const link = (
    subject: EntityDraft, predicate: Predicate, object: EntityDraft | RecordDraft, how: { method: LinkMethod; confidence: number; basis?: string },
    sources: Array<RecordDraft | undefined>,
  ) => {
    const objectRef = 'id' in object ? object.id : object.ref;
    const key = `${subject.id}|${predicate}|${objectRef}`;
    let edge = edges.get(key);
    if (!edge) {
      edge = { subject, predicate, object, method: how.method, confidence: how.confidence, sources: new Set(), basis: how.basis ?? null };
      edges.set(key, edge);
    }
    for (const s of sources) if (s) edge.sources.add(s);
  };
  const sameRow = { method: 'same_row', confidence: 1 } as const;
  const sslMatch = { method: 'ssl_match', confidence: 1 } as const;

  // DC OTR rows: property, tax account, parcel or unit, address.
  const squareRecord = (row: Row) => {
    const sq = squarePoint.get(`${str(row.values['square'])}${str(row.values['suffix'])}`);
    return sq ? recordOf(sq.row, 'tax_square') : undefined;
  };
  const otrPropsBySsl = new Map<string, EntityDraft[]>();
  const dcLandBySsl = new Map<string, EntityDraft>();
  const dcAddressByPremise = new Map<string, EntityDraft>();
  const ownerHoldings: Array<{ ownerKey: string; property: EntityDraft; account: EntityDraft; row: Row }> = [];
  const dcLandId = (ssl: ParsedSsl): string => (isCondoUnitSsl(ssl) ? entityId('unit', entityKeys.dcUnit(ssl)) : entityId('parc', entityKeys.dcParcel(ssl)));
  const dcLand = (ssl: ParsedSsl, row: Row): EntityDraft | null => {
    // A possessory interest is no land; a placeholder (square or lot 0000) names none.
    if (ssl.form === 'pi' || isPlaceholderSsl(ssl)) return null;
    const e = isCondoUnitSsl(ssl) ? entity('unit', entityKeys.dcUnit(ssl), AREA_DC, row) : entity('parc', entityKeys.dcParcel(ssl), AREA_DC, row);
    identify(e, 'ssl', ssl.canonical);
    dcLandBySsl.set(ssl.canonical, e);
    return e;
  };
  for (const row of otrRows) {
    const v = row.values;
    const ssl = parseSsl(str(v['ssl']));
    if (!ssl) throw new Error(`OTR row ${row.key}: unparseable ssl "${str(v['ssl'])}"`);
    const ownership = recordOf(row, 'ownership');
    const assessment = recordOf(row, 'assessment');
    const square = squareRecord(row);
    const address = normaliseAddress(str(v['address']));

    const property = entity('prop', entityKeys.dcProperty(str(v['ssl_as_published'])), AREA_DC, row);
    identify(property, 'ssl', ssl.canonical);
    // As published only where it differs from the canonical form (the scraper's BD form).
    if (str(v['ssl_as_published']) !== ssl.canonical) identify(property, 'ssl_as_published', str(v['ssl_as_published']));
    if (address?.hasHouseNumber) identify(property, 'address', address.full);
    locate(property, square ?? ownership, 'square_centroid');
    let list = otrPropsBySsl.get(ssl.canonical);
    if (!list) otrPropsBySsl.set(ssl.canonical, (list = []));
    list.push(property);

    const account = entity('acct', entityKeys.dcAccount(ssl), AREA_DC, row);
    identify(account, 'ssl', ssl.canonical);
    locate(account, square ?? ownership, 'square_centroid');
    link(property, 'taxed_in', account, sameRow, [ownership, assessment]);

    const land = dcLand(ssl, row);
    if (land) {
      if (land.prefix === 'unit' && address?.unit) identify(land, 'unit_designator', address.unit);
      if (land.prefix === 'unit' && address?.hasHouseNumber) identify(land, 'address', address.full);
      locate(land, square ?? ownership, 'square_centroid');
      link(property, 'located_in', land, sslMatch, [ownership]);
      link(account, 'assessed_in', land, sslMatch, [assessment ?? ownership]);
    }
    if (address?.hasHouseNumber) {
      const addr = entity('addr', entityKeys.dcAddress(address.premise), AREA_DC, row);
      identify(addr, 'address', address.premise);
      locate(addr, square ?? ownership, 'square_centroid');
      dcAddressByPremise.set(address.premise, addr);
      link(property, 'served_by', addr, sameRow, [ownership]);
      if (land) link(land, 'served_by', addr, sameRow, [ownership]);
    }
    const ownerKey = normaliseOwnerName(str(v['owner']));
    if (ownerKey !== '') ownerHoldings.push({ ownerKey, property, account, row });
  }

  // DC permits: address (with MAR id), parcel or unit of the permit's SSL, OTR properties of that SSL.
  // A placeholder SSL keys nothing (permitSslKey): the permit keeps its address, and the ids a parcel
  // or unit of it would have are listed (meta `placeholder_ssl_keys`) so the service can say why no
  // such entity exists when one is asked for.
  const placeholderKeys = new Map<string, { ssl: string; entity_id: string; record_refs: string[] }>();
  for (const row of permitRows) {
    const v = row.values;
    const permit = recordOf(row, 'permit');
    if (!permit) continue;
    const address = normaliseAddress(str(v['FULL_ADDRESS']));
    let addr: EntityDraft | null = null;
    if (address?.hasHouseNumber) {
      addr = entity('addr', entityKeys.dcAddress(address.premise), AREA_DC, row);
      identify(addr, 'address', address.premise);
      const mar = num(v['MARADDRESSREPOSITORYID']);
      if (mar !== null && mar > 0) identify(addr, 'mar_id', String(mar));
      locate(addr, permit, 'permit_point');
      dcAddressByPremise.set(address.premise, addr);
      link(addr, 'permitted_by', permit, sameRow, [permit]);
    }
    const { ssl, placeholder } = permitSslKey(v);
    if (placeholder) {
      const refused = placeholderKeys.get(placeholder.canonical) ?? { ssl: placeholder.canonical, entity_id: dcLandId(placeholder), record_refs: [] };
      refused.record_refs.push(permit.ref);
      placeholderKeys.set(placeholder.canonical, refused);
    }
    if (ssl) {
      const land = dcLand(ssl, row);
      if (land) {
        locate(land, permit, 'permit_point');
        link(land, 'permitted_by', permit, sameRow, [permit]);
        if (addr) link(land, 'served_by', addr, sameRow, [permit]);
      }
      for (const property of otrPropsBySsl.get(ssl.canonical) ?? []) {
        row.q.add(property.no);
        link(property, 'permitted_by', permit, sslMatch, [permit]);
      }
    }
  }

  // An OTR property at a permit's premise whose SSL the permit does not contradict (the permit has
  // no SSL) gets a likely, not certain, permit link. A differing SSL means another lot: no link.
  const otrPropsByPremise = new Map<string, EntityDraft[]>();
  for (const row of otrRows) {
    const address = normaliseAddress(str(row.values['address']));
    if (!address?.hasHouseNumber) continue;
    const property = entityByKey.get(entityKeys.dcProperty(str(row.values['ssl_as_published'])));
    if (!property) continue;
    let list = otrPropsByPremise.get(address.premise);
    if (!list) otrPropsByPremise.set(address.premise, (list = []));
    list.push(property);
  }
  for (const row of permitRows) {
    const permit = recordOf(row, 'permit');
    const address = normaliseAddress(str(row.values['FULL_ADDRESS']));
    if (!permit || !address?.hasHouseNumber) continue;
    const permitSsl = str(row.values['SSL_CANONICAL']);
    for (const property of otrPropsByPremise.get(address.premise) ?? []) {
      if (permitSsl !== '') continue; // linked by SSL above, or another lot
      row.q.add(property.no);
      link(property, 'permitted_by', permit, { method: 'address_match', confidence: 0.8, basis: address.premise }, [permit]);
    }
  }

  // Alexandria address points first, so parcels can take their location.
  const vaPointByAddress = new Map<string, RecordDraft>();
  const vaPointByObjectId = new Map<string, RecordDraft>();
  for (const row of vaPointRows) {
    const point = recordOf(row, 'address');
    const address = normaliseAddress(str(row.values['full_address']));
    if (!point || !address?.hasHouseNumber) continue;
    const addr = entity('addr', entityKeys.vaAddress(address.premise), AREA_ALEXANDRIA, row);
    identify(addr, 'address', address.premise);
    identify(addr, 'address_point_objectid', str(row.values['objectid']));
    locate(addr, point, 'address_point');
    vaPointByObjectId.set(str(row.values['objectid']), point);
    if (!vaPointByAddress.has(address.full)) vaPointByAddress.set(address.full, point);
  }
  for (const row of vaParcelRows) {
    const v = row.values;
    const parcelRecord = recordOf(row, 'parcel');
    if (!parcelRecord) continue;
    const accountNo = str(v['account_no']);
    const address = normaliseAddress(str(v['address']));
    // The published match (address_point_objectid) first; else this build's normalised match, by
    // full address, then by premise (a condominium unit takes its building's point).
    const point = vaPointByObjectId.get(str(v['address_point_objectid']))
      ?? (address ? (vaPointByAddress.get(address.full) ?? vaPointByAddress.get(address.premise)) : undefined);
    const property = entity('prop', entityKeys.vaProperty(accountNo), AREA_ALEXANDRIA, row);
    const parcel = entity('parc', entityKeys.vaParcel(accountNo), AREA_ALEXANDRIA, row);
    const account = entity('acct', entityKeys.vaAccount(accountNo), AREA_ALEXANDRIA, row);
    for (const e of [property, parcel, account]) {
      identify(e, 'account_no', accountNo);
      locate(e, point, 'address_point');
    }
    if (address?.hasHouseNumber) identify(property, 'address', address.full);
    link(property, 'located_in', parcel, sameRow, [parcelRecord]);
    link(property, 'taxed_in', account, sameRow, [parcelRecord]);
    link(account, 'assessed_in', parcel, sameRow, [parcelRecord]);
    if (address?.hasHouseNumber) {
      const addr = entity('addr', entityKeys.vaAddress(address.premise), AREA_ALEXANDRIA, row);
      identify(addr, 'address', address.premise);
      locate(addr, point, 'address_point');
      link(property, 'served_by', addr, sameRow, [parcelRecord]);
      link(parcel, 'served_by', addr, sameRow, [parcelRecord]);
      if (point) point.row.q.add(property.no);
    }
  }

  // Synthetic characteristics: about the record lot and its OTR properties.
  for (const row of syntheticRows) {
    const ssl = imputedFor.get(row)?.ssl ?? '';
    const land = dcLandBySsl.get(ssl);
    if (land) row.q.add(land.no);
    for (const property of otrPropsBySsl.get(ssl) ?? []) row.q.add(property.no);
  }

  // valid_from: the earliest as_of of the records about an entity.
  for (const rec of records) {
    for (const no of rec.row.q) {
      const e = entities[no - 1];
      if (e && rec.source.as_of < e.validFrom) e.validFrom = rec.source.as_of;
    }
  }

  // --- write ---------------------------------------------------------------------------------
  mkdirSync(outDir, { recursive: true });
  const dbPath = path.join(outDir, 'sample.db');
  const tmpPath = path.join(outDir, 'sample.db.tmp');
  rmSync(tmpPath, { force: true });
  const db = new DatabaseSync(tmpPath);
  try {
    db.exec(`
      PRAGMA journal_mode = OFF;
      PRAGMA synchronous = OFF;
      PRAGMA page_size = 4096;
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE datasets (
        dataset TEXT PRIMARY KEY, fields TEXT NOT NULL, first_row_no INTEGER NOT NULL, last_row_no INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE sources (
        source_no INTEGER PRIMARY KEY, source_id TEXT NOT NULL UNIQUE, dataset TEXT NOT NULL,
        first_rec_no INTEGER NOT NULL, last_rec_no INTEGER NOT NULL, body TEXT NOT NULL);
      -- Rows are numbered dataset by dataset (datasets.first_row_no..last_row_no). data: the row as a
      -- JSON array in the dataset's field order; q: JSON array of the entity_no the row is about.
      CREATE TABLE source_rows (row_no INTEGER PRIMARY KEY, data TEXT NOT NULL, q TEXT NOT NULL);
      -- A record is (source, row): its source is the one whose rec_no range holds it. Keyed by the
      -- ref's uuid (the store looks records up by ref and holds rec_no -> uuid in memory).
      CREATE TABLE records (uuid BLOB PRIMARY KEY, rec_no INTEGER NOT NULL, row_no INTEGER NOT NULL) WITHOUT ROWID;
      -- Keyed by the id's uuid (ids are looked up; the store holds entity_no -> uuid in memory).
      -- area, precision: codes (sample-keys.ts); valid_from: YYYYMMDD.
      CREATE TABLE entities (
        uuid BLOB PRIMARY KEY, entity_no INTEGER NOT NULL, prefix TEXT NOT NULL, area INTEGER NOT NULL,
        primary_row_no INTEGER NOT NULL, valid_from INTEGER NOT NULL, precision INTEGER, location_rec_no INTEGER) WITHOUT ROWID;
      -- scheme: code; ord keeps each entity's identifiers in the order the build met them.
      CREATE TABLE identifiers (
        entity_no INTEGER NOT NULL, ord INTEGER NOT NULL, scheme INTEGER NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (entity_no, ord)) WITHOUT ROWID;
      -- Which entities each row is about (the inverse of source_rows.q).
      CREATE TABLE row_entities (entity_no INTEGER NOT NULL, row_no INTEGER NOT NULL, PRIMARY KEY (entity_no, row_no)) WITHOUT ROWID;
      -- Clustered by subject. predicate, method: codes; object: an entity_no when positive, minus a
      -- rec_no when negative (permitted_by points at the permit record); basis: the normalised
      -- address of an address match. Owner links are not stored as edges: the store reads them from
      -- owners (every pair of accounts under one normalised owner name), which keeps a 157-account
      -- owner from costing 12,000 rows.
      CREATE TABLE edges (
        subject_no INTEGER NOT NULL, predicate INTEGER NOT NULL, object INTEGER NOT NULL, method INTEGER NOT NULL,
        confidence REAL NOT NULL, source_rec_nos TEXT NOT NULL, basis TEXT,
        PRIMARY KEY (subject_no, predicate, object)) WITHOUT ROWID;
      CREATE TABLE owner_names (owner_no INTEGER PRIMARY KEY, owner_key TEXT NOT NULL);
      CREATE TABLE owners (
        owner_no INTEGER NOT NULL, account_no INTEGER NOT NULL, property_no INTEGER NOT NULL, row_no INTEGER NOT NULL,
        PRIMARY KEY (owner_no, account_no, property_no, row_no)) WITHOUT ROWID;
    `);
    db.exec('BEGIN');
    const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    insertMeta.run('schema_version', String(SAMPLE_SCHEMA_VERSION));
    insertMeta.run('placeholder_ssl_keys', JSON.stringify([...placeholderKeys.values()].sort((a, b) => (a.ssl < b.ssl ? -1 : a.ssl > b.ssl ? 1 : 0))));
    const insertDataset = db.prepare('INSERT INTO datasets (dataset, fields, first_row_no, last_row_no) VALUES (?, ?, ?, ?)');
    for (const dataset of Object.values(DATASETS)) {
      const rows = rowsByDataset.get(dataset.id) ?? [];
      const nos = rows.map((row) => row.no);
      // Rows of a dataset are numbered consecutively, so a row's dataset is the range that holds it.
      if (nos.some((no, i) => i > 0 && no !== (nos[i - 1] ?? 0) + 1)) throw new Error(`${dataset.id}: rows not consecutive`);
      insertDataset.run(dataset.id, JSON.stringify(dataset.fields.map((field) => field.name)), nos[0] ?? 0, nos[nos.length - 1] ?? -1);
    }

    const inputByDataset = new Map(inputs.map((input) => [input.path, input]));
    const insertSource = db.prepare('INSERT INTO sources (source_no, source_id, dataset, first_rec_no, last_rec_no, body) VALUES (?, ?, ?, ?, ?, ?)');
    SOURCES.forEach((source, index) => {
      const range = sourceRanges.get(source.source_id) ?? { first: 0, last: -1 };
      const rows = records.slice(range.first - 1, range.last).map((r) => r.row);
      const input = inputByDataset.get(source.dataset.file);
      // The synthetic source is derived from the OTR and CAMA files: its hash covers both.
      const hash = input?.sha256 ?? createHash('sha256')
        .update(inputs.filter((i) => i.path === DATASETS.otr.file || i.path === DATASETS.cama.file).map((i) => i.sha256).join('\n'))
        .digest('hex');
      const body = {
        source_id: source.source_id,
        kind: source.kind,
        jurisdiction: source.jurisdiction,
        state: source.state,
        publisher: source.publisher,
        dataset: source.dataset_name,
        description: source.description,
        as_of: `${source.as_of}T00:00:00Z`,
        official_url: source.official_url,
        release_id: Number(source.as_of.replace(/-/g, '')),
        sha256: hash,
        records: range.last - range.first + 1,
        synthetic: source.synthetic,
        location_precision: source.location_precision,
        input_file: source.synthetic ? null : source.dataset.file,
        fields: source.dataset.fields.map((field) => ({
          name: field.name,
          type: field.type,
          description: field.description,
          example: rows.map((r) => r.values[field.name]).find((x) => x !== null && x !== undefined) ?? null,
        })),
      };
      insertSource.run(index + 1, source.source_id, source.dataset.id, range.first, range.last, JSON.stringify(body));
    });

    const insertRow = db.prepare('INSERT INTO source_rows (row_no, data, q) VALUES (?, ?, ?)');
    const allRows = [...rowsByDataset.values()].flat().sort((a, b) => a.no - b.no);
    for (const row of allRows) {
      const data = row.dataset.fields.map((field) => row.values[field.name] ?? null);
      insertRow.run(row.no, JSON.stringify(data), JSON.stringify([...row.q].sort((a, b) => a - b)));
    }
    const insertRecord = db.prepare('INSERT INTO records (uuid, rec_no, row_no) VALUES (?, ?, ?)');
    for (const r of records) insertRecord.run(uuidToBytes(r.ref.slice(4)), r.no, r.row.no);

    const insertEntity = db.prepare(
      'INSERT INTO entities (entity_no, uuid, prefix, area, primary_row_no, valid_from, precision, location_rec_no) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertIdentifier = db.prepare('INSERT INTO identifiers (entity_no, ord, scheme, value) VALUES (?, ?, ?, ?)');
    for (const e of entities) {
      insertEntity.run(
        e.no, uuidToBytes(e.id.slice(5)), e.prefix, code(AREA_CODES, e.area), e.primaryRow.no, dateNumber(e.validFrom),
        e.precision === null ? null : code(PRECISION_CODES, e.precision), e.locationRec?.no ?? null,
      );
      e.identifiers.forEach((i, ord) => insertIdentifier.run(e.no, ord, code(IDENTIFIER_SCHEMES, i.scheme), i.value));
    }

    const insertRowEntity = db.prepare('INSERT INTO row_entities (entity_no, row_no) VALUES (?, ?)');
    for (const row of allRows) for (const no of row.q) insertRowEntity.run(no, row.no);

    const ownerNo = new Map<string, number>();
    const insertOwnerName = db.prepare('INSERT INTO owner_names (owner_no, owner_key) VALUES (?, ?)');
    for (const key of [...new Set(ownerHoldings.map((h) => h.ownerKey))].sort()) {
      ownerNo.set(key, ownerNo.size + 1);
      insertOwnerName.run(ownerNo.size, key);
    }
    const insertOwner = db.prepare('INSERT OR IGNORE INTO owners (owner_no, account_no, property_no, row_no) VALUES (?, ?, ?, ?)');
    for (const h of ownerHoldings) insertOwner.run(ownerNo.get(h.ownerKey) ?? 0, h.account.no, h.property.no, h.row.no);

    const insertEdge = db.prepare(
      'INSERT INTO edges (subject_no, predicate, object, method, confidence, source_rec_nos, basis) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (const edge of edges.values()) {
      const sources = [...edge.sources].sort((a, b) => a.no - b.no);
      insertEdge.run(
        edge.subject.no, code(PREDICATES, edge.predicate), 'id' in edge.object ? edge.object.no : -edge.object.no,
        code(LINK_METHODS, edge.method), edge.confidence, JSON.stringify(sources.map((s) => s.no)), edge.basis,
      );
    }

    db.exec(`
      CREATE INDEX edges_object ON edges(object) WHERE object > 0;
    `);
    db.exec('COMMIT');
  } catch (error) {
    db.close();
    rmSync(tmpPath, { force: true });
    throw error;
  }

  const tables: Record<string, number> = {};
  for (const table of ['sources', 'source_rows', 'records', 'entities', 'identifiers', 'row_entities', 'edges', 'owner_names', 'owners']) {
    const row = db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
    tables[table] = row.n;
  }
  db.exec('ANALYZE');
  db.exec('VACUUM');
  db.close();
  renameSync(tmpPath, dbPath);

  const count = <T>(items: Iterable<T>, keyOf: (item: T) => string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const item of items) out[keyOf(item)] = (out[keyOf(item)] ?? 0) + 1;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
  };
  const recordsBySource = Object.fromEntries(SOURCES.map((s) => {
    const range = sourceRanges.get(s.source_id) ?? { first: 0, last: -1 };
    return [s.source_id, range.last - range.first + 1];
  }));
  const entitiesByKind = count(entities, (e) => e.prefix);
  const edgesByPredicate = count(edges.values(), (e) => e.predicate);
  // Owner links are read from the owners table: every pair of accounts under one normalised name.
  const accountsByOwner = new Map<string, Set<EntityDraft>>();
  for (const h of ownerHoldings) {
    let set = accountsByOwner.get(h.ownerKey);
    if (!set) accountsByOwner.set(h.ownerKey, (set = new Set()));
    set.add(h.account);
  }
  let ownerLinks = 0;
  for (const set of accountsByOwner.values()) ownerLinks += (set.size * (set.size - 1)) / 2;
  edgesByPredicate['same_owner'] = ownerLinks;
  const manifest = {
    schema_version: SAMPLE_SCHEMA_VERSION,
    generator: 'scripts/build-sample-data.ts',
    database: 'sample.db',
    inputs,
    tables,
    records_by_source: recordsBySource,
    entities_by_kind: entitiesByKind,
    edges_by_predicate: edgesByPredicate,
  };
  const manifestPath = path.join(outDir, 'manifest.json');
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return {
    dbPath, manifestPath, dbBytes: statSync(dbPath).size, tables, recordsBySource, entitiesByKind, edgesByPredicate,
    ms: Math.round(performance.now() - started),
  };
}

// ---------------------------------------------------------------------------------------------
// CLI

function main(argv: string[]): void {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  let fromDir = path.resolve(repoRoot, '../shared/data');
  let outDir = path.join(repoRoot, 'assets/sample-data');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--from') fromDir = path.resolve(argv[++i] ?? '');
    else if (arg === '--out') outDir = path.resolve(argv[++i] ?? '');
    else throw new Error(`unknown argument ${arg} (use --from DIR, --out DIR)`);
  }
  const report = buildSampleData({ fromDir, outDir });
  console.log(`sample data: ${path.relative(process.cwd(), report.dbPath)} ${(report.dbBytes / 1e6).toFixed(1)} MB in ${report.ms} ms`);
  console.log(JSON.stringify({ tables: report.tables, records_by_source: report.recordsBySource, entities_by_kind: report.entitiesByKind, edges_by_predicate: report.edgesByPredicate }, null, 2));
}

if (import.meta.main) main(process.argv.slice(2));
