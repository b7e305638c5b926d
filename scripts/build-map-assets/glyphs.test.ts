// The map's glyphs as maplibre reads them: the committed PBF ranges decode (glyphs.proto), name their
// font and range, and hold the Latin glyphs street names need, each an SDF bitmap of the stated size
// with the ink inside maplibre's 0.75 edge and the border outside it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { GLYPHS, readMapManifest } from '../../renderer/components/map/map-manifest.ts';
import { mapData } from '../../renderer/components/map/map-data.ts';
import { mapStyle } from '../../renderer/components/map/map-style.ts';
import { buildGlyphRanges, encodeGlyphRange, GLYPH_BORDER, LATIN_RANGES, type SdfGlyph } from './glyphs.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const glyphFile = (fontstack: string, range: string) => readFileSync(path.join(repoRoot, 'assets/map/glyphs', fontstack, `${range}.pbf`));

interface Decoded {
  name: string;
  range: string;
  glyphs: Map<number, SdfGlyph>;
}

/** glyphs.proto, read field by field: glyphs { fontstack stacks = 1 }, fontstack { name = 1, range = 2, glyph glyphs = 3 }. */
function decode(bytes: Uint8Array): Decoded[] {
  return new PbfReader(bytes).readFields(
    (tag, stacks: Decoded[], pbf) => {
      if (tag !== 1) return;
      stacks.push(
        pbf.readMessage(
          (field, stack: Decoded, reader) => {
            if (field === 1) stack.name = reader.readString();
            else if (field === 2) stack.range = reader.readString();
            else if (field === 3) {
              const glyph = reader.readMessage(
                (key, g: SdfGlyph, r) => {
                  if (key === 1) g.id = r.readVarint();
                  else if (key === 2) g.bitmap = r.readBytes();
                  else if (key === 3) g.width = r.readVarint();
                  else if (key === 4) g.height = r.readVarint();
                  else if (key === 5) g.left = r.readSVarint();
                  else if (key === 6) g.top = r.readSVarint();
                  else if (key === 7) g.advance = r.readVarint();
                },
                { id: -1, bitmap: new Uint8Array(0), width: 0, height: 0, left: 0, top: 0, advance: 0 },
              );
              stack.glyphs.set(glyph.id, glyph);
            }
          },
          { name: '', range: '', glyphs: new Map() },
        ),
      );
    },
    [] as Decoded[],
  );
}

const codes = (text: string) => [...text].map((char) => char.codePointAt(0)!);
/** maplibre draws ink where the SDF is above 192 (its 0.75 edge). */
const EDGE = 192;

