import { describe, expect, it } from 'vitest';
import { queryObject } from './common.ts';
import {
  isResolved,
  resolutionClientId,
  V2CatalogQuerySchema,
  V2CatalogResponseSchema,
  V2EntityPathSchema,
  V2EntityResponseSchema,
  V2PropertySearchSchema,
  V2RelationshipsQuerySchema,
  V2ResolutionItemSchema,
  V2ResolutionsRequestSchema,
  V2ResolutionsResponseSchema,
  V2SearchResponseSchema,
  V2TraversalResponseSchema,
} from './v2.ts';
import { rejectedParameters } from './test-kit.ts';

const head = {
  contract_version: 'svc-v2',
  request_id: 'req-42',
  meta: { served_at: '2026-03-14T15:09:26Z', truncated: false, generation_ids: ['gen_2023_11'], usage_units: 20000 },
  provenance: {
    source_refs: ['src_alexandria_parcels'],
    sources: [
      {
        source_ref: 'src_alexandria_parcels',
        source_kind: 'parcel_layer',
        publisher: 'City of Alexandria GIS Division',
        release_id: '2023-11-05',
        captured_at: '2023-11-05T00:00:00Z',
        official_url: 'https://www.alexandriava.gov/GIS',
      },
    ],
  },
};

// Alexandria, Del Ray: account 13195000, 201 E Luray Av (the sample's first parcel row).
const parcel = {
  entity_ref: 'ent_alx_13195000',
  entity_kind: 'tax_account',
  status: 'current',
  area_uid: 'area_us_va_alexandria',
  canonical_identity: { account_no: '13195000', address: '201 E LURAY AV' },
  property_ref: 'prop_alx_13195000',
};

describe('v2 responses', () => {
  it('accepts a property search answer', () => {
    const response = { ...head, operation: 'search_properties', status: 'ok', error: null, data: { items: [parcel], projection: 'identity_summary' } };
    expect(V2SearchResponseSchema.safeParse(response).success).toBe(true);
  });

  it('accepts a partial resolution and an error with retry_after_seconds', () => {
    const partial = {
      ...head,
      operation: 'resolve_entities',
      status: 'partial',
      data: {
        items: [
          { client_id: 'subject', outcome: 'resolved', candidates: [{ ...parcel, match_basis: 'account_no', precision: 'exact', method: 'identifier' }] },
          { client_id: '', outcome: 'invalid_input', candidates: [] },
        ],
      },
    };
    const parsed = V2ResolutionsResponseSchema.parse(partial);
    expect(parsed.status === 'partial' && parsed.data.items.map(isResolved)).toEqual([true, false]);
    const error = { ...head, operation: 'resolve_entities', status: 'error', data: null, error: { code: 'rate_limited', message: 'Slow down', retryable: true, retry_after_seconds: 30, details: { limit: 60 } } };
    expect(V2ResolutionsResponseSchema.safeParse(error).success).toBe(true);
  });

  it('applies the envelope length rules to request_id and operation', () => {
    const ok = { ...head, operation: 'get_entity', status: 'ok', data: { entity: { ...parcel, identifiers: [], attributes: {}, source_refs: [], coverage_status: 'available', valid_from: '2023-11-05', valid_to: null } } };
    expect(V2EntityResponseSchema.safeParse(ok).success).toBe(true);
    expect(V2EntityResponseSchema.safeParse({ ...ok, request_id: '' }).success).toBe(false);
    expect(V2EntityResponseSchema.safeParse({ ...ok, request_id: 'r'.repeat(513) }).success).toBe(false);
    expect(V2EntityResponseSchema.safeParse({ ...ok, operation: 'o'.repeat(257) }).success).toBe(false);
    expect(V2EntityResponseSchema.safeParse({ ...ok, status: 'done' }).success).toBe(false);
  });

  it('accepts a traversal and a catalog answer', () => {
    const traversal = {
      ...head,
      operation: 'traverse_relationships',
      status: 'ok',
      data: {
        root_ref: 'ent_alx_13195000',
        depth: 1,
        nodes: [{ entity_ref: 'ent_alx_addr_14130', entity_kind: 'address' }],
        edges: [
          {
            relationship_ref: 'rel_1',
            subject_ref: 'ent_alx_13195000',
            predicate: 'located_in',
            object_ref: 'ent_alx_addr_14130',
            direction: 'out',
            precision: 'exact',
            method: 'address_match',
            confidence: 0.98,
            status: 'current',
            valid_from: '2023-11-05',
            source_refs: ['src_alexandria_parcels'],
          },
        ],
        max_nodes: 100,
        max_edges: 200,
      },
    };
    expect(V2TraversalResponseSchema.safeParse(traversal).success).toBe(true);
    const badConfidence = structuredClone(traversal) as { data: { edges: Array<{ confidence: unknown }> } };
    badConfidence.data.edges[0]!.confidence = 'high';
    expect(V2TraversalResponseSchema.safeParse(badConfidence).success).toBe(false);

    const catalog = { ...head, operation: 'get_catalog', status: 'ok', data: { facet: 'jurisdictions', items: [{ area_uid: 'area_us_dc' }], capabilities: [] } };
    expect(V2CatalogResponseSchema.safeParse(catalog).success).toBe(true);
    expect(V2CatalogResponseSchema.safeParse({ ...catalog, data: { ...catalog.data, facet: 'owners' } }).success).toBe(false);
  });
});

