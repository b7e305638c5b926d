// The browser host's printer: a Chromium-family browser found on this machine (Chromium, Chrome,
// Edge, or the one PLAT_CHROMIUM names) prints the renderer's print route through playwright-core,
// never a downloaded browser. One headless browser serves the exports of a sitting: launched on the
// first, closed once it has been idle for a minute (it holds hundreds of MB), launched again on the
// next export, and closed with the host. An export in flight is never cut. Its print page stays open
// between exports and is asked to show the next report (shared/print-route.ts): the app's scripts, the
// map's library and worker and the basemap's tiles are loaded once per browser, not once per export.
import { chromium, type Browser, type BrowserContext, type LaunchOptions, type Page } from 'playwright-core';
import { PRINT_NEXT_FUNCTION, printRoutePath } from '../../../shared/print-route.ts';
import { headerFooterOptions, NoPrinterError, PRINT_READY_TIMEOUT_MS, type Printer } from './printer.ts';
import { findChromium, type ChromiumLookup } from './chromium-lookup.ts';
import { IdleCloser, PRINTER_IDLE_CLOSE_MS } from './idle-close.ts';

export { chromiumCandidates, findChromium, type ChromiumLookup } from './chromium-lookup.ts';
export { PRINTER_IDLE_CLOSE_MS } from './idle-close.ts';

/**
 * Flags as measured on these machines: without the background-networking ones Chromium keeps
 * dialling hosts. Also the e2e browser's (playwright.config.ts).
 */
export const CHROMIUM_QUIET_ARGS = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The print page's JavaScript heap cap (MB): past it the page fails and the export says so, rather than the machine swapping. */
const PRINTER_HEAP_MB = 512;

/**
 * The features playwright-core 1.65 disables, and the two omnibox pop-ups Chromium 156 builds in a
 * renderer of their own even when headless (about 190 MB resident that never prints anything).
 */
const PRINTER_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

/**
 * The printer's Chromium: quiet, with no extensions, and bounded: one renderer process (each print
 * has a context of its own, closed after it), the GPU and network work in the browser process rather
 * than processes of their own (each about 100 MB resident), no zygote to fork from, no browser-UI
 * renderer, and a capped JavaScript heap. Chromium takes the last --enable-features and the last
 * --disable-features, so these repeat playwright-core's own.
 */
export const CHROMIUM_ARGS = [
  ...CHROMIUM_QUIET_ARGS,
  '--disable-extensions',
  '--renderer-process-limit=1',
  '--in-process-gpu',
  '--no-zygote',
  '--enable-features=NetworkServiceInProcess2,CDPScreenshotNewSurface,SkipListAccountsWithoutGaiaCookies',
  `--disable-features=${PRINTER_DISABLED_FEATURES.join(',')}`,
  `--js-flags=--max-old-space-size=${PRINTER_HEAP_MB}`,
];

export interface ChromiumPrinterOptions {
  /** The page's address as the host printed it (`http://127.0.0.1:<port>/#token=<token>`). */
  pageUrl: string;
  lookup?: () => ChromiumLookup;
  /** How long the print route may take to put the report on the page. */
  readyTimeoutMs?: number;
  /**
   * How long the browser may sit idle after a print before it is closed; PRINTER_IDLE_CLOSE_MS unless
   * set (tests); null: never (the browser host's printing process is closed whole by the host instead).
   */
  idleCloseMs?: number | null;
  /** Launches the browser; playwright-core's unless set (tests). */
  launch?: (options: LaunchOptions) => Promise<Browser>;
}

export class ChromiumPrinter implements Printer {
  readonly description: string;
  private readonly origin: string;
  private readonly token: string;
  private readonly lookup: ChromiumLookup;
  private readonly readyTimeoutMs: number;
  private readonly idle: IdleCloser;
  private readonly launch: (options: LaunchOptions) => Promise<Browser>;
  private browser: Promise<Browser> | null = null;
  /** The print page of the last export, ready to show the next report; null before the first or after a failure. */
  private warm: { browser: Browser; context: BrowserContext; page: Page } | null = null;
  private closed = false;

