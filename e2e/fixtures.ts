// Starts the real browser host (core, embedded service and all), exactly as `npm start` does in its
// fallback, and hands tests its URL and everything it printed.
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnBrowserHost, type SpawnedHost } from '../electron/host/spawn-host.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
export const screenshotDir = path.join(root, 'e2e', 'screenshots');

export type RunningHost = Omit<SpawnedHost, 'child'>;

export async function startHost(env: NodeJS.ProcessEnv = {}, options: { dataDir?: string } = {}): Promise<{ host: RunningHost; child: ChildProcess }> {
  // Its own data folder (a fresh one per host unless given: a given one is Plat started again), and
  // verbose: the service's request log is part of the output, so tests can check what logs hold.
  const { child, ...host } = await spawnBrowserHost({ ...options, env: { PLAT_VERBOSE: '1', ...env } });
  return { child, host };
}

// One host per spec file: each file starts on a clean ledger, cache and service account, while the
// tests inside a file share it (as a person's session would). The previous file's host is stopped
// when the next file begins, and the last one when the worker ends.
let current: { file: string; started: Promise<{ host: RunningHost; child: ChildProcess }> } | null = null;

async function hostFor(file: string): Promise<RunningHost> {
  if (current?.file !== file) {
    if (current) (await current.started.catch(() => null))?.child.kill('SIGTERM');
    current = { file, started: startHost() };
  }
  return (await current.started).host;
}

export const test = base.extend<{ shot: (name: string) => Promise<void>; host: RunningHost }, { hostCleanup: void }>({
  hostCleanup: [
    async ({}, use) => {
      await use();
      if (current) (await current.started.catch(() => null))?.child.kill('SIGTERM');
      current = null;
    },
    { scope: 'worker', auto: true },
  ],
  host: async ({}, use, testInfo) => {
    await use(await hostFor(testInfo.file));
  },
  shot: async ({ page }, use) => {
    mkdirSync(screenshotDir, { recursive: true });
    await use(async (name) => {
      await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: false });
    });
  },
});

export { expect };

/** Opens the app at the host's URL and waits until its views are listed and the service is ready. */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
  await expect(page.locator('.status-line__dot--ready')).toBeVisible();
}

/** The find box of the app's first "Find a property" search: the search region and its text box. */
export function findBox(page: Page) {
  const find = page.getByRole('search', { name: 'Find a property' }).first();
  const box = find.getByRole('textbox', { name: 'Find' }).or(find.getByRole('combobox', { name: 'Find' })).first();
  return { find, box };
}

/** Confirms the charge Plat asks about, if it asks (a price it already has cached is not asked about). */
export async function confirmChargeIfAsked(page: Page): Promise<void> {
  const confirm = page.getByRole('dialog', { name: 'Confirm a charge' });
  if (await confirm.isVisible().catch(() => false)) await confirm.getByRole('button', { name: /^Buy (?:for|at a price not known)/ }).click();
}

/**
 * After a click that may charge: waits until Plat either asks to confirm the charge (confirmed here) or
 * shows `outcome`, so a confirmation that opens a moment later (a price still being read, what the
 * coverage says the answer lacks) is never missed.
 */
export async function confirmChargeThen(page: Page, outcome: Locator): Promise<void> {
  const confirm = page.getByRole('dialog', { name: 'Confirm a charge' });
  await confirm.or(outcome).first().waitFor({ timeout: 30_000 });
  await confirmChargeIfAsked(page);
}

/**
 * Answers "Which file pays for this lookup?" when Plat asks (a priced lookup of another property while an
 * assignment is active): `choice` is the option's words; the active assignment pays unless told otherwise.
 */
export async function answerPayerIfAsked(page: Page, choice: 'This assignment' | 'No assignment' | 'A new assignment' = 'This assignment'): Promise<void> {
  const ask = page.getByRole('dialog', { name: 'Which file pays for this lookup?' });
  if (!(await ask.isVisible().catch(() => false))) return;
  await ask.getByRole('radio', { name: new RegExp(`^${choice}`) }).check();
  await ask.getByRole('button', { name: 'Continue' }).click();
  await expect(ask).toBeHidden();
}

/**
 * Types an address into the find box as a person would, buys the lookup when asked, and waits until
 * the candidates include `expected`; returns the find region and its box (the first candidate is the active one).
 */
export async function findAddress(page: Page, typed: string, expected: string) {
  const { find, box } = findBox(page);
  await box.fill(typed);
  await expect(find.getByTestId('find-understood')).toContainText('address');
  await box.press('Enter');
  await confirmChargeIfAsked(page);
  // Asked after the price, before the charge, when an assignment about another property is active.
  await page.getByRole('dialog', { name: 'Which file pays for this lookup?' }).or(find.getByRole('region', { name: /^Candidates for the address/ })).first().waitFor({ timeout: 30_000 });
  await answerPayerIfAsked(page);
  await expect(find.getByRole('region', { name: /^Candidates for the address/ })).toContainText(expected, { timeout: 30_000 });
  return { find, box };
}

