// Reads an exported PDF as a reviewer leafs through it and names two faults of pagination: a heading
// left at the foot of a page while what it heads starts on the next ("Prior sales" alone at the bottom
// of page 11, its row on page 12), and a page left mostly blank before the last (a map that did not fit
// pushed to the next page). Text is read with PDF.js (through unpdf, already a dependency); a heading is
// a line set larger than the body text; pictures count as content, so a page holding a map is not blank.
// Run: `node scripts/pdf-layout-check.ts report.pdf [more.pdf…]` (exit 1 when a fault is found).
import { readFileSync } from 'node:fs';
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';

export interface LayoutOptions {
  /** Text at least this size (points) is a heading. Plat's print body is at most 10.5 pt, its headings 11 pt and up. */
  headingMinPt: number;
  /** The page's top and bottom margins (points): the running header and footer print there and are not body text. */
  marginTopPt: number;
  marginBottomPt: number;
  /** A page whose content covers less than this share of the body's height is near-empty (the last page excepted). */
  nearEmptyShare: number;
  /** A heading followed on its page by at most this many lines (a table's header row) is separated from its rows. */
  maxLinesAfterHeading: number;
}

const MM = 72 / 25.4;

/** Plat's print pages (report-print.css `@page`: margins 18 mm top, 16 mm bottom). */
export const PLAT_LAYOUT: LayoutOptions = { headingMinPt: 10.8, marginTopPt: 18 * MM, marginBottomPt: 16 * MM, nearEmptyShare: 0.15, maxLinesAfterHeading: 1 };

/** A line of a page's body: its text, its baseline and size (PDF points, y up from the page's foot). */
export interface BodyLine {
  text: string;
  y: number;
  size: number;
  heading: boolean;
}

export interface PageLayout {
  /** 1-based. */
  page: number;
  lines: BodyLine[];
  /** The share of the body's height between the top of its first content and the foot of its last (text or picture). */
  filled: number;
}

export interface StrandedHeading {
  page: number;
  heading: string;
  /** What the next page starts with: the rows the heading was meant to stand over. */
  nextStartsWith: string;
}

export interface LayoutReport {
  pages: number;
  stranded: StrandedHeading[];
  nearEmpty: Array<{ page: number; filled: number; lines: number }>;
  layouts: PageLayout[];
}

interface TextPiece {
  str: string;
  transform: number[];
}

/** Reads the pages and names the faults. */
export async function checkPdfLayout(bytes: Uint8Array, options: Partial<LayoutOptions> = {}): Promise<LayoutReport> {
  const settings = { ...PLAT_LAYOUT, ...options };
  const { OPS } = await getResolvedPDFJS();
  const document = await getDocumentProxy(new Uint8Array(bytes));
  const layouts: PageLayout[] = [];
  try {
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const [, , , height] = page.view as [number, number, number, number];
      const top = height - settings.marginTopPt;
      const bottom = settings.marginBottomPt;
      const content = await page.getTextContent();
      const pieces = (content.items as Array<TextPiece | { type: string }>).filter((item): item is TextPiece => 'str' in item && item.str.trim() !== '');
      const lines = linesOf(pieces.filter((piece) => piece.transform[5]! < top && piece.transform[5]! > bottom), settings.headingMinPt);
      // The vertical extent of the body's content: its text lines and its pictures.
      const spans = lines.map((line) => ({ high: line.y + line.size, low: line.y - line.size * 0.25 }));
      for (const image of imageBoxes(await page.getOperatorList(), OPS)) {
        const high = Math.min(image.high, top);
        const low = Math.max(image.low, bottom);
        if (high > low) spans.push({ high, low });
      }
      const filled = spans.length === 0 ? 0 : (Math.max(...spans.map((span) => span.high)) - Math.min(...spans.map((span) => span.low))) / (top - bottom);
      layouts.push({ page: number, lines, filled: Math.min(1, filled) });
      page.cleanup();
    }
  } finally {
    await document.loadingTask.destroy();
  }
  return { pages: layouts.length, stranded: strandedHeadings(layouts, settings.maxLinesAfterHeading), nearEmpty: nearEmptyPages(layouts, settings.nearEmptyShare), layouts };
}

