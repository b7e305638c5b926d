// What the graph draws of a large portfolio: an owner with more than GROUP_ABOVE holdings has them
// gathered into groups (by street, tax square or use: the researcher picks), each drawn closed, as one
// node linked to its owner, until it is opened (then a compound node around its holdings). Holdings
// are parcels (holdings.ts), so a group counts parcels, not rows. The one place that decides what is
// drawn: the canvas draws `spec`, and the status line reads `counts` from the same call.
import { CitationBook } from '../cited/citation-book.ts';
import type { GraphModel } from './build-graph.ts';
import type { GraphEdge, GraphNode, GraphSpec } from './graph-spec.ts';
import type { GraphView } from './graph-view.ts';
import { holdingsOf, type PortfolioHolding } from './holdings.ts';
import { sslText } from './relations.ts';

/** An owner with more holdings than this has them grouped; fewer read well as a ring. */
export const GROUP_ABOVE = 25;

/** At most this many groups are named per owner; the rest share one. */
export const MOST_GROUPS = 12;
/** A group has at least this many holdings; fewer are drawn as they are or go to the shared group. */
export const SMALLEST_GROUP = 3;

export const groupByOptions = ['street', 'square', 'use'] as const;
export type GroupBy = (typeof groupByOptions)[number];
export const groupByLabels: Record<GroupBy, string> = { street: 'Street', square: 'Tax square', use: 'Use' };
const OTHER_LABELS: Record<GroupBy, string> = { street: 'Other streets', square: 'Other squares', use: 'Other uses' };

export interface HoldingGroup {
  id: string;
  ownerId: string;
  label: string;
  /** The drawn nodes the owner's links reach in this group. */
  members: string[];
  /** Parcels among them (holdings.ts): what "N holdings" counts. */
  holdings: number;
  open: boolean;
}

export interface DrawnCounts {
  /** Entities drawn (groups not counted). */
  entities: number;
  links: number;
  /** Closed groups drawn, and the entities inside them (not drawn until opened). */
  closedGroups: number;
  openGroups: number;
  insideClosed: number;
  /** What the table lists: every entity and link of the view. */
  allEntities: number;
  allLinks: number;
}

export interface DrawnGraph {
  spec: GraphSpec;
  groups: HoldingGroup[];
  counts: DrawnCounts;
}

export interface GroupOptions {
  by: GroupBy;
  /** Ids of the groups the researcher opened. */
  open: ReadonlySet<string>;
  above?: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The street of an address: the address without its house number ("1708 21ST ST NW" → "21ST ST NW"). */
export function streetOf(address: string): string {
  const street = address.trim().replace(/^[0-9]+[A-Z]?(?:[-–][0-9]+[A-Z]?)?\s+/i, '').replace(/\s+/g, ' ').toUpperCase();
  return street === '' ? address.trim().toUpperCase() : street;
}

/** The tax square of an SSL ("0451 0828" → "0451"; "PAR 01510123" → "PAR 0151"). */
export function squareOf(ssl: string): string {
  const text = sslText(ssl);
  const [first, second] = text.split(' ');
  return first === 'PAR' && second ? `PAR ${second.slice(0, 4)}` : (first ?? text);
}

const raw = (value: PortfolioHolding['address']): string | null => (value.status !== 'unavailable' && value.raw !== null && String(value.raw).trim() !== '' ? String(value.raw) : null);

/** The group a holding falls in, by the chosen key; the words say when the records give none. */
export function groupLabel(holding: PortfolioHolding | null, by: GroupBy, identifiers: { address?: string; ssl?: string }): string {
  if (by === 'street') {
    const address = (holding && raw(holding.address)) ?? identifiers.address ?? null;
    return address === null ? 'Address not published' : streetOf(address);
  }
  if (by === 'square') {
    const ssl = holding && holding.identifier.field === 'ssl' ? raw(holding.identifier) : (identifiers.ssl ?? null);
    return ssl === null ? 'No SSL published' : `Square ${squareOf(ssl)}`;
  }
  const use = holding ? raw(holding.use) : null;
  return use === null ? 'Use not published' : `Use ${use}`;
}

/** Each entity an owner search's row names (its property, its parcel or unit) → the holding (parcel) it is part of. */
function holdingsByEntity(model: GraphModel): Map<string, PortfolioHolding> {
  const rows = [...model.ownership.values()];
  const byEntity = new Map<string, PortfolioHolding>();
  if (rows.length === 0) return byEntity;
  for (const holding of holdingsOf(rows, new CitationBook().cite).holdings) {
    for (const record of holding.records) {
      byEntity.set(record.propertyRef, holding);
      for (const item of model.ownership.get(record.propertyRef)?.items ?? []) byEntity.set(item.entity_ref, holding);
    }
  }
  return byEntity;
}

function identifiersOf(model: GraphModel, id: string): { address?: string; ssl?: string } {
  const found: { address?: string; ssl?: string } = {};
  for (const identifier of model.entities.get(id)?.identifiers ?? []) {
    if (identifier.scheme === 'address' || identifier.scheme === 'ssl') found[identifier.scheme] ??= identifier.value;
  }
  return found;
}

/** Ids reachable from the roots over the edges, either way. */
function reachable(roots: readonly string[], nodes: ReadonlySet<string>, edges: readonly GraphEdge[]): Set<string> {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (!nodes.has(edge.source) || !nodes.has(edge.target)) continue;
    next.set(edge.source, [...(next.get(edge.source) ?? []), edge.target]);
    next.set(edge.target, [...(next.get(edge.target) ?? []), edge.source]);
  }
  const seen = new Set(roots.filter((id) => nodes.has(id)));
  const queue = [...seen];
  while (queue.length > 0) {
    for (const id of next.get(queue.pop()!) ?? []) {
      if (seen.has(id)) continue;
      seen.add(id);
      queue.push(id);
    }
  }
  return seen;
}

