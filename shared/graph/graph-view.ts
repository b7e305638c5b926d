// A graph model drawn: the GraphSpec the graph component renders (typed nodes named as people know
// them, links labelled in the direction drawn and classified fact or lead, a layered layout for
// parcel → account → owner chains and a force layout for portfolios), the caps the answers reached
// stated in words ("The answers list 50 of 84 links within 2 steps of 1708 21ST ST NW"), and the alt text.
import type { CapCount, GraphModel } from './build-graph.ts';
import type { GraphEdge, GraphNode, GraphNodeKind, GraphSpec } from './graph-spec.ts';
import { linkTally } from './decisions.ts';
import { distancesFrom, modelLinks, nodeName, type ModelLink } from './links.ts';
import { drawnRelationLabel, isKnownPredicate, kindOfId } from './relations.ts';
import { holdingsCountText } from './portfolio.ts';

/** Above this many holdings on one owner the graph is a portfolio: a force layout reads it better than layers. */
export const PORTFOLIO_HOLDINGS = 5;

export interface GraphFilters {
  /** Entity kinds to draw (the root is always drawn); absent: all. */
  kinds?: readonly GraphNodeKind[];
  /** Predicates to draw (`owned_by` for owner links); absent: all. */
  relations?: readonly string[];
}

export interface GraphView {
  spec: GraphSpec;
  /** The drawn links with their rule and evidence, in the spec's edge order (the table and "why linked" read these). */
  links: ModelLink[];
  /** Caps reached, in words: "The answers list 50 of 84 links within 2 steps of 1708 21ST ST NW". */
  caps: string[];
  /** What is in the answers but not drawn, and why. */
  notes: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const KIND_PLURALS: Record<string, string> = { property: 'properties', address: 'addresses' };

function capText(model: GraphModel, cap: CapCount): string[] {
  const held = new Set(cap.held).size;
  const around = cap.counts === 'holdings' ? `owners named like "${cap.around}"` : nodeName(model, cap.around).label;
  const steps = cap.depth === null ? '' : ` within ${plural(cap.depth, 'step')}`;
  const lines: string[] = [];
  if (cap.counts === 'holdings') {
    // Holdings are parcels (holdings.ts); the service counts rows of the roll, so a partial search says both.
    const rows = cap.rowsTotal ?? cap.total;
    if (held < rows) lines.push(`${around[0]!.toUpperCase()}${around.slice(1)}: ${holdingsCountText({ complete: false, loaded: cap.parcelsHeld ?? held, matched: rows, rows: held })}.`);
  } else if (held < cap.total) lines.push(`The answers list ${held} of ${cap.total} ${cap.counts}${steps} of ${around}.`);
  if (cap.stopped !== null) lines.push(`The service stopped listing links${steps} of ${around} at its cap (${cap.stopped}): more exist than it listed.`);
  return lines;
}

function rootKind(model: GraphModel): GraphNodeKind {
  const entity = model.entities.get(model.rootId);
  if (entity && entity.kind !== 'record') return entity.kind;
  return kindOfId(model.rootId) ?? 'owner';
}

/** The graph in words for the image's alt text and screen readers: counts, then every link when there are few. */
function altTextOf(model: GraphModel, nodes: readonly GraphNode[], links: readonly ModelLink[], caps: readonly string[]): string {
  const byKind = new Map<string, number>();
  for (const node of nodes) byKind.set(node.kind, (byKind.get(node.kind) ?? 0) + 1);
  const kinds = [...byKind].map(([kind, n]) => plural(n, kind.replace('_', ' '), KIND_PLURALS[kind])).join(', ');
  const head = `Graph of ${nodeName(model, model.rootId).label}: ${plural(nodes.length, 'entity', 'entities')} (${kinds}) and ${linkTally(links.map((link) => ({ strength: link.strength, decision: null })))}.`;
  const labels = new Map(nodes.map((node) => [node.id, node.label]));
  const label = (id: string) => labels.get(id) ?? id;
  const each = links.length <= 25 ? links.map((link) => `${label(link.source)} ${link.label} ${label(link.target)}${link.strength === 'lead' ? ' (lead)' : ''}.`) : ['The table beside it lists every link.'];
  return [head, ...each, ...caps].join(' ');
}

/** The GraphSpec of a model: its entities and owners as typed nodes, its links labelled and classified, the caps stated. */
export function graphSpec(model: GraphModel, filters: GraphFilters = {}): GraphView {
  const all = modelLinks(model);
  const kindOf = (id: string): GraphNodeKind | null => {
    if (model.owners.has(id)) return 'owner';
    const kind = model.entities.get(id)?.kind;
    return kind === undefined || kind === 'record' ? null : kind;
  };
  const shownKind = (id: string) => id === model.rootId || (kindOf(id) !== null && (filters.kinds === undefined || filters.kinds.includes(kindOf(id) as GraphNodeKind)));
  const links = all.filter((link) => shownKind(link.source) && shownKind(link.target) && (filters.relations === undefined || filters.relations.includes(link.predicate)));
  const ids = [model.rootId, ...new Set(links.flatMap((link) => [link.source, link.target]).filter((id) => id !== model.rootId))];
  const depth = distancesFrom(model.rootId, links);
  // Nodes the drawn links do not reach from the root come after the rest.
  const beyond = [...depth.values()].reduce((most, d) => Math.max(most, d), 0) + 1;
  const nodes: GraphNode[] = ids.map((id) => {
    const name = nodeName(model, id);
    return {
      id,
      kind: kindOf(id) ?? rootKind(model),
      label: name.label,
      sublabel: name.sublabel,
      root: id === model.rootId,
      depth: depth.get(id) ?? beyond,
      expandable: !model.expanded.has(id),
    };
  });
  const edges: GraphEdge[] = links.map((link) => ({
    id: link.key,
    source: link.source,
    target: link.target,
    label: drawnRelationLabel(link.predicate, model.entities.get(link.target)?.kind),
    strength: link.strength,
    decision: null,
    confidence: link.confidence,
    ...(isKnownPredicate(link.predicate) ? {} : { notRecognised: true }),
  }));
  const holdingsPerOwner = new Map<string, number>();
  for (const link of links) if (link.owner) holdingsPerOwner.set(link.target, (holdingsPerOwner.get(link.target) ?? 0) + 1);
  const layout = [...holdingsPerOwner.values()].some((n) => n > PORTFOLIO_HOLDINGS) ? 'force' : 'layered';
  const caps = [...model.caps.values()].flatMap((cap) => capText(model, cap));
  const notes: string[] = [];
  const records = new Map<string, number>();
  for (const entity of model.entities.values()) if (entity.kind === 'record') records.set(entity.recordKind ?? 'other', (records.get(entity.recordKind ?? 'other') ?? 0) + 1);
  for (const [kind, n] of records) {
    const where = kind === 'permit' ? '; the runsheet lists the permits' : '';
    notes.push(`${plural(n, `${kind} record`)} linked here ${n === 1 ? 'is' : 'are'} not drawn: the graph draws entities only${where}.`);
  }
  const drawn = new Set(ids);
  const hidden = new Set(all.flatMap((link) => [link.source, link.target]).filter((id) => kindOf(id) !== null && !drawn.has(id))).size;
  if (hidden > 0) notes.push(`${plural(hidden, 'entity', 'entities')} hidden by the filters.`);
  return { spec: { nodes, edges, layout, altText: altTextOf(model, nodes, links, caps) }, links, caps, notes };
}
