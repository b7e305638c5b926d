// The browser host's printer, loaded on the first export: playwright-core alone adds about 50 MB to
// the host's resident memory, and most sessions never print. It then is the ChromiumPrinter itself.
import type { Printer } from '../core/reports/printer.ts';
import type { ChromiumPrinter, ChromiumPrinterOptions } from '../core/reports/chromium-printer.ts';

export class OnDemandChromiumPrinter implements Printer {
  private readonly options: ChromiumPrinterOptions;
  private printer: Promise<ChromiumPrinter> | null = null;
  private loaded: ChromiumPrinter | null = null;
  private closed = false;

  constructor(options: ChromiumPrinterOptions) {
    this.options = options;
  }

  /** The loaded printer's description; it is only asked for after a print, so after the load. */
  get description(): string {
    return this.loaded?.description ?? 'Chromium';
  }

  async printReport(assignmentId: string): Promise<Uint8Array> {
    const printer = await this.load();
    // Closed before it was loaded: it is closed now, so the print fails as it would have.
    if (this.closed) await printer.close();
    return printer.printReport(assignmentId);
  }

  /** Closes the browser, if one was launched; later prints fail. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.printer) await (await this.printer).close();
  }

  private load(): Promise<ChromiumPrinter> {
    this.printer ??= import('../core/reports/chromium-printer.ts').then(({ ChromiumPrinter }) => {
      this.loaded = new ChromiumPrinter(this.options);
      return this.loaded;
    });
    return this.printer;
  }
}
