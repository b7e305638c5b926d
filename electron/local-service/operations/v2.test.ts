// GET /api/v2/catalog, /api/v2/entities/{entity_ref} and its relationships over real HTTP against
// the real sample store; every answer is checked against the shared contract, its record refs and
// its charge (v2-test-kit.ts). Searches and resolutions have their own test files.
import { describe, expect, it } from 'vitest';
import { serviceOperations } from '../../../shared/service/index.ts';
import {
  ENTITY_PRICE, SEARCH_PRICE, SYNTHETIC_SOURCE, TRAVERSAL_PRICE,
  catalog, data, entity, errorOf, expectRefused, items, meta, propertyBySsl, relationships, search, store, svc, useV2Service,
} from './v2-test-kit.ts';
import type { Json } from './v2-test-kit.ts';

useV2Service();

describe('GET /api/v2/catalog', () => {
  it('answers every facet, free', async () => {
    for (const facet of ['jurisdictions', 'authorities', 'coverage', 'dictionary', 'capabilities', 'sources']) {
      const result = await catalog(`facet=${facet}&page_size=100`);
      expect(result.status).toBe(200);
      expect(result.charged).toBe(0);
      expect(data(result)['facet']).toBe(facet);
      expect(items(result).length).toBeGreaterThan(0);
      expect((data(result)['capabilities'] as Json[]).map((c) => c['facet'])).toContain(facet);
    }
  });

  it('lists every jurisdiction and is honest that Maryland has no records', async () => {
    const all = await catalog('facet=jurisdictions');
    expect(items(all)).toHaveLength(34);
    const maryland = await catalog('facet=jurisdictions&filter=MD');
    expect(items(maryland).length).toBe(25);
    expect(items(maryland).every((item) => item['coverage'] === 'none' && item['records'] === 0)).toBe(true);
    const fairfax = await catalog('facet=jurisdictions&filter=fairfax');
    expect(items(fairfax).map((item) => item['jurisdiction'])).toEqual(['51059', '51600']);
    const dc = await catalog('facet=jurisdictions&filter=11001');
    expect(items(dc)[0]).toMatchObject({ coverage: 'partial', area_uids: ['area_us_dc'] });
  });

  it('states coverage per area and domain from the store, with Maryland empty', async () => {
    const maryland = await catalog('facet=coverage&filter=24');
    expect(items(maryland).length).toBeGreaterThan(0);
    expect(items(maryland).every((row) => row['status'] === 'none' && row['records'] === 0)).toBe(true);
    const ownership = await catalog('facet=coverage&filter=area_us_dc&domain_key=ownership');
    expect(items(ownership)).toEqual([
      expect.objectContaining({ status: 'partial', source_ids: ['dc_otr_ownership'], records: store.getSource('dc_otr_ownership')?.records }),
    ]);
    const characteristics = await catalog('facet=coverage&filter=area_us_dc&domain_key=building_characteristics');
    expect(items(characteristics)[0]).toMatchObject({ synthetic_source_ids: [SYNTHETIC_SOURCE] });
    const condos = await catalog('facet=coverage&filter=area_us_dc&property_class=condominium');
    expect(items(condos).map((row) => row['domain_key'])).not.toContain('building_characteristics');
    const unknown = await catalog('facet=coverage&domain_key=weather');
    expect(items(unknown)).toEqual([]);
    expect(meta(unknown)['warnings']).toEqual([expect.stringContaining('weather')]);
  });

  it('describes fields per entity kind, sources with their checksums, and operations with their prices', async () => {
    const dictionary = await catalog('facet=dictionary&entity_name=property&data_type=number&page_size=100');
    const fields = items(dictionary);
    expect(fields.every((row) => row['entity_name'] === 'property' && row['data_type'] === 'number')).toBe(true);
    expect(fields.find((row) => row['field_key'] === 'assessed_value_dollars')).toMatchObject({ filter_ops: ['eq', 'gte', 'lte'], synthetic: false });
    expect(fields.find((row) => row['field_key'] === 'imputed_year_built')).toMatchObject({ synthetic: true, source_ids: [SYNTHETIC_SOURCE] });

    const sources = await catalog('facet=sources');
    for (const source of items(sources)) {
      expect(source['sha256']).toMatch(/^[0-9a-f]{64}$/);
      expect(source['release_id']).toMatch(/^\d{8}$/);
      expect(source['synthetic']).toBe(source['source_id'] === SYNTHETIC_SOURCE);
    }

    const capabilities = await catalog('facet=capabilities&page_size=100');
    const search = items(capabilities).find((row) => row['operation'] === 'v2.searchProperties');
    expect(search).toMatchObject({ path: serviceOperations['v2.searchProperties'].path, price: { rule: 'per_page_with_results', micro_usd: SEARCH_PRICE } });
    expect(items(capabilities)).toHaveLength(Object.keys(serviceOperations).length);
  });

  it('pages with page_size and cursor', async () => {
    const all = await catalog('facet=dictionary&page_size=100');
    const total = Number(data(all)['total_items']);
    const seen: Json[] = [];
    let cursor: string | undefined;
    do {
      const page = await catalog(`facet=dictionary&page_size=30${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      seen.push(...items(page));
      cursor = meta(page)['next_cursor'] as string | undefined;
    } while (cursor !== undefined && seen.length <= total);
    expect(seen.length).toBe(total);
    expect(seen.map((row) => `${String(row['entity_name'])}.${String(row['field_key'])}`)).toEqual(
      [...items(all), ...items(await catalog(`facet=dictionary&page_size=100&cursor=${encodeURIComponent(String(meta(all)['next_cursor']))}`))].map(
        (row) => `${String(row['entity_name'])}.${String(row['field_key'])}`,
      ),
    );
    const sourcesCursor = String(meta(await catalog('facet=jurisdictions&page_size=5'))['next_cursor']);
    await expectRefused(catalog(`facet=sources&cursor=${encodeURIComponent(sourcesCursor)}`), 400, 'invalid_cursor');
  });

  it('refuses bad parameters with a 400 naming the parameter', async () => {
    await expectRefused(catalog('page_size=10'), 400, 'invalid_facet');
    await expectRefused(catalog('facet=weather'), 400, 'invalid_facet');
    await expectRefused(catalog('facet=sources&filter=dc'), 400, 'invalid_filter');
    await expectRefused(catalog('facet=dictionary&filter=dc'), 400, 'invalid_filter');
    await expectRefused(catalog(`facet=coverage&filter=${'x'.repeat(129)}`), 400, 'invalid_filter');
    await expectRefused(catalog('facet=sources&page_size=0'), 400, 'invalid_page_size');
    await expectRefused(catalog('facet=sources&page_size=101'), 400, 'invalid_page_size');
    await expectRefused(catalog('facet=sources&page_size=ten'), 400, 'invalid_page_size');
    await expectRefused(catalog('facet=sources&facet=coverage'), 400, 'invalid_facet');
    await expectRefused(catalog(`facet=dictionary&entity_name=${'x'.repeat(257)}`), 400, 'invalid_entity_name');
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /api/v2/entities/{entity_ref}', () => {
  it('returns a property with cited identifiers and attributes, alternatives and limitations', async () => {
    const property = await propertyBySsl('0065    0004');
    const result = await entity(property);
    expect(result.status).toBe(200);
    expect(result.charged).toBe(ENTITY_PRICE);
    const answer = data(result)['entity'] as Json;
    expect(answer).toMatchObject({
      entity_ref: property,
      entity_kind: 'property',
      area_uid: 'area_us_dc',
      status: 'current',
      coverage_status: 'available',
      valid_from: '2017-02-05',
      valid_to: null,
      generation_id: (meta(result)['generation_ids'] as string[])[0],
    });
    expect(answer['identifiers']).toContainEqual({ scheme: 'ssl', value: '0065    0004', status: 'reported', method: 'as_published', source_refs: [expect.stringMatching(/^rec_/)] });
    const attributes = answer['attributes'] as Record<string, { value: unknown; synthetic: boolean; source_refs: string[]; alternatives: unknown[] }>;
    expect(attributes['owner_name']).toMatchObject({ value: 'WILLIAM O BANK & HILDA O BANK', synthetic: false });
    expect(attributes['assessment_year']).toMatchObject({ value: 2016, method: 'column_name' });
    expect(attributes['year_built']).toMatchObject({ synthetic: true });
    for (const attribute of Object.values(attributes)) expect(attribute.source_refs).toHaveLength(1);
    expect((answer['source_refs'] as string[]).length).toBeGreaterThan(1);
    expect(answer['location']).toMatchObject({ precision: 'square_centroid', citation: { source_id: 'dc_gis_square_points' } });
    expect((answer['limitations'] as string[]).length).toBeGreaterThan(0);
  });

  it('returns every kind of entity the sample holds', async () => {
    const property = await propertyBySsl('0065    0004');
    const related = store.relationships(property).map((link) => link.object_ref);
    const alexandria = String(items(await search({ area_uid: 'area_us_va_alexandria', limit: 1 }))[0]?.['entity_ref']);
    for (const ref of [...related, alexandria]) {
      const result = await entity(ref);
      expect(result.status).toBe(200);
      expect((data(result)['entity'] as Json)['entity_ref']).toBe(ref);
    }
  });

  it('says a placeholder SSL keys no parcel: the search for it, the id such a parcel would have, and each permit giving it', async () => {
    const before = svc.balance();
    const searched = await expectRefused(search({ area_uid: 'area_us_dc', filters: [{ field: 'ssl', op: 'eq', value: '0000 0000' }] }), 404, 'not_found');
    expect(errorOf(searched).message).toContain('SSL 0000 0000 is a placeholder some records carry (square or lot 0000), not a parcel\'s SSL: no property is keyed by it.');
    // The id a parcel of 0000 0000 had before the build refused it (saved assignments and graphs may hold it).
    const placeholderParcel = 'parc_14af5606-65a2-5c48-82a0-858b6e53c12f';
    for (const answer of [await entity(placeholderParcel), await relationships(placeholderParcel)]) {
      expect(answer.status).toBe(404);
      expect(errorOf(answer).message).toMatch(/would be the parcel of SSL 0000 0000, a placeholder .*not a valid parcel key: the sample makes no parcel of it, and the 4 permits that give it keep only their own addresses\.$/);
    }
    expect(svc.balance()).toBe(before);

    // The permits stay, on their own addresses, each saying its SSL is not a valid parcel key.
    const trailers = store.resolveAddress('2600 INDEPENDENCE AVE SE').candidates.find((candidate) => candidate.prefix === 'addr');
    const address = await entity(trailers?.entity_id ?? '');
    const permits = (data(address)['entity'] as { permits: Json[] }).permits;
    expect(permits.map((permit) => [permit['permit_id'], permit['limitations']])).toEqual([
      ['B1401123', [expect.stringMatching(/^Its published SSL "0000 0000" is a placeholder \(square and lot 0000\), not a valid parcel key/)]],
      ['B1510807', [expect.stringMatching(/^Its published SSL "0000 0000" is a placeholder/)]],
    ]);
    const links = await relationships(trailers?.entity_id ?? '');
    const records = (data(links)['nodes'] as Json[]).filter((node) => node['node_type'] === 'record');
    expect(records).toHaveLength(2);
    for (const record of records) expect(record['limitations']).toEqual([expect.stringContaining('not a valid parcel key')]);
    expect((data(links)['nodes'] as Json[]).some((node) => String(node['id']).startsWith('parc_'))).toBe(false);
  });

  it('answers 404 for an unknown entity and 400 for an over-long ref, uncharged', async () => {
    const before = svc.balance();
    await expectRefused(entity('prop_00000000-0000-5000-8000-000000000000'), 404, 'not_found');
    await expectRefused(entity('no-such-thing'), 404, 'not_found');
    await expectRefused(entity('p'.repeat(513)), 400, 'invalid_entity_ref');
    expect(svc.balance()).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------

describe('GET /api/v2/entities/{entity_ref}/relationships', () => {
  it('lists the root and its direct links by default, each edge cited and explained', async () => {
    const property = await propertyBySsl('0065    0004');
    const result = await relationships(property);
    expect(result.status).toBe(200);
    expect(result.charged).toBe(TRAVERSAL_PRICE);
    const answer = data(result);
    expect(answer).toMatchObject({ root_ref: property, depth: 1, max_nodes: 100, max_edges: 200 });
    const edges = answer['edges'] as Json[];
    expect(edges.map((edge) => edge['predicate']).sort()).toEqual(['located_in', 'served_by', 'taxed_in']);
    for (const edge of edges) {
      expect(edge).toMatchObject({ subject_ref: property, direction: 'out', status: 'current', confidence: 1 });
      expect((edge['source_refs'] as string[]).length).toBeGreaterThan(0);
      expect(edge['explanation']).toEqual(expect.any(String));
    }
    const nodes = answer['nodes'] as Json[];
    expect(nodes.map((node) => node['id'])).toEqual([property, ...edges.map((edge) => edge['object_ref'])]);
    expect(meta(result)['truncated']).toBe(false);
  });

  it('walks deeper, including owner links, and truncates at the node and edge caps', async () => {
    const owner = store.findOwners('ANTOINETTE Y SMITH').owners[0];
    const account = owner?.holdings[0]?.account_id ?? '';
    const deep = await relationships(account, 'depth=2');
    const edges = data(deep)['edges'] as Json[];
    expect(edges.some((edge) => edge['predicate'] === 'same_owner' && edge['precision'] === 'approximate')).toBe(true);
    expect(Math.max(...edges.map((edge) => Number(edge['depth'])))).toBe(2);

    const fewNodes = await relationships(account, 'depth=3&max_nodes=3');
    expect((data(fewNodes)['nodes'] as Json[]).length).toBeLessThanOrEqual(3);
    expect(data(fewNodes)['node_count']).toBe(3);
    expect(meta(fewNodes)).toMatchObject({ truncated: true, warnings: [expect.stringContaining('max_nodes 3')] });

    const fewEdges = await relationships(account, 'depth=3&max_edges=2');
    expect(data(fewEdges)['edges']).toHaveLength(2);
    expect(meta(fewEdges)['truncated']).toBe(true);
  });

  it('follows direction, predicates and as_of', async () => {
    const property = await propertyBySsl('0065    0004');
    const parcel = store.relationships(property, { predicates: ['located_in'] })[0]?.object_ref ?? '';
    const incoming = await relationships(parcel, 'direction=in');
    for (const edge of data(incoming)['edges'] as Json[]) expect(edge).toMatchObject({ object_ref: parcel, direction: 'in' });
    const taxed = await relationships(property, 'predicates=taxed_in');
    expect((data(taxed)['edges'] as Json[]).map((edge) => edge['predicate'])).toEqual(['taxed_in']);
    // OTR links hold from the roll's publication (2017-02-05); before it there are none.
    const early = await relationships(property, 'as_of=2016-06-30');
    expect(data(early)['edges']).toEqual([]);
    expect(meta(early)['warnings']).toEqual([expect.stringContaining('after as_of 2016-06-30')]);
    const later = await relationships(property, 'as_of=2017-02-05T12:00:00Z');
    expect((data(later)['edges'] as Json[]).length).toBe(3);
  });

  it('pages edges by cursor, each page charged', async () => {
    const owner = store.findOwners('ANTOINETTE Y SMITH').owners[0];
    const account = owner?.holdings[0]?.account_id ?? '';
    const whole = await relationships(account, 'depth=3&max_nodes=50&page_size=100');
    const all = (data(whole)['edges'] as Json[]).map((edge) => edge['relationship_ref']);
    expect(all.length).toBe(data(whole)['edge_count']);
    expect(all.length).toBeGreaterThan(40);
    const paged: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await relationships(account, `depth=3&max_nodes=50&page_size=20${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(page.charged).toBe(TRAVERSAL_PRICE);
      const edges = data(page)['edges'] as Json[];
      paged.push(...edges.map((edge) => edge['relationship_ref']));
      // Each page carries the nodes its edges join.
      const nodeIds = new Set((data(page)['nodes'] as Json[]).map((node) => node['id']));
      for (const edge of edges) {
        expect(nodeIds.has(edge['subject_ref'])).toBe(true);
        expect(nodeIds.has(edge['object_ref'])).toBe(true);
      }
      cursor = meta(page)['next_cursor'] as string | undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 10);
    expect(pages).toBe(Math.ceil(all.length / 20));
    expect(paged).toEqual(all);
    const otherCursor = String(meta(await relationships(account, 'depth=2&page_size=1'))['next_cursor']);
    await expectRefused(relationships(account, `depth=3&max_nodes=50&cursor=${encodeURIComponent(otherCursor)}`), 400, 'invalid_cursor');
  });

  it('refuses bad parameters with a 400 naming the parameter, and an unknown root with a 404', async () => {
    const property = await propertyBySsl('0065    0004');
    const cases: Array<[string, string]> = [
      ['direction=sideways', 'invalid_direction'],
      ['predicates=owns', 'invalid_predicates'],
      ['predicates=same_owner', 'invalid_predicates'],
      [`predicates=${Array.from({ length: 51 }, () => 'taxed_in').join(',')}`, 'invalid_predicates'],
      ['as_of=2017-02-30', 'invalid_as_of'],
      ['depth=0', 'invalid_depth'],
      ['depth=4', 'invalid_depth'],
      ['max_nodes=201', 'invalid_max_nodes'],
      ['max_edges=0', 'invalid_max_edges'],
      ['page_size=101', 'invalid_page_size'],
      ['depth=1&depth=2', 'invalid_depth'],
      ['cursor=garbage', 'invalid_cursor'],
    ];
    for (const [query, code] of cases) await expectRefused(relationships(property, query), 400, code);
    await expectRefused(relationships('prop_00000000-0000-5000-8000-000000000000'), 404, 'not_found');
  });
});
