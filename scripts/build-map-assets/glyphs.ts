// The map's glyphs: signed-distance-field bitmaps of a font's characters in maplibre's glyph PBF
// format (one file per range of 256 code points, `{fontstack}/{start}-{end}.pbf`), made at build time
// from a TTF shipped in an npm package, so the map draws street names with nothing fetched from
// outside Plat. Pure JavaScript: opentype.js reads the outlines; each bitmap pixel's signed distance
// is measured to the outline itself (its curves cut into short segments), with the nonzero winding
// rule deciding inside, so no canvas and no native module is needed. The sizes and the distance
// scale are maplibre's own (24 px glyphs, a 3 px border, 8 px of distance around the 0.75 edge), as
// the glyphs its tools make. The same font file gives the same bytes.
import { parse, type Font, type PathCommand } from 'opentype.js/dist/opentype.mjs';
import { PbfWriter } from 'pbf';

/** maplibre's glyph size, border and SDF scale (GLYPH_PBF_BORDER, ONE_EM; the shader's 0.75 edge). */
export const GLYPH_SIZE = 24;
export const GLYPH_BORDER = 3;
const SDF_RADIUS = 8;
const SDF_CUTOFF = 0.25;

/** Latin: Basic Latin and Latin-1, Latin Extended-A and -B, and general punctuation (dashes, quotes). */
export const LATIN_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0, 255],
  [256, 511],
  [8192, 8447],
];

export interface SdfGlyph {
  id: number;
  /** (width + 2 × border) × (height + 2 × border) bytes, row by row; empty for a glyph with no ink (a space). */
  bitmap: Uint8Array;
  width: number;
  height: number;
  left: number;
  /** The ink's top from the line's top (maplibre's convention: the bitmap's top edge less the font's ascender). */
  top: number;
  advance: number;
}

type Segment = [number, number, number, number];

/** Curves flattened into this many segments: at 24 px a segment is well under a pixel. */
const CURVE_STEPS = 8;

/** The outline as line segments, y up from the baseline, in pixels at GLYPH_SIZE. */
function segmentsOf(commands: PathCommand[]): Segment[] {
  const segments: Segment[] = [];
  let start: [number, number] = [0, 0];
  let at: [number, number] = [0, 0];
  const lineTo = (x: number, y: number) => {
    if (x !== at[0] || y !== at[1]) segments.push([at[0], at[1], x, y]);
    at = [x, y];
  };
  for (const command of commands) {
    switch (command.type) {
      case 'M':
        if (at[0] !== start[0] || at[1] !== start[1]) lineTo(start[0], start[1]);
        start = [command.x, -command.y];
        at = start;
        break;
      case 'L':
        lineTo(command.x, -command.y);
        break;
      case 'Q': {
        const [x0, y0] = at;
        for (let step = 1; step <= CURVE_STEPS; step++) {
          const t = step / CURVE_STEPS;
          const u = 1 - t;
          lineTo(u * u * x0 + 2 * u * t * command.x1 + t * t * command.x, u * u * y0 + 2 * u * t * -command.y1 + t * t * -command.y);
        }
        break;
      }
      case 'C': {
        const [x0, y0] = at;
        for (let step = 1; step <= CURVE_STEPS; step++) {
          const t = step / CURVE_STEPS;
          const u = 1 - t;
          const x = u * u * u * x0 + 3 * u * u * t * command.x1 + 3 * u * t * t * command.x2 + t * t * t * command.x;
          const y = u * u * u * y0 + 3 * u * u * t * -command.y1 + 3 * u * t * t * -command.y2 + t * t * t * -command.y;
          lineTo(x, y);
        }
        break;
      }
      case 'Z':
        lineTo(start[0], start[1]);
        break;
    }
  }
  if (at[0] !== start[0] || at[1] !== start[1]) lineTo(start[0], start[1]);
  return segments;
}

/** Distance from (px, py) to the segment, squared. */
function distanceSquared(px: number, py: number, [x0, y0, x1, y1]: Segment): number {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / length));
  const ex = x0 + t * dx - px;
  const ey = y0 + t * dy - py;
  return ex * ex + ey * ey;
}

/** Whether (px, py) is inside the outline by the nonzero winding rule (TrueType's and CFF's). */
function inside(px: number, py: number, segments: Segment[]): boolean {
  let winding = 0;
  for (const [x0, y0, x1, y1] of segments) {
    if (y0 <= py) {
      if (y1 > py && (x1 - x0) * (py - y0) - (px - x0) * (y1 - y0) > 0) winding += 1;
    } else if (y1 <= py && (x1 - x0) * (py - y0) - (px - x0) * (y1 - y0) < 0) winding -= 1;
  }
  return winding !== 0;
}

