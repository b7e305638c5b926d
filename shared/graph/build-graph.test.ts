import { describe, expect, it } from 'vitest';
import { buildGraph, emptyGraph, graphSpec, linkKey, mergeAnswer, refCitation, type GraphAnswer } from './build-graph.ts';
import { GraphSpecSchema } from './graph-spec.ts';
import { modelLinks } from './links.ts';
import { envelope, ids } from './test-kit.ts';
import { independentRelationships, RELATIONSHIP_IDS } from '../service/dialect-test-kit.ts';

const relationships = (name: Parameters<typeof envelope>[0]): GraphAnswer => ({ kind: 'relationships', envelope: envelope(name) });
const graph1708 = () =>
  buildGraph(ids.property1708, [
    relationships('relationships1708Depth2'),
    { kind: 'connected', qId: ids.parcel1708, depth: 2, envelope: envelope('connected1708') },
    { kind: 'entity', envelope: envelope('entityProperty1708') },
    { kind: 'owner-search', name: 'JOEL KUIPERS', envelope: envelope('searchKuipers') },
  ]);
const graphPoozesh = () =>
  buildGraph(ids.propertyPoozesh, [relationships('relationshipsPoozesh'), { kind: 'owner-search', name: 'ABDOLLAH POOZESH', envelope: envelope('searchPoozesh') }]);

describe('merging answers', () => {
  it('merges v2 traversal and v4 connected into one entity per id and one link per subject–predicate–object', () => {
    const { model, problems } = graph1708();
    expect(problems).toEqual([]);
    expect([...model.entities.keys()].sort()).toEqual([ids.account1708, ids.address1708, ids.parcel1708, ids.property1708].sort());
    // v4 restates three of the traversal's five links: still five.
    expect(model.links.size).toBe(5);
    const assessed = model.links.get(linkKey(ids.account1708, 'assessed_in', ids.parcel1708));
    expect(assessed).toMatchObject({ method: 'ssl_match', relationshipRef: 'rel_e3d55166-838a-54e3-87b6-682c0d2b1b8b', validFrom: '2017-02-05', confidence: 1 });
    // The entity answer and the search both name JOEL KUIPERS from one ownership record: one owner, one claim.
    expect([...model.owners.keys()]).toEqual(['owner:JOEL KUIPERS']);
    expect([...(model.owners.get('owner:JOEL KUIPERS')?.values() ?? [])].map((claim) => claim.holdingId)).toEqual([ids.property1708]);
  });

  it('reads a v4 link’s subject from its direction as seen from `via`', () => {
    const { model } = buildGraph(ids.parcel1708, [{ kind: 'connected', qId: ids.parcel1708, depth: 2, envelope: envelope('connected1708') }]);
    expect([...model.links.values()].map((link) => [link.subject, link.predicate, link.object])).toEqual([
      [ids.parcel1708, 'served_by', ids.address1708],
      [ids.property1708, 'located_in', ids.parcel1708],
      [ids.account1708, 'assessed_in', ids.parcel1708],
    ]);
  });

  it('adds only the new neighbours of an expansion, and nothing when the same answer comes again', () => {
    const first = graphPoozesh();
    const expansion: GraphAnswer = { kind: 'connected', qId: ids.accountPoozesh, depth: 2, envelope: envelope('accountConnectedPoozesh') };
    const expanded = mergeAnswer(first.model, expansion);
    expect(expanded.problems).toEqual([]);
    expect(expanded.added).toEqual([]);
    expect(expanded.model.links.size).toBe(first.model.links.size + 2);
    expect(expanded.model.links.has(linkKey(ids.propertyPoozesh2, 'taxed_in', ids.accountPoozesh2))).toBe(true);
    const again = mergeAnswer(expanded.model, expansion);
    expect(again.added).toEqual([]);
    expect(again.model.links.size).toBe(expanded.model.links.size);
    expect(again.model.entities.size).toBe(expanded.model.entities.size);
    // The merge is pure: the model it started from is as it was.
    expect(first.model.links.has(linkKey(ids.propertyPoozesh2, 'taxed_in', ids.accountPoozesh2))).toBe(false);
  });

  it('lists the entities an expansion adds', () => {
    const { model } = buildGraph(ids.propertyPoozesh, [relationships('relationshipsPoozesh')]);
    const expanded = mergeAnswer(model, { kind: 'connected', qId: ids.accountPoozesh, depth: 2, envelope: envelope('accountConnectedPoozesh') });
    expect(expanded.added.sort()).toEqual([ids.parcelPoozesh2, ids.propertyPoozesh2].sort());
  });

  it('keeps the model and says why when an answer is an error', () => {
    const { model } = graph1708();
    const result = mergeAnswer(model, { kind: 'connected', qId: 'parc_00000000-0000-5000-8000-000000000000', depth: 2, envelope: envelope('connectedNotFound') });
    expect(result.problems).toEqual(['The connected answer is an error (not_found): No entity parc_00000000-0000-5000-8000-000000000000 in the sample.']);
    expect(result.model.entities.size).toBe(model.entities.size);
    expect(result.added).toEqual([]);
  });

  it('says where an answer breaks the contract instead of taking part of it', () => {
    const broken = envelope('relationships1708Depth2');
    delete (broken.data as Record<string, unknown>).root_ref;
    const result = mergeAnswer(emptyGraph(ids.property1708), { kind: 'relationships', envelope: broken });
    expect(result.problems[0]).toMatch(/not in the shape Plat reads \(data\.root_ref: .*\); nothing was taken from it/);
    expect(result.model.entities.size).toBe(0);
  });
});

