// The Graph view's pure model on real answers (shared/graph/fixtures): what a typed root is, which
// requests draw and expand it, merging only new answers, the table's rows and citations, and the
// runsheet's record searches.
import { describe, expect, it } from 'vitest';
import { embeddedCatalog, independentCatalog } from '../../../shared/service/record-fields-fixtures.ts';
import { buildGraph, graphSpec, type GraphAnswer } from '../../../shared/graph/build-graph.ts';
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import { fixtures, envelope, ids } from '../../../shared/graph/test-kit.ts';
import {
  advanceGraph,
  defaultTraversal,
  describeRequest,
  entityRequest,
  expansionRequests,
  graphAnswerOf,
  graphTable,
  nextPageRequest,
  ownerSearchRequest,
  parcelOf,
  parcelSsl,
  parcelsOf,
  readRoot,
  relationshipsRequest,
  rootRequests,
  runsheetFilename,
  runsheetParcel,
  runsheetSearches,
  specFilters,
  uniqueRequests,
} from './graph-model.ts';

const AREA = 'area_us_dc';
const answer = (name: Parameters<typeof envelope>[0], as: GraphAnswer['kind'] = 'relationships', extra: Record<string, unknown> = {}) =>
  ({ kind: as, envelope: envelope(name), ...extra }) as GraphAnswer;
const graph1708 = () =>
  buildGraph(ids.property1708, [answer('relationships1708Depth2'), answer('entityProperty1708', 'entity'), answer('searchKuipers', 'owner-search', { name: 'JOEL KUIPERS' })]).model;

describe('readRoot', () => {
  it('takes an entity id, an owner id or page entry, or an owner name, and says what else it cannot draw', () => {
    expect(readRoot(` ${ids.property1708.toUpperCase()} `)).toEqual({ ok: true, root: { kind: 'entity', id: ids.property1708 } });
    expect(readRoot('owner:JOEL KUIPERS')).toEqual({ ok: true, root: { kind: 'owner', id: 'owner:JOEL KUIPERS', name: 'JOEL KUIPERS', areaUid: null } });
    expect(readRoot('owner:area_us_dc/District of Columbia')).toEqual({
      ok: true,
      root: { kind: 'owner', id: 'owner:DISTRICT OF COLUMBIA', name: 'District of Columbia', areaUid: 'area_us_dc' },
    });
    // A slash in a name is part of the name unless an area comes before it.
    expect(readRoot('owner:SMITH J/O TRUST')).toMatchObject({ ok: true, root: { name: 'SMITH J/O TRUST', areaUid: null } });
    expect(readRoot('Abdollah  Poozesh')).toMatchObject({ ok: true, root: { kind: 'owner', id: 'owner:ABDOLLAH POOZESH' } });
    expect(readRoot('prop_1234')).toEqual({ ok: false, problem: expect.stringMatching(/looks like an entity id but is not one Plat can draw/) });
    expect(readRoot('   ')).toEqual({ ok: false, problem: expect.stringMatching(/^Type an entity id/) });
    expect(readRoot('J.')).toEqual({ ok: false, problem: 'An owner name needs at least two letters or digits.' });
    expect(readRoot('x'.repeat(101))).toEqual({ ok: false, problem: expect.stringMatching(/at most 100 characters \(this is 101\)/) });
  });
});

