// The report's comparables map as a picture: drawn offscreen by the map component's own renderer
// (renderMapImage, the same style as the Comparables view's live map), for the screen and the print
// route alike. Loaded on demand, so a report without comparables never loads the map library. A map
// that cannot be drawn (no WebGL, missing basemap files) or takes too long fails with a reason, and
// the report prints the map's table instead: the print route never waits forever.
import { useEffect, useState } from 'react';
import type { ComparablesMapSpec } from '../../../shared/comparables/model.ts';

export type MapImageState =
  | { status: 'loading' }
  | { status: 'ready'; dataUrl: string; widthPx: number; heightPx: number; attribution: string | null }
  | { status: 'failed'; message: string };

/**
 * The picture's pixels: the report's 7.5 in text width at 160 dpi, 4.4 in high so the search and the
 * map share a page (renderMapImage lays it out at half this and draws it at 2×). Software WebGL, as
 * headless printers have, draws in time proportional to the pixels.
 */
export const REPORT_MAP_SIZE = { widthPx: 1200, heightPx: 700 } as const;

/** Well inside the printer's 30 s wait for the page, so a map that never settles still leaves time to print its table. */
export const MAP_IMAGE_TIMEOUT_MS = 12_000;

/** The promise, or a rejection saying it was not drawn in time (the graph's picture waits the same way). */
export function within<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it was not drawn within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Draws the spec; never rejects: a failure is a state with the reason in words. */
export async function drawReportMap(spec: ComparablesMapSpec, timeoutMs: number = MAP_IMAGE_TIMEOUT_MS): Promise<MapImageState> {
  try {
    const drawn = within(
      import('../../components/map/render-map-image.ts').then(async ({ renderMapImage, mapImageAttribution }) => {
        const [image, attribution] = await Promise.all([
          renderMapImage({ spec, ...REPORT_MAP_SIZE }),
          // The basemap's publishers for the caption; they are drawn into the picture too.
          mapImageAttribution().catch(() => null),
        ]);
        return { ...image, attribution };
      }),
      timeoutMs,
    );
    return { status: 'ready', ...(await drawn) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { status: 'failed', message: reason.replace(/\.$/, '') };
  }
}

/** The spec's picture, redrawn when the spec changes; null when there is no map to draw. */
export function useMapImage(spec: ComparablesMapSpec | null): MapImageState | null {
  // Keyed by the spec's content: a refetched document with the same map is not drawn again.
  const key = spec === null ? null : JSON.stringify(spec);
  const [drawn, setDrawn] = useState<{ key: string; image: MapImageState } | null>(null);
  useEffect(() => {
    if (key === null) return;
    let cancelled = false;
    void drawReportMap(JSON.parse(key) as ComparablesMapSpec).then((image) => {
      if (!cancelled) setDrawn({ key, image });
    });
    return () => {
      cancelled = true;
    };
  }, [key]);
  if (key === null) return null;
  return drawn?.key === key ? drawn.image : { status: 'loading' };
}
