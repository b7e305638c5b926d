/// <reference lib="dom" />
// The page says what the link to Plat and the service connection really are: when the host stops
// the status line is not green and prices are not "Pricing…" forever; a new launch on the same
// address is told apart from a host that is only gone; a live address that refuses connections is
// never shown Ready.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { spawnBrowserHost, type SpawnedHost } from '../electron/host/spawn-host.ts';
import { test, expect, liveServiceForm } from './fixtures.ts';
import { expectAccessible } from './accessibility.ts';

async function stop(host: SpawnedHost): Promise<void> {
  const exited = new Promise((resolve) => host.child.once('exit', resolve));
  host.child.kill('SIGTERM');
  await exited;
}

/** Fills the Records search so that its Search button is priced ($0.02). */
async function priceASearch(page: Page) {
  const jurisdiction = page.getByRole('combobox', { name: 'Jurisdiction' });
  await jurisdiction.fill('District of Col');
  await page.getByRole('option', { name: /11001/ }).click();
  await page.getByLabel('Record kind').selectOption('ownership');
  await page.getByLabel('Filter 1 field').selectOption('owner');
  await page.getByLabel('Filter 1 value').fill('UNITED STATES OF AMERICA');
  await expect(page.locator('.search-form__actions [data-testid="cost-tag"]')).toHaveText(/\$0\.02/);
}

