// Sources: one per (dataset, record kind). as_of is the data's own date (see docs/service-notes.md).
import { SYNTHETIC_DATASET_NAME, type LocationPrecision } from '../../electron/local-service/sample-keys.ts';
import { DATASETS } from './datasets.ts';
import type { DatasetSpec } from './datasets.ts';

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
    dataset_name: SYNTHETIC_DATASET_NAME, as_of: '2022-11-20',
    official_url: 'https://opendata.dc.gov/', synthetic: true,
    description: 'SYNTHETIC. The OTR lots have no building characteristics; for residential record lots, Plat copies those of a real CAMA record of the same use code near the lot’s tax square (the k-th lot of a tax square (by SSL) takes the k-th nearest record of its use code to the square’s centroid, so it is not necessarily the record nearest the lot) so comparables can be demonstrated. Not a fact about the lot.',
    location_precision: 'square_centroid',
  },
];
