/// <reference lib="dom" />
// Comparable sales as a new user meets them, on the real browser host and the bundled sample: find
// 1708 21ST ST NW, start an assignment effective 2017-01-01 (the sample's dated sales end in January
// 2017), buy the subject's record, search with the price shown first (bought once; the same search
// again is free), see the map draw with the subject on it, choose three comps on the map and two in
// the list, set two rates and check the grid's arithmetic as printed on the screen, reconcile, export
// the UAD-shaped JSON and the grid CSV, then the PDF, and find the grid and the map image in it. A
// second test: bad criteria and an effective date before every sale say why in words and charge
// nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, findAddress, openApp, pdfImageList, session, startAssignment } from './fixtures.ts';
import { gridRowKeys, manualRows } from '../shared/comparables/model.ts';
import { ROLE_COLOURS } from '../renderer/components/map/map-icons.ts';
import { checkPdfLayout } from '../scripts/pdf-layout-check.ts';

// Outside test-results (which Playwright empties per run), so the exports can be looked at afterwards.
const outDir = path.join(tmpdir(), 'plat-comparables-e2e');

const EFFECTIVE_DATE = '2017-01-01';
// Where the sample's records put the subject (its tax square's centroid): the map's star must be drawn there.
const comparablesFixture = JSON.parse(readFileSync(new URL('../shared/comparables/fixtures/dc-1708-comps-2016.json', import.meta.url), 'utf8')) as {
  envelope: { data: { subject: { location: { longitude: number; latitude: number } } } };
};
const SUBJECT_LON_LAT: [number, number] = [comparablesFixture.envelope.data.subject.location.longitude, comparablesFixture.envelope.data.subject.location.latitude];
/** The subject's star's fill. */
const SUBJECT_RGB = [1, 3, 5].map((at) => parseInt(ROLE_COLOURS.subject.slice(at, at + 2), 16)) as [number, number, number];
const manualRowSet = new Set<string>(manualRows);

// ---------------------------------------------------------------------------------------------
// Money as printed

/** "$1,234.50", "+$1,234", "−$1,234" (U+2212), "$0" → dollars; NaN when it is not an amount. */
function money(text: string | null): number {
  const trimmed = (text ?? '').trim();
  const match = /^([+\-\u2212]?)\$([\d,]+(?:\.\d+)?)$/.exec(trimmed);
  if (!match) return Number.NaN;
  const value = Number(match[2]!.replace(/,/g, ''));
  return match[1] === '-' || match[1] === '\u2212' ? -value : value;
}
/** "12.3 %", "−4.0 %" → percent. */
function percent(text: string | null): number {
  const match = /^([-\u2212]?)([\d.]+) %$/.exec((text ?? '').trim());
  if (!match) return Number.NaN;
  return (match[1] ? -1 : 1) * Number(match[2]);
}
/** "1,200 sq ft" → 1200. */
const squareFeet = (text: string | null) => Number(/^([\d,]+) sq ft$/.exec((text ?? '').trim())?.[1]?.replace(/,/g, '') ?? Number.NaN);
/** The session's spend, in micro-dollars (whole numbers: no floating-point drift in the comparisons). */
const spentMicro = async (page: Page) => Math.round(money(await session(page).textContent()) * 1e6);

// ---------------------------------------------------------------------------------------------
// The map: its view as the container keeps it, pixels from lon/lat, pixels from the screen

interface MapView {
  west: number;
  south: number;
  east: number;
  north: number;
  width: number;
  height: number;
  zoom: number;
}

const mapContainer = (page: Page) => page.locator('.comps-map .plat-map__canvas');

async function mapView(page: Page): Promise<MapView> {
  const raw = await mapContainer(page).getAttribute('data-view');
  expect(raw, 'the map keeps its view on its container').toBeTruthy();
  return JSON.parse(raw!) as MapView;
}

const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));

/** Web Mercator: a lon/lat's pixel in the map's container (the map never rotates or tilts). */
function project(view: MapView, [lon, lat]: [number, number]): { x: number; y: number } {
  return {
    x: ((lon - view.west) / (view.east - view.west)) * view.width,
    y: ((mercatorY(view.north) - mercatorY(lat)) / (mercatorY(view.north) - mercatorY(view.south))) * view.height,
  };
}

