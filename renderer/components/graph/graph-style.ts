// The entity graph's look and its elements, shared by the on-screen graph and the printed image:
// cytoscape's stylesheet per theme (colours read from the design tokens, so the graph never drifts
// from the rest of the app), the conversion from a GraphSpec, the keyboard order and the words a
// screen reader hears, and the layout options. Pure: no cytoscape instance, no DOM.
import type cytoscape from 'cytoscape';
import tokensCss from '../../design/tokens.css?raw';
import { graphNodeKindLabels, graphNodeKinds, type GraphEdge, type GraphNode, type GraphNodeKind, type GraphSpec } from '../../../shared/graph/graph-spec.ts';
import type { GraphTheme } from './graph-types.ts';

// ---------------------------------------------------------------------------------------------
// Colours

/** The tokens of each theme, as tokens.css declares them (dark = light overridden by the dark block). */
export interface DesignTokens {
  light: Record<string, string>;
  dark: Record<string, string>;
}

export function readDesignTokens(css: string): DesignTokens {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const declarations = (part: string) =>
    Object.fromEntries([...part.matchAll(/(--[\w-]+)\s*:\s*([^;{}]+);/g)].map((match) => [match[1] ?? '', (match[2] ?? '').trim()]));
  const darkAt = text.search(/@media\s*\(\s*prefers-color-scheme:\s*dark\s*\)/);
  const light = declarations(darkAt < 0 ? text : text.slice(0, darkAt));
  return { light, dark: { ...light, ...(darkAt < 0 ? {} : declarations(text.slice(darkAt))) } };
}

export const designTokens: DesignTokens = readDesignTokens(tokensCss);

/** What the graph paints with, each named after the token it comes from. */
const paletteTokens = {
  background: '--color-bg',
  text: '--color-text',
  muted: '--color-text-muted',
  faint: '--color-text-faint',
  fact: '--color-text-muted',
  lead: '--color-warning',
  confirmed: '--color-success',
  cut: '--color-text-faint',
  focus: '--color-focus',
  selected: '--color-accent',
  fontFamily: '--font-ui',
  nodeFontSize: '--text-sm',
  edgeFontSize: '--text-xs',
} as const;

export type GraphPalette = Record<keyof typeof paletteTokens, string>;

export function graphPalette(theme: GraphTheme, tokens: DesignTokens = designTokens): GraphPalette {
  const values = tokens[theme];
  return Object.fromEntries(
    Object.entries(paletteTokens).map(([key, token]) => {
      const value = values[token];
      if (!value) throw new Error(`The design tokens (renderer/design/tokens.css) have no ${token} for the ${theme} theme; the graph needs it.`);
      return [key, value];
    }),
  ) as GraphPalette;
}

/** The theme's colour tokens as CSS custom properties: the legend and frame follow the `theme` prop, not only the OS. */
export function themeVariables(theme: GraphTheme, tokens: DesignTokens = designTokens): Record<string, string> {
  return Object.fromEntries(Object.entries(tokens[theme]).filter(([name]) => name.startsWith('--color-')));
}

export type NodeShape = 'round-rectangle' | 'rectangle' | 'cut-rectangle' | 'diamond' | 'tag' | 'ellipse' | 'pentagon' | 'rhomboid';

/**
 * Each kind differs by shape as well as colour, so nothing rests on colour alone. Fills are the
 * Okabe–Ito colour-blind-safe palette (plus a neutral grey); they read on both themes' backgrounds.
 */
export const kindLooks: Record<GraphNodeKind, { shape: NodeShape; fill: string; width: number; height: number }> = {
  property: { shape: 'round-rectangle', fill: '#0072B2', width: 44, height: 32 },
  parcel: { shape: 'rectangle', fill: '#009E73', width: 40, height: 32 },
  unit: { shape: 'cut-rectangle', fill: '#56B4E9', width: 40, height: 30 },
  tax_account: { shape: 'diamond', fill: '#E69F00', width: 42, height: 42 },
  address: { shape: 'tag', fill: '#F0E442', width: 44, height: 28 },
  owner: { shape: 'ellipse', fill: '#D55E00', width: 38, height: 38 },
  building: { shape: 'pentagon', fill: '#CC79A7', width: 40, height: 38 },
  land_interest: { shape: 'rhomboid', fill: '#999999', width: 46, height: 30 },
};

