// The report's comparables map as a picture: drawn offscreen by the map component's own renderer
// (renderMapImage, the same style as the Comparables view's live map), for the screen and the print
// route alike. Loaded on demand, so a report without comparables never loads the map library. A map
// that cannot be drawn (no WebGL, missing basemap files) or takes too long fails with a reason, and
// the report prints the map's table instead: the print route never waits forever.
import type { ComparablesMapSpec } from '../../../shared/comparables/model.ts';
import { drawReportImage, REPORT_IMAGE_TIMEOUT_MS, useReportImage, type ReportImageState } from './report-image.ts';

export type MapImageState = ReportImageState<{ dataUrl: string; widthPx: number; heightPx: number; attribution: string | null }>;

/**
 * The picture's pixels: the report's 7.5 in text width at 160 dpi, 4.4 in high so the search and the
 * map share a page (renderMapImage lays it out at half this and draws it at 2×). Software WebGL, as
 * headless printers have, draws in time proportional to the pixels.
 */
export const REPORT_MAP_SIZE = { widthPx: 1200, heightPx: 700 } as const;

export const MAP_IMAGE_TIMEOUT_MS = REPORT_IMAGE_TIMEOUT_MS;

/** Draws the spec; never rejects: a failure is a state with the reason in words. */
export function drawReportMap(spec: ComparablesMapSpec, timeoutMs: number = MAP_IMAGE_TIMEOUT_MS): Promise<MapImageState> {
  return drawReportImage(
    () =>
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
}

/** The spec's picture, redrawn when the spec changes; null when there is no map to draw. */
export function useMapImage(spec: ComparablesMapSpec | null): MapImageState | null {
  return useReportImage(spec, drawReportMap);
}