describe('the committed glyph ranges', () => {
  it('decode, one fontstack per file, named and ranged as the style asks for them', () => {
    for (const [start, end] of LATIN_RANGES) {
      const [stack, ...rest] = decode(glyphFile(GLYPHS.regular, `${start}-${end}`));
      expect(rest).toEqual([]);
      expect(stack).toMatchObject({ name: GLYPHS.regular, range: `${start}-${end}` });
      for (const id of stack!.glyphs.keys()) {
        expect(id).toBeGreaterThanOrEqual(start);
        expect(id).toBeLessThanOrEqual(end);
      }
    }
    expect(decode(glyphFile(GLYPHS.semibold, '0-255'))[0]).toMatchObject({ name: GLYPHS.semibold, range: '0-255' });
  });

  it('hold the Latin glyphs street names need, with bitmaps of the stated size', () => {
    const basic = decode(glyphFile(GLYPHS.regular, '0-255'))[0]!.glyphs;
    const needed = codes(" ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.,'&/-()éèñüÉ");
    for (const id of needed) expect(basic.has(id), String.fromCodePoint(id)).toBe(true);
    for (const glyph of basic.values()) {
      if (glyph.width === 0) continue;
      expect(glyph.bitmap.length).toBe((glyph.width + 2 * GLYPH_BORDER) * (glyph.height + 2 * GLYPH_BORDER));
    }
    // A space has room and no ink.
    expect(basic.get(32)).toMatchObject({ width: 0, height: 0, bitmap: new Uint8Array(0) });
    expect(basic.get(32)!.advance).toBeGreaterThan(3);
    const extended = decode(glyphFile(GLYPHS.regular, '256-511'))[0]!.glyphs;
    for (const id of codes('ĀāČčŁłŐőŠšŽž')) expect(extended.has(id), String.fromCodePoint(id)).toBe(true);
    const punctuation = decode(glyphFile(GLYPHS.regular, '8192-8447'))[0]!.glyphs;
    for (const id of codes('\u2013\u2014\u2018\u2019\u201c\u201d\u2026')) expect(punctuation.has(id), String.fromCodePoint(id).normalize()).toBe(true);
  });

  it('draw a letter as ink inside the edge and clear outside it', () => {
    const basic = decode(glyphFile(GLYPHS.regular, '0-255'))[0]!.glyphs;
    // "I": a single upright stroke. Its middle row is ink at the centre and clear at the border.
    const glyph = basic.get('I'.codePointAt(0)!)!;
    const columns = glyph.width + 2 * GLYPH_BORDER;
    const rows = glyph.height + 2 * GLYPH_BORDER;
    const row = Math.floor(rows / 2);
    const at = (column: number) => glyph.bitmap[row * columns + column]!;
    expect(at(Math.floor(columns / 2))).toBeGreaterThan(EDGE);
    expect(at(0)).toBeLessThan(EDGE);
    expect(at(columns - 1)).toBeLessThan(EDGE);
    // Capital height at 24 px: Source Sans 3's caps are 0.66 em, about 16 px; the stroke is 2 to 4 px wide.
    expect(glyph.height).toBeGreaterThanOrEqual(15);
    expect(glyph.height).toBeLessThanOrEqual(18);
    expect(glyph.width).toBeGreaterThanOrEqual(2);
    expect(glyph.width).toBeLessThanOrEqual(5);
    // "O" is a ring: its centre is clear, its stroke is ink.
    const o = basic.get('O'.codePointAt(0)!)!;
    const oColumns = o.width + 2 * GLYPH_BORDER;
    const middle = Math.floor((o.height + 2 * GLYPH_BORDER) / 2);
    expect(o.bitmap[middle * oColumns + Math.floor(oColumns / 2)]).toBeLessThan(EDGE);
    expect(Math.max(...o.bitmap.subarray(middle * oColumns, middle * oColumns + 8))).toBeGreaterThan(EDGE);
    // Letters sit on one baseline: a descender reaches below where a capital stops.
    const p = basic.get('p'.codePointAt(0)!)!;
    expect(p.top - p.height).toBeLessThan(glyph.top - glyph.height);
  });

  it('are there for every font the map style writes in, in every range the manifest lists', () => {
    const style = mapStyle({ theme: 'light', assetBase: 'http://127.0.0.1/map/', data: mapData({ subject: null, points: [], area: null, radiusMiles: null, altText: '' }), cluster: true });
    const fonts = new Set(style.layers.flatMap((layer) => ((layer as { layout?: { 'text-font'?: unknown } }).layout?.['text-font'] as string[] | undefined) ?? []));
    const read = readMapManifest(JSON.parse(readFileSync(path.join(repoRoot, 'assets/map/manifest.json'), 'utf8')));
    if (!read.ok) throw new Error(read.message);
    expect(fonts.size).toBeGreaterThan(0);
    for (const font of fonts) {
      const entry = read.manifest.fonts.find((candidate) => candidate.fontstack === font);
      expect(entry?.ranges, font).toContain('0-255');
      for (const range of entry!.ranges) expect(decode(glyphFile(font, range))[0]?.glyphs.size).toBeGreaterThan(50);
    }
  });

  it('are what the build makes from the font in the npm package, byte for byte', () => {
    const font = readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('source-sans/package.json')), 'TTF/SourceSans3-Semibold.ttf'));
    const [file] = buildGlyphRanges(font, GLYPHS.semibold, [[0, 255]]);
    expect(file?.path).toBe(`${GLYPHS.semibold}/0-255.pbf`);
    expect(Buffer.from(file!.body).equals(glyphFile(GLYPHS.semibold, '0-255'))).toBe(true);
  });

  it('encode what they are given and nothing else', () => {
    const body = encodeGlyphRange('Test-Font', [0, 255], [{ id: 65, bitmap: new Uint8Array(49).fill(200), width: 1, height: 1, left: -1, top: -9, advance: 7 }]);
    const [stack] = decode(body);
    expect(stack?.name).toBe('Test-Font');
    expect([...stack!.glyphs.values()]).toEqual([{ id: 65, bitmap: new Uint8Array(49).fill(200), width: 1, height: 1, left: -1, top: -9, advance: 7 }]);
  });
});