describe('requests', () => {
  it('draws an entity from its relationships, its connected entities when v4 takes its id, and its record', () => {
    const property = rootRequests({ kind: 'entity', id: ids.property1708 }, defaultTraversal, AREA);
    expect(property.map((request) => request.operation)).toEqual(['traverseRelationships', 'getEntity']);
    expect(property[0]?.parts).toEqual({ path: { entity_ref: ids.property1708 }, query: { direction: 'both', depth: 2, max_nodes: 100, max_edges: 200, page_size: 100 } });
    const parcel = rootRequests({ kind: 'entity', id: ids.parcel1708 }, { ...defaultTraversal, depth: 3, predicates: ['located_in', 'taxed_in'], direction: 'in' }, AREA);
    expect(parcel.map((request) => request.operation)).toEqual(['traverseRelationships', 'getConnectedEntities', 'getEntity']);
    expect(parcel[0]?.parts).toMatchObject({ query: { direction: 'in', depth: 3, predicates: 'located_in,taxed_in' } });
    expect(parcel[1]?.parts).toEqual({ path: { q_id: ids.parcel1708 }, query: { depth: 3, limit: 100 } });
  });

  it('draws an owner from the owner-name search in its area, or asks nothing while no area is known', () => {
    const [search] = rootRequests({ kind: 'owner', id: 'owner:JOEL KUIPERS', name: 'JOEL KUIPERS', areaUid: null }, defaultTraversal, AREA);
    // The same request the Owners view and the find box send: one cached answer for all of them.
    expect(search?.parts).toEqual({ body: fixtures.searchKuipers.request.body });
    expect(rootRequests({ kind: 'owner', id: 'owner:JOEL KUIPERS', name: 'JOEL KUIPERS', areaUid: null }, defaultTraversal, null)).toEqual([]);
    const [inArea] = rootRequests({ kind: 'owner', id: 'owner:JOEL KUIPERS', name: 'JOEL KUIPERS', areaUid: 'area_us_va' }, defaultTraversal, AREA);
    expect(inArea?.kind === 'owner-search' && inArea.parts.body.area_uid).toBe('area_us_va');
  });

  it('expands an entity one step with the root’s relations, and an owner by its most used published spelling', () => {
    const { model } = buildGraph(ids.propertyPoozesh, [answer('relationshipsPoozesh'), answer('searchPoozesh', 'owner-search', { name: 'POOZESH' })]);
    const entity = expansionRequests(model, ids.accountPoozesh2, { ...defaultTraversal, predicates: ['taxed_in'] }, AREA);
    expect(entity.map((request) => [request.operation, request.parts])).toEqual([
      ['traverseRelationships', { path: { entity_ref: ids.accountPoozesh2 }, query: { direction: 'both', depth: 1, max_nodes: 100, max_edges: 200, page_size: 100, predicates: 'taxed_in' } }],
      ['getConnectedEntities', { path: { q_id: ids.accountPoozesh2 }, query: { depth: 1, limit: 100 } }],
      ['getEntity', { path: { entity_ref: ids.accountPoozesh2 } }],
    ]);
    const [owner] = expansionRequests(model, 'owner:ABDOLLAH POOZESH', defaultTraversal, AREA);
    expect(owner).toMatchObject({ operation: 'searchProperties', name: 'ABDOLLAH POOZESH', parts: { body: { filters: [{ field: 'owner_name', op: 'contains', value: 'ABDOLLAH POOZESH' }] } } });
    expect(expansionRequests(model, 'owner:ABDOLLAH POOZESH', defaultTraversal, null)).toEqual([]);
  });

  it('asks for the next page of an answer that has more, and for none of one that is whole', () => {
    const first = ownerSearchRequest('DISTRICT OF COLUMBIA', AREA);
    const next = nextPageRequest(first, fixtures.searchDc1.envelope);
    expect(next?.kind === 'owner-search' && next.parts.body.cursor).toBe(fixtures.searchDc1.envelope.meta.next_cursor);
    expect(next?.key).not.toBe(first.key);
    expect(nextPageRequest(relationshipsRequest(ids.property1708, defaultTraversal), fixtures.relationships1708Depth2.envelope)).toBeNull();
    const capped = nextPageRequest(relationshipsRequest(ids.property1708, defaultTraversal), fixtures.relationships1708Capped.envelope);
    expect(capped?.kind === 'relationships' && capped.parts.query.cursor).toEqual(expect.any(String));
    expect(nextPageRequest(entityRequest(ids.property1708), fixtures.entityProperty1708.envelope)).toBeNull();
  });

  it('keeps one of each request and describes each for a person', () => {
    const model = graph1708();
    const requests = uniqueRequests([...rootRequests({ kind: 'entity', id: ids.property1708 }, defaultTraversal, AREA), entityRequest(ids.property1708)]);
    expect(requests).toHaveLength(2);
    expect(requests.map((request) => describeRequest(request, model))).toEqual([
      'Links of 1708 21ST ST NW within 2 steps (relationships)',
      'The record of 1708 21ST ST NW (its owner of record)',
    ]);
    expect(describeRequest(nextPageRequest(ownerSearchRequest('DISTRICT OF COLUMBIA', AREA), fixtures.searchDc1.envelope)!, model)).toBe('Holdings of owners named like “DISTRICT OF COLUMBIA” (next page)');
  });
});

