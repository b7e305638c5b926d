/// <reference lib="dom" />
// The Search view on the sample data, through the real browser host: a DC ownership search filtered
// by a real owner (paged, full source row, opening an entity), a property search, and a batch of
// resolutions with a bad line. Every state is screenshotted and checked with axe.
import type { Page } from '@playwright/test';
import { expectAccessible } from './accessibility.ts';
import { expect, test } from './fixtures.ts';

/** What the session has spent so far, in micro-USD, as the status line shows it. */
async function sessionSpend(page: Page): Promise<number> {
  const text = await page.getByTestId('spend-session').innerText();
  return Math.round(Number(text.replace(/[$,]/g, '')) * 1_000_000);
}

async function expectSpentSince(page: Page, before: number, microUsd: number) {
  await expect.poll(() => sessionSpend(page)).toBe(before + microUsd);
}

// A public body, not a private person: 58 lots in the OLD CITY II roll, so 25 a page gives 3 pages.
const OWNER = 'UNITED STATES OF AMERICA';

async function openSearch(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await expect(page.locator('.status-line__dot--ready')).toBeVisible();
}

test.describe('Search view', () => {
  test('Records: DC ownership by a real owner, paged, full source row, then an entity', async ({ page, host, shot }) => {
    await openSearch(page, host.url);
    const tabs = page.getByRole('tablist', { name: 'Search by' });
    await expect(tabs.getByRole('tab', { name: /Records/ })).toHaveAttribute('aria-selected', 'true');
    await shot('search-records-empty');
    await expect(page.getByTestId('spend-session')).toHaveText(/\$/);
    const before = await sessionSpend(page);

    // The jurisdiction is picked by name.
    const jurisdiction = page.getByRole('combobox', { name: 'Jurisdiction' });
    await jurisdiction.fill('alexandria');
    await expect(page.getByRole('option', { name: /Alexandria city, VA/ })).toBeVisible();
    await shot('search-records-jurisdiction');
    await jurisdiction.press('Enter');
    await expect(jurisdiction).toHaveValue('Alexandria city, VA');
    const kind = page.getByLabel('Record kind');
    await expect(kind.locator('option', { hasText: 'Parcel' })).toHaveCount(1);
    await jurisdiction.fill('District of Col');
    await page.getByRole('option', { name: /11001/ }).click();
    await expect(kind.locator('option', { hasText: 'Ownership' })).toHaveCount(1);

    await kind.selectOption('ownership');
    await page.getByLabel('Filter 1 field').selectOption('owner');
    await page.getByLabel('Filter 1 value').fill(OWNER);
    await page.getByLabel('Per page').fill('abc');
    await expect(page.getByText('Results per page: a whole number from 1 to 100.')).toBeVisible();
    const search = page.getByRole('button', { name: 'Search records' });
    await expect(search).toBeDisabled();
    // The bad value is explained and nothing typed is lost.
    await expect(page.getByLabel('Filter 1 value')).toHaveValue(OWNER);
    await shot('search-records-invalid');
    await page.getByLabel('Per page').fill('25');
    await expect(page.locator('.search-form__actions [data-testid="cost-tag"]')).toHaveText(/\$0\.02/);
    await shot('search-records-priced');

    // Enter in a field runs the search through the priced button.
    await page.getByLabel('Filter 1 value').press('Enter');
    const table = page.getByRole('table', { name: 'Ownership records, page 1' });
    await expect(table.locator('tbody tr')).toHaveCount(25);
    await expect(table.locator('tbody tr').first()).toContainText(OWNER);
    await expect(table.getByRole('button', { name: /source DC Office of Tax and Revenue, as of 2017-02-05/ }).first()).toBeVisible();
    await expectSpentSince(page, before, 20_000);
    await shot('search-records-results');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot('search-records-results-1920');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectAccessible(page, 'Search › Records with results');

    // Page through by cursor; earlier pages stay one (free) click away.
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByRole('table', { name: 'Ownership records, page 2' }).locator('tbody tr')).toHaveCount(25);
    await page.getByRole('button', { name: 'Next page' }).click();
    const lastPage = page.getByRole('table', { name: 'Ownership records, page 3' });
    await expect(lastPage.locator('tbody tr')).toHaveCount(8);
    await expect(page.getByText('Last page')).toBeVisible();
    await expectSpentSince(page, before, 60_000);
    await page.getByRole('button', { name: 'Page 1', exact: true }).click();
    await expect(table.locator('tbody tr')).toHaveCount(25);
    await expectSpentSince(page, before, 60_000);
    await shot('search-records-paged');

    // A row opens its full source row, every field as the publisher wrote it.
    await table.locator('tbody tr').first().focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary', { name: 'Source row' });
    await expect(panel).toBeVisible();
    const fields = panel.getByRole('table', { name: /Full source row of rec_/ });
    await expect(fields.getByRole('row', { name: /^owner\s*UNITED STATES OF AMERICA$/ })).toBeVisible();
    await expect(fields.getByRole('row', { name: /^otr_url\s*https:\/\/www\.taxpayerservicecenter\.com\// })).toBeVisible();
    await expect(panel.getByText(/^Real Property Tax Database/).first()).toBeVisible();
    await shot('search-records-source-row');
    await expectAccessible(page, 'Search › Records source row');
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    await table.locator('tbody tr').nth(1).dblclick();
    await expect(panel).toBeVisible();
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('search-records-source-row-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // An entity of the record opens the entity page; coming back finds the search as it was.
    await panel.getByRole('button', { name: 'Open property' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeHidden();
    await shot('search-records-entity-opened');
    await page.keyboard.press('Control+1');
    await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
    await expect(page.getByLabel('Filter 1 value')).toHaveValue(OWNER);
    await expect(page.getByRole('table', { name: 'Ownership records, page 1' }).locator('tbody tr')).toHaveCount(25);
    await expectSpentSince(page, before, 60_000);
  });

  test('Records: a search that matches nothing is free and says so', async ({ page, host, shot }) => {
    await openSearch(page, host.url);
    await page.getByLabel('Record kind').selectOption('ownership');
    await page.getByLabel('Filter 1 field').selectOption('owner');
    await page.getByLabel('Filter 1 value').fill('NO SUCH OWNER ANYWHERE');
    await page.getByRole('button', { name: 'Search records' }).click();
    await expect(page.getByText(/No records match this search\. Nothing was charged/)).toBeVisible();
    await shot('search-records-no-match');
  });

  test('Properties: a DC property search with facts, paged, opens a property', async ({ page, host, shot }) => {
    await openSearch(page, host.url);
    const propertiesTab = page.getByRole('tab', { name: /Properties/ });
    // Keyboard: → from the Records tab moves to Properties.
    await page.getByRole('tab', { name: /Records/ }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(propertiesTab).toHaveAttribute('aria-selected', 'true');
    await expect(propertiesTab).toBeFocused();

    await page.getByLabel('Filter 1 field').selectOption('owner_name');
    await page.getByLabel('Filter 1 operator').selectOption('contains');
    await page.getByLabel('Filter 1 value').fill('UNITED STATES');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Filter 2 field').selectOption('assessed_value_dollars');
    await page.getByLabel('Filter 2 operator').selectOption('gte');
    await page.getByLabel('Filter 2 value').fill('one million');
    await expect(page.getByText('Enter a number for assessed value ($).')).toBeVisible();
    await page.getByLabel('Filter 2 value').fill('1,000,000');
    await page.getByLabel('Sort by').selectOption('assessed_value_dollars');
    await page.getByLabel('Direction').selectOption('desc');
    await page.getByRole('radio', { name: 'Facts' }).check();
    await page.getByLabel('Per page').fill('10');
    await expect(page.locator('.search-form__actions [data-testid="cost-tag"]')).toHaveText(/\$0\.02/);
    await shot('search-properties-form');
    await page.getByRole('button', { name: 'Search properties' }).click();

    const table = page.getByRole('table', { name: 'Properties, page 1' });
    await expect(table.locator('tbody tr')).toHaveCount(10);
    await expect(table.getByRole('columnheader', { name: 'Owner name' })).toBeVisible();
    // Sorted by the service, highest assessment first.
    const headers = await table.locator('thead th').allInnerTexts();
    const assessed = headers.findIndex((header) => header.includes('Assessed value'));
    expect(assessed).toBeGreaterThanOrEqual(0);
    const values = await table.locator(`tbody tr td:nth-child(${assessed + 1})`).allInnerTexts();
    const dollars = values.map((text) => Number(text.replace(/[$,]/g, '')));
    expect(dollars).toEqual([...dollars].sort((a, b) => b - a));
    expect(dollars.every((value) => value >= 1_000_000)).toBe(true);
    await expect(table.getByRole('button', { name: /source DC Office of Tax and Revenue/ }).first()).toBeVisible();
    await shot('search-properties-results');
    await expectAccessible(page, 'Search › Properties with results');

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByRole('table', { name: 'Properties, page 2' }).locator('tbody tr').first()).toBeVisible();
    await page.getByRole('button', { name: 'Page 1', exact: true }).click();
    await table.locator('tbody tr').first().focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeHidden();
    await shot('search-properties-entity-opened');
  });

  test('Resolve: an address, an SSL, an account number and a bad line', async ({ page, host, shot }) => {
    await openSearch(page, host.url);
    await page.getByRole('tab', { name: /Resolve/ }).click();
    const lines = page.getByLabel('Lines to resolve, one per line');
    await lines.fill(['1716 21ST ST NW', '0150 0295', '13195000', '??? 12', '309673'].join('\n'));
    const checks = page.getByRole('table', { name: 'Lines to resolve' });
    await expect(checks.locator('tbody tr')).toHaveCount(5);
    await expect(page.getByLabel('Scheme of line 2')).toHaveValue('ssl');
    await expect(page.getByLabel('Scheme of line 3')).toHaveValue('account_no');
    await expect(page.getByLabel('Scheme of line 5')).toHaveValue('mar_id');
    // The detected scheme can be changed: "??? 12" as an SSL is refused with the reason.
    await page.getByLabel('Scheme of line 4').selectOption('ssl');
    await expect(checks.getByText(/Will not be sent: Not an SSL/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resolve 4 lines' })).toBeEnabled();
    await shot('search-resolve-lines');
    await expectAccessible(page, 'Search › Resolve lines');

    await page.getByRole('button', { name: 'Resolve 4 lines' }).click();
    const outcomes = page.getByRole('table', { name: 'Resolution outcomes' });
    await expect(outcomes.getByRole('row', { name: /1716 21ST ST NW/ }).first()).toContainText('address_exact');
    await expect(outcomes.getByRole('row', { name: /0150 0295/ }).first()).toContainText('ssl_exact');
    await expect(outcomes.getByRole('row', { name: /0150 0295/ }).first()).toContainText('exact');
    await expect(outcomes.getByRole('row', { name: /13195000/ }).first()).toContainText('201 E LURAY AVE');
    await expect(outcomes.getByRole('row', { name: /\?\?\? 12/ })).toContainText('invalid_input');
    await expect(outcomes.getByRole('row', { name: /\?\?\? 12/ })).toContainText('Not an SSL');
    await expect(outcomes.getByRole('row', { name: /309673/ }).first()).toContainText('mar_id_exact');
    await shot('search-resolve-outcomes');
    await expectAccessible(page, 'Search › Resolve outcomes');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('search-resolve-outcomes-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await outcomes.getByRole('button', { name: 'Open property for line 2' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeHidden();
    await page.keyboard.press('Control+1');
    // Back in Search: the Resolve tab, the pasted text and the outcomes are still there.
    await expect(page.getByRole('tab', { name: /Resolve/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Lines to resolve, one per line')).toHaveValue(/0150 0295/);
    await expect(page.getByRole('table', { name: 'Resolution outcomes' })).toBeVisible();
  });
});
