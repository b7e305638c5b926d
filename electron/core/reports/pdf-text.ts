// The text a PDF's pages show, line by line, as a reader sees it: extracted with PDF.js (through
// unpdf, whose build of it needs no native canvas). Verification compares these lines with the
// evidence, so text drawn over a page after export is read like the rest.
import { extractTextItems, getDocumentProxy } from 'unpdf';

/** A line of a page: the pieces of text the page draws on it, in order (a cell's text is its own piece). */
export type PageLine = string[];

/** Each page's lines, in the order the page draws them (an overlay drawn later comes last). */
export async function pageLines(bytes: Uint8Array): Promise<PageLine[][]> {
  // PDF.js takes the buffer over: give it a copy so the caller's bytes stay readable.
  const document = await getDocumentProxy(new Uint8Array(bytes), { stopAtErrors: true });
  try {
    const { items } = await extractTextItems(document);
    return items.map((page) => {
      const lines: PageLine[] = [];
      let line: PageLine = [];
      const end = () => {
        const pieces = line.map(normalizeText).filter((piece) => piece !== '');
        if (pieces.length > 0) lines.push(pieces);
        line = [];
      };
      for (const item of page) {
        line.push(item.str);
        if (item.hasEOL) end();
      }
      end();
      return lines;
    });
  } finally {
    await document.loadingTask.destroy();
  }
}

/** Text as compared: white space of any kind collapsed to one space, no-break spaces included. */
export function normalizeText(text: string): string {
  return text.replace(/[\s\u00a0\u2007\u202f]+/g, ' ').trim();
}