const ROOT_SCALE = 1.3;

/** Each shape drawn small for a legend, in a 20 × 16 box: the screen's SVG legend and the printed image's share it. */
export type SwatchGeometry =
  | { type: 'rect'; x: number; y: number; width: number; height: number; radius: number }
  | { type: 'circle'; cx: number; cy: number; r: number }
  | { type: 'polygon'; points: [number, number][] };

export const SWATCH_BOX = { width: 20, height: 16 } as const;

export const swatchGeometry: Record<NodeShape, SwatchGeometry> = {
  'round-rectangle': { type: 'rect', x: 2, y: 3, width: 16, height: 10, radius: 3 },
  rectangle: { type: 'rect', x: 3, y: 2.5, width: 14, height: 11, radius: 0 },
  'cut-rectangle': { type: 'polygon', points: [[5, 3], [15, 3], [18, 6], [18, 10], [15, 13], [5, 13], [2, 10], [2, 6]] },
  diamond: { type: 'polygon', points: [[10, 1], [18, 8], [10, 15], [2, 8]] },
  tag: { type: 'polygon', points: [[2, 3], [13, 3], [18, 8], [13, 13], [2, 13]] },
  ellipse: { type: 'circle', cx: 10, cy: 8, r: 6.5 },
  pentagon: { type: 'polygon', points: [[10, 1.5], [17, 6.6], [14.3, 14.5], [5.7, 14.5], [3, 6.6]] },
  rhomboid: { type: 'polygon', points: [[2, 3], [13.3, 3], [18, 13], [6.7, 13]] },
};

/** The four ways an edge is drawn, as the legends name them. */
export type EdgeLook = 'fact' | 'lead' | 'confirmed' | 'cut';

export const edgeLookLabels: Record<EdgeLook, string> = {
  fact: 'From the records',
  lead: '⚠ Lead: to confirm',
  confirmed: '✓ Confirmed',
  cut: '✕ Cut',
};

export function edgeLook(edge: GraphEdge): EdgeLook {
  return edge.decision ?? edge.strength;
}

/** The dash pattern of each look, for a legend (the graph's own come from the stylesheet). */
export const edgeLookDash: Record<EdgeLook, number[] | null> = { fact: null, lead: [5, 3], confirmed: null, cut: [1.5, 2.5] };

// ---------------------------------------------------------------------------------------------
// Elements

export function nodeCaption(node: GraphNode): string {
  return node.sublabel ? `${node.label}\n${node.sublabel}` : node.label;
}

function percent(confidence: number | null): string {
  return confidence === null ? '' : ` · ${Math.round(confidence * 100)}%`;
}

/** The words along an edge: a lead carries ⚠ (and its confidence), a confirmed link ✓, a cut one says so. */
export function edgeCaption(edge: GraphEdge): string {
  if (edge.decision === 'cut') return `✕ ${edge.label} (cut)`;
  if (edge.decision === 'confirmed') return `✓ ${edge.label}`;
  if (edge.strength === 'lead') return `⚠ ${edge.label}${percent(edge.confidence)}`;
  return edge.label;
}

export function nodeClasses(node: GraphNode): string[] {
  const group = node.group ? ['group', node.group.open ? 'group-open' : 'group-closed'] : [];
  return [`kind-${node.kind}`, ...(node.root ? ['root'] : []), ...(node.expandable ? ['expandable'] : []), ...group];
}

export function edgeClasses(edge: GraphEdge): string[] {
  return [edge.strength, ...(edge.decision ? [edge.decision] : [])];
}

export function nodeElement(node: GraphNode): cytoscape.ElementDefinition {
  return {
    group: 'nodes',
    // A group keeps its count at any zoom (its short label is what a zoomed-out drawing shows).
    data: { id: node.id, kind: node.kind, label: node.group ? `${node.label} · ${node.group.holdings}` : node.label, caption: nodeCaption(node), depth: node.depth, ...(node.parent === undefined ? {} : { parent: node.parent }) },
    classes: nodeClasses(node),
  };
}

