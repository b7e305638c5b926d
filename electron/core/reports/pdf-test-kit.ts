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

/**
 * The report's values drawn the way the print route lays them out (a label, then the value, its status
 * flag and its "[n]" markers on one line), so the pages can be read back and compared with the evidence.
 */
export async function printedPdf(rows: readonly PrintableRow[], title = 'Subject report'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  // The standard font draws WinAnsi only; the fixtures' values are within it but for a few signs.
  const drawable = (text: string) => text.replace(/[^\x20-\x7e\u2013\u2014\u2018\u2019\u201c\u201d\u2026]/g, '?');
  const lines = [title, ...rows.map((row) => {
    if (row.status === 'unavailable') return [row.label, `Unavailable — ${row.limitation ?? 'no source gives it'}`];
    const flag = row.status === 'reported' ? '' : ` ${row.status[0]!.toUpperCase()}${row.status.slice(1)}`;
    const markers = row.markers.length === 0 ? ' no citation' : ` ${row.markers.map((number) => `[${number}]`).join('')}`;
    return [row.label, `${row.printed}${flag}${markers}`];
  })];
  for (let start = 0; start < lines.length; start += LINES_PER_PAGE) {
    const page = pdf.addPage([612, 792]);
    lines.slice(start, start + LINES_PER_PAGE).forEach((line, index) => {
      const y = 740 - index * 17;
      if (typeof line === 'string') page.drawText(drawable(line), { x: 72, y, size: 12, font });
      else {
        page.drawText(drawable(line[0]!), { x: 72, y, size: 9, font });
        page.drawText(drawable(line[1]!), { x: 250, y, size: 9, font });
      }
    });
  }
  return pdf.save();
}