/** Pieces on one baseline (within a point) make a line; lines top to bottom. */
function linesOf(pieces: TextPiece[], headingMinPt: number): BodyLine[] {
  const sized = pieces.map((piece) => ({ text: piece.str, x: piece.transform[4]!, y: piece.transform[5]!, size: Math.hypot(piece.transform[2]!, piece.transform[3]!) }));
  sized.sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Array<{ pieces: typeof sized; y: number }> = [];
  for (const piece of sized) {
    const line = lines.at(-1);
    if (line && Math.abs(line.y - piece.y) <= 1) line.pieces.push(piece);
    else lines.push({ pieces: [piece], y: piece.y });
  }
  return lines.map(({ pieces: on, y }) => {
    const size = Math.max(...on.map((piece) => piece.size));
    const text = on
      .sort((a, b) => a.x - b.x)
      .map((piece) => piece.text)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    return { text, y, size, heading: size >= headingMinPt };
  });
}

/** Where a page paints pictures: each image's unit square through the transformation in force. */
function imageBoxes(list: { fnArray: number[]; argsArray: unknown[] }, OPS: Record<string, number>): Array<{ high: number; low: number }> {
  type Matrix = [number, number, number, number, number, number];
  const multiply = (m: Matrix, n: Matrix): Matrix => [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
  const paints = new Set([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintJpegXObject, OPS.paintImageXObjectRepeat].filter((op) => op !== undefined));
  const stack: Matrix[] = [];
  let current: Matrix = [1, 0, 0, 1, 0, 0];
  const boxes: Array<{ high: number; low: number }> = [];
  list.fnArray.forEach((fn, at) => {
    const args = list.argsArray[at] as unknown[] | null;
    if (fn === OPS.save) stack.push(current);
    else if (fn === OPS.restore) current = stack.pop() ?? current;
    else if (fn === OPS.transform && args) current = multiply(current, args as Matrix);
    else if (fn === OPS.paintFormXObjectBegin && args) {
      stack.push(current);
      if (Array.isArray(args[0])) current = multiply(current, args[0] as Matrix);
    } else if (fn === OPS.paintFormXObjectEnd) current = stack.pop() ?? current;
    else if (paints.has(fn)) {
      const ys = [0, 1].flatMap((u) => [0, 1].map((v) => current[1] * u + current[3] * v + current[5]));
      boxes.push({ high: Math.max(...ys), low: Math.min(...ys) });
    }
  });
  return boxes;
}

/** A heading with at most `maxAfter` lines under it at the foot of its page, while the next page goes on with body text (not a heading of its own). */
export function strandedHeadings(layouts: readonly PageLayout[], maxAfter: number): StrandedHeading[] {
  const stranded: StrandedHeading[] = [];
  layouts.forEach((layout, at) => {
    const next = layouts[at + 1];
    const first = next?.lines[0];
    if (!first || first.heading) return;
    const lastHeading = layout.lines.findLastIndex((line) => line.heading);
    if (lastHeading < 0 || layout.lines.length - 1 - lastHeading > maxAfter) return;
    stranded.push({ page: layout.page, heading: layout.lines[lastHeading]!.text, nextStartsWith: first.text });
  });
  return stranded;
}

/** Pages before the last whose content fills less than `share` of the body. */
export function nearEmptyPages(layouts: readonly PageLayout[], share: number): LayoutReport['nearEmpty'] {
  return layouts.slice(0, -1).flatMap((layout) => (layout.filled < share ? [{ page: layout.page, filled: Math.round(layout.filled * 100) / 100, lines: layout.lines.length }] : []));
}

async function main(files: string[]): Promise<number> {
  if (files.length === 0) {
    console.error('usage: node scripts/pdf-layout-check.ts report.pdf [more.pdf…]');
    return 2;
  }
  let faults = 0;
  for (const file of files) {
    const report = await checkPdfLayout(readFileSync(file));
    faults += report.stranded.length + report.nearEmpty.length;
    console.log(`${file}: ${report.pages} pages, ${report.stranded.length} headings separated from their rows, ${report.nearEmpty.length} near-empty pages`);
    for (const { page, heading, nextStartsWith } of report.stranded) console.log(`  page ${page} ends with the heading “${heading}”; page ${page + 1} starts “${nextStartsWith.slice(0, 60)}”`);
    for (const { page, filled, lines } of report.nearEmpty) console.log(`  page ${page} is ${Math.round(filled * 100)} % filled (${lines} lines)`);
    console.log(`  fill by page: ${report.layouts.map((layout) => `${layout.page}:${Math.round(layout.filled * 100)}%`).join(' ')}`);
  }
  return faults > 0 ? 1 : 0;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
