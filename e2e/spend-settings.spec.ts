/// <reference lib="dom" />
// The Spend and Settings views against the real browser host and its embedded sample service:
// a charged call shows in the ledger and the meter, the CSV export matches, caps refuse, projects,
// the cache, the connection and the API key (which never comes back out of the core).
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from '@playwright/test';
import { test, expect, liveServiceForm } from './fixtures.ts';
import { expectAccessible } from './accessibility.ts';
import { answerOnBridge, pushOnBridge } from './bridge-routes.ts';

type IpcResult = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string; retryable: boolean } };

/** Calls window.plat from the page, as a view would. */
async function plat(page: Page, operation: string, request: unknown): Promise<IpcResult> {
  return page.evaluate(
    async ([op, req]) => {
      const api = (window as unknown as { plat: Record<string, (r: unknown) => Promise<unknown>> }).plat;
      return (await api[op as string]!(req)) as never;
    },
    [operation, request] as const,
  );
}

/** A v4 ownership search in DC: $0.02 a page with results on the sample service. */
const ownershipSearch = (useCode: string, actionId: string) => ({
  request: { query: { jurisdiction: '11001', kind: 'ownership', filter: JSON.stringify({ use_code: useCode }), limit: 5 } },
  actionId,
});

async function openView(page: Page, label: 'Spend' | 'Settings') {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: new RegExp(`^${label}`) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(label);
}

async function start(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
  await expect(page.locator('.status-line__dot--ready')).toBeVisible();
}

