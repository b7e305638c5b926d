// The report's entity graph as a picture: drawn offscreen by the graph component's own renderer
// (renderGraphImage: the same shapes, colours and layouts as the Graph view, light theme, a legend
// along the bottom), for the screen and the print route alike. Loaded on demand, so a report without
// title research never loads cytoscape. A graph that cannot be drawn or takes too long fails with a
// reason, and the report prints the graph's table alone: the print route never waits forever.
import { useEffect, useState } from 'react';
import type { GraphSpec } from '../../../shared/graph/graph-spec.ts';
import { within } from './map-image.ts';

export type GraphImageState =
  | { status: 'loading' }
  | { status: 'ready'; dataUrl: string; widthPx: number; heightPx: number }
  | { status: 'failed'; message: string };

/** Printed at the report's 7.5 in text width, so labels drawn at the component's size print at about 7–9 pt. */
const GRAPH_WIDTH_PX = 1000;

/** The picture's pixels: as wide as the page allows, taller as the graph grows (a portfolio needs the room a chain does not). */
export function reportGraphSize(spec: GraphSpec): { widthPx: number; heightPx: number } {
  const nodes = spec.nodes.length;
  const heightPx = spec.layout === 'layered' && nodes <= 8 ? 460 : Math.min(1000, 480 + 18 * nodes);
  return { widthPx: GRAPH_WIDTH_PX, heightPx };
}

/** Well inside the printer's 30 s wait, and beside the map's, so a graph that never settles still leaves time to print its table. */
export const GRAPH_IMAGE_TIMEOUT_MS = 12_000;

/** Draws the spec; never rejects: a failure is a state with the reason in words. */
export async function drawReportGraph(spec: GraphSpec, timeoutMs: number = GRAPH_IMAGE_TIMEOUT_MS): Promise<GraphImageState> {
  try {
    const drawn = within(
      import('../../components/graph/render-graph-image.ts').then(({ renderGraphImage }) => renderGraphImage({ spec, ...reportGraphSize(spec) })),
      timeoutMs,
    );
    return { status: 'ready', ...(await drawn) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { status: 'failed', message: reason.replace(/\.$/, '') };
  }
}

/** The spec's picture, redrawn when the spec changes; null when there is no graph to draw. */
export function useGraphImage(spec: GraphSpec | null): GraphImageState | null {
  // Keyed by the spec's content: a refetched document with the same graph is not drawn again.
  const key = spec === null ? null : JSON.stringify(spec);
  const [drawn, setDrawn] = useState<{ key: string; image: GraphImageState } | null>(null);
  useEffect(() => {
    if (key === null) return;
    let cancelled = false;
    void drawReportGraph(JSON.parse(key) as GraphSpec).then((image) => {
      if (!cancelled) setDrawn({ key, image });
    });
    return () => {
      cancelled = true;
    };
  }, [key]);
  if (key === null) return null;
  return drawn?.key === key ? drawn.image : { status: 'loading' };
}