describe('v2 property search body', () => {
  const valid = { area_uid: 'area_us_va_alexandria' };

  it('fills defaults and accepts every stated field', () => {
    expect(V2PropertySearchSchema.parse(valid)).toEqual({ area_uid: 'area_us_va_alexandria', filters: [], projection: 'identity_summary', limit: 20 });
    const full = V2PropertySearchSchema.parse({
      area_uid: 'area_us_dc',
      sort: { field: 'last_sale_date' },
      filters: [
        { field: 'use_code', op: 'eq', value: '24' },
        { field: 'last_sale_price', op: 'gte', value: 500000 },
        { field: 'last_sale_date', op: 'lte', value: '2017-01-17' },
        { field: 'owner', op: 'contains', value: 'FOUNDATION' },
      ],
      entity_kinds: ['property', 'tax_account'],
      predicates: ['located_in', 'taxed_in'],
      projection: 'fact_summary',
      limit: 100,
      cursor: 'next',
    });
    expect(full.sort).toEqual({ field: 'last_sale_date', direction: 'asc' });
  });

  it('rejects area_uid empty or over 128', () => {
    expect(rejectedParameters(V2PropertySearchSchema, { area_uid: '' })).toEqual(['area_uid']);
    expect(rejectedParameters(V2PropertySearchSchema, { area_uid: 'a'.repeat(129) })).toEqual(['area_uid']);
    expect(rejectedParameters(V2PropertySearchSchema, {})).toEqual(['area_uid']);
  });

  it('rejects a sort direction other than asc or desc', () => {
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, sort: { field: 'x', direction: 'up' } })).toEqual(['sort']);
  });

  it('rejects more than 20 filters, unknown operators and operator/value mismatches', () => {
    const filter = { field: 'use_code', op: 'eq', value: '24' };
    expect(V2PropertySearchSchema.safeParse({ ...valid, filters: Array(20).fill(filter) }).success).toBe(true);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, filters: Array(21).fill(filter) })).toEqual(['filters']);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, filters: [{ ...filter, op: 'ne' }] })).toEqual(['filters']);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, filters: [{ ...filter, op: 'contains', value: 5 }] })).toEqual(['filters']);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, filters: [{ ...filter, op: 'gte', value: true }] })).toEqual(['filters']);
  });

  it('rejects dates that do not exist, on date fields and in any comparison written as a date', () => {
    const on = (field: string, op: string, value: unknown) => ({ ...valid, filters: [{ field, op, value }] });
    for (const value of ['2015-13-45', '2015-02-30', '2015-02-29', '2015-04-31', '2015-00-10', '2015-01-01T24:00', '2015-01-01T10:00+25:00', 'yesterday', 20150101]) {
      expect(rejectedParameters(V2PropertySearchSchema, on('last_sale_date', 'gte', value)), String(value)).toEqual(['filters']);
      expect(rejectedParameters(V2PropertySearchSchema, on('last_sale_date', 'eq', value)), String(value)).toEqual(['filters']);
    }
    expect(rejectedParameters(V2PropertySearchSchema, on('recorded_on', 'lte', '2015-02-30'))).toEqual(['filters']);
    const issue = V2PropertySearchSchema.safeParse(on('last_sale_date', 'lte', '2015-13-45')).error?.issues[0];
    expect(issue).toMatchObject({ path: ['filters', 0, 'value'], message: 'must be a date that exists, as YYYY-MM-DD, for last_sale_date' });
    for (const value of ['2016-02-29', '2000-02-29', '2015-12-31', '2015-01-01T23:59:59.5Z', '2015-01-01T10:00-05:00', '2015-06-30T12:00']) {
      expect(V2PropertySearchSchema.safeParse(on('last_sale_date', 'gte', value)).success, value).toBe(true);
    }
    // contains on a date field is the service's refusal (text only); text that merely starts like a date is not a date.
    expect(V2PropertySearchSchema.safeParse(on('address', 'eq', '2015-13-45 X ST')).success).toBe(true);
  });

  it('rejects unknown entity kinds and predicates, and more than 100 predicates', () => {
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, entity_kinds: ['owner'] })).toEqual(['entity_kinds']);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, predicates: ['owned_by'] })).toEqual(['predicates']);
    expect(V2PropertySearchSchema.safeParse({ ...valid, predicates: Array(100).fill('located_in') }).success).toBe(true);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, predicates: Array(101).fill('located_in') })).toEqual(['predicates']);
  });

  it('rejects a projection outside the two, limit 0 and 101, and cursors of 0 or 4097', () => {
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, projection: 'full' })).toEqual(['projection']);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, limit: 0 })).toEqual(['limit']);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, limit: 101 })).toEqual(['limit']);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, cursor: '' })).toEqual(['cursor']);
    expect(rejectedParameters(V2PropertySearchSchema, { ...valid, cursor: 'c'.repeat(4097) })).toEqual(['cursor']);
  });
});