/** Where an edge's words sit when not at its middle: near the end with fewer links. */
export type LabelEnd = 'source' | 'target';

/** A node with this many links is a hub: its edges' words at the middle would pile up around it. */
export const HUB_DEGREE = 5;

/**
 * The edges whose words move from the middle to their quieter end: those of a hub (a portfolio's
 * owner with forty "owned by" links), so the words spread around the ring of holdings instead of
 * piling up at the owner.
 */
export function labelEnds(spec: GraphSpec): Map<string, LabelEnd> {
  const degree = new Map<string, number>();
  for (const edge of spec.edges) {
    degree.set(edge.source, (degree.get(edge.source) ?? 0) + 1);
    degree.set(edge.target, (degree.get(edge.target) ?? 0) + 1);
  }
  const ends = new Map<string, LabelEnd>();
  for (const edge of spec.edges) {
    const [source, target] = [degree.get(edge.source) ?? 0, degree.get(edge.target) ?? 0];
    if (Math.max(source, target) < HUB_DEGREE) continue;
    if (target >= 2 * source) ends.set(edge.id, 'source');
    else if (source >= 2 * target) ends.set(edge.id, 'target');
  }
  return ends;
}

export function edgeLabelClass(end: LabelEnd | undefined): string[] {
  return end ? [`label-${end}`] : [];
}

/**
 * Above this many links a graph's links are drawn without words until pointed at, selected or
 * focused: words along short, crowded edges cover the entities' names whatever their placement,
 * and the table and the link panel give every link's words. (The alt text lists links up to the same number.)
 */
export const QUIET_LABELS_ABOVE = 25;

export const quietLabels = (spec: GraphSpec): boolean => spec.edges.length > QUIET_LABELS_ABOVE;

/** The quieter end's class, and `quiet` (words only when pointed at, selected or focused) in a dense graph. */
export function edgeWordClasses(spec: GraphSpec): Map<string, string[]> {
  const ends = labelEnds(spec);
  const quiet = quietLabels(spec);
  return new Map(spec.edges.map((edge) => [edge.id, [...edgeLabelClass(ends.get(edge.id)), ...(quiet ? ['quiet'] : [])]]));
}

export function edgeElement(edge: GraphEdge, end?: LabelEnd, extra: readonly string[] = []): cytoscape.ElementDefinition {
  return {
    group: 'edges',
    data: { id: edge.id, source: edge.source, target: edge.target, caption: edgeCaption(edge) },
    classes: [...edgeClasses(edge), ...edgeLabelClass(end), ...extra.filter((name) => !name.startsWith('label-'))],
  };
}

/**
 * The part of a spec that can be drawn, and what could not be, in words. A second node with an id
 * already used, or an edge whose end is not in the graph, would make cytoscape throw and draw
 * nothing; they are left out and named instead (the view's table still lists everything).
 */
export function drawableSpec(spec: GraphSpec): { spec: GraphSpec; problems: string[] } {
  const problems: string[] = [];
  const firstById = new Map<string, GraphNode>();
  const nodes = spec.nodes.filter((node) => {
    const first = firstById.get(node.id);
    if (first) {
      problems.push(`Two entities share the id ${node.id}; only the first (${first.label}) is drawn, not ${node.label}.`);
      return false;
    }
    firstById.set(node.id, node);
    return true;
  });
  const nodeIds = new Set(firstById.keys());
  const edgeIds = new Set<string>();
  const edges = spec.edges.filter((edge) => {
    if (edgeIds.has(edge.id) || nodeIds.has(edge.id)) {
      problems.push(`The link ${edge.id} (${edge.label}) is not drawn: its id is already used in the graph.`);
      return false;
    }
    const missing = [edge.source, edge.target].filter((end) => !nodeIds.has(end));
    if (missing.length > 0) {
      problems.push(`The link “${edge.label}” (${edge.id}) is not drawn: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not in the graph.`);
      return false;
    }
    edgeIds.add(edge.id);
    return true;
  });
  return { spec: { ...spec, nodes, edges }, problems };
}