/**
 * What is drawn of a view: each owner with more than `above` holdings has them in groups (a group of
 * one holding is drawn as the holding); a closed group hides its holdings and whatever is reached only
 * through them; an open one draws them inside it.
 */
export function drawnGraph(view: Pick<GraphView, 'spec' | 'links'>, model: GraphModel, options: GroupOptions): DrawnGraph {
  const { spec } = view;
  const above = options.above ?? GROUP_ABOVE;
  const byId = new Map(spec.nodes.map((node) => [node.id, node]));
  const membersOf = new Map<string, string[]>();
  for (const link of view.links) {
    if (!link.owner || !byId.has(link.source) || link.source === spec.nodes.find((node) => node.root)?.id) continue;
    const list = membersOf.get(link.target) ?? [];
    if (!list.includes(link.source)) list.push(link.source);
    membersOf.set(link.target, list);
  }
  const large = [...membersOf].filter(([, members]) => members.length > above);
  const holdingOf = large.length > 0 ? holdingsByEntity(model) : new Map<string, PortfolioHolding>();
  const parcelOf = (id: string) => holdingOf.get(id)?.parcelKey ?? id;

  const groups: HoldingGroup[] = [];
  const parentOf = new Map<string, string>();
  const hidden = new Set<string>();
  for (const [ownerId, members] of large) {
    // Holdings of several owners (a spouse form) are grouped under the first owner that reaches them.
    const free = members.filter((id) => !parentOf.has(id) && !hidden.has(id));
    if (new Set(free.map(parcelOf)).size <= above) continue;
    const byLabel = new Map<string, string[]>();
    for (const id of free) {
      const label = groupLabel(holdingOf.get(id) ?? null, options.by, identifiersOf(model, id));
      byLabel.set(label, [...(byLabel.get(label) ?? []), id]);
    }
    // The largest groups by name; the rest (and any of one holding) in one "other" group, so that a
    // portfolio of 82 holdings on 50 streets draws a dozen groups, not fifty.
    const ranked = [...byLabel].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0], undefined, { numeric: true }));
    const named = ranked.filter(([, ids], index) => index < MOST_GROUPS && ids.length >= SMALLEST_GROUP);
    const rest = ranked.filter((entry) => !named.includes(entry)).flatMap(([, ids]) => ids);
    const pooled: Array<[string, string[]]> = rest.length >= SMALLEST_GROUP ? [...named, [OTHER_LABELS[options.by], rest]] : named;
    for (const [label, ids] of pooled) {
      const id = `group:${ownerId}:${options.by}:${label}`;
      const open = options.open.has(id);
      groups.push({ id, ownerId, label, members: ids, holdings: new Set(ids.map(parcelOf)).size, open });
      for (const member of ids) {
        if (open) parentOf.set(member, id);
        else hidden.add(member);
      }
    }
  }
  const other = new Set(Object.values(OTHER_LABELS));
  groups.sort((a, b) => Number(other.has(a.label)) - Number(other.has(b.label)) || a.label.localeCompare(b.label, undefined, { numeric: true }));

  const visible = new Set(spec.nodes.map((node) => node.id).filter((id) => !hidden.has(id)));
  // What hangs from a closed group's holdings goes with them: what the root or an owner no longer reaches.
  const roots = spec.nodes.filter((node) => node.root || node.kind === 'owner').map((node) => node.id);
  const before = reachable(roots, new Set(byId.keys()), spec.edges);
  const groupEdges: GraphEdge[] = [];
  for (const group of groups.filter((candidate) => !candidate.open)) {
    visible.add(group.id);
    const links = view.links.filter((link) => link.owner && link.target === group.ownerId && group.members.includes(link.source));
    groupEdges.push({
      id: `${group.id}→${group.ownerId}`,
      source: group.id,
      target: group.ownerId,
      label: `owned by (${plural(group.holdings, 'holding')})`,
      strength: links.some((link) => link.strength === 'lead') ? 'lead' : 'fact',
      decision: null,
      confidence: null,
    });
  }
  const keptEdges = [...spec.edges.filter((edge) => visible.has(edge.source) && visible.has(edge.target)), ...groupEdges];
  const after = reachable(roots, visible, keptEdges);
  // Reached before only through a closed group's holdings: inside the group, not drawn.
  for (const id of [...visible]) {
    if (id.startsWith('group:') || !before.has(id) || after.has(id)) continue;
    visible.delete(id);
    hidden.add(id);
  }
  const edges = keptEdges.filter((edge) => visible.has(edge.source) && visible.has(edge.target));

  const groupNodes: GraphNode[] = groups.map((group) => {
    const first = byId.get(group.members[0]!)!;
    return {
      id: group.id,
      kind: first.kind,
      label: group.label,
      sublabel: group.open ? `${plural(group.holdings, 'holding')} · open` : `${plural(group.holdings, 'holding')} · closed`,
      root: false,
      depth: first.depth,
      expandable: !group.open,
      group: { holdings: group.holdings, entities: group.members.length, open: group.open },
    };
  });
  const nodes: GraphNode[] = [
    ...spec.nodes.filter((node) => visible.has(node.id)).map((node) => (parentOf.has(node.id) ? { ...node, parent: parentOf.get(node.id)! } : node)),
    ...groupNodes,
  ];
  // Each closed group counts the entities it hides: its holdings and what hangs only from them.
  const counted = nodes.map((node) => {
    if (!node.group || node.group.open) return node;
    const group = groups.find((candidate) => candidate.id === node.id)!;
    const inside = insideOf(group, spec.edges, visible);
    return { ...node, group: { ...node.group, entities: inside } };
  });
  const closed = groups.filter((group) => !group.open);
  const counts: DrawnCounts = {
    entities: nodes.length - groupNodes.length,
    links: edges.length - groupEdges.length,
    closedGroups: closed.length,
    openGroups: groups.length - closed.length,
    insideClosed: hidden.size,
    allEntities: spec.nodes.length,
    allLinks: spec.edges.length,
  };
  const words = groups.length > 0 ? ` ${drawnCountLine(counts)}` : '';
  return { spec: { ...spec, nodes: counted, edges, altText: `${spec.altText}${words}` }, groups, counts };
}

/** A closed group's hidden entities: its holdings and the hidden entities linked to them. */
function insideOf(group: HoldingGroup, edges: readonly GraphEdge[], visible: ReadonlySet<string>): number {
  const inside = new Set(group.members);
  for (const edge of edges) {
    if (inside.has(edge.source) && !visible.has(edge.target)) inside.add(edge.target);
    if (inside.has(edge.target) && !visible.has(edge.source)) inside.add(edge.source);
  }
  return inside.size;
}

/** The status line's words for what the canvas draws, from the same counts. */
export function drawnCountLine(counts: DrawnCounts): string {
  const drawn = `Drawn: ${plural(counts.entities, 'entity', 'entities')} and ${plural(counts.links, 'link')}`;
  const groups =
    counts.closedGroups > 0
      ? `, with ${plural(counts.closedGroups, 'closed group')} holding ${plural(counts.insideClosed, 'more entity', 'more entities')} (open a group to draw them)`
      : '';
  const open = counts.openGroups > 0 ? `; ${plural(counts.openGroups, 'group')} open` : '';
  return `${drawn}${groups}${open}. The table lists all ${plural(counts.allEntities, 'entity', 'entities')} and ${plural(counts.allLinks, 'link')}.`;
}
