// The v3 record-query datasets (properties, sales, permits, buildings) as Plat's local service
// defines them: which sample sources feed each, its fields under Plat's snake_case names, which
// filters each filter group takes, what a query may group by and which measures apply. Catalog
// mode lists these definitions; aggregate mode computes over them. Rows are read from the store
// once per dataset and kept for the life of the store (a few seconds the first time).
import type { V3Dataset, V3FilterGroup, V3Filters, V3Measure } from '../../../shared/service/index.ts';
import { isIsoDate, v3FilterGroups } from '../../../shared/service/index.ts';
import { ServiceFailure } from '../operation.ts';
import { equalityKey } from '../sample-keys.ts';
import type { CellValue, SampleRecord, SampleSource, SampleStore } from '../sample-store.ts';
import { propertyFieldDescription } from './v2-property-index.ts';

export type V3FieldType = 'string' | 'number' | 'date' | 'boolean';

export interface V3FieldDefinition {
  name: string;
  type: V3FieldType;
  /** The filter group that may name it for equality (`filters.<group>`). */
  group: V3FilterGroup;
  description: string;
  groupable: boolean;
}

/** A filter that is not plain equality on a field: a bound or a flag on one. */
export interface V3RangeFilterDefinition {
  name: string;
  group: V3FilterGroup;
  op: 'min' | 'max' | 'flag';
  /** The field it bounds. */
  target: string;
  /** What its value must be: a date (YYYY-MM-DD), a number, or `true`/`false`. */
  valueType: 'date' | 'number' | 'boolean';
  description: string;
}

/** A dataset row: its values only (aggregates count and measure rows; they cite the datasets' sources, not each record). */
export interface DatasetRow {
  values: Readonly<Record<string, CellValue>>;
}

interface DatasetSource {
  kind: string;
  jurisdiction: string;
  read: (record: SampleRecord) => Record<string, CellValue>;
}

export interface V3DatasetDefinition {
  name: V3Dataset;
  description: string;
  sources: readonly DatasetSource[];
  fields: readonly V3FieldDefinition[];
  rangeFilters: readonly V3RangeFilterDefinition[];
  /** The price a price measure uses, or null when the dataset has none. */
  price: ((row: DatasetRow) => number | null) | null;
  /** Real floor area for median_price_per_sqft, or null when the dataset has none. */
  area: ((row: DatasetRow) => number | null) | null;
}

const text = (value: CellValue | undefined): CellValue => (value === undefined || value === null ? null : typeof value === 'string' ? value.trim() : value);
const numberOf = (value: CellValue | undefined): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const propertyRefOf = (record: SampleRecord): string | null => record.q_ids.find((id) => id.startsWith('prop_')) ?? null;
const positive = (value: CellValue | undefined): number | null => {
  const n = numberOf(value);
  return n !== null && n > 0 ? n : null;
};

export function field(name: string, type: V3FieldType, group: V3FilterGroup, description: string, groupable = false): V3FieldDefinition {
  return { name, type, group, description, groupable };
}

/** The two bounds on a whole-dollar field: `min_<name>` and `max_<name>`. */
function dollarBounds(name: string, group: V3FilterGroup, target: string, what: string): V3RangeFilterDefinition[] {
  return [
    { name: `min_${name}`, group, op: 'min', target, valueType: 'number', description: `${what} at least this many whole dollars.` },
    { name: `max_${name}`, group, op: 'max', target, valueType: 'number', description: `${what} at most this many whole dollars.` },
  ];
}

/** The sale filters of the sales dataset; report_comparables_v1 takes the same. */
export const saleRangeFilters: readonly V3RangeFilterDefinition[] = [
  { name: 'from_date', group: 'sale', op: 'min', target: 'sale_date', valueType: 'date', description: 'Sales recorded on or after this date (YYYY-MM-DD). Excludes undated (CAMA) sales.' },
  { name: 'to_date', group: 'sale', op: 'max', target: 'sale_date', valueType: 'date', description: 'Sales recorded on or before this date (YYYY-MM-DD). Excludes undated (CAMA) sales.' },
  ...dollarBounds('price', 'sale', 'price_dollars', 'Price'),
  { name: 'market_only', group: 'sale', op: 'flag', target: 'market_sale', valueType: 'boolean', description: '`true`: market sales only (OTR price above 0; CAMA QUALIFIED = Q). `false`: all.' },
];

