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


// The independent dialect's names for the OTR sources' fields; every other field is upper case
// without underscores. Its money cells are text with cents ("18402.50").
const OTR_NAMES: Record<string, string> = {
  ssl: 'SSL',
  owner: 'OWNERNAME',
  last_sale_price: 'SALEPRICE',
  last_sale_recordation_date: 'SALEDATE',
  address: 'PREMISEADD',
  use_code: 'USECODE',
  assessment_2016: 'ASSESSMENT',
};
const MONEY = new Set(['SALEPRICE', 'ASSESSMENT']);

/** A source row as the independent dialect publishes it. */
export function independentRow(data: Record<string, unknown>, otr: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    const renamed = (otr ? OTR_NAMES[name] : undefined) ?? name.toUpperCase().replace(/_/g, '');
    out[renamed] = MONEY.has(renamed) && typeof value === 'number' ? value.toFixed(2) : value;
  }
  return out;
}

/** A v4 search answer of the embedded service as the independent dialect would give it (its records' `data` renamed). */
export function independentSearchEnvelope(envelope: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(envelope);
  const data = copy.data as { items?: Array<Record<string, unknown>> } | null;
  for (const item of data?.items ?? []) {
    item.data = independentRow(item.data as Record<string, unknown>, String(item.source_id).startsWith('dc_otr'));
  }
  return copy;
}
