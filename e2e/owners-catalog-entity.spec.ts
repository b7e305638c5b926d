/// <reference lib="dom" />
// Owners, Catalog and the entity page on the real browser host and the bundled sample: an owner
// search by a partial lowercase name, the catalog of DC and of a Maryland county (which has no data),
// and an entity opened from an owner's holding, with its connected entities and a bought summary that
// is free to open again.
import { test, expect, openApp, openOwners, session } from './fixtures.ts';
import { expectAccessible } from './accessibility.ts';

test.describe('owners, catalog and entity page', () => {
  test('an owner search by part of a name, then a holding with its links and a summary bought once', async ({ page, host, shot }) => {
    await openApp(page, host.url);
    const name = await openOwners(page);

    // Bad input is explained and kept.
    await name.fill('r');
    await name.press('Enter');
    await expect(page.getByText('Type at least two letters or digits of the name.')).toBeVisible();
    await expect(name).toHaveValue('r');

    // The price is on the button before anything is spent.
    // A public body's name, typed in part and in lower case.
    await name.fill('zion church');
    await expect(page.locator('.owners__action [data-testid="cost-tag"]')).toHaveText('$0.02');
    await expect(session(page)).toHaveText('$0.00');
    await name.press('Enter');

    const results = page.getByTestId('owners-results');
    // The service builds its owner index on the first search: allow it the time.
    await expect(results).toBeVisible({ timeout: 30_000 });
    await expect(results.getByText(/owner names containing “zion church”/)).toBeVisible();
    // Several names, several holdings, grouped by the name as published.
    const church = page.getByRole('table', { name: 'Holdings published under the owner name GALBRAITH AME ZION CHURCH' });
    await expect(church.locator('tbody tr')).toHaveCount(6);
    expect(await page.getByRole('table', { name: /^Holdings published under the owner name / }).count()).toBeGreaterThan(1);
    await expect(page.getByTestId('same-name-caution')).toContainText('Same name, maybe not the same owner');
    await expect(church.locator('.citation__chip').first()).toContainText('DC OTR');
    await expect(session(page)).toHaveText('$0.02');
    await shot('owners-results');
    await expectAccessible(page, 'the owners view with results');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot('owners-results-1920');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Open a holding: its parcel or unit.
    // A row house lot: the sample's building characteristics for it are synthetic.
    const address = '1128 6TH ST NW';
    const holding = church.locator('tbody tr', { hasText: address });
    await holding.getByRole('button', { name: address }).click();
    const entityPage = page.getByTestId('entity-page');
    await expect(entityPage).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(address);
    await expect(page.getByTestId('entity-id')).toHaveText(/^(parc|unit)_[0-9a-f-]{36}$/);
    await expect(page.getByRole('navigation', { name: 'Entity trail' })).toContainText('Owners');

    // Connected entities (free), grouped by relation as read from the parcel, each named and a link.
    const connected = page.getByTestId('entity-connected');
    await expect(connected.locator('.entity-connected__item').first()).toBeVisible();
    await expect(connected.getByRole('heading', { name: /^Holds/ })).toBeVisible();
    await expect(connected.getByRole('status')).toContainText('within 2 links');
    // The church's other lots are linked by its name alone, and the page says what that is worth.
    await expect(connected.getByRole('heading', { name: /Same owner name/ })).toBeVisible();
    await expect(connected).toContainText('the same name can belong to different people');
    await shot('entity-connected-depth-2');
    await connected.getByLabel('Link depth').selectOption('1');
    await expect(connected.getByRole('status')).toContainText('within 1 link');
    await expect(session(page)).toHaveText('$0.02');
    await shot('entity-connected');

    // The summary: priced, confirmed, bought once.
    const summary = page.getByTestId('entity-summary');
    await expect(summary.getByTestId('cost-tag')).toHaveText('$0.10');
    await summary.getByRole('button', { name: 'Buy the summary' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm a charge' });
    await expect(dialog).toContainText('$0.10');
    await dialog.getByRole('button', { name: 'Buy for $0.10' }).click();
    await expect(summary.getByTestId('summary-delivery')).toContainText('Bought for $0.10');
    await expect(summary.getByRole('table', { name: 'Entity summary' })).toContainText('Owner name');
    await expect(summary.getByRole('table', { name: 'Entity summary' })).toContainText('GALBRAITH AME ZION CHURCH');
    await expect(summary.locator('.citation__chip').first()).toContainText('DC OTR');
    // Building characteristics here are synthetic, and marked so in words and on the chip.
    await expect(summary.locator('.cited-value__flag', { hasText: 'synthetic' }).first()).toBeVisible();
    await expect(summary.locator('.citation__chip--synthetic').first()).toBeVisible();
    await expect(session(page)).toHaveText('$0.12');
    await shot('entity-summary');
    await expectAccessible(page, 'the entity page with a bought summary');

    // The record is free (v2 get entity), so it loads by itself: identifiers and cited attributes.
    const record = page.getByTestId('entity-record');
    await expect(record.getByRole('table', { name: 'Identifiers' })).toContainText('0449');
    await expect(record.getByRole('table', { name: 'Attributes' })).toContainText('GALBRAITH AME ZION CHURCH');
    await expect(record.getByRole('button', { name: 'Load the record' })).toHaveCount(0);
    await expect(session(page)).toHaveText('$0.12');
    await shot('entity-record');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.locator('.entity-page__body').evaluate((body) => body.scrollTo(0, 0));
    await shot('entity-1920');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Follow a link to the property: the trail grows. Its links, read from it, come from the v2
    // traversal too, which is free and loads by itself.
    await connected.getByRole('button', { name: /^Property / }).click();
    const trail = page.getByRole('navigation', { name: 'Entity trail' });
    await expect(trail.locator('li')).toHaveCount(3);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Property');
    const propertyLinks = page.getByTestId('entity-connected');
    await expect(propertyLinks.getByRole('heading', { name: /^Located on/ })).toBeVisible();
    await expect(propertyLinks.getByRole('button', { name: /^Parcel / })).toBeVisible();
    await expect(session(page)).toHaveText('$0.12');
    await shot('entity-property-links');
    await expectAccessible(page, 'the entity page of a property');
    await page.getByRole('button', { name: '← Back' }).click();
    await expect(trail.locator('li')).toHaveCount(2);

    // Escape closes the page; the owner results are still there, nothing spent.
    await page.keyboard.press('Escape');
    await expect(entityPage).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Owners');
    await expect(name).toHaveValue('zion church');
    await expect(church.locator('tbody tr')).toHaveCount(6);

    // Opened again: the summary and the record are shown without a charge, and the page says so.
    await holding.getByRole('button', { name: address }).click();
    await expect(summary.getByTestId('summary-delivery')).toContainText('From your cache — no charge');
    await expect(summary.getByTestId('summary-delivery')).toContainText('first bought for $0.10');
    await expect(summary.getByRole('table', { name: 'Entity summary' })).toContainText('GALBRAITH AME ZION CHURCH');
    await expect(record.getByRole('table', { name: 'Identifiers' })).toContainText('0449');
    await expect(session(page)).toHaveText('$0.12');
    await shot('entity-summary-reopened');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('entity-dark');
    await expectAccessible(page, 'the entity page in dark mode');
  });

  test('a search that finds nothing is free and says so', async ({ page, host }) => {
    await openApp(page, host.url);
    await page.keyboard.press('Control+2');
    const before = await session(page).textContent();
    const name = page.getByLabel('Owner name contains');
    await name.fill('zzqx');
    await name.press('Enter');
    await expect(page.getByTestId('owners-none')).toContainText('No owner name contains “zzqx”');
    await expect(session(page)).toHaveText(before ?? '');
  });

  test('the catalog of DC lists its sources and fields; a Maryland county says it has none', async ({ page, host, shot }) => {
    await openApp(page, host.url);
    // The host serves the whole file, so the session may have spent already: the catalog adds nothing.
    await expect(session(page)).toHaveText(/^\$/);
    const spentBefore = await session(page).textContent();
    await page.keyboard.press('Control+3');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalog');

    const sources = page.getByRole('table', { name: 'Published sources for District of Columbia' });
    await expect(sources).toBeVisible();
    await expect(sources).toContainText('DC Office of Tax and Revenue');
    await expect(sources).toContainText('ownership');
    await expect(page.locator('.catalog__totals')).toContainText('synthetic');
    await expect(sources.locator('.citation__chip--synthetic')).toHaveCount(1);

    await sources.getByRole('button', { name: /fields of .* \(dc_otr_ownership\)/ }).click();
    const fields = page.getByRole('table', { name: /^Fields of / });
    await expect(fields).toContainText('owner');
    await expect(fields).toContainText('ssl');
    await shot('catalog-dc');
    await expectAccessible(page, 'the catalog of DC');

    await page.getByRole('combobox', { name: 'Jurisdiction' }).selectOption('24031');
    await expect(page.getByTestId('catalog-no-sources')).toContainText('No data for Montgomery County, MD');
    await expect(page.getByTestId('catalog-no-sources')).toContainText('no Maryland property records');
    await shot('catalog-maryland');
    await expectAccessible(page, 'the catalog of a Maryland county');

    // The v2 facets, each a table.
    for (const facet of ['Jurisdictions', 'Authorities', 'Coverage', 'Dictionary', 'Capabilities', 'Sources']) {
      await page.getByRole('tab', { name: facet, exact: true }).click();
      await expect(page.getByRole('table', { name: `${facet} (v2 catalog)` }).locator('tbody tr').first()).toBeVisible();
    }
    await page.getByRole('tab', { name: 'Coverage', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Coverage (v2 catalog)' })).toContainText('No owner names for Alexandria in the sample.');
    await shot('catalog-coverage');
    await expectAccessible(page, 'the catalog coverage facet');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('tab', { name: 'Sources by jurisdiction' }).click();
    await page.getByRole('combobox', { name: 'Jurisdiction' }).selectOption('11001');
    await expect(page.getByRole('table', { name: 'Published sources for District of Columbia' })).toBeVisible();
    await shot('catalog-dark');
    await expectAccessible(page, 'the catalog in dark mode');
    // Nothing in the catalog costs anything.
    await expect(session(page)).toHaveText(spentBefore ?? '');
  });
});
