/// <reference lib="dom" />
// The comparables map as an appraiser exhibits it, on the real browser host and the bundled sample:
// around 1708 21ST ST NW the map names the streets at a street zoom (drawn from Plat's own glyphs:
// the map's words beside it list the names its label layers rendered) and marks the subject "S"; the
// report's printed map is a location map framed on the subject and the three chosen comps (saved to
// look at); around 220 E DEL RAY AV, Alexandria, where the sample has no basemap, the map says so on itself.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, pdfImageList, screenshotDir, searchComparables } from './fixtures.ts';
import { ROLE_COLOURS } from '../renderer/components/map/map-icons.ts';

interface MapView {
  zoom: number;
  width: number;
}

const mapContainer = (page: Page) => page.locator('.comps-map .plat-map__canvas');
const mapView = async (page: Page): Promise<MapView> => JSON.parse((await mapContainer(page).getAttribute('data-view')) ?? '{}') as MapView;

/** From the property page on screen: an assignment, the subject's record and one comps search. */
async function searchAround(page: Page, url: string, typed: string, address: string): Promise<void> {
  await searchComparables(page, url, { typed, address });
  await expect(mapContainer(page)).toHaveAttribute('data-view', /"zoom"/, { timeout: 20_000 });
}

/** Chooses the candidate in this row of the list, saying yes when Plat asks first (a sale outside the criteria). */
async function chooseRow(page: Page, index: number, compNumber: number): Promise<void> {
  const row = page.getByRole('table', { name: 'Candidates' }).locator('tbody tr[data-candidate-id]').nth(index);
  await row.focus();
  await page.keyboard.press('Space');
  const ask = page.getByRole('dialog', { name: /^Choose / });
  if (await ask.isVisible({ timeout: 2_000 }).catch(() => false)) {
    const reason = ask.getByRole('textbox');
    if ((await reason.count()) > 0) await reason.first().fill('Closest in size and location');
    await ask.getByRole('button', { name: /anyway/ }).click();
  }
  await expect(page.getByTestId('comps-candidate-count')).toContainText(`${compNumber} chosen`);
}

/** Pixels of the image near the colour (each channel within 40). */
async function pixelsNear(page: Page, dataUrl: string, hex: string): Promise<number> {
  return page.evaluate(
    async ({ dataUrl, rgb }) => {
      // Decoded here: the page's content policy fetches no data: URLs.
      const bytes = Uint8Array.from(atob(dataUrl.split(',')[1] ?? ''), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - rgb[0]) <= 40 && Math.abs(data[i + 1]! - rgb[1]) <= 40 && Math.abs(data[i + 2]! - rgb[2]) <= 40) count++;
      return count;
    },
    { dataUrl, rgb: [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)) as [number, number, number] },
  );
}

/** The map's words for a reader who cannot see it (its aria-describedby). */
const mapWords = (page: Page) => page.locator('.comps-map .plat-map > p.visually-hidden');

