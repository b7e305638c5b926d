/// <reference lib="dom" />
// The find box on the real browser host and the bundled sample, as a new user would use it: Ctrl+K from
// another view, type an address in any case, see what it was read as and its price before anything is
// spent, find it, open the property; the same address typed another way is free (cached) and charges
// nothing more; a placeholder SSL and a name in another script are refused before they are priced.
import type { Page } from '@playwright/test';
import { test, expect, openApp, session, shotBoth } from './fixtures.ts';
import { expectAccessible } from './accessibility.ts';

/** What the ledger says was charged, in micro-USD, and for which paid operations (free reads such as a property's record are left out). */
async function ledgerCharges(page: Page): Promise<{ total: number; paid: string[] }> {
  const result = await page.evaluate(async () => {
    type Row = { operation: string; chargedMicroUsd: number };
    const api = (window as unknown as { plat: Record<string, (r: unknown) => Promise<{ ok: boolean; value: { rows: Row[] } }>> }).plat;
    return api.listLedger!({ filter: {}, limit: 500, offset: 0 });
  });
  if (!result.ok) throw new Error('listLedger failed');
  const rows = result.value.rows.filter((row) => row.chargedMicroUsd > 0);
  return { total: rows.reduce((sum, row) => sum + row.chargedMicroUsd, 0), paid: rows.map((row) => row.operation) };
}

test.describe('find a property in one box', () => {
  test('Ctrl+K, an address in lower case, its price, the property; the same address in capitals is free', async ({ page, host, shot }) => {
    await openApp(page, host.url);
    await page.keyboard.press('Control+2');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Owners');
    const spentBefore = await session(page).textContent();
    const chargedBefore = await ledgerCharges(page);

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Find a property' });
    await expect(palette).toBeVisible();
    const box = palette.getByRole('textbox', { name: 'Find' });
    await expect(box).toBeFocused();
    await box.fill('1708 21st st nw');
    // What it understood, and the price, before anything is spent.
    await expect(palette.getByTestId('find-understood')).toHaveText('Understood as address: 1708 21ST ST NW');
    await expect(palette.getByTestId('cost-tag')).toHaveText('$0.005');
    await expect(session(page)).toHaveText(spentBefore ?? '');
    await shotBoth(page, shot, 'find-priced');

    await box.press('Enter');
    const list = palette.getByRole('list', { name: 'Candidates for the address “1708 21ST ST NW”' });
    await expect(list).toBeVisible({ timeout: 30_000 });
    const first = list.getByRole('listitem').first();
    await expect(first).toContainText('1708 21ST ST NW');
    await expect(first).toContainText('property');
    await expect(first).toContainText('0065    0007');
    // The owner, read from the property's free record, with its citation.
    await expect(first.locator('.citation__chip').first()).toBeVisible();
    await expect(first).toHaveAttribute('data-active', 'true');
    await expect(palette.getByTestId('find-delivery')).toContainText('Bought for $0.005');
    await expect(session(page)).not.toHaveText(spentBefore ?? '');
    const spentAfterFind = await session(page).textContent();
    const chargedAfterFind = await ledgerCharges(page);
    expect(chargedAfterFind.total - chargedBefore.total).toBe(5_000);
    expect(chargedAfterFind.paid.length - chargedBefore.paid.length).toBe(1);
    await shotBoth(page, shot, 'find-candidates');
    await expectAccessible(page, 'the find palette with candidates');

    // Enter opens the chosen property; the palette closes.
    await box.press('Enter');
    await expect(palette).toBeHidden();
    const entityPage = page.getByTestId('entity-page');
    await expect(entityPage).toBeVisible();
    await expect(entityPage).toContainText('1708 21ST ST NW');

    // The same address in capitals, from the entity page: shown free (cached), found without a charge.
    await page.keyboard.press('Control+k');
    await expect(palette).toBeVisible();
    await box.fill('1708 21ST ST NW');
    await expect(palette.getByTestId('cost-tag')).toHaveText('Cached · free');
    await expect(list.getByRole('listitem').first()).toContainText('1708 21ST ST NW');
    await palette.getByRole('button', { name: 'Find', exact: true }).click();
    await expect(list.getByRole('listitem').first()).toContainText('1708 21ST ST NW');
    await expect(session(page)).toHaveText(spentAfterFind ?? '');
    expect(await ledgerCharges(page)).toEqual(chargedAfterFind);
    await box.press('Escape');
    await expect(palette).toBeHidden();
    await expect(entityPage).toBeVisible();
  });

  test('on the Search view: an SSL in any spacing, a placeholder SSL, a name in another script, an unknown address, 5,000 characters', async ({ page, host, shot }) => {
    await openApp(page, host.url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search');
    // The expert tabs stay.
    for (const tab of [/Records/, /Properties/, /Resolve/]) await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    const spentBefore = await session(page).textContent();
    const chargedBefore = await ledgerCharges(page);
    await page.keyboard.press('Control+k');
    const box = page.getByRole('textbox', { name: 'Find' });
    await expect(box).toBeFocused();

    // Refused before pricing: nothing priced, nothing sent.
    for (const [text, words] of [
      ['0000 0000', 'placeholder'],
      ['名前', 'Latin letters'],
      ['A'.repeat(5000), '5,000 characters'],
    ] as const) {
      await box.fill(text);
      await expect(page.getByRole('alert')).toContainText(words);
      await box.press('Enter');
      await expect(page.getByRole('button', { name: 'Find', exact: true })).toBeDisabled();
      await expect(page.locator('.find [data-testid="cost-tag"]')).toHaveCount(0);
    }
    await box.fill('名前');
    await shotBoth(page, shot, 'find-refused');

    // An unknown address: free, and said plainly.
    await box.fill('1 nowhere st nw');
    await expect(page.locator('.find [data-testid="cost-tag"]')).toHaveText('$0.005');
    await box.press('Enter');
    await expect(page.getByTestId('find-results')).toContainText('Nothing matches the address “1 NOWHERE ST NW”', { timeout: 30_000 });
    await expect(page.getByTestId('find-results')).toContainText('Nothing was charged for the lookup');
    await expect(session(page)).toHaveText(spentBefore ?? '');
    expect(await ledgerCharges(page)).toEqual(chargedBefore);

    // An SSL with a dash is the SSL as the records write it; arrows choose, Enter opens.
    await box.fill('0065-0007');
    await expect(page.getByTestId('find-understood')).toHaveText('Understood as SSL: 0065    0007 · Washington, DC');
    await box.press('Enter');
    const list = page.getByRole('list', { name: 'Candidates for the SSL “0065    0007”' });
    await expect(list).toBeVisible({ timeout: 30_000 });
    await shotBoth(page, shot, 'find-search-view');
    await box.press('ArrowDown');
    await box.press('ArrowUp');
    await expect(list.getByRole('listitem').first()).toHaveAttribute('data-active', 'true');
    await box.press('Enter');
    await expect(page.getByTestId('entity-page')).toBeVisible();
  });
});