describe('advanceGraph', () => {
  const rootAnswers = [relationshipsRequest(ids.propertyPoozesh, defaultTraversal)].map((request) => ({ key: request.key, answer: graphAnswerOf(request, envelope('relationshipsPoozesh')) }));

  it('merges only the answers that arrived since the last, listing the entities they add', () => {
    const first = advanceGraph(null, ids.propertyPoozesh, rootAnswers);
    expect(first.problems).toEqual([]);
    const expansion = { key: 'expand', answer: { kind: 'connected', qId: ids.accountPoozesh, depth: 2, envelope: envelope('accountConnectedPoozesh') } as GraphAnswer };
    const second = advanceGraph(first, ids.propertyPoozesh, [...rootAnswers, expansion]);
    expect(second.added.sort()).toEqual([ids.parcelPoozesh2, ids.propertyPoozesh2].sort());
    expect(second.model.entities.size).toBe(first.model.entities.size + 2);
    // Nothing new: the same graph, not a copy.
    expect(advanceGraph(second, ids.propertyPoozesh, [...rootAnswers, expansion])).toBe(second);
  });

  it('builds again when the root changes or an earlier answer is gone', () => {
    const first = advanceGraph(null, ids.propertyPoozesh, rootAnswers);
    const other = advanceGraph(first, ids.property1708, [{ key: 'r', answer: answer('relationships1708Depth1') }]);
    expect(other.model.rootId).toBe(ids.property1708);
    expect(other.model.entities.has(ids.propertyPoozesh)).toBe(false);
    expect(advanceGraph(first, ids.propertyPoozesh, []).model.entities.size).toBe(0);
  });
});

describe('graphTable', () => {
  it('lists every link with its rule, strength, confidence, decision and the records it rests on, cited', () => {
    const model = graph1708();
    const view = graphSpec(model);
    const book = new CitationBook();
    const taxed = view.links.find((link) => link.predicate === 'taxed_in')?.key ?? '';
    const decision = { edgeKey: taxed, decision: 'confirmed' as const, note: 'Tax bill checked.', at: '2017-01-03T10:00:00Z' };
    const { links, nodes } = graphTable(model, view, [decision], book.cite);
    expect(links.map((row) => [row.from, row.label, row.to, row.rule, row.strength])).toEqual([
      ['1708 21ST ST NW', 'located on', 'SSL 0065 0007', 'Same SSL', 'fact'],
      ['1708 21ST ST NW', 'taxed under', 'Account 0065 0007', 'One record names both', 'fact'],
      ['1708 21ST ST NW', 'has address', '1708 21ST ST NW', 'One record names both', 'fact'],
      ['Account 0065 0007', 'assesses', 'SSL 0065 0007', 'Same SSL', 'fact'],
      ['SSL 0065 0007', 'has address', '1708 21ST ST NW', 'One record names both', 'fact'],
      ['1708 21ST ST NW', 'owned by', 'JOEL KUIPERS', 'Owner of record', 'fact'],
    ]);
    const taxedRow = links.find((row) => row.key === taxed);
    expect(taxedRow?.decision).toEqual(decision);
    // Two records tie the property to its account: the ownership record and the account's.
    const cited = book.all().filter((citation) => taxedRow?.citationIds.includes(citation.id));
    expect(cited.map((citation) => citation.recordRef).sort()).toEqual(['rec_1b9a121d-8953-5913-9352-9205ab55c004', 'rec_23cf6780-2221-547e-b0e2-eaf741fda9ee']);
    expect(cited.every((citation) => citation.publisher === 'DC Office of Tax and Revenue')).toBe(true);
    expect(nodes.map((row) => [row.kindLabel, row.name, row.depth])).toEqual([
      ['Property', '1708 21ST ST NW', 0],
      ['Parcel', 'SSL 0065 0007', 1],
      ['Tax account', 'Account 0065 0007', 1],
      ['Address', '1708 21ST ST NW', 1],
      ['Owner', 'JOEL KUIPERS', 1],
    ]);
    expect(nodes.every((row) => row.citationIds.length > 0)).toBe(true);
  });

  it('says a node the drawn links no longer reach is not reached', () => {
    const model = graph1708();
    const view = graphSpec(model, specFilters([], ['located_in', 'taxed_in', 'served_by'], model));
    const { nodes } = graphTable(model, view, [], new CitationBook().cite);
    expect(nodes.find((row) => row.name === 'Account 0065 0007')?.depth).toBeNull();
  });
});