test.describe('the comparables map an appraiser can exhibit', () => {
  test('names the streets around 1708 21st St NW at a street zoom, and marks the subject S', async ({ page, host, shot }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await searchAround(page, host.url, '1708 21st st nw', '1708 21ST ST NW');
    await page.getByRole('region', { name: 'Comparables map' }).evaluate((element) => element.scrollIntoView({ block: 'center' }));
    // In to a street zoom with the map's own button, as a person would.
    while ((await mapView(page)).zoom < 15.5) {
      const before = (await mapView(page)).zoom;
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(async () => (await mapView(page)).zoom).toBeGreaterThan(before + 0.5);
    }
    // The names the label layers rendered (maplibre's queryRenderedFeatures once the map is idle):
    // the subject's own street and its cross streets, spelled as the signs are.
    await expect(mapWords(page)).toContainText(/Streets named on the map: .*21st St/, { timeout: 20_000 });
    const words = (await mapWords(page).textContent()) ?? '';
    const named = /Streets named on the map: ([^.]*)\./.exec(words)?.[1]?.split(', ') ?? [];
    expect(named.length, 'several streets are named').toBeGreaterThanOrEqual(4);
    expect(named.some((name) => /^[RSQ] St$/.test(name)), `a lettered cross street among ${named.join(', ')}`).toBe(true);
    await expect(mapWords(page)).toContainText('Subject (S)');
    await expect(page.getByTestId('map-coverage-note')).toHaveCount(0);
    await shot('map-labels-1708-street-zoom');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('.comps-map .plat-map')).toHaveClass(/plat-map--dark/);
    await page.waitForTimeout(1500);
    await shot('map-labels-1708-street-zoom-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // Zoomed out to the city, no street is named.
    while ((await mapView(page)).zoom > 12.5) {
      const before = (await mapView(page)).zoom;
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await expect.poll(async () => (await mapView(page)).zoom).toBeLessThan(before - 0.5);
    }
    await expect(mapWords(page)).not.toContainText('Streets named on the map', { timeout: 20_000 });

    // Three comps chosen, then the report's printed location map: framed on them and the subject.
    for (const [at, row] of [0, 1, 3].entries()) await chooseRow(page, row, at + 1);
    await page.getByTestId('comparables').getByRole('button', { name: 'Open the report' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Report');
    const figure = page.locator('[data-section="comparables"]').getByTestId('report-map');
    await expect(figure).toHaveClass(/report-map--ready/, { timeout: 45_000 });
    const dataUrl = (await figure.locator('img').getAttribute('src')) ?? '';
    expect(dataUrl).toMatch(/^data:image\/png;base64,/);
    mkdirSync(screenshotDir, { recursive: true });
    writeFileSync(path.join(screenshotDir, 'map-labels-1708-printed-map.png'), Buffer.from(dataUrl.split(',')[1]!, 'base64'));
    // The subject's star and the comps' squares are in the picture.
    expect(await pixelsNear(page, dataUrl, ROLE_COLOURS.subject), 'the subject is drawn').toBeGreaterThan(100);
    expect(await pixelsNear(page, dataUrl, ROLE_COLOURS.chosen), 'the chosen comps are drawn').toBeGreaterThan(3 * 200);

    // The PDF prints the same location map (drawn again on the printer's page): its page saved to look at.
    const pdfDownload = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Export PDF' }).click();
    const pdfPath = path.join(screenshotDir, 'map-labels-1708-report.pdf');
    await (await pdfDownload).saveAs(pdfPath);
    const mapImages = pdfImageList(pdfPath).filter((image) => image.type === 'image' && image.width === 1200 && image.height === 700);
    expect(mapImages.length, 'the PDF holds the map image').toBeGreaterThan(0);
    execFileSync('pdftoppm', ['-png', '-r', '110', '-f', String(mapImages[0]!.page), '-l', String(mapImages[0]!.page), '-singlefile', pdfPath, path.join(screenshotDir, 'map-labels-1708-report-map-page')]);
  });

  test("says on Alexandria's map that the sample has no basemap there", async ({ page, host, shot }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await searchAround(page, host.url, '220 e del ray av', '220 E DEL RAY AV');
    const note = page.getByTestId('map-coverage-note');
    await expect(note).toHaveText('No basemap in the sample for this area: points are drawn on a blank background');
    await expect(mapWords(page)).toContainText('No basemap in the sample for this area');
    await page.getByRole('region', { name: 'Comparables map' }).evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(1500);
    await shot('map-labels-alexandria-no-basemap');

    // The report's printed map says it too, in the picture.
    await page.getByTestId('comparables').getByRole('button', { name: 'Open the report' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Report');
    const figure = page.locator('[data-section="comparables"]').getByTestId('report-map');
    await expect(figure).toHaveClass(/report-map--ready/, { timeout: 45_000 });
    const dataUrl = (await figure.locator('img').getAttribute('src')) ?? '';
    mkdirSync(screenshotDir, { recursive: true });
    writeFileSync(path.join(screenshotDir, 'map-labels-alexandria-printed-map.png'), Buffer.from(dataUrl.split(',')[1] ?? '', 'base64'));
    expect(await pixelsNear(page, dataUrl, ROLE_COLOURS.subject), 'the subject is drawn').toBeGreaterThan(100);
  });
});