describe('graphSpec', () => {
  it('draws a chain from 1708 21ST ST NW as facts, named as people know them, in layers', () => {
    const { spec, caps } = graphSpec(graph1708().model);
    expect(GraphSpecSchema.parse(spec)).toEqual(spec);
    expect(spec.layout).toBe('layered');
    expect(caps).toEqual([]);
    expect(spec.edges.every((edge) => edge.strength === 'fact')).toBe(true);
    const label = (id: string) => spec.nodes.find((node) => node.id === id)?.label;
    expect(spec.edges.map((edge) => `${label(edge.source)} — ${edge.label} → ${label(edge.target)}`)).toEqual([
      '1708 21ST ST NW — located on → SSL 0065 0007',
      '1708 21ST ST NW — taxed under → Account 0065 0007',
      '1708 21ST ST NW — has address → 1708 21ST ST NW',
      'Account 0065 0007 — assesses → SSL 0065 0007',
      'SSL 0065 0007 — has address → 1708 21ST ST NW',
      '1708 21ST ST NW — owned by → JOEL KUIPERS',
    ]);
    expect(spec.nodes.find((node) => node.root)).toMatchObject({ id: ids.property1708, depth: 0 });
    expect(spec.altText).toMatch(/^Graph of 1708 21ST ST NW: 5 entities .* and 6 links: 6 facts and 0 leads, none to confirm\./);
  });

  it('makes the service’s same-name link a lead, and each holding’s own ownership record a fact whatever the root', () => {
    const { spec } = graphSpec(graphPoozesh().model);
    const edge = (source: string, target: string) => spec.edges.find((candidate) => candidate.source === source && candidate.target === target);
    expect(edge(ids.accountPoozesh, ids.accountPoozesh2)).toMatchObject({ label: 'same owner name as', strength: 'lead', confidence: 0.6 });
    expect(edge(ids.propertyPoozesh, 'owner:ABDOLLAH POOZESH')).toMatchObject({ strength: 'fact', confidence: 1 });
    // 1620 Q ST NW's record names ABDOLLAH POOZESH: its fact. That he is 1709 17TH ST NW's owner too is not (factReach).
    expect(edge(ids.propertyPoozesh2, 'owner:ABDOLLAH POOZESH')).toMatchObject({ strength: 'fact', confidence: 1 });
  });

  it('marks what has not been expanded yet', () => {
    const { spec } = graphSpec(graphPoozesh().model);
    const expandable = (id: string) => spec.nodes.find((node) => node.id === id)?.expandable;
    expect(expandable(ids.propertyPoozesh)).toBe(false);
    expect(expandable(ids.accountPoozesh)).toBe(false);
    expect(expandable(ids.accountPoozesh2)).toBe(true);
    // The search held every holding of this name: the owner has nothing more to show.
    expect(expandable('owner:ABDOLLAH POOZESH')).toBe(false);
  });

  it('draws a portfolio in a force layout, every holding its record’s fact, and says how much of it is loaded', () => {
    const { model } = buildGraph('owner:DISTRICT OF COLUMBIA', [
      { kind: 'owner-search', name: 'DISTRICT OF COLUMBIA', envelope: envelope('searchDc1') },
      { kind: 'owner-search', name: 'DISTRICT OF COLUMBIA', envelope: envelope('searchDc2') },
    ]);
    const { spec, caps } = graphSpec(model);
    expect(spec.layout).toBe('force');
    const owned = spec.edges.filter((edge) => edge.target === 'owner:DISTRICT OF COLUMBIA');
    expect(owned).toHaveLength(20);
    expect(owned.every((edge) => edge.strength === 'fact' && edge.label === 'owned by')).toBe(true);
    expect(caps).toEqual(['Owners named like "DISTRICT OF COLUMBIA": 20 of 252 holdings loaded.']);
    expect(spec.nodes.find((node) => node.root)).toMatchObject({ kind: 'owner', label: 'DISTRICT OF COLUMBIA', expandable: true });
    expect(spec.altText).toContain('The table beside it lists every link.');
  });

  it('states the caps the service reached: its node cap and the pages not loaded', () => {
    const { spec, caps } = graphSpec(buildGraph(ids.property1708, [relationships('relationships1708Capped')]).model);
    expect(caps).toEqual([
      'The answers list 2 of 3 links within 2 steps of 1708 21ST ST NW.',
      'The service stopped listing links within 2 steps of 1708 21ST ST NW at its cap (max_nodes 3): more exist than it listed.',
    ]);
    expect(spec.altText).toContain('The answers list 2 of 3 links within 2 steps of 1708 21ST ST NW.');
    expect(spec.nodes.find((node) => node.root)?.expandable).toBe(true);
  });

  it('makes every link through a placeholder SSL a lead and says the permits are not drawn', () => {
    const { spec, notes } = graphSpec(buildGraph(ids.parcelPlaceholder, [relationships('relationshipsPlaceholder')]).model);
    expect(spec.nodes.find((node) => node.root)?.label).toBe('SSL 0000 0000: not a valid parcel key');
    expect(spec.edges).toHaveLength(3);
    expect(spec.edges.every((edge) => edge.strength === 'lead')).toBe(true);
    expect(notes).toEqual(['4 permit records linked here are not drawn: the graph draws entities only; the runsheet lists the permits.']);
  });

  it('filters by entity kind and by relation, and says what the filters hide', () => {
    const { model } = graph1708();
    const byKind = graphSpec(model, { kinds: ['parcel'] });
    expect(byKind.spec.nodes.map((node) => node.id)).toEqual([ids.property1708, ids.parcel1708]);
    expect(byKind.notes).toEqual(['3 entities hidden by the filters.']);
    const byRelation = graphSpec(model, { relations: ['taxed_in', 'owned_by'] });
    expect(byRelation.spec.edges.map((edge) => edge.label)).toEqual(['taxed under', 'owned by']);
  });
});