export const v3DatasetDefinitions: Record<V3Dataset, V3DatasetDefinition> = {
  properties: {
    name: 'properties',
    description:
      'Tax-roll properties: every DC OTR row of assessment neighborhood OLD CITY II (lots and condominium units, owner, tax year 2016 assessment) and every Alexandria parcel in Del Ray (account, land use, zoning; no owners or values).',
    sources: [
      {
        kind: 'ownership',
        jurisdiction: '11',
        read: (r) => ({
          property_ref: propertyRefOf(r), address: text(r.data['address']), ssl: text(r.data['ssl']), account_no: null,
          use_code: text(r.data['use_code']), land_use: null, zoning: null, owner_name: text(r.data['owner']),
          neighborhood: text(r.data['neighborhood']), sub_neighborhood: text(r.data['sub_neighborhood']), homestead: text(r.data['homestead']),
          assessed_value_dollars: numberOf(r.data['assessment_2016']), jurisdiction: r.jurisdiction,
        }),
      },
      {
        kind: 'parcel',
        jurisdiction: '51',
        read: (r) => ({
          property_ref: propertyRefOf(r), address: text(r.data['address']), ssl: null, account_no: text(r.data['account_no']),
          use_code: null, land_use: text(r.data['land_use']), zoning: text(r.data['zoning']), owner_name: null,
          neighborhood: null, sub_neighborhood: null, homestead: null, assessed_value_dollars: null, jurisdiction: r.jurisdiction,
        }),
      },
    ],
    fields: [
      field('property_ref', 'string', 'property', 'The property entity id (prop_…).'),
      field('address', 'string', 'property', 'Street address as published.'),
      field('ssl', 'string', 'property', `${propertyFieldDescription('ssl')} (DC only).`),
      field('account_no', 'string', 'property', `${propertyFieldDescription('account_no')} (Alexandria only).`),
      field('use_code', 'string', 'property', 'DC OTR use code, e.g. 11 single-family row, 16/17 condominium (DC only).', true),
      field('land_use', 'string', 'property', 'Alexandria land use as published, e.g. DETACHED HOUSE (Alexandria only).', true),
      field('zoning', 'string', 'property', `${propertyFieldDescription('zoning')} (Alexandria only).`, true),
      field('owner_name', 'string', 'property', `${propertyFieldDescription('owner_name')}.`),
      field('neighborhood', 'string', 'property', `${propertyFieldDescription('neighborhood')} (DC only).`, true),
      field('sub_neighborhood', 'string', 'property', 'OTR assessment sub-neighborhood A–G (DC only).', true),
      field('homestead', 'string', 'property', 'OTR homestead flag: yes, no or unknown (DC only).', true),
      field('assessed_value_dollars', 'number', 'property', 'Tax year 2016 total assessed value, whole dollars (DC only).'),
      field('jurisdiction', 'string', 'property', 'County-level code: 11001 (DC) or 51510 (Alexandria).', true),
    ],
    rangeFilters: dollarBounds('assessed_value', 'property', 'assessed_value_dollars', 'Assessed value'),
    price: null,
    area: null,
  },
  sales: {
    name: 'sales',
    description:
      'Sales with a price: the last recorded sale of each DC OTR row (dated; price 0 means a non-market transfer or no price) and the DC CAMA residential sales (real price and floor area, but no date and no parcel link).',
    sources: [
      {
        kind: 'sale',
        jurisdiction: '11',
        read: (r) => {
          const date = text(r.data['last_sale_recordation_date']);
          const price = numberOf(r.data['last_sale_price']);
          return {
            property_ref: propertyRefOf(r), address: text(r.data['address']), use_code: text(r.data['use_code']),
            neighborhood: text(r.data['neighborhood']), sub_neighborhood: text(r.data['sub_neighborhood']),
            sale_date: date, sale_year: typeof date === 'string' ? Number(date.slice(0, 4)) : null,
            price_dollars: price, market_sale: price !== null && price > 0, gross_area_sqft: null, source_id: r.source_id,
          };
        },
      },
      {
        kind: 'residential_characteristics',
        jurisdiction: '11',
        read: (r) => ({
          property_ref: null, address: null, use_code: text(r.data['USECODE']), neighborhood: null, sub_neighborhood: null,
          sale_date: null, sale_year: null, price_dollars: numberOf(r.data['PRICE']), market_sale: r.data['QUALIFIED'] === 'Q',
          gross_area_sqft: positive(r.data['GBA']), source_id: r.source_id,
        }),
      },
    ],
    fields: [
      field('property_ref', 'string', 'property', 'The property sold (OTR sales only; CAMA sales link to no parcel).'),
      field('address', 'string', 'property', 'Address as published (OTR sales only).'),
      field('use_code', 'string', 'property', 'DC use code of the property sold.', true),
      field('neighborhood', 'string', 'property', 'OTR assessment neighborhood (OTR sales only).', true),
      field('sub_neighborhood', 'string', 'property', 'OTR assessment sub-neighborhood (OTR sales only).', true),
      field('sale_date', 'date', 'sale', 'Recordation date, YYYY-MM-DD (OTR sales only).'),
      field('sale_year', 'number', 'sale', 'Year of the recordation date (OTR sales only).', true),
      field('price_dollars', 'number', 'sale', 'Price in whole dollars (OTR writes 0 for a non-market transfer or no price).'),
      field('market_sale', 'boolean', 'sale', 'OTR: price above 0. CAMA: QUALIFIED = Q.', true),
      field('gross_area_sqft', 'number', 'building', 'Gross building area in square feet (CAMA sales only).'),
      field('source_id', 'string', 'sale', 'dc_otr_sale or dc_cama_residential.', true),
    ],
    rangeFilters: saleRangeFilters,
    price: (row) => positive(row.values['price_dollars']),
    area: (row) => positive(row.values['gross_area_sqft']),
  },
  permits: {
    name: 'permits',
    description: 'DC DCRA new-building construction permits issued 2012-01-03 to 2016-01-21, citywide. No other permit types are in the sample.',
    sources: [
      {
        kind: 'permit',
        jurisdiction: '11',
        read: (r) => {
          const issued = text(r.data['ISSUE_DATE']);
          return {
            permit_id: text(r.data['PERMIT_ID']), issue_date: typeof issued === 'string' ? issued.slice(0, 10) : null,
            issue_year: typeof issued === 'string' ? Number(issued.slice(0, 4)) : null, status: text(r.data['APPLICATION_STATUS_NAME']),
            permit_type: text(r.data['PERMIT_TYPE_NAME']), permit_subtype: text(r.data['PERMIT_SUBTYPE_NAME']),
            description: text(r.data['DESC_OF_WORK']), fees_paid_dollars: numberOf(r.data['FEES_PAID']),
            address: text(r.data['FULL_ADDRESS']), ssl: text(r.data['SSL_CANONICAL']), zoning: text(r.data['ZONING']),
            ward: text(r.data['WARD']), zip: text(r.data['ZIPCODE']), neighborhood_cluster: text(r.data['NEIGHBORHOODCLUSTER']),
            owner_name: text(r.data['OWNER_NAME']),
          };
        },
      },
    ],
    fields: [
      field('permit_id', 'string', 'building', 'DCRA permit number.'),
      field('issue_date', 'date', 'building', 'Issue date, YYYY-MM-DD.'),
      field('issue_year', 'number', 'building', 'Year of issue.', true),
      field('status', 'string', 'building', 'Application status as published (e.g. COMPLETED).', true),
      field('permit_type', 'string', 'building', 'Permit type (CONSTRUCTION in this sample).', true),
      field('permit_subtype', 'string', 'building', 'Permit subtype (NEW BUILDING in this sample).', true),
      field('description', 'string', 'building', 'Description of work as published.'),
      field('fees_paid_dollars', 'number', 'building', 'Fees paid, dollars.'),
      field('address', 'string', 'property', 'Address as published.'),
      field('ssl', 'string', 'property', 'SSL, canonical form (where the permit names a parseable one).'),
      field('zoning', 'string', 'property', 'Zoning as published.', true),
      field('ward', 'string', 'property', 'DC ward.', true),
      field('zip', 'string', 'property', 'ZIP code.', true),
      field('neighborhood_cluster', 'string', 'property', 'DC neighborhood cluster number.', true),
      field('owner_name', 'string', 'property', 'Owner named on the permit, as published.'),
    ],
    rangeFilters: [
      { name: 'from_date', group: 'building', op: 'min', target: 'issue_date', valueType: 'date', description: 'Issued on or after this date (YYYY-MM-DD).' },
      { name: 'to_date', group: 'building', op: 'max', target: 'issue_date', valueType: 'date', description: 'Issued on or before this date (YYYY-MM-DD).' },
    ],
    price: null,
    area: null,
  },
  buildings: {
    name: 'buildings',
    description:
      'DC CAMA residential building characteristics citywide (real records, extract of about 2022; no SSL, no sale date). The synthetic characteristics Plat imputes to OTR lots are not part of this dataset.',
    sources: [
      {
        kind: 'residential_characteristics',
        jurisdiction: '11',
        read: (r) => ({
          use_code: text(r.data['USECODE']), year_built: numberOf(r.data['AYB']), year_remodeled: numberOf(r.data['YR_RMDL']),
          bedrooms: numberOf(r.data['BEDRM']), full_bathrooms: numberOf(r.data['BATHRM']), half_bathrooms: numberOf(r.data['HF_BATHRM']),
          rooms: numberOf(r.data['ROOMS']), stories: numberOf(r.data['STORIES']), gross_area_sqft: positive(r.data['GBA']),
          land_area_sqft: positive(r.data['LANDAREA']), style: text(r.data['STYLE_D']), structure: text(r.data['STRUCT_D']),
          grade: text(r.data['GRADE']), condition: text(r.data['CNDTN']), heating: text(r.data['HEAT']), air_conditioning: text(r.data['AC']),
          dwelling_units: numberOf(r.data['NUM_UNITS']), price_dollars: numberOf(r.data['PRICE']), qualified: text(r.data['QUALIFIED']),
          ward: text(r.data['WARD']), zip: text(r.data['ZIPCODE']), census_tract: text(r.data['CENSUS_TRACT']),
        }),
      },
    ],
    fields: [
      field('use_code', 'string', 'building', 'DC use code.', true),
      field('year_built', 'number', 'building', 'Actual year built (AYB).'),
      field('year_remodeled', 'number', 'building', 'Year remodeled (YR_RMDL), as published.'),
      field('bedrooms', 'number', 'building', 'Bedrooms.', true),
      field('full_bathrooms', 'number', 'building', 'Full bathrooms.', true),
      field('half_bathrooms', 'number', 'building', 'Half bathrooms.'),
      field('rooms', 'number', 'building', 'Rooms.'),
      field('stories', 'number', 'building', 'Stories.', true),
      field('gross_area_sqft', 'number', 'building', 'Gross building area, square feet.'),
      field('land_area_sqft', 'number', 'building', 'Land area, square feet.'),
      field('style', 'string', 'building', 'Style, e.g. 2 Story.', true),
      field('structure', 'string', 'building', 'Structure, e.g. Row Inside.', true),
      field('grade', 'string', 'building', 'CAMA grade.', true),
      field('condition', 'string', 'building', 'CAMA condition.', true),
      field('heating', 'string', 'building', 'Heating.', true),
      field('air_conditioning', 'string', 'building', 'Air conditioning (Y/N).', true),
      field('dwelling_units', 'number', 'building', 'Dwelling units.', true),
      field('price_dollars', 'number', 'building', 'Sale price in the CAMA extract, whole dollars.'),
      field('qualified', 'string', 'building', 'Q: qualified (market) sale; U: unqualified.', true),
      field('ward', 'string', 'building', 'Ward as published (e.g. Ward 2).', true),
      field('zip', 'string', 'building', 'ZIP code.', true),
      field('census_tract', 'string', 'building', 'Census tract.'),
    ],
    rangeFilters: [
      { name: 'min_year_built', group: 'building', op: 'min', target: 'year_built', valueType: 'number', description: 'Built in or after this year.' },
      { name: 'max_year_built', group: 'building', op: 'max', target: 'year_built', valueType: 'number', description: 'Built in or before this year.' },
      ...dollarBounds('price', 'building', 'price_dollars', 'Price'),
    ],
    price: (row) => positive(row.values['price_dollars']),
    area: (row) => positive(row.values['gross_area_sqft']),
  },
};

