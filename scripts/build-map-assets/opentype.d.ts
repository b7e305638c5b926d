// The little of opentype.js (2.0.0, which ships no types; its ES module build) the glyph build uses: parse a font, find a
// character's glyph, read its outline as path commands.
declare module 'opentype.js/dist/opentype.mjs' {
  export type PathCommand =
    | { type: 'M' | 'L'; x: number; y: number }
    | { type: 'Q'; x1: number; y1: number; x: number; y: number }
    | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
    | { type: 'Z' };
  export interface Path {
    commands: PathCommand[];
  }
  export interface Glyph {
    index: number;
    advanceWidth?: number;
    /** The outline at a size in pixels, y down from the baseline at (x, y). */
    getPath(x: number, y: number, fontSize: number): Path;
  }
  export interface Font {
    unitsPerEm: number;
    names: Record<string, Record<string, string> | undefined>;
    charToGlyphIndex(char: string): number;
    glyphs: { get(index: number): Glyph };
  }
  export function parse(buffer: ArrayBuffer): Font;
}