describe('a traversal of another service (nodes {entity_ref, entity_kind, label, depth}, predicates Plat has no words for)', () => {
  it('reads each node by the keys it carries and keeps every link, cited by its refs', () => {
    const { model, problems } = buildGraph(RELATIONSHIP_IDS.property, [{ kind: 'relationships', envelope: independentRelationships() }]);
    expect(problems).toEqual([]);
    expect([...model.entities.values()].map((entity) => [entity.id, entity.kind, entity.label])).toEqual([
      [RELATIONSHIP_IDS.property, 'property', '1708 21ST ST NW'],
      [RELATIONSHIP_IDS.parcel, 'parcel', 'SSL 0065 0007'],
      [RELATIONSHIP_IDS.account, 'tax_account', 'Account 0065 0007'],
      [RELATIONSHIP_IDS.address, 'address', '1708 21ST ST NW'],
    ]);
    expect([...model.links.values()].map((link) => link.predicate)).toEqual(['situs_of', 'account_for', 'owner_of']);
    expect(refCitation(model, 'dc_otr_ownership@20170205')).toMatchObject({ publisher: 'DC Office of Tax and Revenue', asOf: '2017-02-05T00:00:00Z' });
    expect(model.expanded.has(RELATIONSHIP_IDS.property)).toBe(true);
    // Drawn: every node and link, under the service's own words; the mark is the legend's, said once
    // (repeated on every edge it covered the drawing), and the link's panel and table keep it.
    const { spec } = graphSpec(model);
    expect(spec.nodes).toHaveLength(4);
    const ownerOf = spec.edges.find((edge) => edge.label === 'owner_of');
    expect(ownerOf).toMatchObject({ notRecognised: true });
    expect(spec.edges.every((edge) => !edge.label.includes('not recognised'))).toBe(true);
    expect(modelLinks(model).find((link) => link.predicate === 'owner_of')?.label).toBe('owner_of — not recognised by Plat');
  });

  it('reads nodes under `ref`/`type` and `q_id` too, and keeps a link whose end the nodes do not list when its id says its kind', () => {
    const answer = independentRelationships();
    const data = answer.data as { nodes: Array<Record<string, unknown>> };
    data.nodes = [
      { ref: RELATIONSHIP_IDS.property, type: 'property', label: '1708 21ST ST NW', depth: 0 },
      { q_id: RELATIONSHIP_IDS.parcel, kind: 'parcel', depth: 1 },
    ];
    const { model } = buildGraph(RELATIONSHIP_IDS.property, [{ kind: 'relationships', envelope: answer }]);
    expect([...model.entities.keys()]).toEqual([RELATIONSHIP_IDS.property, RELATIONSHIP_IDS.parcel, RELATIONSHIP_IDS.account, RELATIONSHIP_IDS.address]);
    expect(model.links.size).toBe(3);
  });
});

