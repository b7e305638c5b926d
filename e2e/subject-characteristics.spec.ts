/// <reference lib="dom" />
// One subject, as a new user meets it from a clean data folder: find 1717 4TH ST NW (a 2012 row house
// whose copied record says built 1911, 2 stories), start an assignment effective 2017-01-01, buy its
// record in the Comparables view, see the permit contradiction (B1104076, new construction in 2012),
// adopt 2012 with a reason, and find the same year, with the reason, in the grid's subject column
// and in the report preview, then on the subject's property page, where the service's own summary
// (best value 1911) says which year the assignment uses instead.
import { test, expect, confirmChargeThen, findAddress, findBox, openApp, startAssignment } from './fixtures.ts';

const REASON = 'Permit B1104076 (2012) is new construction of this row house; the 1911 record was copied from another building.';

test('the subject’s year built: the permit contradiction, the appraiser’s choice with a reason, the same year in the grid and the report', async ({ page, host }) => {
  test.setTimeout(120_000);
  await openApp(page, host.url);
  const { box } = await findAddress(page, '1717 4th st nw', '1717 4TH ST NW');
  await box.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('1717 4TH ST NW');
  await expect(await startAssignment(page, { effectiveDate: '2017-01-01', client: 'First Federal Savings', intendedUse: 'Mortgage lending decision' })).toBeVisible();

  // Comparables (Ctrl+4): buy the subject's record (its permits come with it).
  await page.keyboard.press('Control+4');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Comparables');
  const subjectMissing = page.getByTestId('comps-subject-missing');
  await subjectMissing.getByRole('button', { name: 'Buy the subject report' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm a charge' });
  await confirm.getByRole('button', { name: /^Buy for/ }).click();
  await expect(subjectMissing).toBeHidden({ timeout: 30_000 });

  // The contradiction, in words, with its sources.
  const characteristics = page.getByTestId('subject-characteristics');
  await expect(characteristics).toBeVisible();
  await expect(characteristics.getByTestId('subject-contradiction').filter({ hasText: /^Permit B1104076/ })).toContainText('new construction');
  await expect(characteristics.getByTestId('subject-contradiction').filter({ hasText: /^Permit B1104076/ })).toContainText('built 1911');
  const yearBuilt = characteristics.getByTestId('subject-char-yearBuilt');
  await expect(yearBuilt).toContainText('2012 or later');
  await expect(yearBuilt).toContainText('1911');

  // Adopt 2012 with a reason, by keyboard: the button, then the reason, then Enter on the form's button.
  const adopt = yearBuilt.getByRole('button', { name: /^Adopt 2012 or later for year built with a reason/ });
  await adopt.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('subject-choice-dialog');
  await expect(dialog).toBeVisible();
  // A choice without a reason is refused, in words.
  await dialog.getByRole('button', { name: 'Adopt this value' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Say why');
  await dialog.getByRole('textbox').fill(REASON);
  await dialog.getByRole('button', { name: 'Adopt this value' }).press('Enter');
  await expect(dialog).toBeHidden();
  await expect(yearBuilt).toContainText(REASON);

  // The grid's subject column: the same year, with the appraiser's reason behind it.
  const grid = page.getByRole('table', { name: 'Sales comparison grid' });
  const ageRow = grid.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Actual age (year built)' }) });
  await expect(ageRow).toContainText('Built 2012 or later');
  await expect(page.getByTestId('comps-save-state')).toContainText('Saved', { timeout: 20_000 });

  // The report preview: the Building section's year built is the same, chosen by the appraiser with the reason.
  await page.getByRole('button', { name: 'Open the report' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Report');
  const building = page.locator('[data-section="building"]');
  await expect(building).toContainText('2012 or later', { timeout: 30_000 });
  await expect(building).toContainText(REASON);
  await expect(building).toContainText('Permit B1104076');

  // The property page of the assignment's subject shows the same resolved year, with the reason.
  await page.keyboard.press('Control+1');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search');
  // The address found before opens its page again at once.
  const { box: findAgain } = findBox(page);
  await findAgain.fill('1717 4th st nw');
  await findAgain.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('1717 4TH ST NW');
  const onPage = page.getByTestId('subject-characteristics').getByTestId('subject-char-yearBuilt');
  await expect(onPage).toContainText('2012 or later', { timeout: 30_000 });
  await expect(onPage).toContainText(REASON);

  // The service's own summary picks the copied 1911 as its best value: shown as published, and its row
  // says which year the assignment uses instead, and why.
  const summary = page.getByTestId('entity-summary');
  const summaryTable = summary.getByRole('table', { name: 'Entity summary' });
  const buySummary = summary.getByRole('button', { name: /^Buy the summary/ });
  await summaryTable.or(buySummary).first().waitFor({ timeout: 30_000 });
  if (await buySummary.isVisible()) {
    await buySummary.click();
    await confirmChargeThen(page, summaryTable);
  }
  const use = summary.getByTestId('summary-assignment-use-year_built');
  await expect(use).toContainText('The assignment uses 2012 or later', { timeout: 30_000 });
  await expect(use).toContainText(REASON);
  const yearRow = summaryTable.getByRole('row').filter({ has: page.getByTestId('summary-assignment-use-year_built') });
  await expect(yearRow).toContainText('1911');
});