test.describe('connection status', () => {
  test('a stopped host shows the disconnected state; a new launch on the same address says to open its address', async ({ page, shot }) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-e1-'));
    const first = await spawnBrowserHost({ dataDir });
    let second: SpawnedHost | null = null;
    try {
      await page.goto(first.url);
      await expect(page.locator('.status-line__dot--ready')).toBeVisible();
      await expect(page.getByTestId('service-label')).toHaveText('Local sample service');
      await priceASearch(page);

      await stop(first);
      await expect(page.getByTestId('service-label')).toHaveText('Plat’s host has stopped — reconnecting…');
      await expect(page.locator('.status-line__dot--ready')).toHaveCount(0);
      await expect(page.locator('.status-line__dot--down')).toBeVisible();
      const notice = page.getByTestId('host-link-notice');
      await expect(notice).toContainText('this page reconnects by itself');
      await expect(notice).toContainText(/next try in \d+ s/);
      // The price is not spinning and the button cannot be used, with the reason on it.
      const search = page.getByRole('button', { name: 'Search records' });
      await expect(page.locator('.search-form__actions [data-testid="cost-unavailable"]')).toHaveText('No price: Plat is not connected');
      await expect(page.getByText('Pricing…')).toHaveCount(0);
      await expect(search).toBeDisabled();
      await expect(search).toHaveAttribute('title', /not answering/);
      await shot('connection-host-stopped');
      await expectAccessible(page, 'the page with its host stopped');
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot('connection-host-stopped-dark');
      await page.emulateMedia({ colorScheme: 'light' });

      // Plat starts again on the same address: a new launch with a new token refuses this page.
      const port = new URL(first.origin).port;
      second = await spawnBrowserHost({ dataDir, args: ['--port', port] });
      // The page's next automatic try (at most 10 s away) finds it.
      await expect(page.getByTestId('service-label')).toHaveText('Plat was restarted — open the address it printed', { timeout: 20_000 });
      await expect(page.getByRole('button', { name: 'Try now' })).toHaveCount(0);
      await expect(page.locator('.status-line__dot--ready')).toHaveCount(0);
      await shot('connection-host-restarted');
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot('connection-host-restarted-dark');
      await page.emulateMedia({ colorScheme: 'light' });

      // Its own address works, pasted into this same tab (only the fragment differs: the page reloads itself).
      await page.goto(second.url);
      await expect(page.locator('.status-line__dot--ready')).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId('host-link-notice')).toHaveCount(0);
    } finally {
      if (first.child.exitCode === null) await stop(first);
      if (second && second.child.exitCode === null) await stop(second);
    }
  });

  test('a live address that refuses connections is never shown Ready, and the form stays usable', async ({ page, host, shot }) => {
    await page.goto(host.url);
    await expect(page.locator('.status-line__dot--ready')).toBeVisible();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Settings/ }).click();
    await page.getByRole('form', { name: 'API key' }).getByLabel('API key').fill('svc_live_e2e_connection_status_0001');
    await page.getByRole('form', { name: 'API key' }).getByRole('button', { name: 'Save key' }).click();
    await expect(page.getByTestId('key-status')).toContainText('Kept in memory');

    // Records every moment the page shows the live service as Ready (a green dot, or the word).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { readySeen: string[] }).readySeen = seen;
      const look = () => {
        const label = document.querySelector('[data-testid="service-label"]')?.textContent ?? '';
        const current = document.querySelector('[data-testid="connection-current"]')?.textContent ?? '';
        const live = label.startsWith('Live service');
        if (live && document.querySelector('.status-line__dot--ready')) seen.push(`status line: ${label}`);
        if (current.includes('Live service') && /Ready/.test(current)) seen.push(`settings: ${current}`);
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const { connection, address, connect } = await liveServiceForm(page);
    await address.fill('http://user:secret@127.0.0.1:9');
    await connect.click();
    await expect(connection.getByRole('alert')).toContainText('must not contain a user name or password');
    await address.fill('http://127.0.0.1:9');
    await connect.click();
    await expect(page.getByTestId('service-label')).toHaveText('Live service · 127.0.0.1:9');
    const current = page.getByTestId('connection-current');
    await expect(current).toContainText('Not reachable', { timeout: 30_000 });
    await expect(page.getByTestId('service-state')).toHaveText('Not reachable');
    await expect(page.locator('.status-line__dot--problem')).toBeVisible();
    await expect(current.getByRole('button', { name: 'Check again' })).toBeVisible();
    // The form that can fix it is still there.
    await expect(address).toBeEditable();
    expect(await page.evaluate(() => (window as unknown as { readySeen: string[] }).readySeen)).toEqual([]);
    await shot('connection-live-unreachable');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('connection-live-unreachable-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Plain http:// to another computer needs explicit consent; cancelling sends nothing.
    await address.fill('http://records.example.com');
    await connect.click();
    const consent = page.getByRole('dialog', { name: 'Send your API key unencrypted?' });
    await expect(consent).toBeVisible();
    await shot('connection-insecure-consent');
    await consent.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('service-label')).toHaveText('Live service · 127.0.0.1:9');

    // Back to the local sample: ready, with the balance read at once (no paid call needed).
    await connection.getByLabel(/^Local sample service/).check();
    await connection.getByRole('button', { name: 'Use the local sample' }).click();
    await expect(page.locator('.status-line__dot--ready')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('spend-balance')).toHaveText(/^\$\d/);
  });

  test('a session cap below what the session has spent is accepted, and said so', async ({ page, host, shot }) => {
    await page.goto(host.url);
    await expect(page.locator('.status-line__dot--ready')).toBeVisible();
    const search = await page.evaluate(async () => {
      const api = (window as unknown as { plat: Record<string, (r: unknown) => Promise<{ ok: boolean }>> }).plat;
      const request = { query: { jurisdiction: '11001', kind: 'ownership', filter: JSON.stringify({ use_code: '24' }), limit: 5 } };
      return api.searchRecords!({ request, actionId: 'e2e-cap-below-spent-0001' });
    });
    expect(search.ok).toBe(true);
    await expect(page.getByTestId('spend-session')).toHaveText('$0.02');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Settings/ }).click();
    const budgets = page.getByRole('form', { name: 'Budgets' });
    const cap = budgets.getByLabel('Session cap');
    await cap.fill('0.01');
    const warning = 'This session has already spent $0.02; every charged call will be refused until you raise the cap or restart Plat.';
    await expect(budgets.getByText(warning)).toBeVisible();
    await budgets.getByRole('button', { name: 'Save budgets' }).click();
    await expect(budgets.getByText('Budgets saved, with a session cap this session has already reached.')).toBeVisible();
    await expect(budgets.getByText(warning)).toBeVisible();
    await budgets.scrollIntoViewIfNeeded();
    await shot('settings-cap-below-spent');
    await cap.fill('');
    await budgets.getByRole('button', { name: 'Save budgets' }).click();
    await expect(budgets.getByText('Budgets saved.')).toBeVisible();
    await expect(budgets.getByText(warning)).toHaveCount(0);
  });

  test('a full disk shows as a calm warning chip that opens the Spend page’s message', async ({ page, host, shot }) => {
    const problem = 'The disk holding Plat’s data folder is full — free some space; charges already made are kept and will be saved.';
    // The core's spend while its data folder refuses writes (a full disk cannot be made on demand
    // here): getSpend answers it, and the host's own spend events are held back so they do not replace it.
    const snapshot = {
      sessionMicroUsd: 120_000,
      todayMicroUsd: 120_000,
      allTimeMicroUsd: 120_000,
      sessionCreditMicroUsd: 0,
      todayCreditMicroUsd: 0,
      allTimeCreditMicroUsd: 0,
      sessionNetMicroUsd: 120_000,
      todayNetMicroUsd: 120_000,
      allTimeNetMicroUsd: 120_000,
      byProject: [{ projectId: null, microUsd: 120_000 }],
      lastKnownBalanceMicroUsd: 24_880_000,
      lastChargeMicroUsd: 100_000,
      lastChargeAt: new Date().toISOString(),
      unsavedMicroUsd: 100_000,
      storageProblem: problem,
    };
    await page.routeWebSocket('**/bridge', (socket) => {
      const server = socket.connectToServer();
      socket.onMessage((message) => {
        const call = JSON.parse(String(message)) as { id: number; op: string };
        if (call.op === 'getSpend') socket.send(JSON.stringify({ id: call.id, result: { ok: true, value: snapshot } }));
        else server.send(message);
      });
      server.onMessage((message) => {
        if ((JSON.parse(String(message)) as { event?: string }).event !== 'spendUpdated') socket.send(message);
      });
    });
    await page.goto(host.url);
    const chip = page.getByTestId('spend-storage-problem');
    await expect(chip).toHaveText('Storage problem — $0.10 not yet saved');
    await expect(chip).toHaveAttribute('title', problem);
    await shot('status-line-storage-problem');
    await chip.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Spend');
    const notice = page.getByTestId('spend-storage-notice');
    await expect(notice).toContainText('Plat cannot save to its data folder');
    await expect(notice).toContainText(problem);
    await expect(notice).toContainText('$0.10 charged by the service is counted in these totals but not yet written');
    await shot('spend-storage-problem');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('spend-storage-problem-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
