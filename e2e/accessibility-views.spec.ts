/// <reference lib="dom" />
// Every view, in light and dark, by the keyboard: each view shortcut (in sidebar order) puts the focus
// on the view's heading, axe finds no violation of any impact on any view (with an active assignment,
// so its badges are drawn), on a property's and an owner's page or in the find palette; Escape gives
// a dialog's focus back to its button, "Open in the graph" focuses the graph, and Ctrl+K reopens the
// palette with the previous text selected, so typing replaces it.
import type { Page } from '@playwright/test';
import { test, expect, confirmChargeIfAsked, findAddress, openApp, searchOwners, shotBoth } from './fixtures.ts';
import { expectAccessible } from './accessibility.ts';

async function expectAccessibleBoth(page: Page, context: string): Promise<void> {
  await expectAccessible(page, `${context} (light)`, { every: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page, `${context} (dark)`, { every: true });
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('accessibility of every view', () => {
  test('each shortcut, in sidebar order, opens its view with the focus on its heading; axe finds nothing', async ({ page, host, shot }) => {
    test.setTimeout(180_000);
    await openApp(page, host.url);

    // A property's page, and an assignment started on it (Escape first: the focus goes back to the button).
    const { box } = await findAddress(page, '1708 21st st nw', '1708 21ST ST NW');
    await box.press('Enter');
    await expect(page.getByTestId('entity-page')).toBeVisible();
    await expectAccessibleBoth(page, 'a property’s page');
    const startButton = page.getByRole('button', { name: 'Start an assignment…' });
    await startButton.click();
    const start = page.getByRole('dialog', { name: 'Start an assignment' });
    await expect(start).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(start).toBeHidden();
    await expect(startButton, 'focus after Escape in a dialog').toBeFocused();
    await startButton.click();
    await start.getByLabel('Effective date').fill('2026-05-01');
    await start.getByLabel('Client').fill('First Federal Savings');
    await start.getByLabel('Intended use').fill('Mortgage lending decision');
    await start.getByLabel('Reference').fill('FF-2026-118');
    await start.getByLabel('Cap').fill('5');
    await start.getByRole('button', { name: 'Start and make active' }).click();
    const started = page.getByRole('dialog', { name: 'Assignment started' });
    await expect(started).toBeVisible();
    await expectAccessibleBoth(page, 'the assignment-started dialog');
    await started.getByRole('button', { name: 'Stay here' }).click();

    // "Open in the graph" lands on the graph.
    await page.getByRole('button', { name: 'Open in the graph' }).click();
    await expect(page.getByRole('heading', { level: 2, name: /^Drawn from/ }), 'focus after Open in the graph').toBeFocused();

    const nav = page.getByRole('navigation', { name: 'Views' });
    const labels = (await nav.locator('.nav-list .app-nav__item > span').allTextContents()).map((label) => label.trim());
    const shortcuts = (await nav.locator('.nav-list .app-nav__kbd').allTextContents()).map((text) => Number(text.replace(/\D/g, '')));
    expect(labels).toHaveLength(9);
    // The sidebar's shortcuts run 1 to 9 from the top.
    expect(shortcuts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);

    for (const [index, label] of labels.entries()) {
      await page.keyboard.press(`Control+${shortcuts[index]}`);
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toHaveText(label);
      await expect(heading, `focus after Ctrl+${shortcuts[index]}`).toBeFocused();
      await shotBoth(page, shot, `a11y-view-${label.toLowerCase()}`);
      await expectAccessibleBoth(page, `the ${label} view`);
    }

    // The assignment's own page.
    await page.keyboard.press('Control+6');
    await page.getByRole('table', { name: 'Assignments' }).locator('tbody tr').first().getByRole('button').first().click();
    await expect(page.getByTestId('assignment-page')).toBeVisible();
    await shotBoth(page, shot, 'a11y-assignment-page');
    await expectAccessibleBoth(page, 'an assignment’s page');
  });

  test('an owner’s page and the find palette have no axe violations; Ctrl+K selects what was typed', async ({ page, host, shot }) => {
    test.setTimeout(120_000);
    await openApp(page, host.url);
    const results = await searchOwners(page, 'joel kuipers');
    await expectAccessibleBoth(page, 'the owners view with results');
    await results.getByRole('button', { name: 'Other holdings of this owner' }).first().click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Owner · JOEL KUIPERS');
    await shotBoth(page, shot, 'a11y-owner-page');
    await expectAccessibleBoth(page, 'an owner’s page');

    await page.keyboard.press('Control+3');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Find a property' });
    const box = palette.getByRole('combobox', { name: 'Find' }).or(palette.getByRole('textbox', { name: 'Find' })).first();
    await expect(box).toBeFocused();
    await page.keyboard.type('1708 21st st nw');
    await page.keyboard.press('Enter');
    await confirmChargeIfAsked(page);
    await expect(palette.getByRole('list', { name: /^Candidates for the address/ })).toBeVisible({ timeout: 30_000 });
    await shotBoth(page, shot, 'a11y-find-palette');
    await expectAccessibleBoth(page, 'the find palette');
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();

    // Reopened, the previous text is selected: what is typed replaces it ("0451 0828" then "0157 2449" is not one number).
    await page.keyboard.press('Control+k');
    await box.fill('0451 0828');
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();
    // Ctrl+K pressed the moment the palette has closed can land before the page has taken the focus
    // back from it; a person's next press opens it, as this does.
    await expect(async () => {
      if (!(await palette.isVisible())) await page.keyboard.press('Control+k');
      await expect(box).toBeFocused({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    await page.keyboard.type('0157 2449');
    await expect(box).toHaveValue('0157 2449');
  });
});
