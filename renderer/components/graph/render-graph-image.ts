// The entity graph as a printed image: the whole graph, laid out as on screen (elk or fcose), light
// theme, every label drawn, with a legend strip along the bottom (a printed page has no HTML legend
// beside it), as a PNG data URL of exactly the requested size. Drawn by an offscreen cytoscape;
// never hangs: a render that has not finished in time is rejected with a message saying so.
import type cytoscape from 'cytoscape';
import { graphNodeKindLabels } from '../../../shared/graph/graph-spec.ts';
import { avoidLabelCollisions, createGraphCore, fitGraph, runLayout, showCompactLabels, spreadOnGrid } from './graph-core.ts';
import type { RenderGraphImage } from './graph-types.ts';
import {
  COMPACT_BELOW_ZOOM,
  SWATCH_BOX,
  drawableSpec,
  edgeLook,
  edgeLookDash,
  edgeLookLabels,
  fullLayoutOptions,
  graphPalette,
  kindLooks,
  kindsIn,
  swatchGeometry,
  toElements,
  type EdgeLook,
  type GraphPalette,
  type SwatchGeometry,
} from './graph-style.ts';
import { formatCount } from '../../../shared/format/number.ts';

const IMAGE_TIMEOUT_MS = 20_000;
const MAX_SIDE_PX = 8192;
/** Labels stay readable: a small graph is not blown up past this zoom to fill the page. */
const MAX_IMAGE_ZOOM = 1.6;

interface LegendItem {
  text: string;
  /** The swatch's width before scaling (its height is SWATCH_BOX's). */
  swatchWidth: number;
  draw: (context: CanvasRenderingContext2D, x: number, y: number, scale: number) => void;
}

function tracePath(context: CanvasRenderingContext2D, geometry: SwatchGeometry): void {
  context.beginPath();
  if (geometry.type === 'rect') context.roundRect(geometry.x, geometry.y, geometry.width, geometry.height, geometry.radius);
  else if (geometry.type === 'circle') context.arc(geometry.cx, geometry.cy, geometry.r, 0, 2 * Math.PI);
  else {
    geometry.points.forEach(([x, y], index) => (index === 0 ? context.moveTo(x, y) : context.lineTo(x, y)));
    context.closePath();
  }
}

function legendItems(spec: Parameters<typeof kindsIn>[0], palette: GraphPalette): LegendItem[] {
  const kinds = kindsIn(spec).map<LegendItem>((kind) => ({
    text: graphNodeKindLabels[kind],
    swatchWidth: SWATCH_BOX.width,
    draw: (context, x, y, scale) => {
      const look = kindLooks[kind];
      context.save();
      context.translate(x, y);
      context.scale(scale, scale);
      tracePath(context, swatchGeometry[look.shape]);
      context.fillStyle = look.fill;
      context.fill();
      context.globalAlpha = 0.6;
      context.lineWidth = 1;
      context.strokeStyle = palette.text;
      context.stroke();
      context.restore();
    },
  }));
  // Only the kinds of link the graph has: a legend entry for nothing drawn is noise on paper.
  const present = new Set(spec.edges.map(edgeLook));
  const looks = (['fact', 'lead', 'confirmed', 'cut'] as EdgeLook[]).filter((look) => present.has(look));
  const edges = looks.map<LegendItem>((look) => ({
    text: edgeLookLabels[look],
    swatchWidth: 30,
    draw: (context, x, y, scale) => {
      context.save();
      context.translate(x, y);
      context.scale(scale, scale);
      context.globalAlpha = look === 'cut' ? 0.7 : 1;
      context.strokeStyle = palette[look];
      context.fillStyle = palette[look];
      context.lineWidth = look === 'fact' || look === 'cut' ? 1.5 : 2;
      context.setLineDash(edgeLookDash[look] ?? []);
      context.beginPath();
      context.moveTo(1, 8);
      context.lineTo(look === 'cut' ? 26 : 23, 8);
      context.stroke();
      context.setLineDash([]);
      context.beginPath();
      if (look === 'cut') {
        context.lineWidth = 2;
        context.moveTo(27, 3.5);
        context.lineTo(27, 12.5);
        context.stroke();
      } else {
        context.moveTo(22, 4);
        context.lineTo(29, 8);
        context.lineTo(22, 12);
        context.closePath();
        context.fill();
      }
      context.restore();
    },
  }));
  return [...kinds, ...edges];
}

