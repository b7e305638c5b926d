// The map's symbols, drawn on a canvas at run time: the map has no sprite sheet and no glyph server
// (nothing is fetched), so numbers on comps and clusters are drawn here too. One drawing serves the
// map (map.addImage), the HTML legend (an <img> of the same canvas) and the printed image's legend.
// Shapes differ by role, not only colours, and the colours are Okabe–Ito's colour-blind-safe set.
import type { MapTheme } from './map-types.ts';
import { ICON } from './map-data.ts';

/** Okabe & Ito (2008), "Color Universal Design": distinguishable with any common colour-vision deficiency. */
export const OKABE_ITO = {
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  bluishGreen: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  reddishPurple: '#CC79A7',
} as const;

export const ROLE_COLOURS = {
  subject: OKABE_ITO.vermillion,
  chosen: OKABE_ITO.blue,
  candidate: OKABE_ITO.orange,
  flagged: OKABE_ITO.reddishPurple,
  area: OKABE_ITO.bluishGreen,
} as const;

export interface IconPalette {
  /** Outer edge of every symbol and the text on light symbols. */
  ink: string;
  /** The rim between a symbol and its edge, and the cluster's face. */
  paper: string;
  /** The approximate-location ring and the hollow not-used circle. */
  muted: string;
  /** The ring around the focused sale. */
  highlight: string;
  /** Under the approximate-location ring's dashes: the basemap's own tone, so the dashes read as dashes. */
  haloUnder: string;
}

export function iconPalette(theme: MapTheme): IconPalette {
  return theme === 'dark'
    ? { ink: '#0d0f12', paper: '#f4f5f7', muted: '#b7bec9', highlight: '#f4f5f7', haloUnder: '#0d0f12' }
    : { ink: '#1c2027', paper: '#ffffff', muted: '#4b5361', highlight: '#1c2027', haloUnder: '#ffffff' };
}

const FONT = "600 %spx system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** Sizes in CSS pixels (the canvas is drawn at the map's pixel ratio). */
const SIZE = { subject: 30, comp: 24, candidate: 16, flagged: 18, notUsed: 14, halo: 24, highlight: 40 } as const;

type Draw = (ctx: CanvasRenderingContext2D, palette: IconPalette) => void;

/** Fill a path with a dark edge and a light rim, so it stands out on light and dark basemaps alike. */
function outlined(ctx: CanvasRenderingContext2D, palette: IconPalette, path: Path2D, fill: string): void {
  ctx.lineJoin = 'round';
  ctx.strokeStyle = palette.ink;
  ctx.globalAlpha = 0.55;
  ctx.lineWidth = 4;
  ctx.stroke(path);
  ctx.globalAlpha = 1;
  ctx.fillStyle = fill;
  ctx.fill(path);
  ctx.strokeStyle = palette.paper;
  ctx.lineWidth = 1.5;
  ctx.stroke(path);
}

function star(cx: number, cy: number, outer: number, inner: number): Path2D {
  const path = new Path2D();
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 === 0 ? outer : inner;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    const x = cx + radius * Math.cos(angle);
    const y = cy + radius * Math.sin(angle);
    if (i === 0) path.moveTo(x, y);
    else path.lineTo(x, y);
  }
  path.closePath();
  return path;
}

function circlePath(cx: number, cy: number, r: number): Path2D {
  const path = new Path2D();
  path.arc(cx, cy, r, 0, Math.PI * 2);
  return path;
}

/** A ring stroked twice: a wide under-stroke that keeps it clear of whatever is beneath, then its own line over it. */
function ring(ctx: CanvasRenderingContext2D, path: Path2D, under: { colour: string; width: number; alpha?: number }, over: { colour: string; width: number; dash?: number[] }): void {
  ctx.strokeStyle = under.colour;
  if (under.alpha !== undefined) ctx.globalAlpha = under.alpha;
  ctx.lineWidth = under.width;
  ctx.stroke(path);
  if (under.alpha !== undefined) ctx.globalAlpha = 1;
  if (over.dash) ctx.setLineDash(over.dash);
  ctx.strokeStyle = over.colour;
  ctx.lineWidth = over.width;
  ctx.stroke(path);
}

function centredText(ctx: CanvasRenderingContext2D, text: string, cx: number, cy: number, px: number, colour: string): void {
  ctx.font = FONT.replace('%s', String(px));
  ctx.fillStyle = colour;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // Digits sit a little high on the middle baseline in most UI fonts.
  ctx.fillText(text, cx, cy + px * 0.06);
}

