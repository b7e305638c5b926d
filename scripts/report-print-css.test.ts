// The report's print rules (renderer/features/report/*.css) on Debian's Chromium, as the printer prints:
// a comparables section shaped like the real one (a long table of sales not used, then "Prior sales"
// with its one row), with the long table one row longer each time so the heading meets the foot of a
// page at every height. Read with the layout check: the heading never ends a page without its rows.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPdfLayout } from './pdf-layout-check.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromiumPath = process.env.PLAT_CHROMIUM ?? '/usr/bin/chromium';
const css = ['renderer/design/layout.css', 'renderer/features/report/report.css', 'renderer/features/report/report-parts.css', 'renderer/features/report/report-print.css']
  .map((file) => readFileSync(path.join(root, file), 'utf8'))
  .join('\n');

const row = (at: number) =>
  `<tr><td>${1700 + at} CORCORAN ST NW</td><td>2016-07-26</td><td>$1,650,000</td><td>0.39 mi E</td><td><strong>Size (living area)</strong> (Plat’s screening)</td></tr>`;

/** The section with `rows` sales not used above the prior sales. */
function page(rows: number): string {
  return `<!doctype html><html class="print-route"><head><meta charset="utf-8"><style>${css}</style></head><body>
<main class="print-report"><div class="report-doc report-doc--print stack gap-4">
<section class="report-section report-comps"><header class="report-section__header"><h2>Comparable sales</h2></header>
<div class="report-comps__part report-comps__part--not-used"><h3 class="report-comps__heading">Sales analyzed and not used</h3>
<div class="report-table"><table><thead><tr><th>Address</th><th>Sale date</th><th>Price</th><th>From the subject</th><th>Why not used</th></tr></thead>
<tbody>${Array.from({ length: rows }, (_, at) => row(at)).join('')}</tbody></table></div></div>
<div class="report-comps__part report-comps__part--prior"><h3 class="report-comps__heading">Prior sales</h3>
<div class="report-table"><table><caption>Prior sales of the subject and the comps</caption><thead><tr><th>Property</th><th>Date</th><th>Price</th><th>Source</th></tr></thead>
<tbody><tr><td>Subject: 1708 21ST ST NW</td><td>2013-12-17</td><td>$1,361,000</td><td>DC Office of Tax and Revenue record</td></tr></tbody></table>
<p>The sample holds only each lot's last recorded sale (OTR); no earlier transfers.</p></div></div>
</section><section class="report-section"><header class="report-section__header"><h2>Spend</h2></header><p>$0.40 spent (no cap)</p></section>
</div></main></body></html>`;
}

describe.skipIf(!existsSync(chromiumPath))('the report’s print rules on Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('never leaves a part’s heading at a page’s foot with its rows on the next page, at any table length', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const stranded: string[] = [];
    const headingPages = new Set<number>();
    // 40 to 75 rows move "Prior sales" down the first page and past its foot, a row at a time.
    for (let rows = 40; rows <= 75; rows += 1) {
      await tab.setContent(page(rows));
      const report = await checkPdfLayout(await tab.pdf({ preferCSSPageSize: true, printBackground: true }), { marginTopPt: 0, marginBottomPt: 0 });
      const on = report.layouts.find((layout) => layout.lines.some((line) => line.heading && line.text === 'Prior sales'));
      if (on) headingPages.add(on.page);
      for (const fault of report.stranded) stranded.push(`${rows} rows: page ${fault.page} ends with “${fault.heading}”, page ${fault.page + 1} starts “${fault.nextStartsWith}”`);
    }
    await context.close();
    // The heading did cross a page's foot: on page 1 for the shorter tables, page 2 for the longer.
    expect([...headingPages].sort()).toEqual([1, 2]);
    expect(stranded).toEqual([]);
  }, 120_000);
});
