// For the report tests: a small real PDF, as a printer would hand one over.
import { PDFDocument } from '@cantoo/pdf-lib';

export async function smallPdf(pages = 2): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let index = 0; index < pages; index++) pdf.addPage([612, 792]).drawText(`Subject report, page ${index + 1}`, { x: 72, y: 720, size: 12 });
  return pdf.save();
}