describe('v2 resolutions', () => {
  const item = { client_id: 'subject', subject_kind: 'identifier', identifiers: [{ scheme: 'account_no', value: '13195000' }] };

  it('accepts a batch leniently: items are checked one by one', () => {
    const request = V2ResolutionsRequestSchema.parse({ items: [item, { nonsense: true }, 7] });
    expect(request.candidate_limit).toBe(10);
    const outcomes = request.items.map((raw) => V2ResolutionItemSchema.safeParse(raw).success);
    expect(outcomes).toEqual([true, false, false]);
    expect(request.items.map(resolutionClientId)).toEqual(['subject', '', '']);
  });

  it('rejects a batch of 0 or 101 items, candidate_limit 0 and 51, and overlong candidate cursors', () => {
    expect(rejectedParameters(V2ResolutionsRequestSchema, { items: [] })).toEqual(['items']);
    expect(rejectedParameters(V2ResolutionsRequestSchema, { items: Array(101).fill(item) })).toEqual(['items']);
    expect(V2ResolutionsRequestSchema.safeParse({ items: Array(100).fill(item) }).success).toBe(true);
    expect(rejectedParameters(V2ResolutionsRequestSchema, { items: [item], candidate_limit: 0 })).toEqual(['candidate_limit']);
    expect(rejectedParameters(V2ResolutionsRequestSchema, { items: [item], candidate_limit: 51 })).toEqual(['candidate_limit']);
    expect(V2ResolutionsRequestSchema.parse({ items: [item], candidate_cursors: { subject: 'c2' } }).candidate_cursors).toEqual({ subject: 'c2' });
    expect(rejectedParameters(V2ResolutionsRequestSchema, { items: [item], candidate_cursors: { subject: 'c'.repeat(4097) } })).toEqual(['candidate_cursors']);
  });

  it('checks each item by its own rules', () => {
    expect(V2ResolutionItemSchema.parse(item).include_retired_identifiers).toBe(false);
    expect(V2ResolutionItemSchema.safeParse({ client_id: 'a', subject_kind: 'address', entity_kind: 'address', area_uid: 'area_us_dc', identifiers: [{ scheme: 'address', value: '1606 NEW HAMPSHIRE AV NW' }], include_retired_identifiers: true }).success).toBe(true);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, client_id: '' })).toEqual(['client_id']);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, client_id: 'c'.repeat(129) })).toEqual(['client_id']);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, subject_kind: 'owner' })).toEqual(['subject_kind']);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, entity_kind: 'owner' })).toEqual(['entity_kind']);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, identifiers: [] })).toEqual(['identifiers']);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, identifiers: Array(11).fill(item.identifiers[0]) })).toEqual(['identifiers']);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, identifiers: [{ scheme: 'parcel_id', value: 'x' }] })).toEqual(['identifiers']);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, identifiers: [{ scheme: 'ssl', value: '' }] })).toEqual(['identifiers']);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, identifiers: [{ scheme: 'ssl', value: 's'.repeat(513) }] })).toEqual(['identifiers']);
    expect(rejectedParameters(V2ResolutionItemSchema, { ...item, include_retired_identifiers: 'no' })).toEqual(['include_retired_identifiers']);
  });
});