/** The sample sources a dataset is read from. */
export function datasetSources(store: SampleStore, dataset: V3Dataset): SampleSource[] {
  return v3DatasetDefinitions[dataset].sources.flatMap((source) => store.listSources({ jurisdiction: source.jurisdiction, kind: source.kind }));
}

/** Record count of a dataset from the catalog's source sizes (no scan). */
export function datasetRecordCount(store: SampleStore, dataset: V3Dataset): number {
  return datasetSources(store, dataset).reduce((n, source) => n + source.records, 0);
}

const tables = new WeakMap<SampleStore, Map<V3Dataset, DatasetRow[]>>();

/** Every row of a dataset, read once per store. */
export function datasetRows(store: SampleStore, dataset: V3Dataset): DatasetRow[] {
  let byDataset = tables.get(store);
  if (!byDataset) tables.set(store, (byDataset = new Map()));
  const cached = byDataset.get(dataset);
  if (cached) return cached;
  const rows: DatasetRow[] = [];
  for (const source of v3DatasetDefinitions[dataset].sources) {
    let cursor: string | null = null;
    do {
      const page = store.searchRecords({ kind: source.kind, jurisdiction: source.jurisdiction, limit: 100, cursor });
      for (const record of page.items) rows.push({ values: Object.freeze(source.read(record)) });
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
  byDataset.set(dataset, rows);
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Filters

/** A compiled filter list: all fields must hold; equality filters on one field are alternatives. */
export type RowTest = (values: Readonly<Record<string, CellValue>>) => boolean;

export interface CompiledFilters {
  test: RowTest;
  /** Parsed range filters by name (for callers that hand them to the store, e.g. comparables). */
  ranges: Map<string, string | number | boolean>;
  /** Equality filters by field: the accepted values. */
  equals: Map<string, string[]>;
}

function badFilter(location: string, message: string): never {
  throw new ServiceFailure(400, 'invalid_filters', `filters.${location}: ${message}`);
}

function parseRangeValue(definition: V3RangeFilterDefinition, value: string, location: string): string | number | boolean {
  const trimmed = value.trim();
  switch (definition.valueType) {
    case 'date': {
      if (!isIsoDate(trimmed)) badFilter(location, `${definition.name} takes a calendar date as YYYY-MM-DD`);
      return trimmed;
    }
    case 'number': {
      const n = trimmed === '' ? NaN : Number(trimmed);
      if (!Number.isFinite(n)) badFilter(location, `${definition.name} takes a number`);
      return n;
    }
    case 'boolean':
      if (trimmed !== 'true' && trimmed !== 'false') badFilter(location, `${definition.name} takes true or false`);
      return trimmed === 'true';
  }
}

/**
 * Checks a request's filters against what the dataset (or a projection) accepts and compiles them.
 * Unknown filters, filters in the wrong group and malformed values answer 400 `invalid_filters`,
 * naming the filter and what is accepted.
 */
export function compileFilters(
  filters: V3Filters | undefined,
  accepted: { fields: readonly V3FieldDefinition[]; rangeFilters: readonly V3RangeFilterDefinition[]; label: string },
): CompiledFilters {
  const equals = new Map<string, string[]>();
  const ranges = new Map<string, string | number | boolean>();
  const rangeTests: RowTest[] = [];
  for (const group of v3FilterGroups) {
    const list = filters?.[group] ?? [];
    const names = [
      ...accepted.fields.filter((f) => f.group === group).map((f) => f.name),
      ...accepted.rangeFilters.filter((f) => f.group === group).map((f) => f.name),
    ];
    list.forEach((filter, index) => {
      const location = `${group}.${index}`;
      if (names.length === 0) {
        badFilter(
          `${location}.field`,
          group === 'tax' ? 'the sample has no tax data, so no tax filters apply' : `${accepted.label} takes no ${group} filters`,
        );
      }
      const range = accepted.rangeFilters.find((f) => f.group === group && f.name === filter.field);
      if (range) {
        if (ranges.has(range.name)) badFilter(`${location}.field`, `${range.name} is given twice`);
        const bound = parseRangeValue(range, filter.value, `${location}.value`);
        ranges.set(range.name, bound);
        rangeTests.push(rangeTest(range, bound));
        return;
      }
      const plain = accepted.fields.find((f) => f.group === group && f.name === filter.field);
      if (!plain) badFilter(`${location}.field`, `${accepted.label} has no ${group} filter "${filter.field}"; its ${group} filters are ${names.join(', ')}`);
      const values = equals.get(plain.name) ?? [];
      values.push(filter.value);
      equals.set(plain.name, values);
    });
  }
  const equalityTests: RowTest[] = [...equals].map(([name, values]) => {
    const keys = new Set(values.map((value) => equalityKey(value)));
    return (row) => keys.has(equalityKey(row[name]));
  });
  const tests = [...equalityTests, ...rangeTests];
  return { test: (row) => tests.every((test) => test(row)), ranges, equals };
}

function rangeTest(definition: V3RangeFilterDefinition, bound: string | number | boolean): RowTest {
  const target = definition.target;
  if (definition.op === 'flag') return (row) => bound === false || row[target] === true;
  return (row) => {
    const value = row[target];
    if (value === null || value === undefined || typeof value === 'boolean') return false;
    const v = typeof bound === 'number' ? Number(value) : String(value);
    if (typeof v === 'number' && !Number.isFinite(v)) return false;
    return definition.op === 'min' ? v >= bound : v <= bound;
  };
}

// ---------------------------------------------------------------------------------------------
// Catalog mode

export interface V3CatalogRow {
  dataset: V3Dataset;
  field: string | null;
  data_type: string | null;
  description: string;
  record_count?: number;
  filter_group?: V3FilterGroup;
  /** `eq` for fields; `min`, `max` or `flag` for range filters (which name no field of their own). */
  filter_op?: 'eq' | 'min' | 'max' | 'flag';
  /** For range filters: the field they bound. */
  applies_to?: string;
  groupable?: boolean;
  measures?: V3Measure[];
  source_ids?: string[];
  /** Date fields and date filters: the earliest and latest date the sample holds in the field. */
  coverage?: DateCoverage;
}

export interface DateCoverage {
  earliest: string;
  latest: string;
}

const coverages = new WeakMap<SampleStore, Map<string, DateCoverage | null>>();

/** The earliest and latest day a date field of a dataset holds (null when no row has one), worked out once per store. */
export function dateCoverage(store: SampleStore, dataset: V3Dataset, fieldName: string): DateCoverage | null {
  let byField = coverages.get(store);
  if (!byField) coverages.set(store, (byField = new Map()));
  const key = `${dataset}.${fieldName}`;
  const known = byField.get(key);
  if (known !== undefined) return known;
  let earliest: string | null = null;
  let latest: string | null = null;
  for (const row of datasetRows(store, dataset)) {
    const value = row.values[fieldName];
    if (typeof value !== 'string' || !isIsoDate(value.slice(0, 10))) continue;
    const day = value.slice(0, 10);
    if (earliest === null || day < earliest) earliest = day;
    if (latest === null || day > latest) latest = day;
  }
  const coverage = earliest === null || latest === null ? null : { earliest, latest };
  byField.set(key, coverage);
  return coverage;
}

export function measuresOf(definition: V3DatasetDefinition): V3Measure[] {
  const measures: V3Measure[] = ['count'];
  if (definition.price) measures.push('median_price', 'mean_price');
  if (definition.price && definition.area) measures.push('median_price_per_sqft');
  return measures;
}

export function catalogRows(store: SampleStore, dataset: V3Dataset): V3CatalogRow[] {
  const definition = v3DatasetDefinitions[dataset];
  const sourceIds = datasetSources(store, dataset).map((source) => source.source_id);
  // What dates a date field (or a date filter's field) can hold here, so a search is not asked outside them.
  const coverageOf = (fieldName: string, type: string) => {
    const coverage = type === 'date' ? dateCoverage(store, dataset, fieldName) : null;
    return coverage === null ? {} : { coverage };
  };
  return [
    {
      dataset,
      field: null,
      data_type: null,
      description: definition.description,
      record_count: datasetRecordCount(store, dataset),
      measures: measuresOf(definition),
      source_ids: [...new Set(sourceIds)],
    },
    ...definition.fields.map((f): V3CatalogRow => ({
      dataset,
      field: f.name,
      data_type: f.type,
      description: f.description,
      filter_group: f.group,
      filter_op: 'eq',
      groupable: f.groupable,
      ...coverageOf(f.name, f.type),
    })),
    ...definition.rangeFilters.map((f): V3CatalogRow => ({
      dataset,
      field: f.name,
      data_type: f.valueType,
      description: f.description,
      filter_group: f.group,
      filter_op: f.op,
      applies_to: f.target,
      groupable: false,
      ...coverageOf(f.target, f.valueType),
    })),
  ];
}

// ---------------------------------------------------------------------------------------------
// Aggregate mode

export interface V3AggregateRowOut {
  group: string | null;
  measure: V3Measure;
  value: number | null;
  record_count: number;
  /** Records the value is computed over (price measures skip records without a price or area). */
  value_count: number;
  unit: 'records' | 'dollars' | 'dollars_per_sqft';
}

const NOT_PUBLISHED_GROUP = '(not published)';

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function measureOf(definition: V3DatasetDefinition, measure: V3Measure, rows: DatasetRow[]): { value: number | null; valueCount: number } {
  if (measure === 'count') return { value: rows.length, valueCount: rows.length };
  const price = definition.price;
  if (!price) throw new Error(`${definition.name} has no price`);
  if (measure === 'median_price_per_sqft') {
    const area = definition.area;
    if (!area) throw new Error(`${definition.name} has no area`);
    const perSqft: number[] = [];
    for (const row of rows) {
      const p = price(row);
      const a = area(row);
      if (p !== null && a !== null) perSqft.push(p / a);
    }
    const m = median(perSqft);
    return { value: m === null ? null : Math.round(m * 100) / 100, valueCount: perSqft.length };
  }
  const prices = rows.map(price).filter((p): p is number => p !== null);
  if (measure === 'median_price') {
    const m = median(prices);
    return { value: m === null ? null : Math.round(m), valueCount: prices.length };
  }
  const mean = prices.length === 0 ? null : prices.reduce((a, b) => a + b, 0) / prices.length;
  return { value: mean === null ? null : Math.round(mean), valueCount: prices.length };
}

function compareGroups(a: string, b: string): number {
  if (a === NOT_PUBLISHED_GROUP || b === NOT_PUBLISHED_GROUP) return a === b ? 0 : a === NOT_PUBLISHED_GROUP ? 1 : -1;
  const x = Number(a);
  const y = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}


/** One measure over a dataset's rows that pass the filters, optionally per group. */
export function aggregate(
  store: SampleStore,
  dataset: V3Dataset,
  request: { measure: V3Measure; groupBy?: string | undefined; filters?: V3Filters | undefined },
): V3AggregateRowOut[] {
  const definition = v3DatasetDefinitions[dataset];
  const measures = measuresOf(definition);
  if (!measures.includes(request.measure)) {
    const why = definition.price ? 'no real floor area' : 'no price';
    throw new ServiceFailure(400, 'invalid_measure', `measure: the ${dataset} dataset has ${why} for ${request.measure}; its measures are ${measures.join(', ')}`);
  }
  let groupField: string | undefined;
  if (request.groupBy !== undefined) {
    const groupable = definition.fields.filter((f) => f.groupable).map((f) => f.name);
    if (!groupable.includes(request.groupBy)) {
      throw new ServiceFailure(400, 'invalid_group_by', `group_by: the ${dataset} dataset groups by ${groupable.join(', ')}`);
    }
    groupField = request.groupBy;
  }
  const compiled = compileFilters(request.filters, { fields: definition.fields, rangeFilters: definition.rangeFilters, label: `the ${dataset} dataset` });
  const matched = datasetRows(store, dataset).filter((row) => compiled.test(row.values));
  const unit = request.measure === 'count' ? 'records' : request.measure === 'median_price_per_sqft' ? 'dollars_per_sqft' : 'dollars';
  if (groupField === undefined) {
    const { value, valueCount } = measureOf(definition, request.measure, matched);
    return [{ group: null, measure: request.measure, value, record_count: matched.length, value_count: valueCount, unit }];
  }
  const groups = new Map<string, { label: string; rows: DatasetRow[] }>();
  for (const row of matched) {
    const raw = row.values[groupField];
    const key = equalityKey(raw) ?? NOT_PUBLISHED_GROUP;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { label: raw === null || raw === undefined || key === NOT_PUBLISHED_GROUP ? NOT_PUBLISHED_GROUP : String(raw), rows: [] }));
    group.rows.push(row);
  }
  return [...groups.values()]
    .sort((a, b) => compareGroups(a.label, b.label))
    .map((group): V3AggregateRowOut => {
      const { value, valueCount } = measureOf(definition, request.measure, group.rows);
      return { group: group.label, measure: request.measure, value, record_count: group.rows.length, value_count: valueCount, unit };
    });
}
