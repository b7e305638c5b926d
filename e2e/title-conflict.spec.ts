/// <reference lib="dom" />
// A runsheet that flags what it finds, on the real browser host and the bundled sample: parcel 0451
// 0828 (0600 NEW YORK AVE NW) is on the roll released 2017-02-05 twice, under two different owners.
// Found by its SSL, drawn in the graph, its runsheet shows both owners of record as a conflict with both
// records, says what the records hold no trace of, and dates owners as of the roll's release.
import { test, expect, confirmChargeIfAsked, openApp, shotBoth } from './fixtures.ts';

test.describe('the runsheet of a parcel with two owners of record', () => {
  test('0451 0828: both owners of 2017-02-05 shown as a conflict, each with its record', async ({ page, host, shot }) => {
    test.setTimeout(120_000);
    await openApp(page, host.url);
    await page.keyboard.press('Control+k');
    const box = page.getByRole('textbox', { name: 'Find' });
    await expect(box).toBeFocused();
    await box.fill('0451 0828');
    await expect(page.getByTestId('find-understood')).toHaveText('Understood as SSL: 0451    0828 · Washington, DC');
    await box.press('Enter');
    await confirmChargeIfAsked(page);
    await expect(page.getByRole('list', { name: 'Candidates for the SSL “0451    0828”' })).toBeVisible({ timeout: 30_000 });
    await box.press('Enter');
    await expect(page.getByTestId('entity-page')).toBeVisible();
    await expect(page.getByTestId('entity-page')).not.toContainText(/still valid|Valid from/);

    await page.getByRole('button', { name: 'Open in the graph' }).click();
    const graph = page.getByTestId('graph-view');
    await graph.getByRole('tab', { name: 'Runsheet' }).click();
    const runsheet = page.getByTestId('runsheet');
    await expect(runsheet.getByRole('heading', { name: 'Runsheet of SSL 0451 0828' })).toBeVisible({ timeout: 30_000 });

    const conflict = runsheet.getByTestId('runsheet-conflict');
    await expect(conflict).toContainText('2 owners of record as of the roll released 2017-02-05.');
    await expect(conflict.getByRole('listitem')).toHaveText([/^BRUNO A CHUMPITAZI MD PC V DIAZ .*rec_f905c9f6/, /^B CHUMPITAZI .*rec_3a7b6da0/]);
    await expect(runsheet.locator('tbody tr', { hasText: 'Conflict' })).toHaveCount(2);
    const gaps = runsheet.getByRole('heading', { name: 'What the records do not show' }).locator('..');
    await expect(gaps.getByRole('listitem').first()).toHaveText(/^Conflict: 2 records name 2 different owners of record for this parcel as of the roll released 2017-02-05: BRUNO A CHUMPITAZI MD PC V DIAZ and B CHUMPITAZI\./);
    await expect(gaps).toContainText('The records hold no trace of deeds, liens, mortgages or grantors and grantees for SSL 0451 0828');
    await expect(runsheet).not.toContainText(/still valid|Valid from/);

    await conflict.scrollIntoViewIfNeeded();
    await shotBoth(page, shot, 'title-runsheet-conflict');
    await gaps.scrollIntoViewIfNeeded();
    await shotBoth(page, shot, 'title-runsheet-conflict-gaps');
  });
});
