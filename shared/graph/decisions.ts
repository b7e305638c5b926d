// The researcher's decisions on links: confirm a lead or cut a link, always with a note saying why.
// Kept in the assignment by the link's key (subject–predicate–object, or the ownership record for an
// owner link), which a re-fetch of the same answers gives again, so a decision survives re-fetching
// and re-opening. Applied to a GraphSpec they are drawn on the edges; a cut also says which entities
// the root now reaches only through it.
import { z } from 'zod';
import { graphDecisionKinds, type GraphDecisionKind, type GraphSpec, type LinkStrength } from './graph-spec.ts';
import { distancesFrom } from './links.ts';

export const NOTE_MAX = 2000;

export { graphDecisionKinds, type GraphDecisionKind } from './graph-spec.ts';

export const GraphDecisionSchema = z.object({
  edgeKey: z.string({ error: 'must name the link' }).trim().min(1, { error: 'must name the link' }).max(1000, { error: 'must be at most 1000 characters' }),
  decision: z.enum(graphDecisionKinds, { error: 'must be confirmed or cut' }),
  note: z
    .string({ error: 'is required: say why' })
    .trim()
    .min(1, { error: 'is required: say why you confirm or cut this link' })
    .max(NOTE_MAX, { error: `must be at most ${NOTE_MAX} characters` }),
  at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a zone' }),
});
export type GraphDecision = z.infer<typeof GraphDecisionSchema>;
export type GraphDecisionInput = z.input<typeof GraphDecisionSchema>;

/** The decisions of one assignment: at most one per link. */
export const GraphDecisionsSchema = z.array(GraphDecisionSchema).superRefine((decisions, ctx) => {
  const seen = new Set<string>();
  decisions.forEach((decision, index) => {
    if (seen.has(decision.edgeKey)) ctx.addIssue({ code: 'custom', path: [index, 'edgeKey'], message: 'repeats a link already decided; keep one decision per link' });
    seen.add(decision.edgeKey);
  });
});

export type DecideResult = { ok: true; decisions: GraphDecision[] } | { ok: false; problem: string };

const FIELD_NAMES: Record<string, string> = { edgeKey: 'Link', decision: 'Decision', note: 'Note', at: 'Time' };

/**
 * The decisions with one more (replacing an earlier decision on the same link). A decision that does
 * not parse is refused with the reason, and the decisions held are returned unchanged by the caller.
 */
export function decide(decisions: readonly GraphDecision[], input: unknown): DecideResult {
  const parsed = GraphDecisionSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = typeof issue?.path[0] === 'string' ? (FIELD_NAMES[issue.path[0]] ?? issue.path[0]) : 'Decision';
    return { ok: false, problem: `${field} ${issue?.message ?? 'is not valid'}.` };
  }
  return { ok: true, decisions: [...decisions.filter((d) => d.edgeKey !== parsed.data.edgeKey), parsed.data] };
}

/** The decisions without the one on this link (the researcher withdrew it). */
export function withdraw(decisions: readonly GraphDecision[], edgeKey: string): GraphDecision[] {
  return decisions.filter((decision) => decision.edgeKey !== edgeKey);
}

/** Where a link stands once the researcher's decision is read: a fact, a lead to confirm, or decided. */
export type LinkStanding = LinkStrength | GraphDecisionKind;

export const linkStandingLabels: Record<LinkStanding, string> = {
  fact: 'From the records',
  lead: 'Lead: to confirm',
  confirmed: 'Lead confirmed by you',
  cut: 'Cut by you',
};

/** A decision outranks the link's strength: a cut fact is cut, a confirmed lead no longer waits to be confirmed. */
export function linkStanding(strength: LinkStrength, decision: GraphDecisionKind | null | undefined): LinkStanding {
  if (decision === 'cut') return 'cut';
  if (decision === 'confirmed') return strength === 'fact' ? 'fact' : 'confirmed';
  return strength;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The links counted the one way the drawing, the status, the alt text and the report say them:
 * "3 links: 2 facts and 1 lead, 1 cut by the researcher, none to confirm".
 */
export function linkTally(edges: ReadonlyArray<{ strength: LinkStrength; decision: GraphDecisionKind | null }>): string {
  const facts = edges.filter((edge) => edge.strength === 'fact').length;
  const leads = edges.length - facts;
  const open = edges.filter((edge) => linkStanding(edge.strength, edge.decision) === 'lead').length;
  const cut = edges.filter((edge) => edge.decision === 'cut').length;
  const confirmed = edges.filter((edge) => edge.decision === 'confirmed').length;
  const decided = [...(confirmed > 0 ? [`${confirmed} confirmed`] : []), ...(cut > 0 ? [`${cut} cut`] : [])];
  const by = decided.length > 0 ? `, ${decided.join(' and ')} by the researcher` : '';
  return `${plural(edges.length, 'link')}: ${plural(facts, 'fact')} and ${plural(leads, 'lead')}${by}, ${open === 0 ? 'none' : open} to confirm`;
}

export interface DecidedGraph {
  spec: GraphSpec;
  /** Nodes the root reaches only through a cut link (drawn as cut off). */
  cutOff: string[];
  /** Decisions on links this graph does not hold (kept, and listed, never dropped). */
  elsewhere: GraphDecision[];
}

/** The spec with each decided edge's decision set, the entities a cut leaves unreached, and decisions on links not drawn. */
export function applyDecisions(spec: GraphSpec, decisions: readonly GraphDecision[]): DecidedGraph {
  const byKey = new Map(decisions.map((decision) => [decision.edgeKey, decision]));
  const edges = spec.edges.map((edge) => ({ ...edge, decision: byKey.get(edge.id)?.decision ?? null }));
  const rootId = spec.nodes.find((node) => node.root)?.id;
  const before = distancesFrom(rootId, edges);
  const after = distancesFrom(
    rootId,
    edges.filter((edge) => edge.decision !== 'cut'),
  );
  const drawn = new Set(spec.edges.map((edge) => edge.id));
  return {
    // The alt text's count is of the links as decided: a cut lead is no longer one to confirm.
    spec: { ...spec, edges, altText: [spec.altText.replace(linkTally(spec.edges), linkTally(edges)), ...decisionSentences(spec, edges)].join(' ') },
    cutOff: spec.nodes.filter((node) => before.has(node.id) && !after.has(node.id)).map((node) => node.id),
    elsewhere: decisions.filter((decision) => !drawn.has(decision.edgeKey)),
  };
}

/** The decisions in the graph's words, so its alt text (read aloud, printed under the image) says what is drawn cut or confirmed. */
function decisionSentences(spec: GraphSpec, edges: GraphSpec['edges']): string[] {
  const labels = new Map(spec.nodes.map((node) => [node.id, node.label]));
  const label = (id: string) => labels.get(id) ?? id;
  return edges
    .filter((edge) => edge.decision !== null)
    .map((edge) => `${label(edge.source)} ${edge.label} ${label(edge.target)}: ${edge.decision === 'cut' ? 'cut' : 'confirmed'} by the researcher.`);
}
