/// <reference lib="dom" />
// Market conditions as a new user meets them: 1708 21ST ST NW effective 2017-01-01, the subject's
// record and a comps search bought, then the market sales (the search's area and type, 36 months)
// bought with the price shown first; the 1004MC-shaped table, a count opening the sales it counts,
// the price-trend chart with the hover's citation, the time rate declined with a reason (the sample's
// trend is not supported), and the PDF with the market table, the chart (vector: no chart bitmap) and
// its table.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect, searchComparables } from './fixtures.ts';

const outDir = path.join(tmpdir(), 'plat-market-e2e');

test('market conditions: table, chart with hover citation, the time rate declined, the PDF', async ({ page, host }) => {
  test.setTimeout(240_000);
  mkdirSync(outDir, { recursive: true });
  await searchComparables(page, host.url, { typed: '1708 21st st nw', address: '1708 21ST ST NW' });
  const comps = page.getByTestId('comparables');
  const confirm = page.getByRole('dialog', { name: 'Confirm a charge' });

  // The market sales: priced on the button first, bought once, kept with the assignment.
  const market = page.getByTestId('market-conditions');
  await expect(market).toContainText('The comps search’s own sales (12 months, any size)');
  const buy = market.getByRole('button', { name: 'Buy the market sales (36 months)' });
  // Priced like a comps page (its price is known from the search just bought).
  await expect(market.locator('.market-buy').getByTestId('cost-tag')).toContainText('$0.15');
  await buy.click();
  await expect(confirm).toContainText('$0.15');
  await confirm.getByRole('button', { name: /^Buy for/ }).click();
  await expect(market).toContainText('The market-sales search', { timeout: 30_000 });

  const table = market.getByRole('table', { name: 'Market conditions by period before the effective date' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(0)).toContainText('Current – 3 months 2016-10-01 to 2017-01-01');
  await table.getByRole('button', { name: /sales, Prior 13–24 months \(context\): list them/ }).click();
  const listed = market.getByRole('region', { name: 'Sales counted, Prior 13–24 months (context)' });
  await expect(listed.getByRole('listitem').first()).toBeVisible();
  await expect(listed.getByRole('listitem').first().locator('.citation__chip').first()).toBeVisible();

  // The chart: a point under the pointer shows its sale and its source.
  const chart = page.getByTestId('chart-market-price-trend');
  const dot = chart.locator('svg circle').first();
  await dot.scrollIntoViewIfNeeded();
  const at = (await dot.boundingBox())!;
  await page.mouse.move(at.x + at.width / 2 + 3, at.y + at.height / 2 + 3);
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  const hover = chart.getByTestId('chart-hover');
  await expect(hover).toContainText(/Sold/, { timeout: 10_000 });
  await expect(hover.locator('.citation__chip').first()).toBeVisible();

  // The sample's 12-month trend is not supported: no rate to accept; "no time adjustment" recorded with a reason.
  const support = page.getByTestId('market-time-support');
  await expect(support).toContainText('No time adjustment supported over 12 months');
  await expect(support.getByRole('button', { name: 'No rate to accept' })).toBeDisabled();
  await support.getByPlaceholder('Why no time adjustment (required to decline)').fill('The dated sales show no significant change over 12 months.');
  await support.getByRole('button', { name: 'Record: no time adjustment' }).click();
  await expect(page.getByTestId('market-decision')).toContainText('Declined by the appraiser');

  // The report: the market part prints with the chart and its table.
  await comps.getByRole('button', { name: 'Open the report' }).click();
  const section = page.locator('[data-section="comparables"]');
  await expect(section.getByRole('table', { name: 'Market conditions by period before the effective date' })).toBeVisible({ timeout: 30_000 });
  await expect(section.getByTestId('chart-market-price-trend').locator('svg')).toBeVisible();
  await expect(section.getByTestId('report-map')).toHaveClass(/report-map--ready/, { timeout: 30_000 });
  const pdfDownload = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Export PDF' }).click();
  const pdfPath = path.join(outDir, 'market-report.pdf');
  await (await pdfDownload).saveAs(pdfPath);
  const flat = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  expect(flat).toContain('Market conditions');
  expect(flat).toContain('Current – 3 months');
  expect(flat).toContain('Median $ per sq ft (GBA)');
  expect(flat).toContain('No time adjustment supported over 12 months');
  expect(flat).toContain('Declined by the appraiser');
  expect(flat).toContain('Sale prices over the 12 months before');
  expect(flat).toContain('Listings and inventory are not in the records: not available.');
});