export function toElements(spec: GraphSpec): cytoscape.ElementDefinition[] {
  const ends = labelEnds(spec);
  const quiet = quietLabels(spec) ? ['quiet'] : [];
  // A compound node is added before the nodes drawn inside it.
  const nodes = [...spec.nodes.filter((node) => node.parent === undefined), ...spec.nodes.filter((node) => node.parent !== undefined)];
  return [...nodes.map(nodeElement), ...spec.edges.map((edge) => edgeElement(edge, ends.get(edge.id), quiet))];
}

export interface GraphDiff {
  addedNodes: GraphNode[];
  changedNodes: GraphNode[];
  removedNodeIds: string[];
  addedEdges: GraphEdge[];
  changedEdges: GraphEdge[];
  removedEdgeIds: string[];
  /**
   * `full`: lay everything out (first draw, another layout, nothing kept); `incremental`: keep the
   * drawn nodes where they are and place only the new ones; `none`: nothing moves.
   */
  layout: 'full' | 'incremental' | 'none';
}

function sameNode(a: GraphNode, b: GraphNode): boolean {
  return (
    a.kind === b.kind &&
    a.label === b.label &&
    a.sublabel === b.sublabel &&
    a.root === b.root &&
    a.depth === b.depth &&
    a.expandable === b.expandable &&
    a.parent === b.parent &&
    a.group?.open === b.group?.open &&
    a.group?.holdings === b.group?.holdings
  );
}

function sameEdge(a: GraphEdge, b: GraphEdge): boolean {
  return (
    a.source === b.source && a.target === b.target && a.label === b.label && a.strength === b.strength && a.decision === b.decision && a.confidence === b.confidence
  );
}

/** What changes on screen from `shown` to `next` (both drawable). */
export function diffGraphSpecs(shown: GraphSpec | null, next: GraphSpec): GraphDiff {
  const oldNodes = new Map((shown?.nodes ?? []).map((node) => [node.id, node]));
  const oldEdges = new Map((shown?.edges ?? []).map((edge) => [edge.id, edge]));
  const nextNodeIds = new Set(next.nodes.map((node) => node.id));
  const nextEdges = new Map(next.edges.map((edge) => [edge.id, edge]));
  const addedNodes = next.nodes.filter((node) => !oldNodes.has(node.id));
  const changedNodes = next.nodes.filter((node) => {
    const old = oldNodes.get(node.id);
    return old !== undefined && !sameNode(old, node);
  });
  // An edge whose ends changed is removed and added again: cytoscape cannot move an edge's ends.
  const movedEdge = (edge: GraphEdge) => {
    const old = oldEdges.get(edge.id);
    return old !== undefined && (old.source !== edge.source || old.target !== edge.target);
  };
  const addedEdges = next.edges.filter((edge) => !oldEdges.has(edge.id) || movedEdge(edge));
  const changedEdges = next.edges.filter((edge) => {
    const old = oldEdges.get(edge.id);
    return old !== undefined && !movedEdge(edge) && !sameEdge(old, edge);
  });
  const removedNodeIds = [...oldNodes.keys()].filter((id) => !nextNodeIds.has(id));
  const removedEdgeIds = [...oldEdges.keys()].filter((id) => {
    const edge = nextEdges.get(id);
    return edge === undefined || movedEdge(edge);
  });
  const kept = next.nodes.length - addedNodes.length;
  // Groups made or unmade (a portfolio's later pages, another grouping) redraw the whole: what stood
  // where they now are is gone, and keeping the rest in place would keep the old, wider zoom.
  const regrouped = addedNodes.some((node) => node.group) || removedNodeIds.some((id) => oldNodes.get(id)?.group);
  // A lone root grown into a graph (its links read at a click) is laid out whole and fitted, as a
  // first draw: placing beside one node keeps the zoom a single node was shown at, and clips the rest.
  const layout =
    shown === null || shown.layout !== next.layout || kept <= 1 || regrouped ? (next.nodes.length > 0 ? 'full' : 'none') : addedNodes.length > 0 ? 'incremental' : 'none';
  return { addedNodes, changedNodes, removedNodeIds, addedEdges, changedEdges, removedEdgeIds, layout };
}

