// The right file pays: with an assignment on 1708 21st St NW active, looking up 1717 4th St NW with
// Ctrl+K asks which file pays before anything is charged; "A new assignment" starts one on the
// property opened, and the Spend view shows both files' costs.
import { test, expect, openApp, findAddress, startAssignment, confirmChargeIfAsked } from './fixtures.ts';

test('a lookup of another property asks which file pays, and a new assignment pays for its own lookup', async ({ page, host, shot }) => {
  test.setTimeout(120_000);
  await openApp(page, host.url);

  // The first assignment, on 1708 21st St NW.
  const { box } = await findAddress(page, '1708 21st st nw', '1708 21ST ST NW');
  await box.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('1708 21ST ST NW');
  await expect(await startAssignment(page, { effectiveDate: '2017-01-01', client: 'First Federal Savings', intendedUse: 'Mortgage lending decision' })).toBeVisible();

  // Ctrl+K to the next subject: asked before the charge.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Find a property' });
  const find = palette.getByRole('textbox', { name: 'Find' });
  await find.fill('1717 4th st nw');
  await expect(palette.getByTestId('find-understood')).toContainText('address');
  await find.press('Enter');
  await confirmChargeIfAsked(page);
  const ask = page.getByRole('dialog', { name: 'Which file pays for this lookup?' });
  await expect(ask).toContainText('is not the subject of the active assignment');
  await shot('right-file-pays-ask');
  await ask.getByRole('radio', { name: /A new assignment/ }).check();
  await ask.getByRole('button', { name: 'Continue' }).click();
  await expect(palette.getByRole('region', { name: /^Candidates for the address/ })).toContainText('1717 4TH ST NW', { timeout: 30_000 });
  await find.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('1717 4TH ST NW');

  // Both files' costs in Spend: 1708's lookup and the new file's own lookup.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Spend/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Spend');
  const byFile = page.getByRole('table', { name: 'Spend by file' });
  const newFile = byFile.getByRole('row').filter({ hasText: '1717 4TH ST NW' });
  // The lookup's own price on the sample service: the new file paid for it, the old one did not.
  await expect(newFile).toContainText('$0.005');
  const first = byFile.getByRole('row').filter({ hasText: '1708 21ST ST NW' }).first();
  await expect(first).toContainText('$');
  await expect(byFile.getByRole('row').filter({ hasText: 'No assignment' })).toBeVisible();
  await shot('right-file-pays-spend');
});
