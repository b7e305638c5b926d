// The Printer port: turns the renderer's print route for a report into PDF bytes. Electron prints
// with a hidden window's webContents.printToPDF; the browser host drives a Chromium-family browser
// found on the machine (playwright-core). Both print the same route the screen's components render:
//   <page origin>/?route=print-report&assignment=<id>   (shared/print-route.ts: printRoutePath)
// The page sets <html data-print-ready="true"> once the report is on the page (or "error" with the
// reason in data-print-error), and the printer waits for that before printing.

/** How long the print route may take to put the report on the page. */
export const PRINT_READY_TIMEOUT_MS = 30_000;

/**
 * The print options for the page's running header and page numbers, when it asks for them on <html>
 * (data-print-header / data-print-footer); Chromium draws them in the page margins.
 */
export function headerFooterOptions(marks: { header: string | null; footer: string | null }): {
  displayHeaderFooter?: true;
  headerTemplate?: string;
  footerTemplate?: string;
} {
  if (marks.header === null && marks.footer === null) return {};
  return { displayHeaderFooter: true, headerTemplate: marks.header ?? '<span></span>', footerTemplate: marks.footer ?? '<span></span>' };
}

export interface Printer {
  /** What prints, for messages ("Chromium at /usr/bin/chromium"). */
  readonly description: string;
  /** The report of `assignmentId` as a PDF (A4/Letter from the page's CSS, tagged, with an outline where the engine supports it). */
  printReport(assignmentId: string): Promise<Uint8Array>;
}

/** No printer could be found: says so, and what to do instead (the browser's own print dialog). */
export class NoPrinterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoPrinterError';
  }
}
