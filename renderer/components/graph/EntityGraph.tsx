// The one entity graph (cytoscape.js): typed nodes with a legend, labelled directed edges, leads
// drawn apart from facts and the researcher's decisions drawn on them. elk's layered layout reads a
// parcel → account → owner chain left to right; fcose spreads a portfolio. An expansion keeps what
// is drawn where it is and settles only the new nodes beside the node they hang from. Keyboard:
// arrow keys move through the nodes in a stable order, Enter expands, Space selects, E steps
// through the focused node's links; a live region says where the keyboard is.
import cytoscape from 'cytoscape';
// @ts-expect-error -- cytoscape-fcose ships no type declarations; it registers the `fcose` layout by name.
import cytoscapeFcose from 'cytoscape-fcose';
import { useEffect, useId, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent } from 'react';
import { graphNodeKindLabels, type GraphNodeKind, type GraphSpec } from '../../../shared/graph/graph-spec.ts';
import type { EntityGraphProps, GraphTheme } from './graph-types.ts';
import {
  COMPACT_BELOW_ZOOM,
  IDEAL_EDGE_LENGTH,
  LAYER_GAP,
  anchorsOfNewNodes,
  describeEdge,
  describeNode,
  diffGraphSpecs,
  drawableSpec,
  edgeElement,
  edgesOfNode,
  forceEdgeLength,
  fullLayoutOptions,
  graphPalette,
  graphStylesheet,
  keyboardOrder,
  kindLooks,
  kindsIn,
  labelEnds,
  nodeElement,
  SWATCH_BOX,
  swatchGeometry,
  edgeLookDash,
  edgeLookLabels,
  themeVariables,
  type EdgeLook,
  type ElkLayoutOptions,
  type FcoseLayoutOptions,
  type GraphPalette,
  type NodeShape,
} from './graph-style.ts';
import './graph.css';

cytoscape.use(cytoscapeFcose as cytoscape.Ext);

// elk (1.6 MB of compiled Java) loads the first time a layered graph is drawn, in its own chunk:
// its bundled build runs in this thread (a fake worker), without eval, so the CSP is satisfied.
let elkRegistered: Promise<void> | null = null;
function registerElk(): Promise<void> {
  elkRegistered ??= import(
    // @ts-expect-error -- cytoscape-elk ships no type declarations; it registers the `elk` layout by name.
    'cytoscape-elk'
  ).then((module: { default: cytoscape.Ext }) => cytoscape.use(module.default));
  return elkRegistered;
}

const FIT_PADDING = 32;

/** A layout that has not finished by then is reported, never waited on forever. */
const LAYOUT_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// Cytoscape, shared with the offscreen image (render-graph-image.ts)

/**
 * cytoscape puts an inline <style> in the page (its container's `position: relative`) unless an
 * element with this id is there already. The CSP refuses inline styles (and says so in the console);
 * graph.css gives the container that rule, so a marker stands in for the stylesheet.
 */
function markCytoscapeStylesheet(): void {
  const id = '__________cytoscape_stylesheet';
  if (document.getElementById(id)) return;
  const marker = document.createElement('meta');
  marker.id = id;
  marker.name = 'cytoscape-container-style';
  marker.content = 'in graph.css';
  document.head.append(marker);
}

export function createGraphCore(container: HTMLElement, theme: GraphTheme, options: { print?: boolean; pixelRatio?: number } = {}): cytoscape.Core {
  markCytoscapeStylesheet();
  return cytoscape({
    container,
    style: graphStylesheet(theme, { print: options.print ?? false }),
    minZoom: 0.02,
    maxZoom: 4,
    boxSelectionEnabled: false,
    // Selection is the view's (selectedId); cytoscape only reports taps.
    autounselectify: true,
    ...(options.pixelRatio === undefined ? {} : { pixelRatio: options.pixelRatio }),
  });
}