describe('v2 catalog query', () => {
  it('parses the wire form with the default page size', () => {
    expect(V2CatalogQuerySchema.parse(queryObject('facet=coverage&filter=area_us_dc&domain_key=assessment'))).toEqual({
      facet: 'coverage',
      filter: 'area_us_dc',
      domain_key: 'assessment',
      page_size: 50,
    });
    expect(V2CatalogQuerySchema.parse({ facet: 'dictionary', entity_name: 'parcel', data_type: 'string', field_key: 'ssl', page_size: '100' }).page_size).toBe(100);
  });

  it('rejects an unknown facet', () => {
    expect(rejectedParameters(V2CatalogQuerySchema, { facet: 'owners' })).toEqual(['facet']);
    expect(rejectedParameters(V2CatalogQuerySchema, {})).toEqual(['facet']);
  });

  it('rejects filter on facets other than jurisdictions and coverage, and filter over 128', () => {
    expect(V2CatalogQuerySchema.safeParse({ facet: 'jurisdictions', filter: 'va' }).success).toBe(true);
    expect(rejectedParameters(V2CatalogQuerySchema, { facet: 'sources', filter: 'va' })).toEqual(['filter']);
    expect(rejectedParameters(V2CatalogQuerySchema, { facet: 'coverage', filter: 'f'.repeat(129) })).toEqual(['filter']);
  });

  it('rejects the 1..256 strings out of range', () => {
    for (const parameter of ['domain_key', 'entity_name', 'property_class', 'data_type', 'field_key']) {
      expect(rejectedParameters(V2CatalogQuerySchema, { facet: 'dictionary', [parameter]: '' })).toEqual([parameter]);
      expect(rejectedParameters(V2CatalogQuerySchema, { facet: 'dictionary', [parameter]: 'k'.repeat(257) })).toEqual([parameter]);
    }
  });

  it('rejects page_size 0 and 101 and cursors of 0 or 4097', () => {
    expect(rejectedParameters(V2CatalogQuerySchema, { facet: 'sources', page_size: '0' })).toEqual(['page_size']);
    expect(rejectedParameters(V2CatalogQuerySchema, { facet: 'sources', page_size: '101' })).toEqual(['page_size']);
    expect(rejectedParameters(V2CatalogQuerySchema, { facet: 'sources', cursor: '' })).toEqual(['cursor']);
    expect(rejectedParameters(V2CatalogQuerySchema, { facet: 'sources', cursor: 'c'.repeat(4097) })).toEqual(['cursor']);
  });
});

