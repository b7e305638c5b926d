import { describe, expect, it } from 'vitest';
import { buildGraph, graphSpec, linkKey, type GraphAnswer } from './build-graph.ts';
import { applyDecisions, linkStanding, linkTally, type GraphDecision } from './decisions.ts';
import { factReach, linkRuleLabels, modelLinks, ownerLinkKey } from './links.ts';
import { whyLinked } from './why-linked.ts';
import { CitationBook } from '../cited/citation-book.ts';
import { envelope, ids } from './test-kit.ts';

/** Every answer about 1708 21ST ST NW: its property's links, its parcel's connected entities, both records, its owner's holdings. */
const answers1708 = (): GraphAnswer[] => [
  { kind: 'relationships', envelope: envelope('relationships1708Depth2') },
  { kind: 'connected', qId: ids.parcel1708, depth: 2, envelope: envelope('connected1708') },
  { kind: 'entity', envelope: envelope('entityProperty1708') },
  { kind: 'entity', envelope: envelope('entityParcel1708') },
  { kind: 'owner-search', name: 'JOEL KUIPERS', envelope: envelope('searchKuipers') },
];
/** 1708's ownership record (OTR's row naming JOEL KUIPERS). */
const OWNERSHIP_1708 = ownerLinkKey('rec_23cf6780-2221-547e-b0e2-eaf741fda9ee', 'owner:JOEL KUIPERS');
const LOCATED_ON_1708 = linkKey(ids.property1708, 'located_in', ids.parcel1708);

const strengths = (rootId: string, answers: readonly GraphAnswer[]) =>
  new Map(modelLinks(buildGraph(rootId, answers).model).map((link) => [link.key, `${linkRuleLabels[link.rule]} — ${link.strength}`]));

