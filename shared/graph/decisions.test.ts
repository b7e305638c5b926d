import { describe, expect, it } from 'vitest';
import { buildGraph, graphSpec, linkKey, type GraphAnswer } from './build-graph.ts';
import { applyDecisions, decide, GraphDecisionsSchema, NOTE_MAX, withdraw, type GraphDecision } from './decisions.ts';
import { envelope, ids } from './test-kit.ts';

const AT = '2026-11-23T21:00:00Z';
const search: GraphAnswer = { kind: 'owner-search', name: 'ABDOLLAH POOZESH', envelope: envelope('searchPoozesh') };
const spec = (name: 'relationshipsPoozesh' | 'relationshipsPoozeshRefetch') =>
  graphSpec(buildGraph(ids.propertyPoozesh, [{ kind: 'relationships', envelope: envelope(name) }, search]).model).spec;
const ownerLead = (from = spec('relationshipsPoozesh')) => from.edges.find((edge) => edge.source === ids.propertyPoozesh2 && edge.target === 'owner:ABDOLLAH POOZESH')?.id ?? '';

function decided(decisions: GraphDecision[], input: unknown): GraphDecision[] {
  const result = decide(decisions, input);
  if (!result.ok) throw new Error(result.problem);
  return result.decisions;
}

describe('decide', () => {
  it('keeps a decision with its note trimmed, and replaces an earlier decision on the same link', () => {
    const key = ownerLead();
    const first = decided([], { edgeKey: key, decision: 'confirmed', note: '  Same mailing address on both tax bills.  ', at: AT });
    expect(first).toEqual([{ edgeKey: key, decision: 'confirmed', note: 'Same mailing address on both tax bills.', at: AT }]);
    const second = decided(first, { edgeKey: key, decision: 'cut', note: 'Deed names a different Abdollah Poozesh.', at: '2026-11-24T09:00:00Z' });
    expect(second).toHaveLength(1);
    expect(second[0]?.decision).toBe('cut');
    expect(withdraw(second, key)).toEqual([]);
  });

  it('refuses a decision without a note, or with one too long, saying why', () => {
    const key = ownerLead();
    expect(decide([], { edgeKey: key, decision: 'cut', note: '   ', at: AT })).toEqual({ ok: false, problem: 'Note is required: say why you confirm or cut this link.' });
    expect(decide([], { edgeKey: key, decision: 'cut', at: AT })).toEqual({ ok: false, problem: 'Note is required: say why.' });
    expect(decide([], { edgeKey: key, decision: 'cut', note: 'x'.repeat(NOTE_MAX + 1), at: AT })).toEqual({ ok: false, problem: `Note must be at most ${NOTE_MAX} characters.` });
    expect(decide([], { edgeKey: key, decision: 'cut', note: 'x'.repeat(NOTE_MAX), at: AT }).ok).toBe(true);
    expect(decide([], { edgeKey: key, decision: 'maybe', note: 'Unsure.', at: AT })).toEqual({ ok: false, problem: 'Decision must be confirmed or cut.' });
    expect(decide([], { edgeKey: key, decision: 'cut', note: 'Wrong person.', at: 'yesterday' })).toEqual({ ok: false, problem: 'Time must be an ISO 8601 date-time with a zone.' });
  });

  it('keeps one decision per link in an assignment', () => {
    const twice = [
      { edgeKey: 'k', decision: 'cut', note: 'a', at: AT },
      { edgeKey: 'k', decision: 'confirmed', note: 'b', at: AT },
    ];
    expect(GraphDecisionsSchema.safeParse(twice).success).toBe(false);
    expect(GraphDecisionsSchema.safeParse(twice.slice(0, 1)).success).toBe(true);
  });
});

describe('applyDecisions', () => {
  it('draws a cut on its edge and marks what the root now reaches only through it', () => {
    const key = ownerLead();
    const decisions = decided([], { edgeKey: key, decision: 'cut', note: 'Another Abdollah Poozesh.', at: AT });
    const { spec: drawn, cutOff, elsewhere } = applyDecisions(spec('relationshipsPoozesh'), decisions);
    expect(drawn.edges.find((edge) => edge.id === key)?.decision).toBe('cut');
    expect(drawn.edges.filter((edge) => edge.decision !== null)).toHaveLength(1);
    // 1620 Q ST NW and its parcel hang on that owner link alone; its account is still reached by the service's same-owner link.
    expect(cutOff.sort()).toEqual([ids.parcelPoozesh2, ids.propertyPoozesh2].sort());
    expect(elsewhere).toEqual([]);
    // The alt text (read aloud, printed under the image) says what is drawn cut.
    expect(drawn.altText).toMatch(/ 1620 Q ST NW .+ ABDOLLAH POOZESH: cut by the researcher\.$/);
  });

  it('cuts nothing off when another path remains, and confirming cuts nothing', () => {
    const sameOwner = linkKey(ids.accountPoozesh, 'same_owner', ids.accountPoozesh2);
    const cut = applyDecisions(spec('relationshipsPoozesh'), decided([], { edgeKey: sameOwner, decision: 'cut', note: 'Different people.', at: AT }));
    expect(cut.cutOff).toEqual([ids.accountPoozesh2]);
    const confirmed = applyDecisions(spec('relationshipsPoozesh'), decided([], { edgeKey: ownerLead(), decision: 'confirmed', note: 'Same person.', at: AT }));
    expect(confirmed.cutOff).toEqual([]);
    expect(confirmed.spec.edges.find((edge) => edge.id === ownerLead())?.decision).toBe('confirmed');
  });

  it('survives a re-fetch: the same links come back under the same keys', () => {
    const decisions = decided([], { edgeKey: ownerLead(), decision: 'cut', note: 'Another Abdollah Poozesh.', at: AT });
    const refetched = spec('relationshipsPoozeshRefetch');
    expect(envelope('relationshipsPoozeshRefetch').request_id).not.toBe(envelope('relationshipsPoozesh').request_id);
    expect(refetched.edges.map((edge) => edge.id)).toEqual(spec('relationshipsPoozesh').edges.map((edge) => edge.id));
    const { spec: drawn, elsewhere } = applyDecisions(refetched, decisions);
    expect(drawn.edges.find((edge) => edge.id === ownerLead(refetched))?.decision).toBe('cut');
    expect(elsewhere).toEqual([]);
  });

  it('keeps the same key for a link whichever answer brought it', () => {
    const fromTraversal = graphSpec(buildGraph(ids.propertyPoozesh, [{ kind: 'relationships', envelope: envelope('relationshipsPoozesh') }]).model).spec;
    const fromConnected = graphSpec(buildGraph(ids.accountPoozesh, [{ kind: 'connected', qId: ids.accountPoozesh, depth: 2, envelope: envelope('accountConnectedPoozesh') }]).model).spec;
    const sameOwner = linkKey(ids.accountPoozesh, 'same_owner', ids.accountPoozesh2);
    expect(fromTraversal.edges.some((edge) => edge.id === sameOwner)).toBe(true);
    expect(fromConnected.edges.some((edge) => edge.id === sameOwner)).toBe(true);
  });

  it('lists decisions on links this graph does not draw, without dropping them', () => {
    const decisions = decided([], { edgeKey: 'located_in:prop_x→parc_y', decision: 'confirmed', note: 'Checked on site.', at: AT });
    expect(applyDecisions(spec('relationshipsPoozesh'), decisions).elsewhere).toEqual(decisions);
  });
});