describe('v2 entity and relationships requests', () => {
  it('entity_ref must be 1..512', () => {
    expect(V2EntityPathSchema.safeParse({ entity_ref: 'e'.repeat(512) }).success).toBe(true);
    expect(rejectedParameters(V2EntityPathSchema, { entity_ref: '' })).toEqual(['entity_ref']);
    expect(rejectedParameters(V2EntityPathSchema, { entity_ref: 'e'.repeat(513) })).toEqual(['entity_ref']);
  });

  it('fills the relationship defaults and parses predicates and as_of', () => {
    expect(V2RelationshipsQuerySchema.parse({})).toEqual({ direction: 'both', depth: 1, max_nodes: 100, max_edges: 200, page_size: 50 });
    expect(V2RelationshipsQuerySchema.parse(queryObject('direction=out&predicates=located_in,taxed_in&as_of=2016-12-31&depth=3&max_nodes=200&max_edges=1'))).toEqual({
      direction: 'out',
      predicates: ['located_in', 'taxed_in'],
      as_of: '2016-12-31',
      depth: 3,
      max_nodes: 200,
      max_edges: 1,
      page_size: 50,
    });
    expect(V2RelationshipsQuerySchema.safeParse({ as_of: '2016-12-31T23:59:59Z' }).success).toBe(true);
  });

  it('rejects a direction outside out, in, both', () => {
    expect(rejectedParameters(V2RelationshipsQuerySchema, { direction: 'up' })).toEqual(['direction']);
  });

  it('rejects unknown predicates and more than 50', () => {
    expect(rejectedParameters(V2RelationshipsQuerySchema, { predicates: 'located_in,owned_by' })).toEqual(['predicates']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { predicates: '' })).toEqual(['predicates']);
    expect(V2RelationshipsQuerySchema.safeParse({ predicates: Array(50).fill('taxed_in').join(',') }).success).toBe(true);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { predicates: Array(51).fill('taxed_in').join(',') })).toEqual(['predicates']);
  });

  it('rejects as_of that is empty, over 256 or not a date', () => {
    expect(rejectedParameters(V2RelationshipsQuerySchema, { as_of: '' })).toEqual(['as_of']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { as_of: '2016-02-30' })).toEqual(['as_of']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { as_of: '2015-13-45' })).toEqual(['as_of']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { as_of: '2016-01-01T25:61Z' })).toEqual(['as_of']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { as_of: 'last year' })).toEqual(['as_of']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { as_of: `2016-01-01${' '.repeat(250)}` })).toEqual(['as_of']);
  });

  it('rejects depth 0 and 4', () => {
    expect(rejectedParameters(V2RelationshipsQuerySchema, { depth: '0' })).toEqual(['depth']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { depth: '4' })).toEqual(['depth']);
  });

  it('rejects node and edge caps of 0 and 201', () => {
    for (const parameter of ['max_nodes', 'max_edges']) {
      expect(rejectedParameters(V2RelationshipsQuerySchema, { [parameter]: '0' })).toEqual([parameter]);
      expect(rejectedParameters(V2RelationshipsQuerySchema, { [parameter]: '201' })).toEqual([parameter]);
    }
  });

  it('rejects page_size 0 and 101 and cursors of 0 or 4097', () => {
    expect(rejectedParameters(V2RelationshipsQuerySchema, { page_size: '0' })).toEqual(['page_size']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { page_size: '101' })).toEqual(['page_size']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { cursor: '' })).toEqual(['cursor']);
    expect(rejectedParameters(V2RelationshipsQuerySchema, { cursor: 'c'.repeat(4097) })).toEqual(['cursor']);
  });
});