/**
 * Where each new node is placed before the short layout that settles it: beside the drawn node it
 * hangs from (the expanded one: the drawn neighbour with the most new neighbours, then the
 * shallowest), on the side its edge points to. A new node reached only through other new nodes
 * takes its new neighbour's anchor; one linked to nothing drawn has none.
 */
export function anchorsOfNewNodes(spec: GraphSpec, drawnIds: ReadonlySet<string>): Map<string, { anchorId: string; side: 'after' | 'before' } | null> {
  const depthOf = new Map(spec.nodes.map((node) => [node.id, node.depth]));
  const newIds = spec.nodes.filter((node) => !drawnIds.has(node.id)).map((node) => node.id);
  const isNew = new Set(newIds);
  const newNeighbourCount = new Map<string, number>();
  for (const edge of spec.edges) {
    if (drawnIds.has(edge.source) && isNew.has(edge.target)) newNeighbourCount.set(edge.source, (newNeighbourCount.get(edge.source) ?? 0) + 1);
    if (drawnIds.has(edge.target) && isNew.has(edge.source)) newNeighbourCount.set(edge.target, (newNeighbourCount.get(edge.target) ?? 0) + 1);
  }
  const rank = (id: string) => [-(newNeighbourCount.get(id) ?? 0), depthOf.get(id) ?? 0, id] as const;
  const better = (a: string, b: string) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] !== rb[0] ? ra[0] < rb[0] : ra[1] !== rb[1] ? ra[1] < rb[1] : ra[2] < rb[2];
  };
  const anchors = new Map<string, { anchorId: string; side: 'after' | 'before' } | null>();
  for (const id of newIds) {
    let best: { anchorId: string; side: 'after' | 'before' } | null = null;
    for (const edge of spec.edges) {
      const candidate = edge.target === id && drawnIds.has(edge.source) ? { anchorId: edge.source, side: 'after' as const } : edge.source === id && drawnIds.has(edge.target) ? { anchorId: edge.target, side: 'before' as const } : null;
      if (candidate && (best === null || better(candidate.anchorId, best.anchorId))) best = candidate;
    }
    anchors.set(id, best);
  }
  // New nodes hanging from other new nodes: follow the chain (breadth first, so the nearest wins).
  let spreading = true;
  while (spreading) {
    spreading = false;
    for (const edge of spec.edges) {
      for (const [from, to] of [
        [edge.source, edge.target],
        [edge.target, edge.source],
      ] as const) {
        const known = anchors.get(from);
        if (isNew.has(to) && anchors.get(to) === null && known) {
          anchors.set(to, known);
          spreading = true;
        }
      }
    }
  }
  return anchors;
}

// ---------------------------------------------------------------------------------------------
// Keyboard and words

/**
 * Labels in the order people read them ("2" before "10", case aside). One collator for every sort:
 * localeCompare with options builds one per comparison, about 10 ms per expansion of a 2,000-node graph.
 */