const fixed: Record<string, { size: number; draw: Draw }> = {
  [ICON.subject]: {
    size: SIZE.subject,
    draw: (ctx, palette) => outlined(ctx, palette, star(SIZE.subject / 2, SIZE.subject / 2 + 1, 13, 5.6), ROLE_COLOURS.subject),
  },
  [ICON.candidate]: {
    size: SIZE.candidate,
    draw: (ctx, palette) => outlined(ctx, palette, circlePath(8, 8, 5.5), ROLE_COLOURS.candidate),
  },
  [ICON.flagged]: {
    size: SIZE.flagged,
    draw: (ctx, palette) => {
      const path = new Path2D();
      path.moveTo(9, 2.5);
      path.lineTo(15.5, 14.5);
      path.lineTo(2.5, 14.5);
      path.closePath();
      outlined(ctx, palette, path, ROLE_COLOURS.flagged);
    },
  },
  [ICON.notUsed]: {
    size: SIZE.notUsed,
    draw: (ctx, palette) => {
      ring(ctx, circlePath(7, 7, 4), { colour: palette.paper, width: 3.5 }, { colour: palette.muted, width: 1.75 });
    },
  },
  [ICON.halo]: {
    size: SIZE.halo,
    draw: (ctx, palette) => {
      ring(ctx, circlePath(12, 12, 10), { colour: palette.haloUnder, width: 3, alpha: 0.6 }, { colour: palette.muted, width: 1.5, dash: [3, 2.6] });
    },
  },
  [ICON.highlight]: {
    size: SIZE.highlight,
    draw: (ctx, palette) => {
      ring(ctx, circlePath(20, 20, 16), { colour: palette.paper, width: 6 }, { colour: palette.highlight, width: 3 });
    },
  },
  /** Legend only: a market area's swatch. */
  'legend-area': {
    size: 18,
    draw: (ctx) => {
      ctx.fillStyle = ROLE_COLOURS.area;
      ctx.globalAlpha = 0.18;
      ctx.fillRect(2, 3, 14, 12);
      ctx.globalAlpha = 1;
      ctx.strokeStyle = ROLE_COLOURS.area;
      ctx.lineWidth = 2;
      ctx.strokeRect(2, 3, 14, 12);
    },
  },
  /** Legend only: the radius ring. */
  'legend-ring': {
    size: 18,
    draw: (ctx, palette) => {
      ctx.setLineDash([3, 2]);
      ctx.strokeStyle = palette.muted;
      ctx.lineWidth = 1.75;
      ctx.stroke(circlePath(9, 9, 7));
    },
  },
};

/** The cluster's radius for its count (maplibre abbreviates large counts: "1.2k"). */
function clusterRadius(count: string): number {
  if (/k$/i.test(count) || Number(count) >= 100) return 17;
  return Number(count) >= 10 ? 14.5 : 12;
}

function dynamic(id: string): { size: number; draw: Draw } | null {
  if (id.startsWith(ICON.compPrefix)) {
    const number = id.slice(ICON.compPrefix.length);
    if (!/^\d{1,3}$/.test(number)) return null;
    return {
      size: SIZE.comp,
      draw: (ctx, palette) => {
        const path = new Path2D();
        path.roundRect(3, 3, 18, 18, 3);
        outlined(ctx, palette, path, ROLE_COLOURS.chosen);
        centredText(ctx, number, 12, 12, number.length > 1 ? 10 : 12, '#ffffff');
      },
    };
  }
  if (id.startsWith(ICON.clusterPrefix)) {
    const count = id.slice(ICON.clusterPrefix.length);
    if (!/^[\d.]+k?$/i.test(count)) return null;
    const r = clusterRadius(count);
    const size = Math.ceil(r * 2 + 6);
    return {
      size,
      draw: (ctx, palette) => {
        const path = circlePath(size / 2, size / 2, r);
        ctx.strokeStyle = palette.ink;
        ctx.globalAlpha = 0.55;
        ctx.lineWidth = 4;
        ctx.stroke(path);
        ctx.globalAlpha = 1;
        ctx.fillStyle = palette.paper;
        ctx.fill(path);
        // The group's ring in the candidates' colour: it holds sales that are not chosen.
        ctx.strokeStyle = ROLE_COLOURS.candidate;
        ctx.lineWidth = 3;
        ctx.stroke(circlePath(size / 2, size / 2, r - 1.5));
        centredText(ctx, count, size / 2, size / 2, count.length > 2 ? 10 : 11, palette.ink);
      },
    };
  }
  return null;
}

/** Whether the map can draw this icon id (the ones styleimagemissing may ask for). */
export const isPlatIcon = (id: string): boolean => id in fixed || dynamic(id) !== null;

/** The icon drawn on a canvas of its size × pixelRatio, or null for an id this file does not draw. */
export function iconCanvas(id: string, palette: IconPalette, pixelRatio: number): HTMLCanvasElement | null {
  const icon = fixed[id] ?? dynamic(id);
  if (!icon) return null;
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(icon.size * pixelRatio);
  canvas.height = Math.ceil(icon.size * pixelRatio);
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.scale(pixelRatio, pixelRatio);
  icon.draw(ctx, palette);
  return canvas;
}

/** The icon as image data for map.addImage / updateImage. */
export function iconImage(id: string, palette: IconPalette, pixelRatio: number): ImageData | null {
  const canvas = iconCanvas(id, palette, pixelRatio);
  return canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height) ?? null;
}

/** The icons every map uses from the start (numbers and clusters are drawn when first asked for). */
export const FIXED_MAP_ICONS: readonly string[] = [ICON.subject, ICON.candidate, ICON.flagged, ICON.notUsed, ICON.halo, ICON.highlight];

/** The legend's symbol for each row key. */
export const legendIconId: Record<string, string> = {
  subject: ICON.subject,
  chosen: `${ICON.compPrefix}1`,
  candidate: ICON.candidate,
  flagged: ICON.flagged,
  not_used: ICON.notUsed,
  approximate: ICON.halo,
  cluster: `${ICON.clusterPrefix}12`,
  area: 'legend-area',
  ring: 'legend-ring',
};
