// The map as a picture for the report and the PDF: a location map an appraiser can exhibit. The same
// spec drawn by the same style on a map nobody sees (a box off-screen, not a screenshot of the
// window), in the light theme, every sale shown (no clustering), framed on the subject and the chosen
// comps (locationBoundsOf) so streets are named and the marks (S, 1, 2, …) read; a scale bar, a
// north arrow, the basemap's coverage note where the sample has none, and in a band below the map (a
// printed map hides nothing under its legend) the legend and the basemap's publishers: the picture
// explains itself. The report prints it with the spec's alt text.
import type { Map as MapLibreMap } from 'maplibre-gl';
import { maplibregl } from './maplibre.ts';
import type { RenderMapImage } from './map-types.ts';
import { loadMapManifest, mapAssetBase } from './map-assets.ts';
import { mapAttribution } from './map-manifest.ts';
import { basemapCoverageOf } from '../../../shared/comparables/map-coverage.ts';
import { frameSentence, legendRows, locationBoundsOf, mapData, type Bounds, type LegendRow } from './map-data.ts';
import { mapStyle } from './map-style.ts';
import { installIcons } from './map-runtime.ts';
import { iconCanvas, iconPalette, legendIconId } from './map-icons.ts';

/** Drawn at twice the CSS size: symbols and lines print at a readable size and stay sharp. */
const PIXEL_RATIO = 2;
const MIN_PX = 200;
const MAX_PX = 4096;
/** A map that has not settled in this long is not going to (a missing layer file, no WebGL). */
const SETTLE_TIMEOUT_MS = 30_000;

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const INK = '#1c2027';
const MUTED = '#5b6372';

const DC_BOUNDS: Bounds = [
  [-77.07, 38.88],
  [-77.0, 38.93],
];

function checkSize(name: string, value: number): void {
  if (!Number.isInteger(value) || value < MIN_PX || value > MAX_PX) {
    throw new Error(`The map image's ${name} must be a whole number of pixels from ${MIN_PX} to ${MAX_PX}, not ${value}.`);
  }
}

