/// <reference lib="dom" />
// Copied characteristics and the appraiser's figures, on the real browser host and the bundled
// sample: around 1708 21ST ST NW (effective 2017-01-01) two comps are chosen and a living-area rate
// set. The sample copied the living areas from other houses, so no adjustment is made and the grid
// says why; accepted for the whole grid with a written reason, the adjustment appears with its quiet
// chip, which opens the rule and inputs "Verify a report" makes it again from. The PDF exported then
// verifies (every figure made again from its inputs), and an indicated value edited in its
// citations.json is named.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { test, expect, searchComparables } from './fixtures.ts';

// Outside test-results (which Playwright empties per run), so the PDFs can be looked at afterwards.
const outDir = path.join(tmpdir(), 'plat-cited-adjustments-e2e');

test('accept copied living areas for the grid with a reason: the adjustment appears, cited', async ({ page, host }) => {
  test.setTimeout(180_000);
  await searchComparables(page, host.url, { typed: '1708 21st st nw', address: '1708 21ST ST NW' });
  await expect(page.getByTestId('comps-candidate-count')).toContainText(/^\d+ returned · 0 chosen/);
  const comps = page.getByTestId('comparables');

  // Two sales from the list (a sale outside the living-area band asks first).
  const list = page.getByRole('table', { name: 'Candidates' });
  for (const at of [1, 2]) {
    await list.getByRole('button', { name: /^Choose / }).first().click();
    const ask = page.getByRole('dialog', { name: /^Choose .*\?$/ });
    if (await ask.isVisible()) await ask.getByRole('button', { name: 'Choose it anyway' }).click();
    await expect(page.getByTestId('comps-candidate-count')).toContainText(`${at} chosen`);
  }

  await page.getByLabel('Rate: Area as published (gross living or building area) ($ per sq ft)').fill('150');
  const gla = page.getByTestId('grid-adjustment-gla-1');
  // Copied from other houses and not accepted: no adjustment, and the grid says why.
  await expect(gla).toHaveText('');
  await comps.locator('.comps-warnings > summary').click();
  await expect(comps.locator('.comps-warnings')).toContainText('Comp 1: Gross building area (GBA): copied from another house (synthetic)');
  await expect(comps.locator('.comps-warnings')).toContainText('not accepted: no adjustment.');

  await page.getByRole('button', { name: /^Accept copied values: Gross building area/ }).click();
  const accept = page.getByRole('dialog', { name: /^Accept copied values: Gross building area/ });
  await expect(accept.getByLabel('Accept for')).toHaveValue('');
  await accept.getByRole('button', { name: 'Accept copied values' }).click();
  await expect(accept.getByRole('alert')).toContainText('Say why the copied values can be relied on');
  await accept.getByLabel('Reason (required, printed in the report)').fill('Living areas checked against the 2016 listings.');
  await accept.getByRole('button', { name: 'Accept copied values' }).click();
  await expect(accept).toBeHidden();

  // The adjustment appears, with its chip: the rule and inputs, and the appraiser among the sources.
  await expect(gla).toHaveText(/^[+\u2212]\$[\d,]+$|^\$0$/);
  await gla.getByRole('button', { name: 'How it was worked out: Comp 1: Gross building area (GBA) adjustment' }).click();
  const how = page.getByRole('dialog', { name: 'How Comp 1: Gross building area (GBA) adjustment was worked out' });
  await expect(how).toContainText('Rule adjustment-rate-times-difference of 150, ');
  await expect(how).toContainText('The appraiser');
  await page.keyboard.press('Escape');
  await expect(how).toBeHidden();
  await expect(page.getByRole('button', { name: /^Accept copied values: Gross building area/ }).locator('xpath=..')).toContainText('1 accepted');

  // The indicated value, then the PDF: Verify makes every figure again, and names an edited indicated value.
  await page.getByLabel('Indicated value by sales comparison').fill('1400000');
  await page.getByLabel(/Reconciliation comment/).fill('Most weight on comp 1, the closest in size.');
  await expect(page.getByTestId('grid-indicated-cited')).toContainText('$1,400,000, the appraiser’s value');
  await expect(page.getByTestId('comps-save-state')).toContainText('Saved', { timeout: 15_000 });
  await comps.getByRole('button', { name: 'Open the report' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Report');
  const section = page.locator('[data-section="comparables"]');
  await expect(section.getByRole('table', { name: 'Copied values accepted by the appraiser' })).toContainText('Living areas checked against the 2016 listings.');
  await expect(section.getByTestId('report-map')).toHaveClass(/report-map--(ready|failed)/, { timeout: 30_000 });
  mkdirSync(outDir, { recursive: true });
  const pdfDownload = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Export PDF' }).click();
  const pdfPath = path.join(outDir, 'cited-adjustments.pdf');
  await (await pdfDownload).saveAs(pdfPath);
  await expect(page.getByTestId('report-export-status')).toContainText(/Exported “.*”: \d+ pages/);

  await page.getByRole('tab', { name: 'Verify a report' }).click();
  await page.getByLabel('PDF to verify').setInputFiles(pdfPath);
  const result = page.getByTestId('verify-result');
  await expect(result).toContainText(/Derived values\s*Proved\s*\d+ derived values made again from their inputs agree\./, { timeout: 30_000 });
  // Every printed value, the appraiser's figures and the regression's wrapped intervals included, is on the pages with its markers.
  await expect(result).toContainText(/Every printed value with its markers is on the pages/);
  await expect(result).not.toContainText(/not printed with (its|their) markers/);

  const pdf = await PDFDocument.load(readFileSync(pdfPath));
  const json = pdf.getAttachments().find((attachment) => attachment.name === 'citations.json')!;
  const rows = JSON.parse(new TextDecoder().decode(json.data)) as Array<{ field: string; printed: string; derivation?: { rule: string } }>;
  const indicated = rows.find((row) => row.field === 'comparables.reconciliation.indicatedValue')!;
  expect(indicated).toMatchObject({ printed: '$1,400,000', derivation: { rule: 'appraiser-value' } });
  indicated.printed = '$1,990,000';
  pdf.detach('citations.json');
  await pdf.attach(new TextEncoder().encode(JSON.stringify(rows, null, 2)), 'citations.json', { mimeType: 'application/json' });
  const editedPath = path.join(outDir, 'cited-adjustments-edited.pdf');
  writeFileSync(editedPath, await pdf.save());
  await page.getByLabel('PDF to verify').setInputFiles(editedPath);
  await expect(result).toHaveAttribute('data-kind', 'altered', { timeout: 30_000 });
  await expect(result).toContainText('Indicated value by sales comparison reads $1,990,000, its inputs make $1,400,000');
  await expect(result.locator('tr[data-outcome="altered"]').filter({ hasText: 'Indicated value by sales comparison' })).toContainText('$1,990,000');
});