/**
 * The pointer to a lon/lat's position, from a few pixels off: the map answers a move, and a move to
 * where the pointer already is may not be sent again.
 */
async function pointAt(page: Page, lonLat: [number, number]): Promise<{ x: number; y: number }> {
  const at = await pagePoint(page, lonLat);
  await page.mouse.move(at.x + 6, at.y + 6);
  await page.mouse.move(at.x, at.y);
  return at;
}

/** A lon/lat's position on the page. */
async function pagePoint(page: Page, lonLat: [number, number]): Promise<{ x: number; y: number }> {
  const box = (await mapContainer(page).boundingBox())!;
  const at = project(await mapView(page), lonLat);
  return { x: box.x + at.x, y: box.y + at.y };
}

interface ImageStats {
  distinctColours: number;
  /** Pixels within `tolerance` of `near` on every channel. */
  nearCount: number;
  meanLuminance: number;
}

/** Reads a screenshot's pixels in the page (a 2D canvas), so no image library is needed here. */
async function imageStats(page: Page, png: Buffer, near: [number, number, number] = [0, 0, 0], tolerance = 40): Promise<ImageStats> {
  return page.evaluate(
    async ({ base64, near, tolerance }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
      const colours = new Set<number>();
      let nearCount = 0;
      let luminance = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
        colours.add((r << 16) | (g << 8) | b);
        if (Math.abs(r - near[0]) <= tolerance && Math.abs(g - near[1]) <= tolerance && Math.abs(b - near[2]) <= tolerance) nearCount++;
        luminance += 0.2126 * r + 0.7152 * g + 0.0722 * b;
      }
      return { distinctColours: colours.size, nearCount, meanLuminance: luminance / (data.length / 4) };
    },
    { base64: png.toString('base64'), near, tolerance },
  );
}

const mapCanvasStats = async (page: Page) => imageStats(page, await page.locator('.comps-map canvas.maplibregl-canvas').screenshot());