const labelOrder = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The keyboard's stable order: by depth from the root, then label, then id. */
export function keyboardOrder(nodes: readonly GraphNode[]): string[] {
  return [...nodes]
    .sort((a, b) => a.depth - b.depth || labelOrder.compare(a.label, b.label) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((node) => node.id);
}

/** The node's edges in a stable order (outgoing then incoming, by label), for stepping through them with `E`. */
export function edgesOfNode(spec: GraphSpec, nodeId: string): GraphEdge[] {
  const byLabel = (a: GraphEdge, b: GraphEdge) => a.label.localeCompare(b.label) || (a.id < b.id ? -1 : 1);
  return [...spec.edges.filter((edge) => edge.source === nodeId).sort(byLabel), ...spec.edges.filter((edge) => edge.target === nodeId && edge.source !== nodeId).sort(byLabel)];
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What a screen reader hears when the keyboard reaches a node. */
export function describeNode(spec: GraphSpec, nodeId: string): string {
  const order = keyboardOrder(spec.nodes);
  const node = spec.nodes.find((candidate) => candidate.id === nodeId);
  if (!node) return '';
  if (node.group) {
    const state = node.group.open ? 'open: Enter closes it' : 'closed: Enter opens it';
    return `Group ${node.label}: ${plural(node.group.holdings, 'holding', 'holdings')}, ${state}. ${order.indexOf(nodeId) + 1} of ${order.length}.`;
  }
  const edges = edgesOfNode(spec, nodeId);
  const leads = edges.filter((edge) => edge.strength === 'lead' && edge.decision === null).length;
  const parts = [
    `${graphNodeKindLabels[node.kind]}: ${node.label}${node.root ? ' (where the graph starts)' : ''}.`,
    node.sublabel ? `${node.sublabel}.` : '',
    `${plural(edges.length, 'link', 'links')}${leads > 0 ? `, ${plural(leads, 'lead', 'leads')} to check` : ''}.`,
    node.expandable ? 'Enter shows more links.' : '',
    `${order.indexOf(nodeId) + 1} of ${order.length}.`,
  ];
  return parts.filter(Boolean).join(' ');
}

/** What a screen reader hears when `E` reaches an edge. */
export function describeEdge(spec: GraphSpec, edgeId: string, position?: { index: number; count: number }): string {
  const edge = spec.edges.find((candidate) => candidate.id === edgeId);
  if (!edge) return '';
  const labelOf = (id: string) => spec.nodes.find((node) => node.id === id)?.label ?? id;
  const kind =
    edge.strength === 'lead'
      ? `A lead, not a fact${edge.confidence === null ? '' : ` (${Math.round(edge.confidence * 100)}% confidence)`}`
      : 'From the records';
  const decision = edge.decision === 'confirmed' ? '; confirmed by the researcher' : edge.decision === 'cut' ? '; cut by the researcher' : '';
  const where = position ? ` Link ${position.index + 1} of ${position.count}.` : '';
  return `${labelOf(edge.source)} ${edge.label} ${labelOf(edge.target)}. ${kind}${decision}.${where} Space selects it.`;
}

/** The kinds drawn in a spec, in the contract's order (the legend lists these). */
export function kindsIn(spec: GraphSpec): GraphNodeKind[] {
  const present = new Set(spec.nodes.map((node) => node.kind));
  return graphNodeKinds.filter((kind) => present.has(kind));
}

// ---------------------------------------------------------------------------------------------
// Stylesheet

/** Below this zoom a node shows its label only: the second line would be too small to read. */
export const COMPACT_BELOW_ZOOM = 0.7;

export interface StyleOptions {
  /** The printed image: every label drawn whatever the scale (on screen, tiny labels are skipped). */
  print?: boolean;
  /** The app's tokens unless given (tests give their own: vitest reads CSS files as empty). */
  tokens?: DesignTokens;
}

type Style = cytoscape.Css.Node & cytoscape.Css.Edge;

export function graphStylesheet(theme: GraphTheme, options: StyleOptions = {}): cytoscape.StylesheetJson {
  const p = graphPalette(theme, options.tokens);
  // cytoscape's font-family parser accepts double-quoted names only.
  const fontFamily = p.fontFamily.replaceAll("'", '"');
  const nodeFont = Number.parseFloat(p.nodeFontSize);
  const edgeFont = Number.parseFloat(p.edgeFontSize);
  const block = (selector: string, style: Partial<Style>): cytoscape.StylesheetStyle => ({ selector, style: style as Style });
  return [
    block('node', {
      label: 'data(caption)',
      'background-color': p.faint,
      'border-width': 1.5,
      'border-color': p.text,
      'border-opacity': 0.6,
      'font-family': fontFamily,
      'font-size': nodeFont,
      color: p.text,
      'text-valign': 'bottom',
      'text-halign': 'center',
      'text-margin-y': 5,
      'text-wrap': 'wrap',
      'text-max-width': '180px',
      'line-height': 1.3,
      'text-background-color': p.background,
      'text-background-opacity': 0.85,
      'text-background-padding': '2px',
      'text-background-shape': 'roundrectangle',
      'min-zoomed-font-size': options.print ? 0 : 6,
    }),
    ...graphNodeKinds.flatMap((kind) => {
      const look = kindLooks[kind];
      return [
        block(`node.kind-${kind}`, { shape: look.shape, 'background-color': look.fill, width: look.width, height: look.height }),
        block(`node.kind-${kind}.root`, { width: Math.round(look.width * ROOT_SCALE), height: Math.round(look.height * ROOT_SCALE) }),
      ];
    }),
    block('node.compact', { label: 'data(label)' }),
    block('node.root', { 'border-width': 3.5, 'border-opacity': 1, 'font-weight': 600 }),
    // More links to show: a dashed ring around the node (the legend says Enter or double-click).
    block('node.expandable', { 'outline-width': 1.5, 'outline-style': 'dashed', 'outline-color': p.muted, 'outline-offset': 3, 'outline-opacity': 1 }),
    block('edge', {
      label: 'data(caption)',
      'curve-style': 'bezier',
      width: 1.5,
      'line-color': p.fact,
      'target-arrow-shape': 'triangle',
      'target-arrow-color': p.fact,
      'arrow-scale': 1.1,
      'font-family': fontFamily,
      'font-size': edgeFont,
      color: p.muted,
      'text-rotation': 'autorotate',
      'text-background-color': p.background,
      'text-background-opacity': 1,
      'text-background-padding': '2px',
      'text-background-shape': 'roundrectangle',
      'min-zoomed-font-size': options.print ? 0 : 7,
    }),
    block('edge.label-source', { label: '', 'source-label': 'data(caption)', 'source-text-offset': 46, 'source-text-rotation': 'autorotate' }),
    block('edge.label-target', { label: '', 'target-label': 'data(caption)', 'target-text-offset': 46, 'target-text-rotation': 'autorotate' }),
    // A dense graph's links have words only when pointed at, selected or focused (QUIET_LABELS_ABOVE).
    block('edge.quiet', { label: '', 'source-label': '', 'target-label': '' }),
    block('edge.quiet.hovered, edge.quiet.is-selected, edge.quiet.focused', { label: 'data(caption)', 'source-label': '', 'target-label': '', 'z-index': 10 }),
    // A closed group: one stacked node with its count; an open one: a box around its holdings.
    // Twice the type of an entity: a group's name is read at the zoom that frames a whole portfolio.
    block('node.group-closed', {
      shape: 'round-rectangle',
      width: 96,
      height: 56,
      'border-width': 5,
      'border-style': 'double',
      'border-opacity': 1,
      'font-weight': 600,
      'font-size': 2 * nodeFont,
      'text-max-width': '320px',
    }),
    block('node.group-open', {
      shape: 'round-rectangle',
      'background-opacity': 0.08,
      'border-style': 'dashed',
      'border-width': 1.5,
      'text-valign': 'top',
      'text-margin-y': -4,
      padding: '16px',
      'font-weight': 600,
    }),
    block('edge.lead', { 'line-style': 'dashed', 'line-dash-pattern': [6, 4], width: 2, 'line-color': p.lead, 'target-arrow-color': p.lead, color: p.lead }),
    // The researcher's decision wins over the kind of link: confirmed is solid, cut is faded and barred.
    block('edge.confirmed', { 'line-style': 'solid', width: 2, 'line-color': p.confirmed, 'target-arrow-color': p.confirmed, color: p.confirmed }),
    block('edge.cut', { 'line-style': 'dotted', width: 1.5, 'line-color': p.cut, 'target-arrow-color': p.cut, 'target-arrow-shape': 'tee', color: p.cut, opacity: 0.6 }),
    block('node.is-selected', { 'border-width': 4, 'border-color': p.selected, 'border-opacity': 1 }),
    block('edge.is-selected', { width: 4, 'underlay-color': p.selected, 'underlay-opacity': 0.25, 'underlay-padding': 5, opacity: 1 }),
    block('node.focused', { 'underlay-color': p.focus, 'underlay-opacity': 0.35, 'underlay-padding': 10, 'underlay-shape': 'ellipse' }),
    // An open group is a large box: its focus ring follows its corners, not an ellipse over its neighbours.
    block('node.group-open.focused', { 'underlay-shape': 'round-rectangle', 'underlay-padding': 6, 'underlay-opacity': 0.25 }),
    block('edge.focused', { 'underlay-color': p.focus, 'underlay-opacity': 0.35, 'underlay-padding': 6, opacity: 1 }),
  ];
}

// ---------------------------------------------------------------------------------------------
// Layouts

/** cytoscape-elk's options (its `elk` block goes to ELK as layoutOptions). */
export interface ElkLayoutOptions {
  name: 'elk';
  fit: boolean;
  animate: false;
  nodeDimensionsIncludeLabels: boolean;
  elk: Record<string, string | number>;
}

/** cytoscape-fcose's options, as far as Plat sets them. */
export interface FcoseLayoutOptions {
  name: 'fcose';
  quality: 'draft' | 'default' | 'proof';
  randomize: boolean;
  animate: false;
  fit: boolean;
  padding?: number;
  nodeDimensionsIncludeLabels: boolean;
  nodeRepulsion: number;
  idealEdgeLength: number | ((edge: cytoscape.EdgeSingular) => number);
  nodeSeparation: number;
  numIter: number;
  packComponents: boolean;
  tile?: boolean;
  fixedNodeConstraint?: { nodeId: string; position: { x: number; y: number } }[];
  alignmentConstraint?: { vertical?: string[][]; horizontal?: string[][] };
  relativePlacementConstraint?: ({ left: string; right: string; gap?: number } | { top: string; bottom: string; gap?: number })[];
}

/** Gap between a layered graph's columns: room for an edge's words ("taxed under", "owned by"). */
export const LAYER_GAP = 120;
/** A force layout's preferred edge length: room for the label along it. */
export const IDEAL_EDGE_LENGTH = 110;

/**
 * Longer edges at a hub, growing with the root of its links: forty holdings around one owner get a
 * ring wide enough for their addresses, while a chain keeps IDEAL_EDGE_LENGTH.
 */
export function hubEdgeLength(degree: number): number {
  return IDEAL_EDGE_LENGTH + 20 * Math.sqrt(Math.max(0, degree - 2));
}

export function forceEdgeLength(edge: cytoscape.EdgeSingular): number {
  return hubEdgeLength(Math.max(edge.source().degree(false), edge.target().degree(false)));
}

/** The whole graph: `layered` reads left to right (property → parcel → account → owner); `force` spreads a portfolio. */
export function fullLayoutOptions(layout: GraphSpec['layout'], nodeCount: number): ElkLayoutOptions | FcoseLayoutOptions {
  if (layout === 'layered') {
    return {
      name: 'elk',
      fit: false,
      animate: false,
      nodeDimensionsIncludeLabels: true,
      elk: {
        algorithm: 'layered',
        'elk.direction': 'RIGHT',
        'elk.spacing.nodeNode': 24,
        'elk.layered.spacing.nodeNodeBetweenLayers': LAYER_GAP,
        'elk.spacing.componentComponent': 48,
        'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      },
    };
  }
  // Labels count as part of a node (fcose honours that in its `proof` quality): a portfolio's
  // holdings then ring their owner without their addresses overlapping. The largest graphs skip
  // it to stay within seconds; at their scale labels are hidden until zoomed in anyway.
  const withLabels = nodeCount <= 1000;
  return {
    name: 'fcose',
    quality: withLabels ? 'proof' : 'default',
    randomize: true,
    animate: false,
    fit: false,
    nodeDimensionsIncludeLabels: withLabels,
    nodeRepulsion: 15000,
    idealEdgeLength: forceEdgeLength,
    nodeSeparation: 90,
    // Large graphs settle well before the default 2,500 rounds; fewer keeps 2,000 nodes within seconds.
    numIter: nodeCount > 1000 ? 1000 : 2500,
    packComponents: false,
  };
}
