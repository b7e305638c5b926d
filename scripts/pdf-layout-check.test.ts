// The layout check on tiny PDFs drawn here with pdf-lib, on Plat's Letter page and margins: a heading
// at a page's foot with its rows on the next is found, one kept with its rows is not; a page with three
// lines before the last is near-empty, a page holding a picture is not; the running header and footer
// in the margins are not body text.
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { checkPdfLayout } from './pdf-layout-check.ts';

const LETTER: [number, number] = [612, 792];
/** A 1×1 PNG: a picture drawn at any size. */
const PIXEL = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

type Block = { heading: string } | { rows: number } | { picture: number };

/** A page as Plat prints it: header and footer in the margins, then the blocks from the top of the body down. */
function drawPage(page: PDFPage, font: PDFFont, blocks: Block[], picture: Awaited<ReturnType<PDFDocument['embedPng']>>, number: number) {
  page.drawText('Subject report · 1708 21ST ST NW', { x: 40, y: 770, size: 7, font });
  page.drawText(`Page ${number}`, { x: 40, y: 20, size: 7, font });
  let y = 792 - 60;
  for (const block of blocks) {
    if ('heading' in block) {
      page.drawText(block.heading, { x: 40, y, size: 11, font });
      y -= 16;
    } else if ('rows' in block) {
      for (let row = 0; row < block.rows; row += 1) {
        page.drawText(`Row ${row + 1}  2016-01-19  $2,350,000`, { x: 40, y, size: 8.5, font });
        y -= 12;
      }
    } else {
      y -= block.picture;
      page.drawImage(picture, { x: 40, y, width: 500, height: block.picture });
      y -= 8;
    }
  }
}

async function pdfOf(pages: Block[][]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const picture = await document.embedPng(PIXEL);
  pages.forEach((blocks, at) => drawPage(document.addPage(LETTER), font, blocks, picture, at + 1));
  return document.save();
}

describe('the PDF layout check', () => {
  it('finds a heading at the foot of a page whose rows start on the next page', async () => {
    const report = await checkPdfLayout(await pdfOf([[{ rows: 50 }, { heading: 'Prior sales' }], [{ rows: 50 }]]));
    expect(report.stranded).toEqual([{ page: 1, heading: 'Prior sales', nextStartsWith: 'Row 1 2016-01-19 $2,350,000' }]);
  });

  it('counts a heading with only its table’s header row under it as separated', async () => {
    const report = await checkPdfLayout(await pdfOf([[{ rows: 50 }, { heading: 'Prior sales' }, { rows: 1 }], [{ rows: 50 }]]));
    expect(report.stranded.map((fault) => fault.page)).toEqual([1]);
  });

  it('passes a heading kept with its rows, and a section that ends where the next page starts with a heading', async () => {
    const kept = await checkPdfLayout(await pdfOf([[{ rows: 40 }], [{ heading: 'Prior sales' }, { rows: 50 }]]));
    expect(kept.stranded).toEqual([]);
    const ended = await checkPdfLayout(await pdfOf([[{ rows: 40 }, { heading: 'Spend' }], [{ heading: 'Endnotes' }, { rows: 50 }]]));
    expect(ended.stranded).toEqual([]);
  });

  it('finds a page before the last that is mostly blank, not the last page', async () => {
    const report = await checkPdfLayout(await pdfOf([[{ rows: 50 }], [{ heading: 'Permits' }, { rows: 3 }], [{ rows: 50 }], [{ rows: 2 }]]));
    expect(report.nearEmpty).toEqual([{ page: 2, filled: expect.any(Number), lines: 4 }]);
    expect(report.nearEmpty[0]!.filled).toBeLessThan(0.15);
    expect(report.pages).toBe(4);
  });

  it('counts a picture as content: a map with its heading and caption is not a blank page', async () => {
    const report = await checkPdfLayout(await pdfOf([[{ heading: 'Map' }, { picture: 300 }, { rows: 2 }], [{ rows: 50 }]]));
    expect(report.nearEmpty).toEqual([]);
    expect(report.layouts[0]!.filled).toBeGreaterThan(0.45);
  });

  it('does not read the running header and footer as body text', async () => {
    const report = await checkPdfLayout(await pdfOf([[{ rows: 2 }], [{ rows: 2 }]]));
    expect(report.layouts[0]!.lines.map((line) => line.text)).toEqual(['Row 1 2016-01-19 $2,350,000', 'Row 2 2016-01-19 $2,350,000']);
  });
});
