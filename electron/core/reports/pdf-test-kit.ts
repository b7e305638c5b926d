// For the report tests: small real PDFs, as a printer would hand them over.
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

export async function smallPdf(pages = 2): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let index = 0; index < pages; index++) pdf.addPage([612, 792]).drawText(`Subject report, page ${index + 1}`, { x: 72, y: 720, size: 12 });
  return pdf.save();
}

/** What a printed value needs to be drawn as the report prints it: label, value, flag, markers. */
export interface PrintableRow {
  label: string;
  printed: string;
  status: string;
  markers: readonly number[];
  limitation?: string | null;
}

const LINES_PER_PAGE = 40;
/** Where a value's cell starts and how wide it is: a page is 612 points wide, with a 36-point margin. */
const VALUE_X = 250;
const VALUE_WIDTH = 612 - 36 - VALUE_X;
const VALUE_SIZE = 9;

/**
 * The report's values drawn the way the print route lays them out (a label, then the value, its status
 * flag and its "[n]" markers on one line), so the pages can be read back and compared with the evidence.
 */
export async function printedPdf(rows: readonly PrintableRow[], title = 'Subject report'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  // The minus sign Plat prints (U+2212) is not in WinAnsi: the standard Symbol font draws it.
  const symbol = await pdf.embedFont(StandardFonts.Symbol);
  // The standard font draws WinAnsi only; the fixtures' values are within it but for a few signs.
  const drawable = (text: string) => text.replace(/[^\x20-\x7e\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2212]/g, '?');
  const widthOf = (text: string, size: number) => font.widthOfTextAtSize(text.replaceAll('\u2212', '-'), size);
  /** Draws a line in Helvetica, each minus sign in Symbol. */
  const drawLine = (page: ReturnType<PDFDocument['addPage']>, text: string, x: number, y: number, size: number) => {
    let at = x;
    for (const piece of text.split(/(\u2212)/u)) {
      if (piece === '') continue;
      const pieceFont = piece === '\u2212' ? symbol : font;
      page.drawText(piece, { x: at, y, size, font: pieceFont });
      at += pieceFont.widthOfTextAtSize(piece, size);
    }
  };
  // A cited value wider than its cell wraps onto the next lines, as a table cell does: text drawn past
  // the page's edge is not read back, and Verify looks for every cited value on the pages. (A reason
  // a value is unavailable is not looked for: it stays on one line.)
  const wrap = (text: string): string[] => {
    const wrapped: string[] = [];
    let current = '';
    for (const word of drawable(text).split(' ')) {
      const next = current === '' ? word : `${current} ${word}`;
      if (current !== '' && widthOf(next, VALUE_SIZE) > VALUE_WIDTH) {
        wrapped.push(current);
        current = word;
      } else current = next;
    }
    return [...wrapped, current];
  };
  const lines: (string | [string, string])[] = [title];
  for (const row of rows) {
    const flag = row.status === 'reported' ? '' : ` ${row.status[0]!.toUpperCase()}${row.status.slice(1)}`;
    const markers = row.markers.length === 0 ? ' no citation' : ` ${row.markers.map((number) => `[${number}]`).join('')}`;
    const value = row.status === 'unavailable' ? `Unavailable — ${row.limitation ?? 'no source gives it'}` : `${row.printed}${flag}${markers}`;
    (row.status === 'unavailable' ? [drawable(value)] : wrap(value)).forEach((part, index) => lines.push([index === 0 ? drawable(row.label) : '', part]));
  }
  for (let start = 0; start < lines.length; start += LINES_PER_PAGE) {
    const page = pdf.addPage([612, 792]);
    lines.slice(start, start + LINES_PER_PAGE).forEach((line, index) => {
      const y = 740 - index * 17;
      if (typeof line === 'string') drawLine(page, drawable(line), 72, y, 12);
      else {
        if (line[0] !== '') drawLine(page, line[0], 72, y, VALUE_SIZE);
        drawLine(page, line[1], VALUE_X, y, VALUE_SIZE);
      }
    });
  }
  return pdf.save();
}