describe('specFilters', () => {
  it('leaves out what is not hidden, and names what is shown when something is', () => {
    const model = graph1708();
    expect(specFilters([], [], model)).toEqual({});
    const filters = specFilters(['address'], ['owned_by'], model);
    expect(filters.kinds).not.toContain('address');
    expect(filters.kinds).toContain('owner');
    expect([...(filters.relations ?? [])].sort()).toEqual(['assessed_in', 'located_in', 'served_by', 'taxed_in']);
    expect(graphSpec(model, filters).spec.nodes.map((node) => node.label)).toEqual(['1708 21ST ST NW', 'SSL 0065 0007', 'Account 0065 0007']);
  });
});

describe('runsheet', () => {
  it('finds the parcel of a parcel, of a property on it, of a selected link, or of the root', () => {
    const model = graph1708();
    const { links } = graphSpec(model);
    expect(parcelOf(model, ids.parcel1708)).toBe(ids.parcel1708);
    expect(parcelOf(model, ids.property1708)).toBe(ids.parcel1708);
    expect(parcelOf(model, 'owner:JOEL KUIPERS')).toBeNull();
    expect(parcelsOf(model)).toEqual([{ id: ids.parcel1708, label: 'SSL 0065 0007' }]);
    const owned = links.find((link) => link.predicate === 'owned_by')?.key ?? '';
    expect(runsheetParcel(model, links, { type: 'link', id: owned })).toBe(ids.parcel1708);
    expect(runsheetParcel(model, links, null)).toBe(ids.parcel1708);
  });

  it('searches a parcel’s sale, ownership and permit records by its canonical SSL, as the fixtures were asked', () => {
    const model = buildGraph(ids.parcel934, [answer('entity934', 'entity')]).model;
    const ssl = parcelSsl(model, ids.parcel934);
    expect(ssl).toBe('0368    0909');
    const searches = runsheetSearches(ssl ?? '', embeddedCatalog);
    expect(searches.map((search) => search.kind)).toEqual(['sale', 'ownership', 'permit']);
    expect(searches.find((search) => search.kind === 'permit')?.parts?.query).toMatchObject(fixtures.permits934.request.query);
    expect(searches.find((search) => search.kind === 'sale')?.parts?.query).toMatchObject(fixtures.sales934.request.query);
    // A placeholder is searched as the records carry it (the runsheet warns of it); what is no SSL at all is not searched.
    expect(parcelSsl(buildGraph(ids.parcelPlaceholder, [answer('entityPlaceholder', 'entity')]).model, ids.parcelPlaceholder)).toBe('0000    0000');
    expect(parcelSsl(model, ids.parcel934, { data: { entity: { identifiers: [{ scheme: 'ssl', value: 'PAR 01230045' }] } } })).toBeNull();
  });

  it('filters on the SSL field the service’s catalog names (SSL, SSLCANONICAL), never on Plat’s own name', () => {
    const searches = runsheetSearches('0368    0909', independentCatalog);
    const filters = searches.map((search) => [search.kind, search.parts?.query?.filter ?? null, search.problem]);
    expect(filters).toEqual([
      ['sale', JSON.stringify({ SSL: '0368    0909' }), null],
      ['ownership', JSON.stringify({ SSL: '0368    0909' }), null],
      ['permit', JSON.stringify({ SSLCANONICAL: '0368    0909' }), null],
    ]);
  });

  it('sends no search (no paid call) of a kind whose catalog names no SSL field, and says why before any charge', () => {
    const catalog = independentCatalog.map((item) => (item.kind === 'sale' ? { ...item, fields: { PARCEL: { data_type: 'text', label: 'Parcel' } } } : item));
    const [sale, ownership] = runsheetSearches('0368    0909', catalog);
    expect(sale).toEqual({ kind: 'sale', parts: null, problem: 'This service’s catalog names no SSL field for sale records in DC; Plat cannot search them by parcel.' });
    expect(ownership?.parts).not.toBeNull();
    expect(runsheetSearches('0368    0909', []).every((search) => search.parts === null && /lists no fields/.test(search.problem ?? ''))).toBe(true);
  });

  it('names the CSV safely after the assignment, the parcel and the day', () => {
    expect(runsheetFilename('Dupont: row/house', 'SSL 0065 0007', '2017-01-03')).toBe('Dupont- row-house – runsheet SSL 0065 0007 – 2017-01-03.csv');
    expect(runsheetFilename(null, 'SSL 0065 0007', '2017-01-03')).toBe('runsheet SSL 0065 0007 – 2017-01-03.csv');
  });
});
