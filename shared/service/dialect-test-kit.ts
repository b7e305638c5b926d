// Small hand-written answers in the shapes of the second ("independent") service, the one that makes
// other choices wherever the spec says "not shown" (docs/service-contract.md): the v4 summary under
// `data.fields`, v2 relationship nodes as `{entity_ref, entity_kind, label, depth}` with predicates Plat
// has no words for, refs `<source_id>@<release_id>`, coverage rows without `area_uid`. Tests only.

export const OTR_CITATION = {
  source: 'DC Office of Tax and Revenue',
  dataset: 'Real Property Tax Database',
  as_of: '2017-02-05T00:00:00Z',
  source_id: 'dc_otr_ownership',
};
export const ASSESSMENT_CITATION = { ...OTR_CITATION, source_id: 'dc_otr_assessment' };
export const SALE_CITATION = { ...OTR_CITATION, source_id: 'dc_otr_sale' };
export const GIS_CITATION = { source: 'DC Office of the Chief Technology Officer', dataset: 'Square points', as_of: '2020-01-01T00:00:00Z', source_id: 'dc_gis_square_points' };

export const INDEPENDENT_Q_ID = 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b';

/** A v4 summary envelope of the independent service: canonical fields under `data.fields`, other names. */
export function independentSummary(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    contract_version: 'svc-v4',
    request_id: 'req-summary-1',
    operation: 'summary',
    status: 'ok',
    data: {
      q_id: INDEPENDENT_Q_ID,
      fields: {
        address: { value: '1708 21ST ST NW', citation: OTR_CITATION, alternatives: [] },
        owner_name: { value: 'JOEL KUIPERS', citation: OTR_CITATION, alternatives: [{ value: 'KUIPERS JOEL', citation: { ...OTR_CITATION, as_of: '2016-02-05T00:00:00Z' } }] },
        year_built: { value: 1900, citation: OTR_CITATION, alternatives: [] },
        effective_year_built: { value: '1985', citation: OTR_CITATION, alternatives: [] },
        assessed_value: { value: 1361000, citation: ASSESSMENT_CITATION, alternatives: [] },
        last_sale_price: { value: 1361000, citation: SALE_CITATION, alternatives: [] },
        last_sale_date: { value: '2013-12-17', citation: SALE_CITATION, alternatives: [] },
        latitude: { value: 38.9128, citation: GIS_CITATION, alternatives: [] },
        longitude: { value: -77.0468, citation: GIS_CITATION, alternatives: [] },
        ...fields,
      },
    },
    error: null,
    meta: { served_at: '2026-11-27T18:00:00Z', next_cursor: null, truncated: false },
  };
}

export const RELATIONSHIP_IDS = {
  property: INDEPENDENT_Q_ID,
  parcel: 'parc_f6ac2820-1e68-58bf-891b-63fc223242fd',
  account: 'acct_38bde8b8-1657-54ad-9c8c-7dba67031240',
  address: 'addr_0293e560-4883-540b-a751-b66d24869504',
};

function edge(subject: string, predicate: string, object: string, ref: string): Record<string, unknown> {
  return {
    relationship_ref: `rel_${predicate}_${object.slice(0, 4)}`,
    subject_ref: subject,
    predicate,
    object_ref: object,
    direction: 'out',
    precision: 'exact',
    method: 'record_match',
    confidence: 1,
    status: 'current',
    generation_id: 'gen_1',
    valid_from: '2017-02-05',
    valid_to: null,
    source_refs: [ref],
  };
}

/** A v2 traversal of the independent service around the property, depth 1. */
export function independentRelationships(): Record<string, unknown> {
  const { property, parcel, account, address } = RELATIONSHIP_IDS;
  return {
    contract_version: 'svc-v2',
    request_id: 'req-rel-1',
    operation: 'traverse_relationships',
    status: 'ok',
    data: {
      root_ref: property,
      depth: 1,
      nodes: [
        { entity_ref: property, entity_kind: 'property', label: '1708 21ST ST NW', depth: 0 },
        { entity_ref: parcel, entity_kind: 'parcel', label: 'SSL 0065 0007', depth: 1 },
        { entity_ref: account, entity_kind: 'tax_account', label: 'Account 0065 0007', depth: 1 },
        { entity_ref: address, entity_kind: 'address', label: '1708 21ST ST NW', depth: 1 },
      ],
      edges: [
        edge(parcel, 'situs_of', property, 'dc_otr_ownership@20170205'),
        edge(account, 'account_for', property, 'dc_otr_assessment@20170205'),
        edge(address, 'owner_of', property, 'dc_otr_ownership@20170205'),
      ],
      max_nodes: 200,
      max_edges: 200,
    },
    meta: { served_at: '2026-11-27T18:00:00Z', truncated: false },
    provenance: {
      source_refs: ['dc_otr_ownership@20170205', 'dc_otr_assessment@20170205'],
      sources: [
        { source_ref: 'dc_otr_ownership@20170205', source_kind: 'dataset', publisher: 'DC Office of Tax and Revenue', release_id: '20170205', captured_at: '2017-02-05T00:00:00Z', official_url: 'https://otr.cfo.dc.gov/' },
        { source_ref: 'dc_otr_assessment@20170205', source_kind: 'dataset', publisher: 'DC Office of Tax and Revenue', release_id: '20170205', captured_at: '2017-02-05T00:00:00Z', official_url: 'https://otr.cfo.dc.gov/' },
      ],
    },
  };
}

/** The v2 catalog's coverage facet of the independent service: one row per jurisdiction and domain, no `area_uid`. */
export function independentCoverage(): Record<string, unknown> {
  const domains = ['ownership', 'assessment', 'sale', 'permit', 'characteristics'];
  return {
    facet: 'coverage',
    items: [
      ...domains.map((domain) => ({ jurisdiction: '11001', name: 'District of Columbia', domain, status: 'available' })),
      ...domains.map((domain) => ({ jurisdiction: '51510', name: 'Alexandria city', domain, status: domain === 'ownership' ? 'unavailable' : 'available' })),
    ],
    capabilities: [],
  };
}