/**
 * Starts an assignment from the property page on screen, as a person fills the dialog, and returns
 * the "Assignment started" panel.
 */
export async function startAssignment(page: Page, details: { effectiveDate: string; client: string; intendedUse: string }) {
  await page.getByRole('button', { name: 'Start an assignment…' }).click();
  const start = page.getByRole('dialog', { name: 'Start an assignment' });
  await start.getByLabel('Effective date').fill(details.effectiveDate);
  await start.getByLabel('Client').fill(details.client);
  await start.getByLabel('Intended use').fill(details.intendedUse);
  await start.getByRole('button', { name: 'Start and make active' }).click();
  return page.getByTestId('assignment-started');
}

/**
 * An appraiser's first steps on a subject: find it, open it, start an assignment (effective
 * 2017-01-01 unless told), open Comparables (Ctrl+4), buy the subject report and run the default
 * comps search, each charge confirmed when Plat asks; returns once the search's sales are counted.
 */
export async function searchComparables(page: Page, url: string, subject: { typed: string; address: string }, effectiveDate = '2017-01-01'): Promise<void> {
  await openApp(page, url);
  const { box } = await findAddress(page, subject.typed, subject.address);
  await box.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(subject.address);
  await expect(await startAssignment(page, { effectiveDate, client: 'First Federal Savings', intendedUse: 'Mortgage lending decision' })).toBeVisible();
  await page.keyboard.press('Control+4');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Comparables');
  const missing = page.getByTestId('comps-subject-missing');
  await missing.getByRole('button', { name: 'Buy the subject report' }).click();
  // Asked above the confirmation threshold (and always where the coverage says it lacks something); else bought at once.
  const confirm = page.getByRole('dialog', { name: 'Confirm a charge' });
  const asked = await Promise.race([confirm.waitFor({ timeout: 30_000 }).then(() => true), missing.waitFor({ state: 'hidden', timeout: 30_000 }).then(() => false)]);
  if (asked) await confirmChargeIfAsked(page);
  await expect(missing).toBeHidden({ timeout: 30_000 });
  await page.getByTestId('comparables').locator('.comps-search__buy').getByRole('button', { name: 'Search' }).click();
  const count = page.getByTestId('comps-candidate-count').filter({ hasText: /^[\d,]+ returned|returned no sales/ });
  await confirmChargeThen(page, count);
  await expect(count).toBeVisible({ timeout: 30_000 });
}

/** Opens the Owners view (Ctrl+2) and returns its name box. */
export async function openOwners(page: Page) {
  await page.keyboard.press('Control+2');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Owners');
  return page.getByLabel('Owner name contains');
}

/** Searches the Owners view (Ctrl+2) for the owner names containing `text` and waits for the results. */
export async function searchOwners(page: Page, text: string) {
  await page.keyboard.press('Control+2');
  const name = page.getByLabel('Owner name contains');
  await name.fill(text);
  await name.press('Enter');
  const results = page.getByTestId('owners-results');
  await expect(results).toBeVisible({ timeout: 30_000 });
  return results;
}

/** The Settings form that chooses the service, switched to "Live service": its address box and its connect button. */
export async function liveServiceForm(page: Page) {
  const connection = page.getByRole('form', { name: 'Choose the service' });
  await connection.getByLabel(/^Live service/).check();
  return { connection, address: connection.getByLabel('Base address'), connect: connection.getByRole('button', { name: 'Connect to live service' }) };
}

/**
 * Switches Settings › Live service to `address` as a person would and waits until the status line
 * names it and says it is ready (the key is the host's PLAT_API_KEY).
 */
export async function connectLiveService(page: Page, address: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Settings/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
  const form = await liveServiceForm(page);
  await form.address.fill(address);
  await form.connect.click();
  await expect(page.getByTestId('service-label')).toHaveText(`Live service · ${new URL(address).host}`);
  await expect(page.locator('.status-line__dot--ready')).toBeVisible({ timeout: 30_000 });
}

/** The images a PDF holds, as `pdfimages -list` reports them (page numbers from 1). */
export function pdfImageList(pdfPath: string): Array<{ page: number; type: string | undefined; width: number; height: number }> {
  return execFileSync('pdfimages', ['-list', pdfPath], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 4)
    .map((fields) => ({ page: Number(fields[0]), type: fields[2], width: Number(fields[3]), height: Number(fields[4]) }));
}

/** The status line's spend meter: what this session has spent. */
export const session = (page: Page) => page.getByTestId('spend-session');

/** A screenshot in the light scheme and another (`<name>-dark`) in the dark, then back to light. */
export async function shotBoth(page: Page, shot: (name: string) => Promise<void>, name: string): Promise<void> {
  await shot(name);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(`${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}