describe('one strength per link', () => {
  it('gives 1708 21ST ST NW’s ownership and its “located on” link the same strength from the parcel, the property, the account and the owner', () => {
    const roots = [ids.parcel1708, ids.property1708, ids.account1708, 'owner:JOEL KUIPERS'];
    const [first, ...others] = roots.map((root) => strengths(root, answers1708()));
    expect(first?.get(OWNERSHIP_1708)).toBe('Owner of record — fact');
    expect(first?.get(LOCATED_ON_1708)).toBe('Same SSL — fact');
    for (const other of others) expect(other).toEqual(first);
  });

  it('never makes a fact of a link the service states without its rule (an owner search’s “located on”)', () => {
    const links = strengths('owner:JOEL KUIPERS', [{ kind: 'owner-search', name: 'JOEL KUIPERS', envelope: envelope('searchKuipers') }]);
    expect(links.get(LOCATED_ON_1708)).toBe('Stated by the service, rule not given — lead');
    const { model } = buildGraph('owner:JOEL KUIPERS', [{ kind: 'owner-search', name: 'JOEL KUIPERS', envelope: envelope('searchKuipers') }]);
    const why = whyLinked(model, LOCATED_ON_1708, new CitationBook().cite);
    expect(why?.warning).toMatch(/^A lead, not a fact: the service states this link without a rule Plat reads as one/);
    expect(why?.confidenceText).not.toMatch(/1 \(/);
  });

  it('keeps a link made by a method Plat does not read (another service’s `record_match`) a lead, naming the method', () => {
    const answer = envelope('relationships1708Depth2');
    for (const edge of (answer.data as { edges: Array<Record<string, unknown>> }).edges) Object.assign(edge, { method: 'record_match', confidence: 1 });
    const { model } = buildGraph(ids.property1708, [{ kind: 'relationships', envelope: answer }]);
    const key = linkKey(ids.account1708, 'assessed_in', ids.parcel1708);
    expect(modelLinks(model).find((link) => link.key === key)).toMatchObject({ rule: 'unstated', strength: 'lead', confidence: 1 });
    expect(whyLinked(model, key, new CitationBook().cite)?.confidenceText).toMatch(/still a lead/);
    expect(whyLinked(model, key, new CitationBook().cite)?.because).toMatch(/^Stated by the service, rule not given: .*\(method “record_match”, not one Plat reads as a rule\)/);
  });

  it('makes a spelling joined to the owner’s name only by normalisation a lead, whatever the root', () => {
    const search = envelope('searchPoozesh');
    // 1620 Q ST NW's record printing the name another way (both its rows: the property's and the parcel's).
    const items = (search.data as { items: Array<{ property_ref: string; facts: { owner_name: { value: string } } }> }).items;
    for (const item of items) if (item.property_ref === ids.propertyPoozesh2) item.facts.owner_name.value = 'Abdollah  Poozesh.';
    const answers: GraphAnswer[] = [{ kind: 'relationships', envelope: envelope('relationshipsPoozesh') }, { kind: 'owner-search', name: 'ABDOLLAH POOZESH', envelope: search }];
    const fromProperty = modelLinks(buildGraph(ids.propertyPoozesh, answers).model).filter((link) => link.owner);
    const fromOwner = modelLinks(buildGraph('owner:ABDOLLAH POOZESH', answers).model).filter((link) => link.owner);
    expect(fromProperty.map((link) => [link.owner?.claim.published, link.rule, link.strength])).toEqual(fromOwner.map((link) => [link.owner?.claim.published, link.rule, link.strength]));
    expect(fromProperty.map((link) => link.strength).sort()).toEqual(['fact', 'lead']);
  });
});

describe('factReach', () => {
  const answers: GraphAnswer[] = [{ kind: 'relationships', envelope: envelope('relationshipsPoozesh') }, { kind: 'owner-search', name: 'ABDOLLAH POOZESH', envelope: envelope('searchPoozesh') }];

  it('reaches the owner of record through facts but not, through the owner’s name, the owner’s other holdings', () => {
    const { model } = buildGraph(ids.propertyPoozesh, answers);
    const reach = factReach(model.rootId, modelLinks(model));
    expect(reach.get('owner:ABDOLLAH POOZESH')).toBe(1);
    expect(reach.get(ids.accountPoozesh)).toBe(1);
    expect(reach.has(ids.propertyPoozesh2)).toBe(false);
  });

  it('reaches every holding whose record names the owner from the owner, and nothing across a cut link', () => {
    const { model } = buildGraph('owner:ABDOLLAH POOZESH', answers);
    const links = modelLinks(model);
    expect(factReach(model.rootId, links).has(ids.propertyPoozesh2)).toBe(true);
    const cut = links.map((link) => ({ ...link, decision: link.owner?.claim.holdingId === ids.propertyPoozesh2 ? ('cut' as const) : null }));
    expect(factReach(model.rootId, cut).has(ids.propertyPoozesh2)).toBe(false);
  });
});

describe('a decision, said the same everywhere', () => {
  it('after a cut of the one lead to confirm, the drawing’s count, its alt text and the link’s standing agree', () => {
    const { model } = buildGraph(ids.propertyPoozesh, [{ kind: 'relationships', envelope: envelope('relationshipsPoozesh') }]);
    const view = graphSpec(model);
    const lead = view.links.find((link) => link.strength === 'lead');
    expect(view.links.filter((link) => link.strength === 'lead')).toHaveLength(1);
    expect(view.spec.altText).toContain('1 lead, 1 to confirm');
    const cut: GraphDecision = { edgeKey: lead!.key, decision: 'cut', note: 'Another owner of that name.', at: '2026-11-27T19:00:00Z' };
    const decided = applyDecisions(view.spec, [cut]);
    expect(linkTally(decided.spec.edges)).toBe(`${view.links.length} links: ${view.links.length - 1} facts and 1 lead, 1 cut by the researcher, none to confirm`);
    expect(decided.spec.altText).toContain('1 cut by the researcher, none to confirm');
    expect(decided.spec.altText).not.toContain('1 to confirm');
    expect(linkStanding(lead!.strength, 'cut')).toBe('cut');
    expect(linkStanding('lead', 'confirmed')).toBe('confirmed');
    expect(linkStanding('fact', 'confirmed')).toBe('fact');
  });
});
