// The cytoscape core the Graph view's drawing and the report's offscreen image share: the core
// itself with the app's stylesheet, layouts run to their end (elk loaded on first use), fitting the
// view, and the label and box measures both use.
import cytoscape from 'cytoscape';
// @ts-expect-error -- cytoscape-fcose ships no type declarations; it registers the `fcose` layout by name.
import cytoscapeFcose from 'cytoscape-fcose';
import type { GraphTheme } from './graph-types.ts';
import { graphStylesheet, type ElkLayoutOptions, type FcoseLayoutOptions, type LabelEnd } from './graph-style.ts';
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

/** A layout that has not finished by then is reported, never waited on forever. */
const LAYOUT_TIMEOUT_MS = 30_000;

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
export function fitBox(cy: cytoscape.Core, box: { x1: number; x2: number; y1: number; y2: number }, padding: number, maxZoom: number): void {
  const zoom = Math.min(maxZoom, zoomToFit(cy, box, padding));
  cy.viewport({ zoom, pan: { x: (cy.width() - zoom * (box.x1 + box.x2)) / 2, y: (cy.height() - zoom * (box.y1 + box.y2)) / 2 } });
}

export function zoomToFit(cy: cytoscape.Core, box: { x1: number; x2: number; y1: number; y2: number }, padding: number): number {
  return Math.min((cy.width() - 2 * padding) / Math.max(1, box.x2 - box.x1), (cy.height() - 2 * padding) / Math.max(1, box.y2 - box.y1));
}

/**
 * Gives or takes a class, restyling only the elements whose class changes: cytoscape's
 * toggleClass(name, on) restyles every element it is given, which on 2,000 nodes costs a frame.
 */
export function setClass(eles: cytoscape.Collection, name: string, on: boolean): void {
  const changing = eles.filter((ele) => ele.hasClass(name) !== on);
  if (changing.nonempty()) changing.toggleClass(name, on);
}

/**
 * Puts each edge's words at its end in `ends` (label-source / label-target; neither: the middle). One
 * pass over the edges, restyling only those whose end changes, rather than eight collections built and
 * filtered over every edge of the graph on each expansion.
 */
export function placeEdgeLabels(cy: cytoscape.Core, ends: ReadonlyMap<string, LabelEnd>): void {
  const names = { 'label-source': 'source', 'label-target': 'target' } as const;
  const changed = { 'label-source': { on: [] as cytoscape.EdgeSingular[], off: [] as cytoscape.EdgeSingular[] }, 'label-target': { on: [] as cytoscape.EdgeSingular[], off: [] as cytoscape.EdgeSingular[] } };
  cy.edges().forEach((edge) => {
    const end = ends.get(edge.id());
    for (const [name, at] of Object.entries(names) as Array<[keyof typeof names, LabelEnd]>) {
      const on = end === at;
      if (edge.hasClass(name) !== on) changed[name][on ? 'on' : 'off'].push(edge);
    }
  });
  // cy.collection takes an array of elements (its typings know only definitions and collections).
  const collection = (edges: cytoscape.EdgeSingular[]) => cy.collection(edges as unknown as cytoscape.CollectionArgument);
  cy.batch(() => {
    for (const name of Object.keys(names) as Array<keyof typeof names>) {
      if (changed[name].on.length > 0) collection(changed[name].on).addClass(name);
      if (changed[name].off.length > 0) collection(changed[name].off).removeClass(name);
    }
  });
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
export const BODIES_ONLY = { includeLabels: false, includeEdges: false, includeOverlays: false } as const;

/** Room a label takes below a node and beside it (labels wrap at 180 px), for boxes that leave labels out. */
export const LABEL_ROOM = 48;
export const LABEL_SIDE = 60;

export function positionOf(node: cytoscape.NodeSingular): { x: number; y: number } {
  const { x, y } = node.position();
  return { x, y };
}

type Box = { x1: number; x2: number; y1: number; y2: number };
const overlaps = (a: Box, b: Box) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
const LABELS_ONLY = { includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false } as const;

/**
 * Edge words that would cover an entity's name (or be covered by it) move to their edge's quieter
 * end, then the other end; where none is clear they are drawn only when the link is pointed at,
 * selected or focused (`quiet`), the link panel and the table giving them. Dense graphs are quiet
 * already; this is for the few labelled links of a small graph, on screen and in the printed image.
 */
export function avoidLabelCollisions(cy: cytoscape.Core): void {
  const edges = cy.edges().filter((edge) => !edge.hasClass('quiet') || edge.hasClass('collides'));
  if (edges.empty()) return;
  const names = cy.nodes().map((node) => node.boundingBox(LABELS_ONLY) as Box).filter((box) => box.x2 > box.x1);
  const bodies = cy.nodes().map((node) => node.boundingBox({ includeLabels: false, includeEdges: false, includeOverlays: false }) as Box);
  const clear = (edge: cytoscape.EdgeSingular) => {
    const box = edge.boundingBox(LABELS_ONLY) as Box;
    return box.x2 <= box.x1 || ![...names, ...bodies].some((other) => overlaps(box, other));
  };
  for (const edge of edges.toArray() as cytoscape.EdgeSingular[]) {
    if (edge.hasClass('collides')) edge.removeClass('collides quiet');
    if (clear(edge)) continue;
    const ends = ['label-source', 'label-target'].filter((name) => !edge.hasClass(name));
    const original = ['label-source', 'label-target'].find((name) => edge.hasClass(name)) ?? null;
    let placed = false;
    for (const end of ends) {
      edge.removeClass('label-source label-target').addClass(end);
      if (clear(edge)) {
        placed = true;
        break;
      }
    }
    if (placed) continue;
    edge.removeClass('label-source label-target');
    if (original) edge.addClass(original);
    edge.addClass('quiet collides');
  }
}