/** Whether a page point is clear of everything drawn over the map (legend, zoom buttons, attribution, scale) and of its edges. */
async function clearOfOverlays(page: Page, at: { x: number; y: number }, margin = 24): Promise<boolean> {
  const box = (await mapContainer(page).boundingBox())!;
  if (at.x < box.x + margin || at.x > box.x + box.width - margin || at.y < box.y + margin || at.y > box.y + box.height - margin) return false;
  const overlays = page.locator('.comps-map').locator('.plat-map__legend, .maplibregl-ctrl-group, .maplibregl-ctrl-attrib, .maplibregl-ctrl-scale, .maplibregl-popup');
  for (const overlay of await overlays.all()) {
    const covers = await overlay.boundingBox();
    if (covers && at.x > covers.x - margin && at.x < covers.x + covers.width + margin && at.y > covers.y - margin && at.y < covers.y + covers.height + margin) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The candidates and the grid as the screen shows them

interface Candidate {
  id: string;
  address: string;
  lonLat: [number, number] | null;
  market: boolean;
  sizeBand: boolean;
  /** Plat screened it out (outside the band, a multi-parcel deed…): choosing it asks for a written reason. */
  screenedOut: boolean;
}

async function candidatesOnScreen(page: Page): Promise<Candidate[]> {
  const rows = page.getByRole('table', { name: 'Candidates' }).locator('tbody tr[data-candidate-id]');
  const out: Candidate[] = [];
  for (const row of await rows.all()) {
    const lon = await row.getAttribute('data-lon');
    const lat = await row.getAttribute('data-lat');
    const badges = await row.locator('.comps-badge--caution').allTextContents();
    out.push({
      id: (await row.getAttribute('data-candidate-id'))!,
      address: ((await row.locator('.comps-table__street').textContent()) ?? '').trim(),
      lonLat: lon && lat ? [Number(lon), Number(lat)] : null,
      market: !badges.some((badge) => /arm’s length/i.test(badge)) && !/non-market or no price/.test((await row.textContent()) ?? ''),
      sizeBand: badges.some((badge) => /size band/i.test(badge)),
      screenedOut: (await row.getAttribute('data-screened-out')) !== null,
    });
  }
  return out;
}

const candidateRow = (page: Page, id: string) => page.getByRole('table', { name: 'Candidates' }).locator(`tbody tr[data-candidate-id="${id}"]`);
const gridCompColumns = (page: Page) => page.getByRole('table', { name: 'Sales comparison grid' }).locator('th.comps-grid__comp-head');

/** After a choice: the row shows its comp number, and the grid has the comp's column. */
async function expectChosen(page: Page, candidate: Candidate, compNumber: number): Promise<void> {
  await expect(candidateRow(page, candidate.id).getByRole('button', { name: `Drop comp ${compNumber}, ${candidate.address}` })).toHaveAttribute('aria-pressed', 'true');
  await expect(gridCompColumns(page)).toHaveCount(compNumber);
  await expect(gridCompColumns(page).nth(compNumber - 1)).toContainText(candidate.address);
  await expect(page.getByTestId('comps-candidate-count')).toContainText(`${compNumber} chosen`);
}

/** Choosing a sale Plat screened out asks for the appraiser's written reason, with Plat's; they take it in. */
async function confirmIfAsked(page: Page, candidate: Candidate): Promise<void> {
  const ask = page.getByRole('dialog', { name: /^Take in / });
  if (candidate.screenedOut) {
    await expect(ask).toHaveAccessibleName(`Take in ${candidate.address} anyway?`);
    if (candidate.sizeBand) await expect(ask).toContainText(/(Gross building|Gross living) area/);
    await ask.getByLabel(/^Your reason/).fill('The closest sale in date; its size is adjusted for.');
    await ask.getByRole('button', { name: 'Take it in' }).click();
  }
  await expect(ask).toBeHidden();
}

interface GridColumnOnScreen {
  address: string;
  price: number;
  gla: number;
  saleDate: string;
  adjustments: Map<string, number>;
  net: number;
  gross: number;
  netPct: number;
  grossPct: number;
  adjusted: number;
}

const descriptionOf = (adjustmentCell: Locator) => adjustmentCell.locator('xpath=preceding-sibling::td[1]').locator('.comps-value__text').first();

async function gridColumn(page: Page, n: number): Promise<GridColumnOnScreen> {
  const adjustments = new Map<string, number>();
  for (const row of gridRowKeys) {
    const cell = page.getByTestId(`grid-adjustment-${row}-${n}`);
    const typed = cell.getByRole('textbox');
    const text = manualRowSet.has(row) && (await typed.count()) > 0 ? await typed.inputValue() : await cell.textContent();
    if ((text ?? '').trim() === '') continue;
    const amount = manualRowSet.has(row) ? Number((text ?? '').replace(/[$,\s]/g, '').replace('\u2212', '-')) : money(text);
    expect(amount, `comp ${n}'s ${row} adjustment reads as dollars: “${text}”`).not.toBeNaN();
    adjustments.set(row, amount);
  }
  return {
    address: ((await descriptionOf(page.getByTestId(`grid-adjustment-address-${n}`)).textContent()) ?? '').trim(),
    price: money(await descriptionOf(page.getByTestId(`grid-adjustment-salePrice-${n}`)).textContent()),
    gla: squareFeet(await descriptionOf(page.getByTestId(`grid-adjustment-gla-${n}`)).textContent()),
    saleDate: ((await descriptionOf(page.getByTestId(`grid-adjustment-saleDate-${n}`)).textContent()) ?? '').trim(),
    adjustments,
    net: money(await page.getByTestId(`grid-net-${n}`).textContent()),
    gross: money(await page.getByTestId(`grid-gross-${n}`).textContent()),
    netPct: percent(await page.getByTestId(`grid-net-pct-${n}`).textContent()),
    grossPct: percent(await page.getByTestId(`grid-gross-pct-${n}`).textContent()),
    adjusted: money(await page.getByTestId(`grid-adjusted-${n}`).textContent()),
  };
}

const dayNumber = (iso: string) => Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / 86_400_000;

// ---------------------------------------------------------------------------------------------
// Screenshots

/** The map and the grid in the light scheme and the dark, waiting for the map to repaint in each. */
async function shotMapAndGrid(page: Page, shot: (name: string) => Promise<void>, width: number): Promise<void> {
  // The pointer passes over the list and leaves it (no sale stays highlighted), then rests on the title.
  await page.getByRole('table', { name: 'Candidates' }).locator('tbody tr').first().hover();
  await page.getByRole('heading', { level: 1 }).hover();
  await page.keyboard.press('Control+1');
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Comparables');
  await page.keyboard.press('Control+4');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Comparables');
  await expect(page.getByTestId('comps-candidate-count')).toContainText('5 chosen');
  await expect.poll(async () => Math.abs((await mapView(page)).width - (await mapContainer(page).boundingBox())!.width) <= 1, { message: 'the map opened at this size' }).toBe(true);
  await expect.poll(async () => (await mapCanvasStats(page)).distinctColours, { message: 'the map is drawn', timeout: 20_000 }).toBeGreaterThan(200);
  await expect(page.locator('.comps-map .maplibregl-popup')).toHaveCount(0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('.comps-map .plat-map')).toHaveClass(new RegExp(`plat-map--${scheme}`));
    // The basemap repaints in place: wait until its pixels are the scheme's.
    await expect
      .poll(async () => {
        const luminance = (await mapCanvasStats(page)).meanLuminance;
        return scheme === 'light' ? luminance > 150 : luminance < 110;
      }, { message: `the map repaints in the ${scheme} scheme` })
      .toBe(true);
    const suffix = scheme === 'dark' ? '-dark' : '';
    await page.getByRole('region', { name: 'Comparables map' }).evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot(`comparables-map-${width}${suffix}`);
    await page.getByRole('region', { name: 'Sales comparison grid' }).evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await shot(`comparables-grid-${width}${suffix}`);
    // The view scrolls in its own pane: the window itself never does (nothing placed below the status line).
    expect(await page.evaluate(() => document.scrollingElement!.scrollHeight - document.scrollingElement!.clientHeight), 'the window does not scroll').toBe(0);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

// ---------------------------------------------------------------------------------------------

test.describe('comparable sales, from the search to the PDF', () => {
  // The second test works on the assignment the first one made (one host per file, as one person's session).
  test.describe.configure({ mode: 'serial' });

  test('search, map, choose five comps, set rates, check the grid, reconcile, export', async ({ page, host, shot }) => {
    // About half a minute on a quiet two-core machine; the limit leaves room for a busy one.
    test.setTimeout(180_000);
    mkdirSync(outDir, { recursive: true });
    await openApp(page, host.url);

    // Find the subject in one box and open it.
    const { box } = await findAddress(page, '1708 21st st nw', '1708 21ST ST NW');
    await box.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('1708 21ST ST NW');

    // An assignment effective at the start of 2017: the sample's dated sales end in January 2017.
    await expect(await startAssignment(page, { effectiveDate: EFFECTIVE_DATE, client: 'First Federal Savings', intendedUse: 'Mortgage lending decision' })).toBeVisible();

    // Comparables (Ctrl+4): the subject's record first, with its price.
    await page.keyboard.press('Control+4');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Comparables');
    const comps = page.getByTestId('comparables');
    await expect(comps.getByRole('heading', { level: 2, name: '1708 21ST ST NW' })).toBeVisible();
    await expect(comps).toContainText(`effective ${EFFECTIVE_DATE}`);
    const subjectMissing = page.getByTestId('comps-subject-missing');
    await expect(subjectMissing.getByTestId('cost-tag')).toHaveText('$0.25');
    const searchButton = comps.locator('.comps-search__buy').getByRole('button', { name: 'Search' });
    await expect(searchButton).toBeDisabled();
    await expect(page.getByTestId('comps-search-problems')).toContainText('buy its record above first');
    const beforeSubject = await spentMicro(page);
    await subjectMissing.getByRole('button', { name: 'Buy the subject report' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm a charge' });
    await expect(confirm).toContainText('$0.25');
    await confirm.getByRole('button', { name: 'Buy for $0.25' }).click();
    await expect(subjectMissing).toBeHidden({ timeout: 30_000 });
    await expect.poll(() => spentMicro(page)).toBe(beforeSubject + 250_000);

    // The search: its price on the button before anything is bought; bought once, with a confirmation.
    const searchPrice = comps.locator('.comps-search__buy').getByTestId('cost-tag');
    await expect(searchPrice).toHaveText('$0.15');
    await expect(searchButton).toBeEnabled();
    await expect(page.getByTestId('comps-search-problems')).toBeHidden();
    const beforeSearch = await spentMicro(page);
    await searchButton.click();
    await expect(confirm).toContainText('$0.15');
    await confirm.getByRole('button', { name: 'Buy for $0.15' }).click();
    const count = page.getByTestId('comps-candidate-count');
    await expect(count).toContainText(/^\d+ returned · 0 chosen/, { timeout: 30_000 });
    await expect.poll(() => spentMicro(page)).toBe(beforeSearch + 150_000);
    const afterSearch = await spentMicro(page);
    await expect(searchPrice).toHaveText('Cached · free');
    await expect(page.getByTestId('comps-current-search')).toContainText(`sold 2016-01-01 to ${EFFECTIVE_DATE}`);
    const candidates = await candidatesOnScreen(page);
    expect(candidates.length, 'the search returns the sales around the subject').toBeGreaterThanOrEqual(8);
    await expect(count).toContainText(`${candidates.length} returned`);

    // The same search again is free: no confirmation, nothing spent, the same sales; each run is kept.
    const earlier = comps.locator('.comps-search__history > summary');
    await searchButton.click();
    await expect(earlier).toHaveText('Earlier searches (1)', { timeout: 20_000 });
    await expect(confirm).toBeHidden();
    const runActions = comps.locator('.comps-search__run-actions');
    await expect(runActions.getByTestId('cost-tag')).toHaveText('Cached · free');
    await runActions.getByRole('button', { name: 'Re-run this search' }).click();
    await expect(earlier).toHaveText('Earlier searches (2)', { timeout: 20_000 });
    await expect(confirm).toBeHidden();
    await expect(count).toContainText(`${candidates.length} returned · 0 chosen`);
    expect(await spentMicro(page)).toBe(afterSearch);

    // The map draws: many colours on the canvas, and the subject's star where the records put it.
    await expect(mapContainer(page)).toHaveAttribute('data-view', /"zoom"/);
    await expect.poll(async () => (await mapCanvasStats(page)).distinctColours, { message: 'the map canvas is drawn', timeout: 20_000 }).toBeGreaterThan(200);
    // The map may still be fitting itself to the search: the position is projected from the view it settles on.
    const popup = page.locator('.comps-map .maplibregl-popup');
    let subjectAt = { x: 0, y: 0 };
    await expect(async () => {
      subjectAt = await pointAt(page, SUBJECT_LON_LAT);
      await expect(popup).toContainText('1708 21ST ST NWSubject', { timeout: 1_000 });
    }, 'hovering the subject’s position shows the subject').toPass({ timeout: 15_000 });
    const star = await imageStats(page, await page.screenshot({ clip: { x: subjectAt.x - 9, y: subjectAt.y - 9, width: 18, height: 18 } }), SUBJECT_RGB);
    expect(star.nearCount, 'the subject’s star is drawn at the subject’s position').toBeGreaterThan(60);

    // Three comps from the map: zoomed in past the clusters, each a sale alone at its spot, hovered
    // (the popup names it) and clicked. On a wide screen the map has the room.
    await page.getByRole('heading', { level: 1 }).hover();
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(async () => (await mapView(page)).width).toBeGreaterThan(500);
    while ((await mapView(page)).zoom < 15) {
      const before = (await mapView(page)).zoom;
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(async () => (await mapView(page)).zoom).toBeGreaterThan(before + 0.5);
    }
    const spots = new Map<string, number>();
    for (const candidate of candidates) if (candidate.lonLat) spots.set(candidate.lonLat.join(','), (spots.get(candidate.lonLat.join(',')) ?? 0) + 1);
    const subjectSpot = SUBJECT_LON_LAT.join(',');
    const alone = candidates.filter((candidate) => candidate.market && candidate.lonLat && spots.get(candidate.lonLat.join(',')) === 1 && candidate.lonLat.join(',') !== subjectSpot);
    const fromMap: Candidate[] = [];
    for (const candidate of alone) {
      if (fromMap.length === 3) break;
      if (await clearOfOverlays(page, await pagePoint(page, candidate.lonLat!))) fromMap.push(candidate);
    }
    expect(fromMap.map((candidate) => candidate.address), 'three sales alone at their spot, in view').toHaveLength(3);
    for (const [at, candidate] of fromMap.entries()) {
      let point = { x: 0, y: 0 };
      await expect(async () => {
        point = await pointAt(page, candidate.lonLat!);
        await expect(popup.locator('strong').first()).toHaveText(candidate.address, { timeout: 1_000 });
      }, `hovering ${candidate.address}’s position names it`).toPass({ timeout: 15_000 });
      await page.mouse.click(point.x, point.y);
      await confirmIfAsked(page, candidate);
      await expectChosen(page, candidate, at + 1);
      // The pointer off the list and the map, so no row it lands on after the dialog highlights (and pans to) a sale.
      await page.getByRole('heading', { level: 1 }).hover();
    }

    // Two from the list, by keyboard: focus the row, Space (or Enter) chooses.
    const fromList = candidates.filter((candidate) => candidate.market && !fromMap.includes(candidate)).slice(0, 2);
    expect(fromList).toHaveLength(2);
    for (const [at, candidate] of fromList.entries()) {
      const row = candidateRow(page, candidate.id);
      await row.focus();
      await expect(row).toBeFocused();
      await page.keyboard.press(at === 0 ? 'Space' : 'Enter');
      await confirmIfAsked(page, candidate);
      await expectChosen(page, candidate, 4 + at);
    }
    const chosen = [...fromMap, ...fromList];

    // Two rates and a lump sum, then the grid's arithmetic as the screen prints it.
    await page.getByLabel('Rate: Market conditions (time) (% per month)').fill('0.5');
    await page.getByLabel('Rate: Area as published (gross living or building area) ($ per sq ft)').fill('150');
    // The sample's areas are copied from other houses: accepted for the whole grid, with a reason, they adjust.
    await page.getByRole('button', { name: /^Accept copied values: Gross (living|building) area/ }).click();
    const accept = page.getByRole('dialog', { name: /^Accept copied values: Gross (living|building) area/ });
    await accept.getByLabel('Reason (required, printed in the report)').fill('Living areas checked against the 2016 listings.');
    await accept.getByRole('button', { name: 'Accept copied values' }).click();
    await expect(accept).toBeHidden();
    await page.getByTestId('grid-adjustment-site-1').getByRole('textbox').fill('-5000');
    await expect(page.getByTestId('grid-adjustment-gla-1')).not.toBeEmpty();
    await expect(page.getByTestId('grid-adjustment-saleDate-1')).not.toBeEmpty();
    const subjectGla = squareFeet(await page.getByTestId('grid-adjustment-gla-1').locator('xpath=..').locator('td.comps-grid__subject .comps-value__text').textContent());
    expect(subjectGla).toBeGreaterThan(0);
    const columns: GridColumnOnScreen[] = [];
    // Read as printed once the last edit has reached every cell (the checks themselves are exact).
    await expect(async () => {
      columns.length = 0;
      for (let n = 1; n <= chosen.length; n++) {
        const column = await gridColumn(page, n);
        columns.push(column);
        const adjustments = [...column.adjustments.values()];
        expect(column.address, `comp ${n}`).toBe(chosen[n - 1]!.address);
        expect(column.net, `comp ${n}: net = the sum of its adjustments`).toBe(adjustments.reduce((sum, amount) => sum + amount, 0));
        expect(column.gross, `comp ${n}: gross = the sum of their sizes`).toBe(adjustments.reduce((sum, amount) => sum + Math.abs(amount), 0));
        expect(column.adjusted, `comp ${n}: adjusted = price + net`).toBe(column.price + column.net);
        expect(Math.abs(column.netPct - (column.net / column.price) * 100), `comp ${n}: net % of the price`).toBeLessThanOrEqual(0.051);
        expect(Math.abs(column.grossPct - (column.gross / column.price) * 100), `comp ${n}: gross % of the price`).toBeLessThanOrEqual(0.051);
        // GLA: $150 × (subject − comp), from the cells.
        expect(column.adjustments.get('gla'), `comp ${n}: GLA adjustment`).toBe(Math.round(150 * (subjectGla - column.gla)));
        // Time: 0.5 % of the price per (average) month from the sale to the effective date.
        const months = (dayNumber(EFFECTIVE_DATE) - dayNumber(column.saleDate)) / (365.25 / 12);
        expect(Math.abs(column.adjustments.get('saleDate')! - column.price * 0.005 * months), `comp ${n}: time adjustment`).toBeLessThanOrEqual(1);
        expect(column.adjustments.get('saleDate')!, `comp ${n} sold before the effective date: +`).toBeGreaterThan(0);
      }
      expect(columns[0]!.adjustments.get('site')).toBe(-5000);
    }, 'the grid’s arithmetic').toPass({ timeout: 15_000 });

    // Reconcile: an indicated value inside the range, and the comment it requires.
    const adjustedPrices = columns.map((column) => column.adjusted).sort((a, b) => a - b);
    await expect(page.getByTestId('grid-range')).toContainText(`from $${adjustedPrices[0]!.toLocaleString('en-US')} to $${adjustedPrices.at(-1)!.toLocaleString('en-US')}`);
    const indicated = Math.round(adjustedPrices[2]! / 1000) * 1000;
    await page.getByLabel('Indicated value by sales comparison').fill(String(indicated));
    const comment = 'Comps 1 to 3 are closest and sold within the year; all are larger than the subject, adjusted at $150 per sq ft.';
    await page.getByLabel(/Reconciliation comment/).fill(comment);
    // What the reconciliation still needs is only the guidelines' notes now (large adjustments: these comps are all larger than the subject).
    const needs = page.getByRole('list', { name: 'What the reconciliation still needs' });
    await expect(needs.getByText(/Enter the indicated value|the comment is required|outside the range/)).toHaveCount(0);
    await expect(page.getByTestId('comps-save-state')).toContainText('Saved', { timeout: 15_000 });

    // Screenshots of the map and the grid, wide and standard, light and dark: the view opened afresh
    // at each size (the map fits the subject, the ring and the sales), the pointer off the list.
    await shotMapAndGrid(page, shot, 1920);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shotMapAndGrid(page, shot, 1280);

    // The UAD-shaped JSON and the grid CSV, from the view.
    const uadDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export UAD-shaped JSON' }).click();
    const uadPath = path.join(outDir, 'sales-comparison.json');
    await (await uadDownload).saveAs(uadPath);
    await expect(page.getByTestId('comps-export-status')).toContainText('Exported “');
    const uad = JSON.parse(readFileSync(uadPath, 'utf8')) as { notice: string };
    expect(uad.notice).toMatch(/not a certified UAD file/);
    const uadText = readFileSync(uadPath, 'utf8');
    for (const candidate of chosen) expect(uadText).toContain(candidate.address);

    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export grid CSV' }).click();
    const csvPath = path.join(outDir, 'sales-comparison-grid.csv');
    await (await csvDownload).saveAs(csvPath);
    const csv = readFileSync(csvPath, 'utf8');
    for (const candidate of chosen) expect(csv).toContain(candidate.address);
    // Each comp's adjustment is a plain signed number in its own column (the fourth cell of its three, after the subject's).
    const csvRow = (label: string) => {
      const line = csv.split('\r\n').find((candidate) => candidate.startsWith(`${label},`));
      expect(line, `the CSV has a “${label}” row`).toBeTruthy();
      return chosen.map((_, index) => Number(line!.split(',')[4 + 3 * index]));
    };
    expect(csvRow('Net adjustment')).toEqual(columns.map((column) => column.net));
    expect(csvRow('Adjusted sale price')).toEqual(columns.map((column) => column.adjusted));
    expect(await spentMicro(page)).toBe(afterSearch);

    // The report: its comparables section, then the PDF.
    await comps.getByRole('button', { name: 'Open the report' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Report');
    const section = page.locator('[data-section="comparables"]');
    await expect(section.getByRole('table', { name: /^Sales comparison grid/ }).first()).toBeVisible({ timeout: 30_000 });
    await expect(section.getByTestId('report-map')).toHaveClass(/report-map--ready/, { timeout: 30_000 });
    const pdfDownload = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Export PDF' }).click();
    const pdfPath = path.join(outDir, 'comparables-report.pdf');
    await (await pdfDownload).saveAs(pdfPath);
    await expect(page.getByTestId('report-export-status')).toContainText(/Exported “.*”: \d+ pages/);
    expect(await spentMicro(page)).toBe(afterSearch);

    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    const pages = text.split('\f');
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Sales comparison');
    expect(flat).toContain('Net adjustment');
    for (const candidate of chosen) expect(flat, `the PDF names comp ${candidate.address}`).toContain(candidate.address);
    for (const column of columns) expect(flat, `the PDF prints ${column.address}’s adjusted price`).toContain(`$${column.adjusted.toLocaleString('en-US')}`);
    expect(flat).toContain(`$${indicated.toLocaleString('en-US')}`);
    // The map image: 1200 × 700 pixels, on the page of the comparables section's map.
    const mapPage = pages.findIndex((pageText) => /^\s*Map\s*$/m.test(pageText) && pageText.replace(/\s+/g, ' ').includes('searched around the subject')) + 1;
    expect(mapPage, 'a page with the map’s heading and caption').toBeGreaterThan(0);
    const images = pdfImageList(pdfPath);
    expect(images.filter((image) => image.type === 'image' && image.width === 1200 && image.height === 700).map((image) => image.page)).toContain(mapPage);
    // Paginated as a reader expects: no heading left at a page's foot without its rows, no page before the last mostly blank.
    const layout = await checkPdfLayout(readFileSync(pdfPath));
    expect(layout.stranded, 'headings separated from their rows').toEqual([]);
    expect(layout.nearEmpty, 'near-empty pages').toEqual([]);
  });

  test('bad criteria and an effective date before every sale: said in words, nothing charged', async ({ page, host }) => {
    await openApp(page, host.url);
    await page.keyboard.press('Control+4');
    const comps = page.getByTestId('comparables');
    await expect(comps.getByRole('heading', { level: 2, name: '1708 21ST ST NW' })).toBeVisible();
    const searchButton = comps.locator('.comps-search__buy').getByRole('button', { name: 'Search' });
    await expect(searchButton).toBeEnabled();
    const problems = page.getByTestId('comps-search-problems');
    const spent = await spentMicro(page);
    const radius = comps.getByLabel(/^Radius/);

    for (const [typed, message] of [
      ['0', 'The radius must be more than 0 miles.'],
      ['500', 'The radius can be at most 5 miles'],
    ] as const) {
      await radius.fill(typed);
      await expect(problems).toContainText(message);
      await expect(problems).toContainText('nothing is sent or charged');
      await expect(searchButton).toBeDisabled();
      await expect(radius).toHaveValue(typed);
      expect(await spentMicro(page)).toBe(spent);
    }
    await radius.fill('0.5');
    await expect(problems).toBeHidden();
    await expect(comps.locator('.comps-search__buy').getByTestId('cost-tag')).toHaveText('Cached · free');

    // An effective date before every dated sale the service holds, set on the assignment page.
    const setDate = async (date: string) => {
      await comps.getByRole('button', { name: 'Open the assignment' }).click();
      const assignment = page.getByTestId('assignment-page');
      await assignment.getByRole('button', { name: 'Change details…' }).click();
      await assignment.getByLabel('Effective date').fill(date);
      await assignment.getByRole('button', { name: 'Save details' }).click();
      await expect(assignment).toContainText(`effective ${date}`);
      await page.keyboard.press('Control+4');
      await expect(comps).toContainText(`effective ${date}`);
    };
    await setDate('1950-01-01');
    await expect(problems).toContainText('The effective date 1950-01-01 is before every dated sale the service holds');
    await expect(problems.getByRole('button', { name: 'Set the effective date in the assignment' })).toBeVisible();
    await expect(searchButton).toBeDisabled();
    expect(await spentMicro(page)).toBe(spent);

    await setDate(EFFECTIVE_DATE);
    await expect(problems).toBeHidden();
    await expect(comps.locator('.comps-search__buy').getByTestId('cost-tag')).toHaveText('Cached · free');
    await expect(page.getByTestId('comps-candidate-count')).toContainText('5 chosen');
    expect(await spentMicro(page)).toBe(spent);
  });
});
