// The input files, their columns (the publishers' names), what each column means, and how a cell
// becomes a typed value.
import { DATASET_IDS } from '../../electron/local-service/sample-keys.ts';

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

/** A cell as text; null is empty. */
export const str = (v: CellValue | undefined): string => (v === null || v === undefined ? '' : String(v));
/** A cell as a number, or null when it is not one. */
export const num = (v: CellValue | undefined): number | null => (typeof v === 'number' ? v : null);

// ---------------------------------------------------------------------------------------------
// Datasets

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
