// The drawn graph, kept in step with the spec outside React (cytoscape owns its canvas): spec
// changes are diffed and applied in turn, selection and keyboard focus are classes on elements.
import type cytoscape from 'cytoscape';
import type { GraphSpec } from '../../../shared/graph/graph-spec.ts';
import type { GraphTheme } from './graph-types.ts';
import { BODIES_ONLY, LABEL_ROOM, LABEL_SIDE, avoidLabelCollisions, createGraphCore, fitBox, fitGraph, placeEdgeLabels, positionOf, runLayout, setClass, showCompactLabels, spreadOnGrid, zoomToFit } from './graph-core.ts';
import { COMPACT_BELOW_ZOOM, diffGraphSpecs, edgeElement, edgeWordClasses, fullLayoutOptions, graphStylesheet, labelEnds, nodeElement } from './graph-style.ts';
import { placeNewNodes } from './place-new-nodes.ts';

const FIT_PADDING = 32;

export interface CanvasEvents {
  nodeTapped: (id: string) => void;
  edgeTapped: (id: string) => void;
  nodeDoubleTapped: (id: string) => void;
  layoutDone: (elapsedMs: number) => void;
  failed: (message: string) => void;
  /** What the canvas holds after each change: entities and links (groups apart), read from cytoscape itself. */
  drawn?: (counts: { entities: number; groups: number; links: number }) => void;
}

export interface CanvasState {
  selection: string | null;
  focusNode: string | null;
  focusEdge: string | null;
  showFocus: boolean;
}