test.describe.serial('Spend and Settings', () => {
  test('a charged search appears in the ledger with its amount, and the totals match the meter', async ({ page, host, shot }) => {
    await start(page, host.url);
    await openView(page, 'Spend');
    // Other views may have made free calls already (the Search view reads the catalog); nothing is charged yet.
    await expect(page.getByTestId('total-session')).toHaveText('$0.00');
    // Every file is listed, "No assignment" always, each at $0.00 before any charge.
    const byFile = page.getByRole('table', { name: 'Spend by file' });
    await expect(byFile.getByRole('row').filter({ hasText: 'No assignment' })).toContainText('$0.00');
    await shot('spend-before-charges');

    const result = await plat(page, 'searchRecords', ownershipSearch('24', 'e2e-spend-search-0001'));
    expect(result.ok).toBe(true);
    const billing = (result as { value: { billing: { chargedMicroUsd: number; balanceMicroUsd: number } } }).value.billing;
    expect(billing.chargedMicroUsd).toBe(20_000);

    const ledger = page.getByRole('table', { name: 'Spend ledger' });
    const searchRow = ledger.getByRole('row').filter({ hasText: 'Record search' });
    await expect(searchRow).toHaveCount(1);
    await expect(searchRow).toContainText('$0.02');
    await expect(searchRow).toContainText('11001 · ownership · use_code = 24 · limit 5');
    await expect(searchRow).toContainText('$24.98');
    await expect(searchRow).toContainText('OK 200');
    // Free calls (the catalog) are listed too, at $0.00.
    await expect(ledger.getByRole('row').filter({ hasText: 'Source catalog' }).first()).toContainText('$0.00');

    await expect(page.getByTestId('total-session')).toHaveText('$0.02');
    await expect(page.getByTestId('total-today')).toHaveText('$0.02');
    await expect(page.getByTestId('total-all-time')).toHaveText('$0.02');
    await expect(page.getByTestId('spend-session')).toHaveText('$0.02');
    await expect(page.getByTestId('total-balance')).toHaveText('$24.98');
    await expect(page.getByTestId('spend-balance')).toHaveText('$24.98');
    await expect(page.getByRole('table', { name: 'Spend by file' }).getByRole('row').filter({ hasText: 'No assignment' })).toContainText('$0.02');

    await shot('spend-with-calls');
    await expectAccessible(page, 'the Spend view');

    // A second identical action is answered from Plat's cache, free, and says so.
    const again = await plat(page, 'searchRecords', ownershipSearch('24', 'e2e-spend-search-0002'));
    expect(again.ok).toBe(true);
    const cacheRow = ledger.getByRole('row').filter({ hasText: 'Record search' }).filter({ hasText: 'Cache hit' });
    await expect(cacheRow).toHaveCount(1);
    await expect(cacheRow).toContainText('$0.00');
    await expect(page.getByTestId('total-session')).toHaveText('$0.02');

    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('spend-dark');
    await expectAccessible(page, 'the Spend view in dark mode');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test('filters by date range and exports the ledger as a CSV file whose rows match', async ({ page, host, shot }) => {
    await start(page, host.url);
    await openView(page, 'Spend');
    const ledger = page.getByRole('table', { name: 'Spend ledger' });
    await expect(ledger.getByRole('row').filter({ hasText: 'Record search' })).toHaveCount(2);
    const shownRange = await page.getByTestId('ledger-range').textContent();
    const total = Number(/of (\d+)/.exec(shownRange ?? '')?.[1]);
    expect(total).toBeGreaterThanOrEqual(3);

    // A reversed range is refused with a message, and what was typed stays.
    await page.getByLabel('From').fill('2030-01-02');
    await page.getByLabel('To (inclusive)').fill('2030-01-01');
    await expect(page.getByRole('alert').filter({ hasText: 'The end date is before the start date.' })).toBeVisible();
    await expect(page.getByLabel('From')).toHaveValue('2030-01-02');
    await shot('spend-filter-error');
    // A future range has no rows; clearing the filters brings them back.
    await page.getByLabel('To (inclusive)').fill('2030-01-03');
    await expect(page.getByText('No calls match these filters.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect(ledger.getByRole('row').filter({ hasText: 'Record search' })).toHaveCount(2);

    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/^plat-ledger-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv).toContain('\r\n');
    const [header = [], ...body] = parse(csv) as string[][];
    expect(body).toHaveLength(total);
    const column = (name: string) => header.indexOf(name);
    const charged = body.filter((cells) => cells[column('operation')] === 'v4.search' && cells[column('cache_hit')] === 'false');
    expect(charged).toHaveLength(1);
    expect(charged[0]![column('charged_micro_usd')]).toBe('20000');
    expect(charged[0]![column('balance_after_micro_usd')]).toBe('24980000');
    const cached = body.filter((cells) => cells[column('operation')] === 'v4.search' && cells[column('cache_hit')] === 'true');
    expect(cached).toHaveLength(1);
    expect(cached[0]![column('charged_micro_usd')]).toBe('0');
    await expect(page.getByRole('status').filter({ hasText: `Exported ${total} rows` })).toBeVisible();
  });

  test('a session cap below the next call’s price refuses that call with a clear message', async ({ page, host, shot }) => {
    await start(page, host.url);
    await openView(page, 'Settings');
    const budgets = page.getByRole('form', { name: 'Budgets' });
    const cap = budgets.getByLabel('Session cap');

    // Bad input is explained and kept.
    await cap.fill('three cents');
    await budgets.getByRole('button', { name: 'Save budgets' }).click();
    await expect(budgets.getByRole('alert')).toContainText('Session cap: enter a dollar amount');
    await expect(cap).toHaveValue('three cents');
    await expect(cap).toHaveAttribute('aria-invalid', 'true');
    await shot('settings-budget-error');

    // $0.02 spent; the next search costs $0.02 and would make $0.04, over a $0.03 cap.
    await cap.fill('0.03');
    // Enter submits, as in every form.
    await cap.press('Enter');
    await expect(budgets.getByText('Budgets saved.')).toBeVisible();
    await expect(cap).toHaveValue('0.03');

    const preview = await plat(page, 'previewCost', { operation: 'v4.search', request: ownershipSearch('11', 'unused').request });
    expect(preview.ok && (preview.value as { blockedBy: unknown }).blockedBy).toBeTruthy();
    const refused = await plat(page, 'searchRecords', ownershipSearch('11', 'e2e-over-cap-0001'));
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('budget_exceeded');
      expect(refused.error.message).toContain('over its $0.03 cap');
      expect(refused.error.message).toContain('Raise the cap in Settings');
    }
    // Nothing was spent by the refusal.
    await expect(page.getByTestId('spend-session')).toHaveText('$0.02');

    // No cap again: the same call goes through.
    await cap.fill('');
    await budgets.getByRole('button', { name: 'Save budgets' }).click();
    await expect(budgets.getByText('Budgets saved.')).toBeVisible();
    const allowed = await plat(page, 'searchRecords', ownershipSearch('11', 'e2e-over-cap-0001'));
    expect(allowed.ok).toBe(true);
    await expect(page.getByTestId('spend-session')).toHaveText('$0.04');
  });

  test('projects are created, changed, made active and charged', async ({ page, host, shot }) => {
    await start(page, host.url);
    await openView(page, 'Settings');
    const create = page.getByRole('form', { name: 'New project' });
    await create.getByRole('button', { name: 'Create project' }).click();
    await expect(create.getByRole('alert')).toContainText('Give the project a name');

    await create.getByLabel('New project').fill('1716 21st St appraisal');
    await create.getByLabel('Cap (optional)').fill('1');
    await create.getByRole('button', { name: 'Create project' }).click();
    await expect(create.getByText('Created “1716 21st St appraisal”')).toBeVisible();
    const projectsTable = page.getByRole('table', { name: 'Projects' });
    await expect(projectsTable.getByRole('row').filter({ hasText: '1716 21st St appraisal' })).toContainText('$1.00');

    await page.getByLabel('Active project').selectOption({ label: '1716 21st St appraisal' });
    await expect(projectsTable.getByRole('row').filter({ hasText: '1716 21st St appraisal' })).toContainText('Active');
    const listed = await plat(page, 'listProjects', {});
    expect(listed.ok).toBe(true);
    const { projects, activeProjectId } = (listed as { value: { projects: Array<{ id: string; name: string }>; activeProjectId: string } }).value;
    expect(projects.find((p) => p.id === activeProjectId)?.name).toBe('1716 21st St appraisal');

    // Change the cap through the editor; bad input is explained, Escape closes it.
    await projectsTable.getByRole('button', { name: 'Change 1716 21st St appraisal' }).click();
    const editor = page.getByRole('form', { name: /Change “1716 21st St appraisal”/ });
    await editor.getByLabel('Cap').fill('-2');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await expect(editor.getByRole('alert')).toContainText('must not be negative');
    await editor.getByLabel('Cap').fill('2.50');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await expect(editor.getByText('Saved “1716 21st St appraisal”.')).toBeVisible();
    await expect(projectsTable.getByRole('row').filter({ hasText: '1716 21st St appraisal' })).toContainText('$2.50');
    await shot('settings-projects');
    await editor.getByLabel('Name').press('Escape');
    await expect(editor).toHaveCount(0);

    // A call now is charged to the project.
    const charged = await plat(page, 'searchRecords', ownershipSearch('16', 'e2e-project-0001'));
    expect(charged.ok).toBe(true);
    await openView(page, 'Spend');
    await expect(page.getByRole('table', { name: 'Spend by file' }).getByRole('row').filter({ hasText: '1716 21st St appraisal' })).toContainText('$0.02');
    await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: '1716 21st St appraisal' });
    const ledger = page.getByRole('table', { name: 'Spend ledger' });
    await expect(ledger.getByRole('row').filter({ hasText: 'Record search' })).toHaveCount(1);
    await expect(ledger.getByRole('row').filter({ hasText: 'Record search' })).toContainText('1716 21st St appraisal');
    await shot('spend-project-filter');

    // Back to no project, so later tests charge nothing to it.
    const cleared = await plat(page, 'setActiveProject', { id: null });
    expect(cleared.ok).toBe(true);
  });

  test('the cache can be cleared after a confirmation', async ({ page, host, shot }) => {
    await start(page, host.url);
    await openView(page, 'Settings');
    const entries = page.getByTestId('cache-entries');
    await expect(entries).not.toHaveText('0');
    const before = Number((await entries.textContent())?.replace(/,/g, ''));
    await page.getByRole('button', { name: 'Clear cache…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear the cache?' });
    await expect(dialog).toBeVisible();
    await shot('settings-cache-confirm');
    // Escape changes nothing.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(entries).toHaveText(String(before));

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Clear cache…' }).click();
    await shot('settings-cache-confirm-dark');
    await dialog.getByRole('button', { name: /^Clear \d+ answers?$/ }).click();
    await expect(entries).toHaveText('0');
    await expect(page.getByText(`Cleared ${before} cached ${before === 1 ? 'answer' : 'answers'}.`)).toBeVisible();
    await shot('settings-cache-cleared-dark');
    await expectAccessible(page, 'the Settings view in dark mode');
    await page.emulateMedia({ colorScheme: 'light' });
    const status = await plat(page, 'getCacheStatus', {});
    expect(status.ok && (status.value as { entries: number }).entries).toBe(0);
  });

  test('the API key is set, tested and deleted without ever coming back, and a dead live URL is reported', async ({ page, host, shot }) => {
    const sentinel = `svc_live_SENTINEL${Date.now().toString(16)}deadbeefcafe`;
    // Everything the host sends the page: every answer and every event on the bridge socket.
    const responseBodies: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => responseBodies.push(String(frame.payload))));

    await start(page, host.url);
    await openView(page, 'Settings');
    await expect(page.getByTestId('key-status')).toContainText('No API key set');
    const keyForm = page.getByRole('form', { name: 'API key' });
    const keyInput = keyForm.getByLabel('API key');
    await expect(keyInput).toHaveAttribute('type', 'password');

    await keyInput.fill('not a key');
    await keyForm.getByRole('button', { name: 'Save key' }).click();
    await expect(keyForm.getByRole('alert')).toContainText('no spaces');

    await keyInput.fill(sentinel);
    await keyForm.getByRole('button', { name: 'Save key' }).click();
    await expect(page.getByTestId('key-status')).toContainText('Kept in memory for this session only');
    await expect(keyForm.getByLabel('Replace the key')).toHaveValue('');
    await keyForm.getByRole('button', { name: 'Test key' }).click();
    await expect(page.getByTestId('key-test')).toContainText('local sample, which needs no key');
    await shot('settings-key-saved');

    // A live address with nothing listening: switching works, and the check says it does not answer.
    const { connection, address, connect } = await liveServiceForm(page);
    await address.fill('records.example');
    await connect.click();
    await expect(connection.getByRole('alert')).toContainText('not a web address');
    await expect(address).toHaveValue('records.example');
    await address.fill('http://127.0.0.1:9');
    await connect.click();
    await expect(page.getByTestId('service-label')).toHaveText('Live service · 127.0.0.1:9');
    // The state is the core's last check (it checks a new connection itself), said once, with a way to check again.
    const current = page.getByTestId('connection-current');
    await expect(current).toContainText('Not reachable', { timeout: 30_000 });
    await expect(current).toContainText('could not be reached');
    await expect(current).toContainText('Plat will check again');
    await expect(current.getByRole('button', { name: 'Check again' })).toBeVisible();
    await expect(page.locator('.status-line__dot--ready')).toHaveCount(0);
    await shot('settings-live-unreachable');
    await expectAccessible(page, 'the Settings view');

    await keyForm.getByRole('button', { name: 'Test key' }).click();
    await expect(page.getByTestId('key-test')).toContainText('Key test failed.', { timeout: 30_000 });
    await expect(page.getByTestId('key-test')).toContainText('could not be reached');

    // Back to the local sample: ready again, and calls work.
    await connection.getByLabel(/^Local sample service/).check();
    await connection.getByRole('button', { name: 'Use the local sample' }).click();
    await expect(page.getByTestId('service-label')).toHaveText('Local sample service');
    await expect(page.locator('.status-line__dot--ready')).toBeVisible();
    await expect(page.getByTestId('connection-current')).toContainText('Ready');
    const catalog = await plat(page, 'getSourceCatalog', { request: { query: {} } });
    expect(catalog.ok).toBe(true);

    await keyForm.getByRole('button', { name: 'Delete key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the API key?' });
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await expect(page.getByTestId('key-status')).toContainText('No API key set');

    // The key never came back: not in the page, not in storage, not in any answer from the core.
    expect(await page.content()).not.toContain(sentinel);
    const storage = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
    expect(storage).not.toContain(sentinel);
    expect(responseBodies.length).toBeGreaterThan(5);
    for (const body of responseBodies) expect(body).not.toContain(sentinel);
    // Nor in any log: the host's output and its service's request log (the host runs verbose here).
    expect(host.output()).toContain('[service]');
    expect(host.output()).not.toContain(sentinel);
    // The settings view at its widest.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot('settings-1920');
  });

  test('reconciliation and credit rows are marked as such in the ledger', async ({ page, host, shot }) => {
    // Such rows need a lost answer or a top-up; the ledger answer is replaced to show how they read.
    const base = {
      finishedAt: null,
      requestId: null,
      idempotencyKey: null,
      httpStatus: null,
      expectedCostMicroUsd: null,
      reportedChargeMicroUsd: null,
      chargeCheck: null,
      chargeHeader: null,
      reconciled: true,
      replayed: false,
      cacheHit: false,
      projectId: null,
      errorCode: null,
    };
    const rows = [
      { ...base, id: 12, kind: 'credit', status: 'recorded', startedAt: '2026-01-05T15:04:00.000Z', operation: 'credit', requestSummary: JSON.stringify({ gapMicroUsd: -25_000_000, calls: [11], ambiguous: false }), chargedMicroUsd: 0, unreportedChargeMicroUsd: 0, balanceAfterMicroUsd: 49_880_000 },
      { ...base, id: 10, kind: 'reconciliation', status: 'recorded', startedAt: '2026-01-05T15:03:00.000Z', operation: 'reconciliation', requestSummary: JSON.stringify({ gapMicroUsd: 100_000, calls: [8, 9], ambiguous: true }), chargedMicroUsd: 100_000, unreportedChargeMicroUsd: 100_000, balanceAfterMicroUsd: 24_880_000 },
      { ...base, id: 9, kind: 'call', status: 'recovered', startedAt: '2026-01-05T15:02:00.000Z', operation: 'v4.summary', requestSummary: JSON.stringify({ path: { q_id: 'prop_5c1682e5-39f4-5c75-a7f8-81b6ccdd926c' } }), httpStatus: 200, expectedCostMicroUsd: 100_000, chargedMicroUsd: 100_000, unreportedChargeMicroUsd: 100_000, balanceAfterMicroUsd: 24_980_000, replayed: true },
    ];
    await answerOnBridge(page, 'listLedger', { rows, total: rows.length });
    await start(page, host.url);
    await openView(page, 'Spend');
    const ledger = page.getByRole('table', { name: 'Spend ledger' });
    const credit = ledger.getByRole('row').filter({ hasText: 'Credit' });
    await expect(credit).toContainText('Top-up: balance rose $25.00 (calls #11)');
    await expect(credit).toContainText('$49.88');
    const reconciliation = ledger.getByRole('row').filter({ hasText: 'Reconciliation' });
    await expect(reconciliation).toContainText('Unreported $0.10 (calls #8, #9), not attributed');
    await expect(reconciliation.locator('[title*="could not be pinned"]')).toHaveCount(1);
    await expect(reconciliation).toContainText('Recorded');
    const recovered = ledger.getByRole('row').filter({ hasText: 'Entity summary' });
    await expect(recovered).toContainText('Recovered 200');
    await expect(recovered).toContainText('Replayed');
    await shot('spend-reconciliation-rows');
  });

  test('a retry in progress is shown in the status line', async ({ page, host, shot }) => {
    // One callProgress event is pushed on the bridge, as the core sends while it waits.
    await pushOnBridge(page, 'callProgress', {
      actionId: 'e2e-progress',
      operation: 'v4.summary',
      state: 'retrying',
      attempt: 1,
      delayMs: 2000,
      reason: 'The service timed out or is temporarily unavailable',
    });
    await start(page, host.url);
    const notice = page.getByTestId('call-progress');
    await expect(notice).toContainText('retrying');
    await shot('status-line-retrying');
  });
});