  constructor(options: ChromiumPrinterOptions) {
    const url = new URL(options.pageUrl);
    this.origin = url.origin;
    this.token = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(url.hash)?.[1] ?? '';
    this.lookup = (options.lookup ?? findChromium)();
    this.readyTimeoutMs = options.readyTimeoutMs ?? PRINT_READY_TIMEOUT_MS;
    this.idle = new IdleCloser(options.idleCloseMs === undefined ? PRINTER_IDLE_CLOSE_MS : options.idleCloseMs, () => void this.closeBrowser());
    this.launch = options.launch ?? ((launchOptions) => chromium.launch(launchOptions));
    this.description = this.lookup.found ? `Chromium at ${this.lookup.executablePath}` : 'no Chromium found';
  }

  async printReport(assignmentId: string): Promise<Uint8Array> {
    const { lookup } = this;
    if (!lookup.found) throw new NoPrinterError(lookup.message);
    return this.idle.around(() => this.print(lookup.executablePath, assignmentId));
  }

  private async print(executablePath: string, assignmentId: string): Promise<Uint8Array> {
    const browser = await this.launched(executablePath);
    const page = (await this.nextReportOnWarmPage(browser, assignmentId)) ?? (await this.freshPage(browser, assignmentId));
    try {
      const ready = await page
        .waitForFunction(() => document.documentElement.dataset.printReady ?? null, undefined, { timeout: this.readyTimeoutMs, polling: 50 })
        .then((handle) => handle.jsonValue() as Promise<string>)
        .catch(() => null);
      if (ready === null) throw new Error(`the report page did not finish rendering within ${Math.round(this.readyTimeoutMs / 1000)} s`);
      // Web fonts the report uses are in before the pages are laid out for print.
      const marks = await page.evaluate(async () => {
        await document.fonts.ready;
        const html = document.documentElement;
        return { error: html.dataset.printError ?? null, header: html.dataset.printHeader ?? null, footer: html.dataset.printFooter ?? null };
      });
      if (ready !== 'true') throw new Error(marks.error ?? 'the report page could not show the report');
      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true, tagged: true, outline: true, ...headerFooterOptions(marks) });
      return new Uint8Array(pdf);
    } catch (error) {
      // A page that failed once is not trusted with the next report.
      await this.dropWarmPage();
      throw error;
    }
  }

  /** The open print page switched to this assignment's report, or null when there is none or it cannot switch. */
  private async nextReportOnWarmPage(browser: Browser, assignmentId: string): Promise<Page | null> {
    const warm = this.warm;
    if (warm === null || warm.browser !== browser || warm.page.isClosed()) {
      await this.dropWarmPage();
      return null;
    }
    const switched = await warm.page
      .evaluate(
        ([name, id]) => {
          const next = (window as unknown as Record<string, unknown>)[name];
          return typeof next === 'function' ? (next as (assignmentId: string) => boolean)(id) === true : false;
        },
        [PRINT_NEXT_FUNCTION, assignmentId] as const,
      )
      .catch(() => false);
    if (switched === true) return warm.page;
    await this.dropWarmPage();
    return null;
  }

  /** A new context (its own session) and page on the print route for this assignment, kept for the next export. */
  private async freshPage(browser: Browser, assignmentId: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${this.origin}${printRoutePath(assignmentId)}#token=${this.token}`, { waitUntil: 'domcontentloaded', timeout: this.readyTimeoutMs });
      this.warm = { browser, context, page };
      return page;
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  private async dropWarmPage(): Promise<void> {
    const warm = this.warm;
    this.warm = null;
    if (warm) await warm.context.close().catch(() => undefined);
  }

  /** Closes the browser, if one was launched; later prints fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.idle.cancel();
    await this.closeBrowser();
  }

  /** Whether a browser is open (or opening) now. */
  get open(): boolean {
    return this.browser !== null;
  }

  private async closeBrowser(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    this.warm = null;
    if (browser) await browser.then((launched) => launched.close()).catch(() => undefined);
  }

  private launched(executablePath: string): Promise<Browser> {
    if (this.closed) return Promise.reject(new Error('Plat is shutting down'));
    if (!this.browser) {
      const launching = this.launch({ executablePath, args: CHROMIUM_ARGS, headless: true }).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
        throw new NoPrinterError(`${this.description} could not be started (${reason})`);
      });
      this.browser = launching;
      launching.then(
        // A browser that crashed or was killed is launched again on the next print.
        (browser) => browser.on('disconnected', () => {
          if (this.browser === launching) this.browser = null;
        }),
        () => {
          if (this.browser === launching) this.browser = null;
        },
      );
    }
    return this.browser;
  }
}
