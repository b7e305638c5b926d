/// <reference lib="dom" />
// Trust in the interface, on the real browser host and the bundled sample: an owner name typed with an
// accent finds the roll's spellings and says so, one in another script is refused before it is priced;
// Escape on an open citation closes only the citation; Resolve keeps results with the lines they
// answered, wraps a 3,000-character line, and counts a building's candidates as the service does.
import { test, expect, openApp, openOwners, session, shotBoth } from './fixtures.ts';
import { expectAccessible } from './accessibility.ts';

test.describe('owners, citations and resolve under real use', () => {
  test('MÜLLER finds MULLER and MUELLER and says so; 名前 is refused before pricing; Escape closes a citation only', async ({ page, host, shot }) => {
    await openApp(page, host.url);
    const name = await openOwners(page);
    const spentBefore = await session(page).textContent();

    // Another script: refused with the reason, never priced, never sent.
    await name.fill('名前');
    await name.press('Enter');
    await expect(page.getByRole('alert')).toContainText(
      'The public rolls in Plat’s sample print owner names in Latin letters; type the name as the roll prints it',
    );
    await expect(page.locator('.owners__action [data-testid="cost-tag"]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Search owners' })).toBeDisabled();
    await expect(page.getByTestId('owners-results')).toHaveCount(0);
    await expect(session(page)).toHaveText(spentBefore ?? '');
    await shotBoth(page, shot, 'owners-non-latin-refused');

    // An umlaut: both spellings of the roll, described before and after the search.
    await name.fill('MÜLLER');
    await expect(page.getByTestId('owner-query')).toHaveText('Owner name contains “MÜLLER” (accents ignored: also MULLER, MUELLER)');
    await expect(page.locator('.owners__action [data-testid="cost-tag"]')).toHaveText('$0.02');
    await name.press('Enter');
    const results = page.getByTestId('owners-results');
    await expect(results).toBeVisible({ timeout: 30_000 });
    await expect(results.getByRole('status').first()).toContainText('containing “MÜLLER” (accents ignored: also MULLER, MUELLER)');
    await expect(page.getByRole('table', { name: 'Holdings published under the owner name TODD N MULLER' })).toBeVisible();
    await expect(page.getByRole('table', { name: /^Holdings published under the owner name .*MUELLER/ }).first()).toBeVisible();
    const names = await page.getByRole('table', { name: /^Holdings published under the owner name / }).evaluateAll((tables) =>
      tables.map((table) => table.getAttribute('aria-label') ?? ''),
    );
    expect(names.length).toBeGreaterThan(2);
    for (const label of names) expect(label).toMatch(/M(U|UE)LLER/i);
    await shotBoth(page, shot, 'owners-accented');
    await expectAccessible(page, 'owners with an accented name');

    // A holding's entity page: Escape on an open citation closes the citation, not the page.
    const holdings = page.getByRole('table', { name: 'Holdings published under the owner name TODD N MULLER' });
    await holdings.locator('tbody tr').first().getByRole('button').first().click();
    const entityPage = page.getByTestId('entity-page');
    await expect(entityPage).toBeVisible();
    const record = page.getByTestId('entity-record');
    const chip = record.locator('.citation__chip').first();
    await expect(chip).toBeVisible();
    await chip.click();
    const popover = page.getByRole('dialog', { name: 'Source of this value' });
    await expect(popover).toBeVisible();
    // The as-of date is a date, not an ISO timestamp.
    await expect(popover).toContainText(/As of\s*\d{4}-\d{2}-\d{2}/);
    await expect(popover).not.toContainText('T00:00:00');
    await shotBoth(page, shot, 'entity-citation-open');
    await page.keyboard.press('Escape');
    await expect(popover).toBeHidden();
    await expect(entityPage).toBeVisible();
    await expect(chip).toBeFocused();
    // The next Escape is the page's.
    await page.keyboard.press('Escape');
    await expect(entityPage).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Owners');
  });

  test('Resolve: a 3,000-character line wraps, results stay with their lines, and a building counts all its units', async ({ page, host, shot }) => {
    await openApp(page, host.url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search');
    await page.getByRole('tab', { name: /Resolve/ }).click();
    const text = page.getByLabel('Lines to resolve, one per line');
    // Words, then one unbroken run (a pasted blob): both must wrap inside the cell.
    const head = `1 ${'LONG STREET NAME '.repeat(90)}`;
    const long = `${head}${'X'.repeat(3000 - head.length - 6)} ST NW`;
    expect(long).toHaveLength(3000);
    await text.fill(['1711 MASSACHUSETTS AVE NW', long, '0150 0295'].join('\n'));
    const lines = page.getByRole('table', { name: 'Lines to resolve' });
    await expect(lines.locator('tbody tr')).toHaveCount(3);
    await expect(lines.getByText(/Will not be sent: Longer than 512 characters/)).toBeVisible();

    // Nothing is pushed off-screen: the table fits the view and the long line wraps in its cell.
    const viewport = page.viewportSize()?.width ?? 1280;
    const tableBox = await lines.boundingBox();
    expect(tableBox && tableBox.x + tableBox.width).toBeLessThanOrEqual(viewport);
    const longCell = lines.locator('.resolve-line', { hasText: 'LONG STREET NAME' });
    const longBox = await longCell.boundingBox();
    expect(longBox && longBox.height).toBeGreaterThan(100);
    await expect(lines.getByLabel('Scheme of line 1')).toBeInViewport();
    await shotBoth(page, shot, 'resolve-long-line');

    await page.getByRole('button', { name: 'Resolve 2 lines' }).click();
    const outcomes = page.getByRole('table', { name: 'Resolution outcomes' });
    await expect(outcomes.getByRole('row', { name: /0150 0295/ }).first()).toContainText('ssl_exact');
    // The building's count is the service's total, and the rest is offered at a price.
    const more = page.getByRole('list', { name: 'Lines with more candidates' });
    await expect(more).toContainText(/Line 1: 10 of (\d{3}) candidates shown\./);
    const total = Number(/of (\d+) candidates/.exec((await more.textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThan(300);
    await expect(outcomes.getByText(`(1 of ${total})`)).toBeVisible();
    await expect(outcomes.getByText('(1 of 10)')).toHaveCount(0);
    const outcomesBox = await outcomes.boundingBox();
    expect(outcomesBox && outcomesBox.x + outcomesBox.width).toBeLessThanOrEqual(viewport);
    await more.scrollIntoViewIfNeeded();
    await shotBoth(page, shot, 'resolve-outcomes-counted');
    await expectAccessible(page, 'Resolve with counted candidates');

    const spent = await session(page).textContent();
    await more.getByRole('button', { name: 'Show 50 more' }).click();
    await expect(more).toContainText(`Line 1: 60 of ${total} candidates shown.`);
    await expect(outcomes.getByText(`(60 of ${total})`)).toBeAttached();
    await expect(session(page)).not.toHaveText(spent ?? '');

    // The text is edited: the results say whose they are and offer to resolve again, priced.
    await text.fill(['0150 0295', '1711 MASSACHUSETTS AVE NW'].join('\n'));
    const stale = page.getByTestId('resolve-stale');
    await expect(stale).toContainText('These results are for the earlier text.');
    await expect(page.getByRole('table', { name: 'Resolution outcomes for the earlier text' })).toBeVisible();
    await expect(stale.getByTestId('cost-tag')).toBeVisible();
    await stale.scrollIntoViewIfNeeded();
    await shotBoth(page, shot, 'resolve-stale-results');
    await stale.getByRole('button', { name: 'Resolve the current text' }).click();
    await expect(stale).toBeHidden();
    await expect(page.getByRole('table', { name: 'Resolution outcomes' }).getByRole('row', { name: /0150 0295/ }).first()).toContainText('1');
  });
});