describe('an answer Plat cannot read', () => {
  it('is kept as published with its citations, and its problem said; an error answer carries nothing bought', () => {
    const answer = independentRelationships();
    (answer.data as Record<string, unknown>).edges = [{ from: RELATIONSHIP_IDS.parcel, rel: 'situs_of' }];
    const { problems, unread } = buildGraph(RELATIONSHIP_IDS.property, [
      { kind: 'relationships', envelope: answer },
      { kind: 'connected', qId: ids.parcel1708, depth: 2, envelope: envelope('connectedNotFound') },
    ]);
    expect(problems).toHaveLength(2);
    expect(unread).toEqual([{ part: 'the relationships answer', value: answer.data, citations: [expect.objectContaining({ sourceId: 'dc_otr_ownership' }), expect.objectContaining({ sourceId: 'dc_otr_assessment' })] }]);
  });

  it('keeps a node naming no id Plat reads, and every node and link it can read', () => {
    const answer = independentRelationships();
    (answer.data as { nodes: unknown[] }).nodes.push({ handle: 'n-7', what: 'loan' });
    const { model, unread } = buildGraph(RELATIONSHIP_IDS.property, [{ kind: 'relationships', envelope: answer }]);
    expect(model.links.size).toBe(3);
    expect(unread.map((part) => [part.part, part.value])).toEqual([['node 5 of the relationships answer (it names no id Plat reads)', { handle: 'n-7', what: 'loan' }]]);
    expect(unread[0]?.citations).toHaveLength(2);
  });
});

describe('an owner search’s count of holdings', () => {
  it('counts parcels, not rows: a parcel the roll lists on two rows is one holding', () => {
    const page = envelope('searchDc1') as { data: { items: Record<string, unknown>[] } };
    const property = page.data.items.find((item) => item.entity_kind === 'property')!;
    // The same parcel's second row of the roll: another property record, the same SSL.
    const second = { ...structuredClone(property), entity_ref: 'prop_00000000-0000-4000-8000-000000000001', property_ref: 'prop_00000000-0000-4000-8000-000000000001' };
    page.data.items.push(second);
    const { model } = buildGraph('owner:DISTRICT OF COLUMBIA', [{ kind: 'owner-search', name: 'DISTRICT OF COLUMBIA', envelope: page }]);
    const rows = new Set(page.data.items.map((item) => item.property_ref ?? item.entity_ref)).size;
    expect(graphSpec(model).caps).toEqual([`Owners named like "DISTRICT OF COLUMBIA": ${rows - 1} holdings from ${rows} of 252 records loaded.`]);
  });
});
