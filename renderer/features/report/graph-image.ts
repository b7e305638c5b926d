// The report's entity graph as a picture: drawn offscreen by the graph component's own renderer
// (renderGraphImage: the same shapes, colours and layouts as the Graph view, light theme, a legend
// along the bottom), for the screen and the print route alike. Loaded on demand, so a report without
// title research never loads cytoscape. A graph that cannot be drawn or takes too long fails with a
// reason, and the report prints the graph's table alone: the print route never waits forever.
import type { GraphSpec } from '../../../shared/graph/graph-spec.ts';
import { drawReportImage, REPORT_IMAGE_TIMEOUT_MS, useReportImage, type ReportImageState } from './report-image.ts';

export type GraphImageState = ReportImageState<{ dataUrl: string; widthPx: number; heightPx: number }>;

/** Printed at the report's 7.5 in text width, so labels drawn at the component's size print at about 7–9 pt. */
const GRAPH_WIDTH_PX = 1000;

/** The picture's pixels: as wide as the page allows, taller as the graph grows (a portfolio needs the room a chain does not). */
export function reportGraphSize(spec: GraphSpec): { widthPx: number; heightPx: number } {
  const nodes = spec.nodes.length;
  const heightPx = spec.layout === 'layered' && nodes <= 8 ? 460 : Math.min(1000, 480 + 18 * nodes);
  return { widthPx: GRAPH_WIDTH_PX, heightPx };
}

export const GRAPH_IMAGE_TIMEOUT_MS = REPORT_IMAGE_TIMEOUT_MS;

/** Draws the spec; never rejects: a failure is a state with the reason in words. */
export function drawReportGraph(spec: GraphSpec, timeoutMs: number = GRAPH_IMAGE_TIMEOUT_MS): Promise<GraphImageState> {
  return drawReportImage(
    () => import('../../components/graph/render-graph-image.ts').then(({ renderGraphImage }) => renderGraphImage({ spec, ...reportGraphSize(spec) })),
    timeoutMs,
  );
}

/** The spec's picture, redrawn when the spec changes; null when there is no graph to draw. */
export function useGraphImage(spec: GraphSpec | null): GraphImageState | null {
  return useReportImage(spec, drawReportGraph);
}
