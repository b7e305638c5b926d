// The map's fonts: the glyphs of street names and the subject's "S", drawn by glyphs.ts from Adobe's
// Source Sans 3 as its npm package ships it (TTF, SIL Open Font License 1.1: free to bundle and
// redistribute with software), written under glyphs/ with the licence's text beside them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { GLYPHS, type MapFontEntry } from '../../renderer/components/map/map-manifest.ts';
import { buildGlyphRanges, LATIN_RANGES, type GlyphRangeFile } from './glyphs.ts';

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');


interface FontSource {
  fontstack: string;
  family: string;
  /** The TTF inside the package. */
  file: string;
  /** Street names need Latin with its accents and dashes; the semibold face draws only the "S" and digits. */
  ranges: ReadonlyArray<readonly [number, number]>;
}

const FONT_PACKAGE = 'source-sans';
export const FONT_SOURCES: readonly FontSource[] = [
  { fontstack: GLYPHS.regular, family: 'Source Sans 3 Regular', file: 'TTF/SourceSans3-Regular.ttf', ranges: LATIN_RANGES },
  { fontstack: GLYPHS.semibold, family: 'Source Sans 3 Semibold', file: 'TTF/SourceSans3-Semibold.ttf', ranges: [[0, 255]] },
];

const requireHere = createRequire(import.meta.url);

/** The font's licence, as its package ships it, beside the glyphs. */
export const FONT_LICENCE_FILE = 'glyphs/font-licence.json';

function fontPackage(): { dir: string; version: string; licence: string; copyright: string; licenceText: string } {
  const manifestPath = requireHere.resolve(`${FONT_PACKAGE}/package.json`);
  const dir = path.dirname(manifestPath);
  const { version, license } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string; license: string };
  // The licence file's first line is the copyright notice the OFL asks to keep with the font.
  const licenceText = readFileSync(path.join(dir, 'LICENSE.md'), 'utf8');
  const copyright = licenceText.split('\n')[0]?.trim() ?? '';
  return { dir, version, licence: license, copyright, licenceText };
}

/** Glyph files by font file hash and ranges: a process that builds twice (the tests) draws each font once. */
const glyphCache = new Map<string, GlyphRangeFile[]>();

function fontGlyphs(font: FontSource, bytes: Buffer): GlyphRangeFile[] {
  const key = `${sha256(bytes)}:${font.fontstack}:${font.ranges.join(',')}`;
  let files = glyphCache.get(key);
  if (!files) glyphCache.set(key, (files = buildGlyphRanges(bytes, font.fontstack, font.ranges)));
  return files;
}

/** Writes every font's glyph ranges and the licence (through `write`, relative to the map's folder); the manifest's entries. */
export function writeFontGlyphs(write: (relative: string, body: string | Uint8Array) => void): MapFontEntry[] {
  const fonts: MapFontEntry[] = [];
  const fontPkg = fontPackage();
  for (const font of FONT_SOURCES) {
    const bytes = readFileSync(path.join(fontPkg.dir, font.file));
    const glyphFiles = fontGlyphs(font, bytes);
    const hash = createHash('sha256');
    for (const file of glyphFiles) {
      write(`glyphs/${file.path}`, file.body);
      hash.update(`${file.path}\n`).update(file.body);
    }
    fonts.push({
      fontstack: font.fontstack,
      file: GLYPHS.template.replace('{fontstack}', font.fontstack),
      family: font.family,
      origin: `npm package ${FONT_PACKAGE}@${fontPkg.version} (Adobe's Source Sans 3), file ${font.file}; signed-distance-field glyphs drawn by scripts/build-map-assets/glyphs.ts`,
      licence: `${fontPkg.licence} (SIL Open Font License 1.1, its text in ${FONT_LICENCE_FILE}): may be bundled and redistributed with software; the font's name is Adobe's`,
      copyright: fontPkg.copyright,
      ranges: font.ranges.map(([start, end]) => `${start}-${end}`),
      glyphs: glyphFiles.reduce((sum, file) => sum + file.glyphs, 0),
      bytes: glyphFiles.reduce((sum, file) => sum + file.body.length, 0),
      sha256: hash.digest('hex'),
      input: { path: `node_modules/${FONT_PACKAGE}/${font.file}`, sha256: sha256(bytes), bytes: bytes.length },
    });
  }
  // The OFL travels with the font's glyphs: its text beside them, served with the map's files.
  write(FONT_LICENCE_FILE, `${JSON.stringify({ package: `${FONT_PACKAGE}@${fontPkg.version}`, copyright: fontPkg.copyright, licence: fontPkg.licence, text: fontPkg.licenceText }, null, 2)}\n`);
  return fonts;
}
