import { describe, expect, it } from 'vitest';
import { NoPrinterError } from '../core/reports/printer.ts';
import { OnDemandChromiumPrinter } from './on-demand-printer.ts';

const pageUrl = 'http://127.0.0.1:1/#token=abc';

describe('OnDemandChromiumPrinter', () => {
  it('looks for Chromium on the first print and says what it found', async () => {
    const printer = new OnDemandChromiumPrinter({ pageUrl, lookup: () => ({ found: false, message: 'No Chromium here' }) });
    await expect(printer.printReport('a1')).rejects.toThrow(NoPrinterError);
    expect(printer.description).toBe('no Chromium found');
    expect(printer.open).toBe(false);
  });

  it('closed before its first print, it refuses to print as the loaded printer would', async () => {
    const printer = new OnDemandChromiumPrinter({ pageUrl, lookup: () => ({ found: true, executablePath: '/nonexistent/chromium' }) });
    await printer.close();
    await expect(printer.printReport('a1')).rejects.toThrow('Plat is shutting down');
  });

  it('prints in a process of its own, passes its failures on as they are, and ends it once idle', async () => {
    const printer = new OnDemandChromiumPrinter({ pageUrl, lookup: () => ({ found: true, executablePath: '/nonexistent/chromium' }), idleCloseMs: 300 });
    // The printing process tries to launch the browser it was given: the refusal crosses back as a NoPrinterError.
    const refused = printer.printReport('a1');
    await expect(refused).rejects.toBeInstanceOf(NoPrinterError);
    await expect(refused).rejects.toThrow(/Chromium at \/nonexistent\/chromium could not be started/);
    expect(printer.open).toBe(true);
    await expect.poll(() => printer.open, { timeout: 10_000 }).toBe(false);
    await printer.close();
  }, 30_000);
});
