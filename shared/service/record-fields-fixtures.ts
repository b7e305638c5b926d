// Test fixtures: DC (11001) v4 catalog items for ownership, sale and permit records in both dialects
// (docs: /work/notes/common.md, "the second service"), for every test of a reader of v4 records.
import type { V4CatalogItem } from './v4.ts';

// The embedded service's catalog (an array of {name, type, description, example}) and the
// independent dialect's (an object keyed by field name, {data_type, label}), for DC (11001).
const field = (name: string, type = 'string', description = '') => ({ name, type, description, example: null });
export const embeddedCatalog: V4CatalogItem[] = [
  {
    state: 'published', source_id: 'dc_otr_ownership', source: 'DC Office of Tax and Revenue', dataset: 'Tax roll', kind: 'ownership', records: 10, as_of: '2017-02-05T00:00:00Z',
    fields: ['ssl', 'ssl_as_published', 'address', 'owner', 'use_code', 'last_sale_price', 'last_sale_recordation_date', 'assessment_2016', 'homestead'].map((name) => field(name)),
  },
  {
    state: 'published', source_id: 'dc_otr_sales', source: 'DC Office of Tax and Revenue', dataset: 'Tax roll', kind: 'sale', records: 10, as_of: '2017-02-05T00:00:00Z',
    fields: ['ssl', 'address', 'owner', 'last_sale_price', 'last_sale_recordation_date', 'use_code'].map((name) => field(name)),
  },
  {
    state: 'published', source_id: 'dc_dcra_permits', source: 'DCRA', dataset: 'Building permits', kind: 'permit', records: 10, as_of: '2017-02-05T00:00:00Z',
    fields: ['PERMIT_ID', 'ISSUE_DATE', 'FULL_ADDRESS', 'OWNER_NAME', 'DESC_OF_WORK', 'APPLICATION_STATUS_NAME', 'PERMIT_SUBTYPE_NAME', 'SSL', 'SSL_CANONICAL'].map((name) => field(name)),
  },
];
const keyed = (names: Record<string, [string, string]>) => Object.fromEntries(Object.entries(names).map(([name, [dataType, label]]) => [name, { data_type: dataType, label }]));
export const independentCatalog: V4CatalogItem[] = [
  {
    ...embeddedCatalog[0]!,
    fields: keyed({
      SSL: ['text', 'Square suffix lot'], SSLASPUBLISHED: ['text', 'SSL as published'], PREMISEADD: ['text', 'Premise address'], OWNERNAME: ['text', 'Owner name'],
      USECODE: ['text', 'Use code'], SALEPRICE: ['money', 'Sale price'], SALEDATE: ['date', 'Sale date'], ASSESSMENT: ['money', 'Assessment'], HOMESTEAD: ['text', 'Homestead'],
    }),
  },
  {
    ...embeddedCatalog[1]!,
    fields: keyed({ SSL: ['text', 'Square suffix lot'], PREMISEADD: ['text', 'Premise address'], OWNERNAME: ['text', 'Owner name'], SALEPRICE: ['money', 'Sale price'], SALEDATE: ['date', 'Sale date'], USECODE: ['text', 'Use code'] }),
  },
  {
    ...embeddedCatalog[2]!,
    fields: keyed({
      PERMITID: ['text', 'Permit id'], ISSUEDATE: ['date', 'Issue date'], FULLADDRESS: ['text', 'Full address'], OWNERNAME: ['text', 'Owner name'], DESCOFWORK: ['text', 'Description of work'],
      APPLICATIONSTATUSNAME: ['text', 'Status'], PERMITSUBTYPENAME: ['text', 'Permit type'], SSL: ['text', 'SSL as published'], SSLCANONICAL: ['text', 'Canonical SSL'],
    }),
  },
];