function settled(map: MapLibreMap): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The map image was not ready after ${SETTLE_TIMEOUT_MS / 1000} s (the basemap's files may be missing: run \`npm run map-assets\`).`)), SETTLE_TIMEOUT_MS);
    map.once('idle', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** maplibre's own scale bar (its width and words), drawn onto the picture at the bottom left. */
function drawScaleBar(ctx: CanvasRenderingContext2D, container: HTMLElement, heightPx: number): void {
  const bar = container.querySelector<HTMLElement>('.maplibregl-ctrl-scale');
  const width = bar ? parseFloat(bar.style.width) * PIXEL_RATIO : NaN;
  const label = bar?.textContent?.trim() ?? '';
  if (!bar || !Number.isFinite(width) || width <= 0 || label === '') return;
  const x = 12 * PIXEL_RATIO;
  const y = heightPx - 14 * PIXEL_RATIO;
  const tick = 6 * PIXEL_RATIO;
  ctx.save();
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(x - 4 * PIXEL_RATIO, y - 18 * PIXEL_RATIO, width + 8 * PIXEL_RATIO, 24 * PIXEL_RATIO);
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1.5 * PIXEL_RATIO;
  ctx.beginPath();
  ctx.moveTo(x, y - tick);
  ctx.lineTo(x, y);
  ctx.lineTo(x + width, y);
  ctx.lineTo(x + width, y - tick);
  ctx.stroke();
  ctx.fillStyle = INK;
  ctx.font = `600 ${11 * PIXEL_RATIO}px ${FONT}`;
  ctx.textBaseline = 'bottom';
  ctx.fillText(label, x + 3 * PIXEL_RATIO, y - 3 * PIXEL_RATIO);
  ctx.restore();
}

/** A north arrow at the top right (the map is never rotated: north is up). */
function drawNorthArrow(ctx: CanvasRenderingContext2D, widthPx: number): void {
  const r = PIXEL_RATIO;
  const cx = widthPx - 22 * r;
  const top = 10 * r;
  ctx.save();
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(cx - 12 * r, top - 2 * r, 24 * r, 36 * r);
  ctx.beginPath();
  ctx.moveTo(cx, top + 2 * r);
  ctx.lineTo(cx + 6 * r, top + 18 * r);
  ctx.lineTo(cx, top + 14 * r);
  ctx.lineTo(cx - 6 * r, top + 18 * r);
  ctx.closePath();
  ctx.fillStyle = INK;
  ctx.fill();
  ctx.font = `600 ${11 * r}px ${FONT}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.fillText('N', cx, top + 20 * r);
  ctx.restore();
}

/** The basemap's coverage note at the top left of the map, on a white box, wrapped to the room there is. */
function drawCoverageNote(ctx: CanvasRenderingContext2D, note: string, widthPx: number): void {
  const r = PIXEL_RATIO;
  const room = widthPx - 60 * r - 16 * r;
  ctx.save();
  ctx.font = `${11 * r}px ${FONT}`;
  const lines: string[] = [];
  let line = '';
  for (const word of note.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (ctx.measureText(next).width > room - 16 * r && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  const width = Math.max(...lines.map((text) => ctx.measureText(text).width)) + 16 * r;
  const height = lines.length * 15 * r + 10 * r;
  ctx.fillStyle = 'rgba(255,255,255,0.92)';
  ctx.fillRect(8 * r, 8 * r, width, height);
  ctx.strokeStyle = '#c5cad3';
  ctx.lineWidth = r;
  ctx.strokeRect(8 * r, 8 * r, width, height);
  ctx.fillStyle = INK;
  ctx.textBaseline = 'top';
  lines.forEach((text, index) => ctx.fillText(text, 16 * r, 14 * r + index * 15 * r));
  ctx.restore();
}

/** The legend band under the map: rows in columns, then the basemap's publishers. In CSS pixels. */
const BAND = { pad: 10, row: 20, icon: 18, gap: 6, attribution: 16 } as const;

/** `footLines`: the publishers' line, and the frame's sentence above it when the map is framed on the comps. */
function legendLayout(rows: number, widthPx: number, footLines = 1): { columns: number; heightPx: number } {
  const columns = widthPx / PIXEL_RATIO >= 560 ? 2 : 1;
  const height = BAND.pad * 2 + Math.ceil(rows / columns) * BAND.row + BAND.attribution * footLines;
  return { columns, heightPx: Math.round(height * PIXEL_RATIO) };
}

/** The legend with the same symbols and words as the screen's, and the basemap's publishers on its last line. */
function drawLegendBand(ctx: CanvasRenderingContext2D, rows: LegendRow[], foot: { frame: string | null; attribution: string }, top: number, widthPx: number, heightPx: number): void {
  const { frame, attribution } = foot;
  const r = PIXEL_RATIO;
  const palette = iconPalette('light');
  const { columns } = legendLayout(rows.length, widthPx);
  const columnWidth = (widthPx - BAND.pad * 2 * r) / columns;
  const perColumn = Math.max(1, Math.ceil(rows.length / columns));
  ctx.save();
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, top, widthPx, heightPx - top);
  ctx.fillStyle = '#c5cad3';
  ctx.fillRect(0, top, widthPx, r);
  ctx.font = `${11 * r}px ${FONT}`;
  ctx.textBaseline = 'middle';
  rows.forEach((row, index) => {
    const left = BAND.pad * r + Math.floor(index / perColumn) * columnWidth;
    const middle = top + BAND.pad * r + (index % perColumn) * BAND.row * r + (BAND.row * r) / 2;
    const symbol = iconCanvas(legendIconId[row.key] ?? '', palette, r);
    if (symbol) {
      // Symbols at their own size, shrunk to the row when larger.
      const size = Math.min(symbol.width, BAND.icon * r);
      ctx.drawImage(symbol, left + (BAND.icon * r - size) / 2, middle - size / 2, size, size);
    }
    const textLeft = left + (BAND.icon + BAND.gap) * r;
    // The count keeps its room: a long label is narrowed to what is left, never the count pushed off the picture.
    const count = row.count === null ? '' : `  ${row.count}`;
    const room = columnWidth - (BAND.icon + BAND.gap * 2) * r - ctx.measureText(count).width;
    ctx.fillStyle = INK;
    ctx.fillText(row.label, textLeft, middle, room);
    if (count !== '') {
      ctx.fillStyle = MUTED;
      ctx.fillText(count, textLeft + Math.min(ctx.measureText(row.label).width, room), middle);
    }
  });
  if (attribution) {
    ctx.font = `${9 * r}px ${FONT}`;
    ctx.fillStyle = MUTED;
    ctx.fillText(attribution, BAND.pad * r, heightPx - (BAND.attribution / 2 + 2) * r, widthPx - BAND.pad * 2 * r);
  }
  if (frame) {
    ctx.font = `${10 * r}px ${FONT}`;
    ctx.fillStyle = INK;
    ctx.fillText(frame, BAND.pad * r, heightPx - (BAND.attribution * 1.5 + 2) * r, widthPx - BAND.pad * 2 * r);
  }
  ctx.restore();
}

/** The basemap's publishers and dates, for the report's caption ("Map data: …"). */
export async function mapImageAttribution(): Promise<string> {
  return `Map data: ${mapAttribution(await loadMapManifest())}`;
}

/** Room around the frame for the symbols (fanned out up to 30 px), the north arrow and the scale bar. */
const FRAME_PADDING = { top: 44, bottom: 40, left: 40, right: 48 } as const;
/** A frame of a few houses is drawn no closer than this: the streets around them stay in view. */
const FRAME_MAX_ZOOM = 16.5;

function newMap(options: ConstructorParameters<typeof maplibregl.Map>[0]): MapLibreMap {
  try {
    return new maplibregl.Map(options);
  } catch (error) {
    throw new Error(`This computer could not draw the map image (${(error as Error).message}); the report lists every sale in its tables.`, { cause: error });
  }
}

export const renderMapImage: RenderMapImage = async ({ spec, widthPx, heightPx }) => {
  checkSize('width', widthPx);
  checkSize('height', heightPx);
  const manifest = await loadMapManifest();
  const attribution = `Map data: ${mapAttribution(manifest)}`;
  const coverageNote = basemapCoverageOf(spec, manifest.basemapCoverage.multiPolygon).note;
  const rows = legendRows(spec, { clustered: false });
  const chosen = spec.points.filter((point) => point.role === 'chosen').length;
  // Framed on the comps, the picture may leave sales out: it says so under the legend.
  const framed = spec.subject !== null && chosen > 0;
  const band = legendLayout(rows.length, widthPx, framed ? 2 : 1);
  // The map fills the picture above the legend band, in whole CSS pixels.
  const mapHeightPx = Math.floor((heightPx - band.heightPx) / PIXEL_RATIO) * PIXEL_RATIO;
  if (mapHeightPx < MIN_PX / 2) throw new Error(`The map image is too short (${heightPx} px) for its legend of ${rows.length} rows.`);
  const container = document.createElement('div');
  container.className = 'plat-map-offscreen';
  container.setAttribute('aria-hidden', 'true');
  // Off-screen but laid out: a map in a hidden (display: none) box has no size to draw at.
  Object.assign(container.style, { position: 'fixed', left: '-20000px', top: '0', width: `${widthPx / PIXEL_RATIO}px`, height: `${mapHeightPx / PIXEL_RATIO}px`, pointerEvents: 'none' });
  document.body.append(container);
  let map: MapLibreMap | null = null;
  try {
    map = newMap({
      container,
      style: mapStyle({ theme: 'light', assetBase: mapAssetBase(), data: mapData(spec), cluster: false }),
      bounds: locationBoundsOf(spec) ?? DC_BOUNDS,
      fitBoundsOptions: { padding: FRAME_PADDING, maxZoom: FRAME_MAX_ZOOM },
      interactive: false,
      attributionControl: false,
      pixelRatio: PIXEL_RATIO,
      fadeDuration: 0,
      canvasContextAttributes: { preserveDrawingBuffer: true },
    });
    installIcons(map, () => 'light');
    map.addControl(new maplibregl.ScaleControl({ unit: 'imperial', maxWidth: 120 }), 'bottom-left');
    await settled(map);
    const canvas = document.createElement('canvas');
    canvas.width = widthPx;
    canvas.height = heightPx;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser could not make a canvas to draw the map image on.');
    // The drawing buffer is kept (preserveDrawingBuffer); reading it waits for the GPU to finish.
    ctx.drawImage(map.getCanvas(), 0, 0, widthPx, mapHeightPx);
    drawScaleBar(ctx, container, mapHeightPx);
    drawNorthArrow(ctx, widthPx);
    if (coverageNote) drawCoverageNote(ctx, coverageNote, widthPx);
    // The legend counts what the frame shows; the rows of roles outside it drop out.
    const view = map.getBounds();
    const inFrame = spec.points.filter((point) => view.contains(point.lonLat));
    drawLegendBand(ctx, legendRows({ ...spec, points: inFrame }, { clustered: false }), { frame: framed ? frameSentence(chosen, spec.points.length - inFrame.length) : null, attribution }, mapHeightPx, widthPx, heightPx);
    return { dataUrl: canvas.toDataURL('image/png'), widthPx, heightPx };
  } finally {
    map?.remove();
    container.remove();
  }
};
