// A chart's first draw in headless Chromium (Debian's build): a page that mounts only ChartFigure is
// bundled with Vite and served with Plat's real Content-Security-Policy, and given the market's
// price-trend spec of a realistic size (about 300 screened sales over 36 months, the fitted line, its
// band and the quarterly medians) built by the shared code the Comparables view uses. Timed: from
// React's mount to the chart's SVG in the DOM and the next frame painted, each on a fresh page; the
// first run warms the caches and is not counted. Target (issue 23): ≤ 200 ms. The page is exported
// (buildChartPage, with serveMapPage) for scripts that want to look at a chart.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { buildBenchPage } from './bench-page.ts';
import { CitationBook } from '../../shared/cited/citation-book.ts';
import type { ChartSpec } from '../../shared/charts/chart-spec.ts';
import type { Citation } from '../../shared/cited/value.ts';
import { priceTrendChart } from '../../shared/market/charts.ts';
import { marketConditions, marketSales } from '../../shared/market/conditions.ts';
import { marketTrend } from '../../shared/market/trend.ts';
import { launchChromium } from './chromium.ts';
import { syntheticMarketSales } from './market.bench.ts';
import { serveMapPage } from './map.bench.ts';
import { atMostMs, latencyFigures, type BenchOptions, type LatencyFigures } from './measure.ts';

const RUNS = 10;
const EFFECTIVE = '2017-01-01';
/** Sales read over 36 months; about one in eight non-market (screened out), so about 300 drawn. */
const SALES_READ = 343;

/** The page's entry: ChartFigure behind `window.platChart.mount`, resolving with the ms to the drawn frame. */
const entrySource = (repo: string) => `
import { createRoot } from 'react-dom/client';
import '${repo}/renderer/design/tokens.css';
import '${repo}/renderer/design/base.css';
import { ChartFigure } from '${repo}/renderer/components/charts/ChartFigure.tsx';

const host = document.getElementById('root');
window.platChart = {
  mount(spec, citations, scheme) {
    return new Promise((resolve, reject) => {
      const index = new Map(citations.map((citation, at) => [citation.id, { citation, number: at + 1 }]));
      const started = performance.now();
      const timer = setTimeout(() => reject(new Error('no chart after 10 s')), 10000);
      const drawn = () => {
        // The frame that paints it: after the next animation frame's work, before the one after.
        requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve(performance.now() - started); }, 0));
      };
      const observer = new MutationObserver(() => {
        if (host.querySelector('.chart__plot svg')) {
          observer.disconnect();
          drawn();
        }
      });
      observer.observe(host, { childList: true, subtree: true });
      createRoot(host).render(<ChartFigure spec={spec} citations={index} scheme={scheme} />);
    });
  },
};
`;

/** Bundles the chart page; returns the folder to serve. */
export function buildChartPage(): Promise<string> {
  return buildBenchPage({ name: 'plat-chart-page', title: 'Plat chart', entry: entrySource });
}

/** The market's price-trend chart over the bench's synthetic sales (36-month window), with its citations. */
export function priceTrendBenchSpec(salesRead = SALES_READ): { spec: ChartSpec; citations: Citation[] } {
  const book = new CitationBook();
  const sales = syntheticMarketSales(salesRead);
  const read = marketSales(sales, EFFECTIVE);
  const conditions = marketConditions({ sales, read, effectiveDate: EFFECTIVE, marketArea: 'Bench area', propertyType: '24', monthsRead: 36, cite: book.cite });
  const trend = marketTrend({ sales, read, effectiveDate: EFFECTIVE, windowMonths: 36, monthsRead: 36, cite: book.cite });
  const spec = priceTrendChart({ source: { kind: 'comps-search', run: null, words: 'Bench sales', nextCursor: null }, sales, conditions, trend, problems: [], citations: book.all() });
  return { spec, citations: book.all() };
}

export async function benchChart({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  const runs = smoke ? 0 : RUNS;
  const { spec, citations } = priceTrendBenchSpec();
  const pageDir = await buildChartPage();
  const server = await serveMapPage(pageDir);
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const firstDraw: number[] = [];
    let circles = 0;
    for (let run = 0; run <= runs; run++) {
      await page.goto(server.url);
      await page.waitForFunction(() => 'platChart' in window);
      const ms = await page.evaluate(
        ([s, c]) => (window as unknown as { platChart: { mount: (spec: unknown, citations: unknown, scheme: string) => Promise<number> } }).platChart.mount(s, c, 'light'),
        [spec, citations] as const,
      );
      if (run > 0 || smoke) firstDraw.push(ms);
      circles = await page.locator('.chart__plot svg circle').count();
    }
    if (errors.length > 0) console.log(`page errors: ${[...new Set(errors)].join(' | ')}`);
    if (circles < spec.points.length) throw new Error(`the chart drew ${circles} points of ${spec.points.length}`);
    return [latencyFigures(`chart first draw, price trend of ${spec.points.length} sales with fit, band and medians (mount → SVG → next frame)`, firstDraw, { elapsedS: null, target: atMostMs(200) })];
  } finally {
    await browser.close();
    await server.close();
    rmSync(path.dirname(pageDir), { recursive: true, force: true });
  }
}
