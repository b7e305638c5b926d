// The text a PDF's pages show, line by line, as a reader sees it: extracted with PDF.js (through
// unpdf, whose build of it needs no native canvas). Verification compares these lines with the
// evidence, so text drawn over a page after export is read like the rest.
import { extractTextItems, getDocumentProxy } from 'unpdf';

/** Each page's lines, in the order the page draws them (an overlay drawn later comes last). */
export async function pageLines(bytes: Uint8Array): Promise<string[][]> {
  // PDF.js takes the buffer over: give it a copy so the caller's bytes stay readable.
  const document = await getDocumentProxy(new Uint8Array(bytes), { stopAtErrors: true });
  try {
    const { items } = await extractTextItems(document);
    return items.map((page) => {
      const lines: string[] = [];
      let line = '';
      for (const item of page) {
        line += item.str;
        if (item.hasEOL) {
          lines.push(normalizeText(line));
          line = '';
        } else if (item.str !== '' && !item.str.endsWith(' ')) line += ' ';
      }
      if (line.trim() !== '') lines.push(normalizeText(line));
      return lines.filter((text) => text !== '');
    });
  } finally {
    await document.loadingTask.destroy();
  }
}

/** Text as compared: white space of any kind collapsed to one space, no-break spaces included. */
export function normalizeText(text: string): string {
  return text.replace(/[\s\u00a0\u2007\u202f]+/g, ' ').trim();
}
