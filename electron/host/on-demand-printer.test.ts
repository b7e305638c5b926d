import { describe, expect, it } from 'vitest';
import { NoPrinterError } from '../core/reports/printer.ts';
import { OnDemandChromiumPrinter } from './on-demand-printer.ts';

const pageUrl = 'http://127.0.0.1:1/#token=abc';

describe('OnDemandChromiumPrinter', () => {
  it('looks for Chromium on the first print and says what it found', async () => {
    const printer = new OnDemandChromiumPrinter({ pageUrl, lookup: () => ({ found: false, message: 'No Chromium here' }) });
    await expect(printer.printReport('a1')).rejects.toThrow(NoPrinterError);
    expect(printer.description).toBe('no Chromium found');
  });

  it('closed before its first print, it refuses to print as the loaded printer would', async () => {
    const printer = new OnDemandChromiumPrinter({ pageUrl, lookup: () => ({ found: true, executablePath: '/nonexistent/chromium' }) });
    await printer.close();
    await expect(printer.printReport('a1')).rejects.toThrow('Plat is shutting down');
  });
});
