// The printing browser's life: closed after a minute idle, never while a print is under way, and
// launched again by the next print. A stand-in browser (counting launches and closes) under fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Browser, LaunchOptions } from 'playwright-core';
import { ChromiumPrinter, PRINTER_IDLE_CLOSE_MS } from './chromium-printer.ts';

interface FakeBrowsers {
  launches: LaunchOptions[];
  closed: number;
  /** Holds every page's pdf() until `finishPrints` is called. */
  holdPrints: boolean;
  finishPrints: () => void;
  launch: (options: LaunchOptions) => Promise<Browser>;
}

function fakeBrowsers(): FakeBrowsers {
  const waiting: Array<() => void> = [];
  const fake: FakeBrowsers = {
    launches: [],
    closed: 0,
    holdPrints: false,
    finishPrints: () => waiting.splice(0).forEach((release) => release()),
    launch: async (options) => {
      fake.launches.push(options);
      const page = {
        goto: async () => null,
        isClosed: () => false,
        waitForFunction: async () => ({ jsonValue: async () => 'true' }),
        evaluate: async () => ({ error: null, header: null, footer: null }),
        pdf: async () => {
          if (fake.holdPrints) await new Promise<void>((release) => waiting.push(release));
          return Buffer.from('%PDF-1.7');
        },
      };
      const context = { newPage: async () => page, close: async () => undefined };
      const browser = {
        newContext: async () => context,
        on: () => browser,
        close: async () => {
          fake.closed++;
        },
      };
      return browser as unknown as Browser;
    },
  };
  return fake;
}

const pageUrl = 'http://127.0.0.1:1/#token=abcdefghijklmnop';
const found = () => ({ found: true as const, executablePath: '/usr/bin/chromium' });

describe('ChromiumPrinter idle close', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closes the browser after 60 s idle, and the next print launches it again', async () => {
    const browsers = fakeBrowsers();
    const printer = new ChromiumPrinter({ pageUrl, lookup: found, launch: browsers.launch });
    expect(PRINTER_IDLE_CLOSE_MS).toBe(60_000);
    await printer.printReport('prj_1');
    expect(browsers.launches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(browsers.closed).toBe(0);
    expect(printer.open).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(browsers.closed).toBe(1);
    expect(printer.open).toBe(false);

    await printer.printReport('prj_1');
    expect(browsers.launches).toHaveLength(2);
    await printer.close();
  });

  it('a print within the minute keeps the browser, and the minute starts again after it', async () => {
    const browsers = fakeBrowsers();
    const printer = new ChromiumPrinter({ pageUrl, lookup: found, launch: browsers.launch });
    await printer.printReport('prj_1');
    await vi.advanceTimersByTimeAsync(50_000);
    await printer.printReport('prj_1');
    await vi.advanceTimersByTimeAsync(50_000);
    expect(browsers.launches).toHaveLength(1);
    expect(browsers.closed).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(browsers.closed).toBe(1);
    await printer.close();
  });

  it('never closes the browser under an export in flight, however long it takes', async () => {
    const browsers = fakeBrowsers();
    const printer = new ChromiumPrinter({ pageUrl, lookup: found, launch: browsers.launch, idleCloseMs: 1_000 });
    await printer.printReport('prj_1');
    browsers.holdPrints = true;
    const slow = printer.printReport('prj_2');
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(browsers.closed).toBe(0);
    browsers.finishPrints();
    await expect(slow).resolves.toBeInstanceOf(Uint8Array);
    await vi.advanceTimersByTimeAsync(999);
    expect(browsers.closed).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(browsers.closed).toBe(1);
    expect(browsers.launches).toHaveLength(1);
    await printer.close();
  });

  it('launches a bounded browser: one renderer, a capped heap', async () => {
    const browsers = fakeBrowsers();
    const printer = new ChromiumPrinter({ pageUrl, lookup: found, launch: browsers.launch });
    await printer.printReport('prj_1');
    expect(browsers.launches[0]?.args).toEqual(expect.arrayContaining(['--renderer-process-limit=1', expect.stringMatching(/^--js-flags=--max-old-space-size=\d+$/)]));
    await printer.close();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(browsers.closed).toBe(1);
  });
});