/** Runs a layout to its end: resolves once the positions are set, rejects when it fails or stalls. */
export async function runLayout(eles: cytoscape.CollectionReturnValue, options: ElkLayoutOptions | FcoseLayoutOptions): Promise<void> {
  if (options.name === 'elk') await registerElk();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${options.name} layout did not finish within ${LAYOUT_TIMEOUT_MS / 1000} s`)), LAYOUT_TIMEOUT_MS);
    const layout = eles.layout(options as cytoscape.LayoutOptions);
    layout.one('layoutstop', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      layout.run();
    } catch (error) {
      clearTimeout(timer);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/**
 * Fits the whole graph, without blowing a small one up past a readable size. `exact` measures every
 * label (the printed image, once); on screen the node bodies plus room for their labels do, which
 * spares measuring thousands of labels too small to be drawn.
 */
export function fitGraph(cy: cytoscape.Core, padding: number, maxZoom: number, exact = false): void {
  if (exact) {
    cy.fit(undefined, padding);
    if (cy.zoom() > maxZoom) {
      cy.zoom(maxZoom);
      cy.center();
    }
    return;
  }
  const bodies = cy.nodes().boundingBox(BODIES_ONLY);
  fitBox(cy, { x1: bodies.x1 - LABEL_SIDE, x2: bodies.x2 + LABEL_SIDE, y1: bodies.y1, y2: bodies.y2 + LABEL_ROOM }, padding, maxZoom);
}

/** Centres a model-space box in the view at the zoom that fits it (at most maxZoom). */
function fitBox(cy: cytoscape.Core, box: { x1: number; x2: number; y1: number; y2: number }, padding: number, maxZoom: number): void {
  const zoom = Math.min(maxZoom, zoomToFit(cy, box, padding));
  cy.viewport({ zoom, pan: { x: (cy.width() - zoom * (box.x1 + box.x2)) / 2, y: (cy.height() - zoom * (box.y1 + box.y2)) / 2 } });
}

function zoomToFit(cy: cytoscape.Core, box: { x1: number; x2: number; y1: number; y2: number }, padding: number): number {
  return Math.min((cy.width() - 2 * padding) / Math.max(1, box.x2 - box.x1), (cy.height() - 2 * padding) / Math.max(1, box.y2 - box.y1));
}

/**
 * Gives or takes a class, restyling only the elements whose class changes: cytoscape's
 * toggleClass(name, on) restyles every element it is given, which on 2,000 nodes costs a frame.
 */
function setClass(eles: cytoscape.Collection, name: string, on: boolean): void {
  const changing = eles.filter((ele) => ele.hasClass(name) !== on);
  if (changing.nonempty()) changing.toggleClass(name, on);
}

/** Second lines only when they can be read at this zoom. */
export function showCompactLabels(cy: cytoscape.Core, compact: boolean): void {
  cy.batch(() => setClass(cy.elements('node'), 'compact', compact));
}

/** A plain grid, where nodes wait for the layout (elk's runs asynchronously). */
export function spreadOnGrid(cy: cytoscape.Core): void {
  const columns = Math.ceil(Math.sqrt(cy.nodes().length));
  cy.batch(() => {
    cy.nodes().positions((_node, index) => ({ x: (index % columns) * 80, y: Math.floor(index / columns) * 80 }));
  });
}

/**
 * Node bodies only: a box with labels measures every label, which on a large graph costs more than
 * the rest of an expansion together.
 */
const BODIES_ONLY = { includeLabels: false, includeEdges: false, includeOverlays: false } as const;

/** Room a label takes below a node and beside it (labels wrap at 180 px), for boxes that leave labels out. */
const LABEL_ROOM = 48;
const LABEL_SIDE = 60;

function positionOf(node: cytoscape.NodeSingular): { x: number; y: number } {
  const { x, y } = node.position();
  return { x, y };
}

/**
 * Places the nodes an expansion added: each group beside the drawn node it hangs from (layered:
 * one column after or before it, as its edges point; force: fanned out away from that node's drawn
 * neighbours), then a short fcose over them and the drawn nodes around them, the drawn ones fixed,
 * so the new ones settle without overlapping. Returns the added nodes.
 */
export async function placeNewNodes(cy: cytoscape.Core, spec: GraphSpec, drawnIds: ReadonlySet<string>): Promise<cytoscape.NodeCollection> {
  const anchors = anchorsOfNewNodes(spec, drawnIds);
  const groups = new Map<string, { anchorId: string; side: 'after' | 'before'; ids: string[] }>();
  const loose: string[] = [];
  for (const [id, anchor] of anchors) {
    if (!anchor) {
      loose.push(id);
      continue;
    }
    const key = `${anchor.side}\u0000${anchor.anchorId}`;
    const group = groups.get(key) ?? { ...anchor, ids: [] };
    group.ids.push(id);
    groups.set(key, group);
  }
  const drawn = cy.nodes().filter((node) => drawnIds.has(node.id())).nodes();
  const drawnBox = drawn.boundingBox(BODIES_ONLY);
  const seeds = new Map<string, { x: number; y: number }>();
  for (const group of groups.values()) {
    const anchor = cy.getElementById(group.anchorId) as cytoscape.NodeSingular;
    const at = positionOf(anchor);
    const count = group.ids.length;
    if (spec.layout === 'layered') {
      const x = at.x + (group.side === 'after' ? 1 : -1) * (LAYER_GAP + anchor.width());
      group.ids.forEach((id, index) => seeds.set(id, { x, y: at.y + (index - (count - 1) / 2) * 84 }));
    } else {
      // Fan out on the side away from the anchor's drawn neighbours (or from the graph's middle).
      const neighbours = anchor.neighborhood('node').filter((node) => drawnIds.has(node.id()));
      const from = neighbours.nonempty() ? neighbours.boundingBox(BODIES_ONLY) : drawnBox;
      const dx = at.x - (from.x1 + from.x2) / 2;
      const dy = at.y - (from.y1 + from.y2) / 2;
      const angle = dx === 0 && dy === 0 ? 0 : Math.atan2(dy, dx);
      const spread = Math.min(2 * Math.PI, Math.max(Math.PI / 2, count * 0.5));
      const radius = Math.max(IDEAL_EDGE_LENGTH, (count * 64) / spread);
      group.ids.forEach((id, index) => {
        const a = angle + spread * ((index + 0.5) / count - 0.5);
        seeds.set(id, { x: at.x + radius * Math.cos(a), y: at.y + radius * Math.sin(a) });
      });
    }
  }
  loose.forEach((id, index) => seeds.set(id, { x: drawnBox.x2 + LAYER_GAP, y: drawnBox.y1 + index * 72 }));
  cy.batch(() => {
    for (const [id, position] of seeds) cy.getElementById(id).position(position);
  });
  const added = cy.nodes().filter((node) => seeds.has(node.id()));
  if (added.empty()) return added;

  const box = added.boundingBox(BODIES_ONLY);
  const margin = 2 * IDEAL_EDGE_LENGTH;
  const context = drawn.filter((node) => {
    const { x, y } = node.position();
    return x >= box.x1 - margin && x <= box.x2 + margin && y >= box.y1 - margin && y <= box.y2 + margin;
  });
  const anchorIds = new Set([...groups.values()].map((group) => group.anchorId));
  const anchorNodes = cy.nodes().filter((node) => anchorIds.has(node.id()));
  const fixed = context.union(anchorNodes).nodes();
  const nodes = added.union(fixed);
  const edges = nodes.connectedEdges().filter((edge) => nodes.has(edge.source()) && nodes.has(edge.target()));
  const columns = [...groups.values()].filter((group) => group.ids.length > 1).map((group) => group.ids);
  await runLayout(nodes.union(edges), {
    name: 'fcose',
    quality: 'proof',
    randomize: false,
    animate: false,
    fit: false,
    nodeDimensionsIncludeLabels: true,
    nodeRepulsion: 15000,
    idealEdgeLength: spec.layout === 'layered' ? LAYER_GAP : forceEdgeLength,
    nodeSeparation: 90,
    numIter: 300,
    packComponents: false,
    tile: false,
    fixedNodeConstraint: fixed.map((node) => ({ nodeId: node.id(), position: positionOf(node) })),
    ...(spec.layout === 'layered'
      ? {
          ...(columns.length > 0 ? { alignmentConstraint: { vertical: columns } } : {}),
          relativePlacementConstraint: [...groups.values()].flatMap((group) =>
            group.ids.map((id) => (group.side === 'after' ? { left: group.anchorId, right: id, gap: LAYER_GAP } : { left: id, right: group.anchorId, gap: LAYER_GAP })),
          ),
        }
      : {}),
  });
  return added;
}

// ---------------------------------------------------------------------------------------------
// The drawn graph, kept in step with the spec (outside React: cytoscape owns its canvas)

interface CanvasEvents {
  nodeTapped: (id: string) => void;
  edgeTapped: (id: string) => void;
  nodeDoubleTapped: (id: string) => void;
  layoutDone: (elapsedMs: number) => void;
  failed: (message: string) => void;
}

interface CanvasState {
  selection: string | null;
  focusNode: string | null;
  focusEdge: string | null;
  showFocus: boolean;
}

class GraphCanvas {
  readonly cy: cytoscape.Core;
  private readonly events: CanvasEvents;
  private readonly resizeObserver: ResizeObserver | null;
  private shown: GraphSpec | null = null;
  private wanted: { spec: GraphSpec; startedAt: number } | null = null;
  private busy = false;
  private destroyed = false;
  private compact: boolean | null = null;
  private state: CanvasState = { selection: null, focusNode: null, focusEdge: null, showFocus: false };

  constructor(container: HTMLElement, theme: GraphTheme, events: CanvasEvents) {
    this.events = events;
    const cy = createGraphCore(container, theme);
    this.cy = cy;
    cy.on('tap', 'node', (event) => events.nodeTapped((event.target as cytoscape.NodeSingular).id()));
    cy.on('tap', 'edge', (event) => events.edgeTapped((event.target as cytoscape.EdgeSingular).id()));
    cy.on('dbltap', 'node', (event) => events.nodeDoubleTapped((event.target as cytoscape.NodeSingular).id()));
    cy.on('zoom', () => this.updateCompact(false));
    cy.on('mouseover', 'node, edge', () => container.classList.add('entity-graph__canvas--pointing'));
    cy.on('mouseout', 'node, edge', () => container.classList.remove('entity-graph__canvas--pointing'));
    this.resizeObserver = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => cy.resize());
    this.resizeObserver?.observe(container);
  }

  show(spec: GraphSpec, startedAt: number): void {
    this.wanted = { spec, startedAt };
    void this.drain();
  }

  setTheme(theme: GraphTheme): void {
    this.cy.style(graphStylesheet(theme));
  }

  setState(next: Partial<CanvasState>): void {
    const movedFocus = (next.focusNode !== undefined && next.focusNode !== this.state.focusNode) || (next.focusEdge !== undefined && next.focusEdge !== this.state.focusEdge);
    this.state = { ...this.state, ...next };
    this.applyState();
    if (movedFocus && this.state.showFocus) {
      const id = this.state.focusEdge ?? this.state.focusNode;
      if (id) this.reveal(this.cy.getElementById(id));
    }
  }

  zoomBy(factor: number): void {
    const cy = this.cy;
    cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
  }

  fit(): void {
    fitGraph(this.cy, FIT_PADDING, 1.25);
  }

  destroy(): void {
    this.destroyed = true;
    this.resizeObserver?.disconnect();
    this.cy.destroy();
  }

  // Spec changes are applied one at a time, the latest winning: an elk layout is asynchronous, and
  // a second change arriving meanwhile must start from the positions the first one set.
  private async drain(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.wanted && !this.destroyed) {
        const { spec, startedAt } = this.wanted;
        this.wanted = null;
        const laidOut = await this.apply(spec);
        if (this.destroyed) return;
        if (laidOut) {
          await this.nextFrame();
          if (!this.destroyed) this.events.layoutDone(performance.now() - startedAt);
        }
      }
    } catch (error) {
      if (!this.destroyed) this.events.failed(error instanceof Error ? error.message : String(error));
    } finally {
      this.busy = false;
    }
  }

  private async apply(spec: GraphSpec): Promise<boolean> {
    const cy = this.cy;
    const diff = diffGraphSpecs(this.shown, spec);
    const removed = new Set(diff.removedNodeIds);
    const drawnIds = new Set(cy.nodes().map((node) => node.id()).filter((id) => !removed.has(id)));
    cy.batch(() => {
      for (const id of diff.removedEdgeIds) cy.getElementById(id).remove();
      for (const id of diff.removedNodeIds) cy.getElementById(id).remove();
      for (const node of diff.changedNodes) {
        const element = nodeElement(node);
        cy.getElementById(node.id).data(element.data).classes(element.classes ?? []);
      }
      const ends = labelEnds(spec);
      for (const edge of diff.changedEdges) {
        const element = edgeElement(edge, ends.get(edge.id));
        cy.getElementById(edge.id).data(element.data).classes(element.classes ?? []);
      }
      cy.add([...diff.addedNodes.map(nodeElement), ...diff.addedEdges.map((edge) => edgeElement(edge, ends.get(edge.id)))]);
      // New links can make a node a hub: its older edges' words move to their quieter end.
      const edges = cy.edges();
      setClass(edges.filter((edge) => ends.get(edge.id()) === 'source'), 'label-source', true);
      setClass(edges.filter((edge) => ends.get(edge.id()) !== 'source'), 'label-source', false);
      setClass(edges.filter((edge) => ends.get(edge.id()) === 'target'), 'label-target', true);
      setClass(edges.filter((edge) => ends.get(edge.id()) !== 'target'), 'label-target', false);
    });
    this.shown = spec;
    if (diff.layout === 'full') {
      // Spread out before the layout: every node at the origin makes each edge a warning to draw.
      spreadOnGrid(cy);
      await runLayout(cy.elements(), fullLayoutOptions(spec.layout, spec.nodes.length));
      this.fit();
    } else if (diff.layout === 'incremental') {
      this.showGrown(await placeNewNodes(cy, spec, drawnIds));
    }
    this.updateCompact(true);
    this.applyState();
    return diff.layout !== 'none';
  }

  private applyState(): void {
    const cy = this.cy;
    const { selection, focusNode, focusEdge, showFocus } = this.state;
    cy.batch(() => {
      cy.elements('.is-selected, .focused').removeClass('is-selected focused');
      if (selection) cy.getElementById(selection).addClass('is-selected');
      if (showFocus && focusNode) cy.getElementById(focusNode).addClass('focused');
      if (showFocus && focusEdge) cy.getElementById(focusEdge).addClass('focused');
    });
  }

  private updateCompact(force: boolean): void {
    const compact = this.cy.zoom() < COMPACT_BELOW_ZOOM;
    if (!force && compact === this.compact) return;
    this.compact = compact;
    showCompactLabels(this.cy, compact);
  }

  /**
   * After an expansion: the whole graph when it still fits at nearly the current zoom (zooming out
   * a little), otherwise just enough panning to show the new nodes. Never zooms in.
   */
  private showGrown(added: cytoscape.NodeCollection): void {
    const cy = this.cy;
    const zoom = cy.zoom();
    const bodies = cy.nodes().boundingBox(BODIES_ONLY);
    const box = { x1: bodies.x1 - LABEL_SIDE, x2: bodies.x2 + LABEL_SIDE, y1: bodies.y1, y2: bodies.y2 + LABEL_ROOM };
    if (zoomToFit(cy, box, FIT_PADDING) >= zoom * 0.75) fitBox(cy, box, FIT_PADDING, zoom);
    else this.reveal(added);
  }

  /** Pans (never zooms in) so the elements are on screen, with a margin. */
  private reveal(eles: cytoscape.CollectionReturnValue | cytoscape.NodeCollection): void {
    if (eles.empty()) return;
    const cy = this.cy;
    const margin = 40;
    const box = eles.renderedBoundingBox();
    const [width, height] = [cy.width(), cy.height()];
    if (box.w > width - 2 * margin || box.h > height - 2 * margin) {
      const zoom = cy.zoom();
      cy.fit(eles, margin);
      if (cy.zoom() > zoom) {
        cy.zoom(zoom);
        cy.center(eles);
      }
      return;
    }
    const shift = (low: number, high: number, size: number) => (low < margin ? margin - low : high > size - margin ? size - margin - high : 0);
    const dx = shift(box.x1, box.x2, width);
    const dy = shift(box.y1, box.y2, height);
    if (dx !== 0 || dy !== 0) cy.panBy({ x: dx, y: dy });
  }

  /** The frame that shows the new positions has been drawn (cytoscape emits `render` after drawing). */
  private nextFrame(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.cy.removeListener('render', done);
        resolve();
      };
      // A hidden container may never draw; the layout is done all the same.
      const timer = setTimeout(done, 2000);
      this.cy.one('render', done);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The legend

function Swatch({ shape }: { shape: NodeShape }) {
  const geometry = swatchGeometry[shape];
  switch (geometry.type) {
    case 'rect':
      return <rect x={geometry.x} y={geometry.y} width={geometry.width} height={geometry.height} rx={geometry.radius} />;
    case 'circle':
      return <circle cx={geometry.cx} cy={geometry.cy} r={geometry.r} />;
    case 'polygon':
      return <polygon points={geometry.points.map(([x, y]) => `${x},${y}`).join(' ')} />;
  }
}

function KindSwatch({ kind, palette }: { kind: GraphNodeKind; palette: GraphPalette }) {
  const look = kindLooks[kind];
  return (
    <svg
      className="entity-graph__swatch"
      viewBox={`0 0 ${SWATCH_BOX.width} ${SWATCH_BOX.height}`}
      width={SWATCH_BOX.width}
      height={SWATCH_BOX.height}
      aria-hidden="true"
      fill={look.fill}
      stroke={palette.text}
      strokeOpacity="0.6"
      strokeWidth="1"
    >
      <Swatch shape={look.shape} />
    </svg>
  );
}

function EdgeSwatch({ look, palette }: { look: EdgeLook; palette: GraphPalette }) {
  const colour = palette[look];
  const dash = edgeLookDash[look];
  return (
    <svg className="entity-graph__swatch entity-graph__swatch--edge" viewBox="0 0 30 12" width="30" height="12" aria-hidden="true" opacity={look === 'cut' ? 0.7 : 1}>
      <line x1="1" y1="6" x2={look === 'cut' ? 26 : 23} y2="6" stroke={colour} strokeWidth={look === 'fact' || look === 'cut' ? 1.5 : 2} strokeDasharray={dash?.join(' ')} />
      {look === 'cut' ? <line x1="27" y1="1.5" x2="27" y2="10.5" stroke={colour} strokeWidth="2" /> : <polygon points="22,2 29,6 22,10" fill={colour} />}
    </svg>
  );
}

const edgeLooks: EdgeLook[] = ['fact', 'lead', 'confirmed', 'cut'];

function GraphLegend({ kinds, palette, helpId }: { kinds: GraphNodeKind[]; palette: GraphPalette; helpId: string }) {
  return (
    <div className="entity-graph__legend" role="group" aria-label="Legend">
      <ul className="entity-graph__legend-list">
        {kinds.map((kind) => (
          <li key={kind} className="entity-graph__legend-item">
            <KindSwatch kind={kind} palette={palette} />
            {graphNodeKindLabels[kind]}
          </li>
        ))}
      </ul>
      <ul className="entity-graph__legend-list">
        {edgeLooks.map((look) => (
          <li key={look} className="entity-graph__legend-item">
            <EdgeSwatch look={look} palette={palette} />
            {edgeLookLabels[look]}
          </li>
        ))}
        <li className="entity-graph__legend-item">
          <svg className="entity-graph__swatch" viewBox="0 0 20 16" width="20" height="16" aria-hidden="true">
            <circle cx="10" cy="8" r="4.5" fill={palette.faint} />
            <circle cx="10" cy="8" r="7" fill="none" stroke={palette.muted} strokeWidth="1.2" strokeDasharray="2.5 2" />
          </svg>
          More links to show
        </li>
      </ul>
      <p id={helpId} className="entity-graph__help">
        Arrow keys move between entities · Enter or double-click shows more links · Space selects · E steps through links · + − 0 zoom
      </p>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// The component

export function EntityGraph({ spec, theme, selectedId, onSelectNode, onSelectEdge, onExpandNode, onLayoutDone, className }: EntityGraphProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<GraphCanvas | null>(null);
  const helpId = useId();
  const drawable = useMemo(() => drawableSpec(spec), [spec]);
  const order = useMemo(() => keyboardOrder(drawable.spec.nodes), [drawable]);
  const palette = useMemo(() => graphPalette(theme), [theme]);
  const kinds = useMemo(() => kindsIn(drawable.spec), [drawable]);
  const [ownSelection, setOwnSelection] = useState<string | null>(null);
  const selection = selectedId === undefined ? ownSelection : selectedId;
  const [focus, setFocus] = useState<{ nodeId: string | null; edgeId: string | null }>({ nodeId: null, edgeId: null });
  const [hasFocus, setHasFocus] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  // A failed layout, for the spec it failed on (a later spec clears it).
  const [failure, setFailure] = useState<{ spec: GraphSpec; message: string } | null>(null);

  // The latest handlers and spec, for cytoscape's listeners (set once, when the canvas is made).
  const latest = useRef({ onSelectNode, onSelectEdge, onExpandNode, onLayoutDone, spec: drawable.spec });
  useEffect(() => {
    latest.current = { onSelectNode, onSelectEdge, onExpandNode, onLayoutDone, spec: drawable.spec };
  });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const canvas = new GraphCanvas(container, 'light', {
      nodeTapped: (id) => {
        setOwnSelection(id);
        setFocus({ nodeId: id, edgeId: null });
        latest.current.onSelectNode?.(id);
      },
      edgeTapped: (id) => {
        setOwnSelection(id);
        latest.current.onSelectEdge?.(id);
      },
      nodeDoubleTapped: (id) => {
        if (latest.current.spec.nodes.find((node) => node.id === id)?.expandable) latest.current.onExpandNode?.(id);
      },
      layoutDone: (elapsedMs) => latest.current.onLayoutDone?.(elapsedMs),
      failed: (message) => setFailure({ spec: latest.current.spec, message }),
    });
    canvasRef.current = canvas;
    return () => {
      canvasRef.current = null;
      canvas.destroy();
    };
  }, []);

  useEffect(() => canvasRef.current?.setTheme(theme), [theme]);

  useEffect(() => {
    canvasRef.current?.show(drawable.spec, performance.now());
  }, [drawable]);

  useEffect(() => {
    canvasRef.current?.setState({ selection, focusNode: focus.nodeId, focusEdge: focus.edgeId, showFocus: hasFocus });
  }, [selection, focus, hasFocus, drawable]);

  const say = (text: string) => setAnnouncement(text);

  const moveTo = (index: number) => {
    const id = order[Math.max(0, Math.min(order.length - 1, index))];
    if (id === undefined) return;
    setFocus({ nodeId: id, edgeId: null });
    say(describeNode(drawable.spec, id));
  };

  const selectNode = (id: string) => {
    setOwnSelection(id);
    onSelectNode?.(id);
  };

  const expand = (id: string) => {
    const node = drawable.spec.nodes.find((candidate) => candidate.id === id);
    if (!node) return;
    if (node.expandable) {
      onExpandNode?.(id);
      say(`More links of ${node.label} asked for.`);
    } else say(`No more links to show for ${node.label}.`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = focus.nodeId === null ? -1 : order.indexOf(focus.nodeId);
    const nodeId = current >= 0 ? focus.nodeId : null;
    const canvas = canvasRef.current;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowRight':
        moveTo(current + 1);
        break;
      case 'ArrowUp':
      case 'ArrowLeft':
        moveTo(current < 0 ? 0 : current - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(order.length - 1);
        break;
      case 'Enter':
        if (nodeId) expand(nodeId);
        break;
      case ' ':
        if (focus.edgeId) {
          setOwnSelection(focus.edgeId);
          onSelectEdge?.(focus.edgeId);
          const edge = drawable.spec.edges.find((candidate) => candidate.id === focus.edgeId);
          say(`Link “${edge?.label ?? focus.edgeId}” selected.`);
        } else if (nodeId) {
          selectNode(nodeId);
          say(`${drawable.spec.nodes.find((node) => node.id === nodeId)?.label ?? nodeId} selected.`);
        }
        break;
      case 'e':
      case 'E': {
        if (!nodeId) break;
        const edges = edgesOfNode(drawable.spec, nodeId);
        if (edges.length === 0) {
          say('This entity has no links drawn.');
          break;
        }
        const at = focus.edgeId === null ? -1 : edges.findIndex((edge) => edge.id === focus.edgeId);
        const index = event.shiftKey ? (at <= 0 ? edges.length - 1 : at - 1) : (at + 1) % edges.length;
        const edge = edges[index];
        if (!edge) break;
        setFocus({ nodeId, edgeId: edge.id });
        say(describeEdge(drawable.spec, edge.id, { index, count: edges.length }));
        break;
      }
      case 'Escape':
        // Back from a link to its node; otherwise Escape is the page's (close a panel, a dialog).
        if (!focus.edgeId || !nodeId) return;
        setFocus({ nodeId, edgeId: null });
        say(describeNode(drawable.spec, nodeId));
        break;
      case '+':
      case '=':
        canvas?.zoomBy(1.25);
        break;
      case '-':
        canvas?.zoomBy(0.8);
        break;
      case '0':
        canvas?.fit();
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    setHasFocus(true);
    // Reached by the keyboard: start at the first entity (a click picks its own node).
    if (event.currentTarget.matches(':focus-visible') && (focus.nodeId === null || !order.includes(focus.nodeId))) moveTo(0);
  };

  const problems = drawable.problems;
  return (
    <div className={`entity-graph entity-graph--${theme}${className ? ` ${className}` : ''}`} style={themeVariables(theme) as CSSProperties}>
      <div
        ref={containerRef}
        className="entity-graph__canvas"
        tabIndex={0}
        role="application"
        aria-roledescription="entity graph"
        aria-label={`Entity graph. ${drawable.spec.altText}`}
        aria-describedby={helpId}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onBlur={() => setHasFocus(false)}
      />
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {failure?.spec === drawable.spec && (
        <p className="notice notice--error entity-graph__notice" role="alert">
          The graph could not be laid out ({failure.message}). Its table lists every entity and link.
        </p>
      )}
      {problems.length > 0 && (
        <div className="notice notice--warning entity-graph__notice" role="status">
          <p>
            {problems.length === 1 ? 'One part of the graph is not drawn' : `${problems.length} parts of the graph are not drawn`}; the table lists them all.
          </p>
          <ul>
            {problems.slice(0, 3).map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
            {problems.length > 3 && <li>and {problems.length - 3} more.</li>}
          </ul>
        </div>
      )}
      <GraphLegend kinds={kinds} palette={palette} helpId={helpId} />
    </div>
  );
}