/** One character's SDF glyph, or null when the font has no glyph for it. */
export function sdfGlyph(font: Font, codePoint: number, ascenderPx: number): SdfGlyph | null {
  const index = font.charToGlyphIndex(String.fromCodePoint(codePoint));
  if (!index) return null;
  const glyph = font.glyphs.get(index);
  const advance = Math.round(((glyph.advanceWidth ?? 0) * GLYPH_SIZE) / font.unitsPerEm);
  const segments = segmentsOf(glyph.getPath(0, 0, GLYPH_SIZE).commands);
  if (segments.length === 0) return { id: codePoint, bitmap: new Uint8Array(0), width: 0, height: 0, left: 0, top: -ascenderPx, advance };
  let xMin = Infinity;
  let xMax = -Infinity;
  let yMin = Infinity;
  let yMax = -Infinity;
  for (const [x0, y0, x1, y1] of segments) {
    xMin = Math.min(xMin, x0, x1);
    xMax = Math.max(xMax, x0, x1);
    yMin = Math.min(yMin, y0, y1);
    yMax = Math.max(yMax, y0, y1);
  }
  const left = Math.floor(xMin);
  const bottom = Math.floor(yMin);
  const top = Math.ceil(yMax);
  const width = Math.ceil(xMax) - left;
  const height = top - bottom;
  const columns = width + 2 * GLYPH_BORDER;
  const rows = height + 2 * GLYPH_BORDER;
  const bitmap = new Uint8Array(columns * rows);
  for (let row = 0; row < rows; row++) {
    const y = top + GLYPH_BORDER - row - 0.5;
    for (let column = 0; column < columns; column++) {
      const x = left - GLYPH_BORDER + column + 0.5;
      let nearest = Infinity;
      for (const segment of segments) nearest = Math.min(nearest, distanceSquared(x, y, segment));
      const distance = Math.sqrt(nearest) * (inside(x, y, segments) ? -1 : 1);
      bitmap[row * columns + column] = Math.max(0, Math.min(255, Math.round(255 - 255 * (distance / SDF_RADIUS + SDF_CUTOFF))));
    }
  }
  return { id: codePoint, bitmap, width, height, left, top: top - ascenderPx, advance };
}

/** The font's ascender in pixels at GLYPH_SIZE (hhea, as font renderers use). */
function ascenderOf(font: Font): number {
  const hhea = (font as unknown as { tables: { hhea?: { ascender?: number } } }).tables.hhea;
  return Math.round(((hhea?.ascender ?? font.unitsPerEm * 0.8) * GLYPH_SIZE) / font.unitsPerEm);
}

/** The glyph PBF of one range (maplibre's glyphs.proto: glyphs → fontstack → glyph). */
export function encodeGlyphRange(fontstack: string, [start, end]: readonly [number, number], glyphs: SdfGlyph[]): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, (_: unknown, out: PbfWriter) => {
    out.writeStringField(1, fontstack);
    out.writeStringField(2, `${start}-${end}`);
    for (const glyph of glyphs) {
      out.writeMessage(3, (__: unknown, g: PbfWriter) => {
        g.writeVarintField(1, glyph.id);
        if (glyph.bitmap.length > 0) g.writeBytesField(2, glyph.bitmap);
        g.writeVarintField(3, glyph.width);
        g.writeVarintField(4, glyph.height);
        g.writeSVarintField(5, glyph.left);
        g.writeSVarintField(6, glyph.top);
        g.writeVarintField(7, glyph.advance);
      }, undefined);
    }
  }, undefined);
  return pbf.finish();
}

export interface GlyphRangeFile {
  /** `{fontstack}/{start}-{end}.pbf` */
  path: string;
  body: Uint8Array;
  glyphs: number;
}

/** Every range's PBF for one font: the glyphs of the code points the font has, in order. */
export function buildGlyphRanges(fontFile: Uint8Array, fontstack: string, ranges: ReadonlyArray<readonly [number, number]> = LATIN_RANGES): GlyphRangeFile[] {
  const font = parse(fontFile.buffer.slice(fontFile.byteOffset, fontFile.byteOffset + fontFile.byteLength) as ArrayBuffer);
  const ascender = ascenderOf(font);
  return ranges.map((range) => {
    const glyphs: SdfGlyph[] = [];
    for (let codePoint = range[0]; codePoint <= range[1]; codePoint++) {
      const glyph = sdfGlyph(font, codePoint, ascender);
      if (glyph) glyphs.push(glyph);
    }
    return { path: `${fontstack}/${range[0]}-${range[1]}.pbf`, body: encodeGlyphRange(fontstack, range, glyphs), glyphs: glyphs.length };
  });
}