/** Lays the legend out in rows across the width; returns the height it needs, drawing when given a context. */
function legend(items: LegendItem[], widthPx: number, scale: number, palette: GraphPalette, context: CanvasRenderingContext2D | null, top: number): number {
  const measure = context ?? document.createElement('canvas').getContext('2d');
  if (!measure || items.length === 0) return 0;
  const fontPx = Math.round(11 * scale);
  const rowHeight = Math.round(22 * scale);
  const gap = Math.round(14 * scale);
  const padding = Math.round(12 * scale);
  measure.font = `${fontPx}px ${palette.fontFamily}`;
  let x = padding;
  let row = 0;
  for (const item of items) {
    const swatchWidth = item.swatchWidth * scale;
    const width = swatchWidth + 5 * scale + measure.measureText(item.text).width;
    if (x > padding && x + width > widthPx - padding) {
      x = padding;
      row++;
    }
    if (context) {
      const y = top + row * rowHeight + (rowHeight - SWATCH_BOX.height * scale) / 2;
      item.draw(context, x, y, scale);
      context.fillStyle = palette.text;
      context.textBaseline = 'middle';
      context.fillText(item.text, x + swatchWidth + 5 * scale, top + row * rowHeight + rowHeight / 2);
    }
    x += width + gap;
  }
  return (row + 1) * rowHeight + Math.round(6 * scale);
}

export const renderGraphImage: RenderGraphImage = async ({ spec, widthPx, heightPx }) => {
  const valid = (side: number) => Number.isInteger(side) && side > 0 && side <= MAX_SIDE_PX;
  if (!valid(widthPx) || !valid(heightPx)) {
    throw new Error(`A graph image is between 1 and ${formatCount(MAX_SIDE_PX)} pixels on each side, in whole pixels; this one was asked for at ${widthPx} × ${heightPx}.`);
  }
  const drawable = drawableSpec(spec).spec;
  if (drawable.nodes.length === 0) throw new Error('The graph has no entities, so there is no image to draw; its table says so.');
  const palette = graphPalette('light');
  const scale = Math.min(3, Math.max(1, widthPx / 900));
  const items = legendItems(drawable, palette);
  const legendHeight = Math.min(Math.round(heightPx / 3), legend(items, widthPx, scale, palette, null, 0));
  const graphHeight = heightPx - legendHeight;

  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  Object.assign(host.style, { position: 'fixed', left: '-100000px', top: '0', width: `${widthPx}px`, height: `${graphHeight}px`, pointerEvents: 'none' });
  document.body.append(host);
  let cy: cytoscape.Core | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const core = createGraphCore(host, 'light', { print: true, pixelRatio: 1 });
    cy = core;
    core.add(toElements(drawable));
    spreadOnGrid(core);
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`The graph image was not ready after ${IMAGE_TIMEOUT_MS / 1000} s (${drawable.nodes.length} entities). Try again, or print the graph's table alone.`)),
        IMAGE_TIMEOUT_MS,
      );
    });
    await Promise.race([runLayout(core.elements(), fullLayoutOptions(drawable.layout, drawable.nodes.length)), timedOut]);
    fitGraph(core, Math.round(24 * scale), MAX_IMAGE_ZOOM, true);
    showCompactLabels(core, core.zoom() < COMPACT_BELOW_ZOOM);
    // In print nothing can be pointed at: words that would cover a name are left to the table.
    avoidLabelCollisions(core);
    const graphPng = await Promise.race([core.png({ output: 'blob-promise', full: false, scale: 1, bg: palette.background }), timedOut]);
    const bitmap = await createImageBitmap(graphPng);
    const canvas = document.createElement('canvas');
    canvas.width = widthPx;
    canvas.height = heightPx;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This window cannot draw images (no 2D canvas).');
    context.fillStyle = palette.background;
    context.fillRect(0, 0, widthPx, heightPx);
    context.drawImage(bitmap, 0, 0);
    bitmap.close();
    if (legendHeight > 0) {
      context.strokeStyle = palette.faint;
      context.globalAlpha = 0.4;
      context.beginPath();
      context.moveTo(0, graphHeight + 0.5);
      context.lineTo(widthPx, graphHeight + 0.5);
      context.stroke();
      context.globalAlpha = 1;
      legend(items, widthPx, scale, palette, context, graphHeight + Math.round(3 * scale));
    }
    return { dataUrl: canvas.toDataURL('image/png'), widthPx, heightPx };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(message.startsWith('The graph') || message.startsWith('This window') ? message : `The graph image could not be drawn: ${message}`, { cause: error });
  } finally {
    clearTimeout(timer);
    cy?.destroy();
    host.remove();
  }
};