export class GraphCanvas {
  readonly cy: cytoscape.Core;
  private readonly events: CanvasEvents;
  private readonly resizeObserver: ResizeObserver | null;
  private shown: GraphSpec | null = null;
  private wanted: { spec: GraphSpec; startedAt: number } | null = null;
  private busy = false;
  private destroyed = false;
  private compact: boolean | null = null;
  /** After a full layout the first fit frames a grouped portfolio's root; the next (F) frames everything. */
  private fittedAll = false;
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
    // A dense graph's links show their words while pointed at (an entity: all of its links).
    const pointed = (target: cytoscape.NodeSingular | cytoscape.EdgeSingular) => (target.isEdge() ? target : target.connectedEdges());
    cy.on('mouseover', 'node, edge', (event) => pointed(event.target as cytoscape.NodeSingular).addClass('hovered'));
    cy.on('mouseout', 'node, edge', (event) => pointed(event.target as cytoscape.NodeSingular).removeClass('hovered'));
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
    // A portfolio in groups opens on the root and its groups, at a zoom their names can be read at;
    // the other owners the search found are a pan away (F fits them all with the rest).
    const root = this.shown?.nodes.some((node) => node.group && !node.group.open) ? this.cy.nodes('.root') : null;
    if (root && root.nonempty() && !this.fittedAll) {
      this.fittedAll = true;
      const bodies = root.closedNeighborhood('node').boundingBox(BODIES_ONLY);
      fitBox(this.cy, { x1: bodies.x1 - LABEL_SIDE, x2: bodies.x2 + LABEL_SIDE, y1: bodies.y1, y2: bodies.y2 + LABEL_ROOM }, FIT_PADDING, 1.25);
      return;
    }
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
    // A group opened: where its closed node stood, before its holdings are put inside it.
    const groupsAt = new Map<string, { x: number; y: number }>();
    for (const node of diff.addedNodes) {
      const parent = node.parent === undefined ? null : cy.getElementById(node.parent);
      if (parent && parent.nonempty() && drawnIds.has(node.parent!) && !groupsAt.has(node.parent!)) groupsAt.set(node.parent!, positionOf(parent as cytoscape.NodeSingular));
    }
    cy.batch(() => {
      for (const id of diff.removedEdgeIds) cy.getElementById(id).remove();
      for (const id of diff.removedNodeIds) cy.getElementById(id).remove();
      for (const node of diff.changedNodes) {
        const { parent, ...data } = nodeElement(node).data;
        let drawn = cy.getElementById(node.id);
        // Into or out of an open group: cytoscape moves a node between compounds, never by its data.
        if (((drawn.data('parent') as string | undefined) ?? null) !== ((parent as string | undefined) ?? null)) drawn = drawn.move({ parent: (parent as string | undefined) ?? null }) as unknown as typeof drawn;
        drawn.data(data).classes(nodeElement(node).classes ?? []);
      }
      const ends = labelEnds(spec);
      const words = edgeWordClasses(spec);
      for (const edge of diff.changedEdges) {
        const element = edgeElement(edge, ends.get(edge.id), words.get(edge.id));
        cy.getElementById(edge.id).data(element.data).classes(element.classes ?? []);
      }
      // A compound node is added before the nodes drawn inside it.
      const added = [...diff.addedNodes.filter((node) => node.parent === undefined), ...diff.addedNodes.filter((node) => node.parent !== undefined)];
      cy.add([...added.map(nodeElement), ...diff.addedEdges.map((edge) => edgeElement(edge, ends.get(edge.id), words.get(edge.id)))]);
      // New links can make a node a hub: its older edges' words move to their quieter end.
      placeEdgeLabels(cy, ends);
      setClass(cy.elements('edge'), 'quiet', [...words.values()].some((names) => names.includes('quiet')));
    });
    this.shown = spec;
    if (diff.layout === 'full') {
      // Spread out before the layout: every node at the origin makes each edge a warning to draw.
      spreadOnGrid(cy);
      await runLayout(cy.elements(), fullLayoutOptions(spec.layout, spec.nodes.length));
      this.fittedAll = false;
      this.fit();
    } else if (diff.layout === 'incremental') {
      const inGroups = placeInGroups(cy, spec, groupsAt, new Set(diff.addedNodes.map((node) => node.id)));
      for (const id of inGroups) drawnIds.add(id);
      const placed = await placeNewNodes(cy, spec, drawnIds);
      this.showGrown(placed.union(cy.nodes().filter((node) => inGroups.has(node.id()))));
    }
    this.updateCompact(true);
    if (diff.layout !== 'none' || diff.changedEdges.length > 0 || diff.addedEdges.length > 0) avoidLabelCollisions(cy);
    this.applyState();
    const groups = cy.nodes('.group');
    this.events.drawn?.({ entities: cy.nodes().length - groups.length, groups: groups.length, links: cy.edges().length - cy.edges().filter((edge) => edge.source().hasClass('group')).length });
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

/** Room each holding takes inside an open group (its label wraps at 180 px), its parcel or unit below it. */
const GROUP_CELL = { width: 190, height: 130 };
const BELOW_HOLDING = 56;

/**
 * An opened group's holdings on a grid where the closed group stood: no layout to wait for (an
 * opening is a click), and nothing else moves. Returns the ids placed.
 */
function placeInGroups(cy: cytoscape.Core, spec: GraphSpec, groupsAt: ReadonlyMap<string, { x: number; y: number }>, added: ReadonlySet<string>): Set<string> {
  const placed = new Set<string>();
  for (const groupId of groupsAt.keys()) {
    const ids = spec.nodes.filter((node) => node.parent === groupId).map((node) => node.id);
    const members = new Set(ids);
    // What the opening drew beside each holding (its parcel or unit): just below it, in its cell.
    const below = new Map<string, string[]>();
    for (const edge of spec.edges) {
      const [holding, other] = members.has(edge.source) ? [edge.source, edge.target] : members.has(edge.target) ? [edge.target, edge.source] : [null, null];
      if (holding === null || other === null || members.has(other) || !added.has(other) || [...below.values()].some((list) => list.includes(other))) continue;
      below.set(holding, [...(below.get(holding) ?? []), other]);
    }
    const columns = Math.ceil(Math.sqrt(ids.length * 1.5));
    const rows = Math.ceil(ids.length / columns);
    // The grid opens away from the owner, so the owner and the groups around it stay clear of it.
    const ownerEdge = spec.edges.find((edge) => members.has(edge.source) && edge.target.startsWith('owner:'));
    const owner = ownerEdge ? cy.getElementById(ownerEdge.target) : null;
    let at = groupsAt.get(groupId)!;
    if (owner && owner.nonempty()) {
      const from = positionOf(owner as cytoscape.NodeSingular);
      const [dx, dy] = [at.x - from.x, at.y - from.y];
      const length = Math.hypot(dx, dy) || 1;
      const reach = Math.hypot(columns * GROUP_CELL.width, rows * GROUP_CELL.height) / 2;
      at = { x: at.x + (dx / length) * reach, y: at.y + (dy / length) * reach };
    }
    cy.batch(() => {
      ids.forEach((id, index) => {
        const [column, row] = [index % columns, Math.floor(index / columns)];
        const x = at.x + (column - (columns - 1) / 2) * GROUP_CELL.width;
        const y = at.y + (row - (rows - 1) / 2) * GROUP_CELL.height - BELOW_HOLDING / 2;
        cy.getElementById(id).position({ x, y });
        placed.add(id);
        (below.get(id) ?? []).forEach((other, index) => {
          cy.getElementById(other).position({ x: x + index * 48, y: y + BELOW_HOLDING });
          placed.add(other);
        });
      });
    });
  }
  return placed;
}
