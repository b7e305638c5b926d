/// <reference lib="dom" />
// The main roads against a second Property Records Service, one Plat does not run: the local service
// in its `independent` dialect (upper-case record fields, 01/03 sale codes, `<source_id>@<release_id>`
// refs, the summary under data.fields, other v2 node keys and predicates, coverage without area ids,
// its own prices). A new user connects Settings › Live service to it and walks find, owners, the
// property page and its summary, the subject report and its PDF, comparables, the graph and the
// runsheet, then spend and caps; every amount Plat books equals the service's balance drop. A second
// test: a service whose charge header is inflated, and the Spend view still adds up to the drop.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Locator, Page } from '@playwright/test';
import { startSecondService, type SecondService } from '../electron/local-service/second-service-kit.ts';
import { test, expect, confirmChargeIfAsked, connectLiveService, findBox, openApp, openOwners, searchOwners, session, startHost, type RunningHost } from './fixtures.ts';

// Outside test-results (which Playwright empties per run), so the PDF can be looked at afterwards.
const outDir = path.join(tmpdir(), 'plat-second-service-e2e');

interface LedgerRow {
  id: number;
  kind: string;
  operation: string;
  expectedCostMicroUsd: number | null;
  chargedMicroUsd: number;
  reportedChargeMicroUsd: number | null;
  chargeCheck: string | null;
  cacheHit: boolean;
  httpStatus: number | null;
}

/** Every row of the ledger, as the Spend view reads it. */
async function ledger(page: Page): Promise<LedgerRow[]> {
  const result = await page.evaluate(async () => {
    const api = (window as unknown as { plat: Record<string, (r: unknown) => Promise<{ ok: boolean; value: { rows: unknown[] } }>> }).plat;
    return api.listLedger!({ filter: {}, limit: 500, offset: 0 });
  });
  if (!result.ok) throw new Error('listLedger failed');
  return result.value.rows as LedgerRow[];
}

const booked = (rows: readonly LedgerRow[]) => rows.reduce((sum, row) => sum + row.chargedMicroUsd, 0);

/** Quoted (the price Plat showed before the call; "not known" counted apart) against charged, per operation. */
function quotedVsCharged(rows: readonly LedgerRow[]): string {
  const byOperation = new Map<string, { calls: number; quoted: number; notKnown: number; charged: number }>();
  for (const row of rows) {
    if (row.kind !== 'call' || row.cacheHit) continue;
    const entry = byOperation.get(row.operation) ?? { calls: 0, quoted: 0, notKnown: 0, charged: 0 };
    entry.calls += 1;
    if (row.expectedCostMicroUsd === null) entry.notKnown += 1;
    else entry.quoted += row.expectedCostMicroUsd;
    entry.charged += row.chargedMicroUsd;
    byOperation.set(row.operation, entry);
  }
  const lines = [['operation', 'calls', 'quoted µUSD', 'not known', 'charged µUSD'].join('\t')];
  for (const [operation, entry] of [...byOperation].sort()) lines.push([operation, entry.calls, entry.quoted, entry.notKnown, entry.charged].join('\t'));
  return lines.join('\n');
}

/** Clicks a ChargeButton and confirms the charge when Plat asks. */
async function buy(page: Page, button: Locator): Promise<void> {
  await expect(button).toBeEnabled({ timeout: 15_000 });
  await button.click();
  await confirmChargeIfAsked(page);
}

const confirm = (page: Page) => page.getByRole('dialog', { name: 'Confirm a charge' });

test.describe('the main roads against a second service', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });

  let second: SecondService;
  let host: RunningHost;
  let child: ChildProcess;
  let startBalance: number;

  test.beforeAll(async () => {
    mkdirSync(outDir, { recursive: true });
    second = await startSecondService();
    ({ host, child } = await startHost({ PLAT_API_KEY: second.keys.active }));
    startBalance = second.balance();
  });

  test.afterAll(async () => {
    child?.kill('SIGTERM');
    await second?.close();
  });

  test('connect, find an address at a price not known, and a find that matches nothing says its charge', async ({ page, shot }) => {
    await openApp(page, host.url);
    await connectLiveService(page, second.url);
    await shot('second-settings-connected');
    await page.keyboard.press('Control+1');

    // The lookup's price is not known on this connection: said before, asked first, then booked as charged.
    const { find, box } = findBox(page);
    await box.fill('1708 21st st nw');
    await expect(find.getByTestId('find-understood')).toContainText('address');
    await expect(find.getByTestId('cost-tag')).toHaveText('Price not known');
    await box.press('Enter');
    await expect(confirm(page)).toContainText('price not known; no charge for it seen yet');
    await confirm(page).getByRole('button', { name: 'Buy at a price not known' }).click();
    await expect(find.getByRole('region', { name: /^Candidates for the address/ })).toContainText('1708 21ST ST NW', { timeout: 30_000 });
    await expect(find.getByTestId('find-delivery')).toContainText('Bought for $0.01');
    await expect(session(page)).toHaveText('$0.01');
    await shot('second-find');

    // Matched nothing, and charged: the words say the charge, never "nothing was charged".
    await box.fill('1 nowhere st nw');
    await expect(find.getByTestId('cost-tag')).toHaveText('About $0.01, from your last call');
    await box.press('Enter');
    await confirmChargeIfAsked(page);
    const results = page.getByTestId('find-results');
    await expect(results).toContainText('Nothing matches the address “1 NOWHERE ST NW”', { timeout: 30_000 });
    await expect(results).toContainText('the service charged $0.01 for the lookup');
    await expect(results).not.toContainText('Nothing was charged');
    await expect(session(page)).toHaveText('$0.02');
    await shot('second-find-nothing');
  });

  test('owner search: not refused for want of an area id; the owner’s holdings', async ({ page, shot }) => {
    await openApp(page, host.url);
    await openOwners(page);
    // The coverage (v2 catalog) has no price the spec states: read on a click, and asked first.
    const coverage = page.getByRole('button', { name: 'Read the coverage' });
    await expect(page.getByTestId('cost-tag')).toHaveText('Price not known');
    await buy(page, coverage);
    await expect(page.getByLabel('Owner name contains')).toBeVisible({ timeout: 20_000 });
    const results = await searchOwners(page, 'joel kuipers');
    await expect(page.getByText('No area publishes owner names')).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Holdings published under the owner name JOEL KUIPERS' })).toContainText('1708 21ST ST NW');
    await expect(results.locator('.citation__chip').first()).toBeVisible();
    await shot('second-owners');
  });

  test('property page: links bought on a click, not on open; the summary cited', async ({ page, shot }) => {
    await openApp(page, host.url);
    const { find, box } = findBox(page);
    await box.fill('1708 21st st nw');
    await expect(find.getByTestId('cost-tag')).toHaveText('Cached · free');
    await box.press('Enter');
    await expect(find.getByRole('region', { name: /^Candidates for the address/ })).toContainText('1708 21ST ST NW', { timeout: 30_000 });
    const spentBefore = await session(page).textContent();
    await box.press('Enter');
    await expect(page.getByTestId('entity-page')).toBeVisible();

    // The links may cost here: not bought on open, a button with its price not known.
    const connected = page.getByTestId('entity-connected');
    const listLinks = connected.getByRole('button', { name: 'List its links' });
    await expect(listLinks).toBeVisible();
    await expect(connected.getByTestId('cost-tag')).toHaveText('Price not known');
    await expect(session(page)).toHaveText(spentBefore ?? '');
    await shot('second-property-before-links');
    await buy(page, listLinks);
    await expect(connected.getByRole('status')).toContainText(/\d+ entit(?:y|ies) within 2 links/, { timeout: 30_000 });
    await expect(connected).not.toContainText('Nothing is linked');
    await expect(connected.locator('.entity-connected__item').first()).toBeVisible();
    await shot('second-property-links');

    // The $0.10 summary (the spec's price): its values with their citations.
    const summary = page.getByTestId('entity-summary');
    await expect(summary.getByTestId('cost-tag')).toHaveText('$0.10');
    await buy(page, summary.getByRole('button', { name: 'Buy the summary' }));
    await expect(summary.getByTestId('summary-delivery')).toContainText('Bought for $0.10', { timeout: 30_000 });
    const table = summary.getByRole('table', { name: 'Entity summary' });
    await expect(table).toContainText('JOEL KUIPERS');
    await expect(table).toContainText('1708 21ST ST NW');
    await expect(summary.locator('.citation__chip').first()).toBeVisible();
    await expect(summary).not.toContainText('no citation given');
    await expect(summary).not.toContainText('{"');
    await shot('second-summary');
  });
});
