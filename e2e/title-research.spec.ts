/// <reference lib="dom" />
// Title research as a new user meets it, on the real browser host and the bundled sample: from the
// owner JOEL KUIPERS reach 1708 21ST ST NW's parcel, its tax account and its address; start an
// assignment; open the graph; read why a link exists and its source; draw the graph from the owner,
// see the owner's link hold the strength it had from the parcel, cut it with a note and see it drawn cut; export the runsheet CSV and the report PDF
// with the graph's image. A second test: the DISTRICT OF COLUMBIA's portfolio (252 holdings, every
// page loaded and the count said whole) and its graph at depth 2.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect, openApp, pdfImageList, searchOwners, session, shotBoth, startAssignment } from './fixtures.ts';

// Outside test-results (which Playwright empties per run), so the exports can be looked at afterwards.
const outDir = path.join(tmpdir(), 'plat-title-research-e2e');

/** "$1.23" → 1.23. */
const dollars = (text: string | null) => Number((text ?? '').replace(/[$,]/g, ''));

test.describe('title research', () => {
  test('from an owner to a parcel’s links, the graph, a cut link, the runsheet and the report', async ({ page, host, shot }) => {
    test.setTimeout(180_000);
    mkdirSync(outDir, { recursive: true });
    await openApp(page, host.url);

    // The owner, searched by name in the Owners view, then its own page.
    const results = await searchOwners(page, 'joel kuipers');
    await results.getByRole('button', { name: 'Other holdings of this owner' }).first().click();
    const ownerPage = page.getByTestId('owner-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Owner · JOEL KUIPERS');
    await expect(ownerPage.getByTestId('owner-group-count')).toHaveText('1 holding');
    await expect(ownerPage).toContainText('Total assessed value $1,302,760');
    await expect(ownerPage).toContainText('Sum of the assessed values of its one holding.');
    await shotBoth(page, shot, 'title-owner-page');

    // The holding opens its parcel, named as a person knows it, the id secondary.
    await ownerPage.getByRole('button', { name: '1708 21ST ST NW' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Parcel · SSL 0065 0007 · 1708 21ST ST NW');
    await expect(page.getByTestId('entity-id')).toHaveText(/^parc_[0-9a-f-]{36}$/);
    const connected = page.getByTestId('entity-connected');
    // Relations read from the parcel: it is assessed under the account and has the address.
    const account = connected.getByRole('button', { name: 'Tax account Account 0065 0007', exact: true });
    await expect(connected.getByRole('heading', { name: /^Assessed under/ })).toBeVisible();
    await expect(connected.getByRole('heading', { name: /^Has address/ })).toBeVisible();
    await expect(connected.getByRole('heading', { name: /^Owned by/ })).toBeVisible();
    await shotBoth(page, shot, 'title-parcel-links');

    await account.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Tax account · Account 0065 0007/);
    await page.getByRole('button', { name: '← Back' }).click();
    await connected.getByRole('button', { name: 'Address 1708 21ST ST NW', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Address · 1708 21ST ST NW/);
    await page.getByRole('button', { name: '← Back' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Parcel · SSL 0065 0007 · 1708 21ST ST NW');

    // An assignment keeps the decisions.
    await startAssignment(page, { effectiveDate: '2017-01-01', client: 'Capitol Title', intendedUse: 'Title search' });
    await page.getByRole('button', { name: 'Stay here' }).click();

    // The graph from the parcel: typed nodes, labelled links, and why each link exists.
    await page.getByRole('button', { name: 'Open in the graph' }).click();
    const graph = page.getByTestId('graph-view');
    await expect(graph.getByRole('heading', { name: /Drawn from SSL 0065 0007/ })).toBeVisible();
    const canvas = graph.getByRole('application');
    await expect(canvas).toHaveAttribute('aria-label', /Graph of SSL 0065 0007: 5 entities/);
    await graph.getByRole('tab', { name: 'Table' }).click();
    const links = graph.getByRole('table', { name: 'Links of the graph' });
    await links.locator('tbody tr', { hasText: 'assesses' }).dblclick();
    const why = page.getByTestId('why-linked');
    await expect(why.getByRole('heading', { level: 3 })).toHaveText('Account 0065 0007 — assesses → SSL 0065 0007');
    await expect(why).toContainText('Same SSL.');
    await why.locator('.citation__chip').first().click();
    await expect(page.getByRole('dialog', { name: /source/i })).toContainText('DC Office of Tax and Revenue');
    await shot('title-why-linked');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: /source/i })).toBeHidden();

    // The same graph drawn from the owner: the owner's link to its holding is the fact it was from the
    // parcel (the holding's ownership record names the owner), whatever the root.
    // The owner's node opens the owner's page, which draws the graph from the owner.
    await graph.getByRole('table', { name: 'Entities of the graph' }).locator('tbody tr', { hasText: 'JOEL KUIPERS' }).dblclick();
    await page.getByTestId('node-panel').getByRole('button', { name: 'Open its page' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Owner · JOEL KUIPERS');
    await page.getByRole('button', { name: 'Open in the graph' }).click();
    await expect(graph.getByRole('heading', { name: /Drawn from JOEL KUIPERS/ })).toBeVisible();
    await graph.getByRole('tab', { name: 'Table' }).click();
    const lead = links.locator('tbody tr', { hasText: 'owned by' });
    await expect(lead).toContainText('Owner of record');
    await expect(lead).toContainText('fact');
    await lead.dblclick();
    await expect(why.getByTestId('link-standing')).toHaveText('From the records');
    await why.getByRole('button', { name: 'Cut…' }).click();
    const decision = page.getByTestId('graph-decision-dialog');
    await decision.getByRole('button', { name: 'Cut the link' }).click();
    await expect(decision.getByRole('alert')).toBeVisible();
    await decision.getByLabel(/^Note/).fill('Deed book 4417 names a different Joel Kuipers; not this owner.');
    await decision.getByRole('button', { name: 'Cut the link' }).click();
    await expect(decision).toBeHidden();
    await expect(why.getByTestId('link-decision')).toContainText('Cut by you on');
    // The panel, the table and the drawing's count say the cut at once.
    await expect(why.getByTestId('link-standing')).toHaveText('Cut by you');
    await expect(lead).toContainText('Cut');
    await graph.getByRole('tab', { name: 'Drawing' }).click();
    await expect(canvas).toHaveAttribute('aria-label', /JOEL KUIPERS: cut by the researcher\./);
    await shotBoth(page, shot, 'title-graph-cut');

    // The runsheet of the subject's parcel (back to the subject's graph).
    await graph.getByRole('button', { name: 'Back to the subject' }).click();
    await graph.getByRole('tab', { name: 'Runsheet' }).click();
    const runsheet = page.getByTestId('runsheet');
    await expect(runsheet).toBeVisible();
    await expect(runsheet.locator('tbody tr')).toHaveCount(2);
    // A search that finds nothing is free, and says so.
    await runsheet.getByRole('button', { name: 'Search permit records' }).click();
    await expect(runsheet).toContainText('none carry this SSL. Nothing was charged for the search.');
    await expect(session(page)).toHaveText('$0.02');
    const rows = runsheet.locator('tbody tr');
    await expect(rows.nth(0)).toContainText('2013-12-17');
    await expect(rows.nth(0)).toContainText('Recorded sale');
    await expect(rows.nth(0)).toContainText('$1,361,000');
    await expect(rows.nth(1)).toContainText('2017-02-05');
    await expect(rows.nth(1)).toContainText('Owner of record');
    await expect(runsheet).toContainText('No earlier transfers in the sample');
    await shotBoth(page, shot, 'title-runsheet');
    const csvDownload = page.waitForEvent('download');
    await runsheet.getByRole('button', { name: 'Export runsheet CSV' }).click();
    const csvPath = path.join(outDir, 'runsheet.csv');
    await (await csvDownload).saveAs(csvPath);
    const csv = readFileSync(csvPath, 'utf8');
    const lines = csv.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toBe('Parcel,Date,Event,Owner named,Price,Detail,Status,Record,Sources');
    expect(lines[1]).toMatch(/^SSL 0065 0007,2013-12-17,Recorded sale,.*"\$1,361,000".*DC Office of Tax and Revenue/);
    expect(lines[2]).toMatch(/^SSL 0065 0007,2017-02-05,Owner of record,JOEL KUIPERS,.*DC Office of Tax and Revenue/);
    expect(lines.slice(3).every((line) => line.startsWith('SSL 0065 0007,,Gap,'))).toBe(true);
    expect(csv).toContain('No earlier transfers in the sample');

    // The report holds what the graph showed, the decision, the portfolio and the runsheet.
    await page.keyboard.press('Control+7');
    const title = page.locator('[data-section="title-research"]');
    await expect(title).toBeVisible({ timeout: 20_000 });
    await expect(title).toContainText('Cut Deed book 4417 names a different Joel Kuipers; not this owner.');
    await expect(title).toContainText('Holdings of JOEL KUIPERS');
    await expect(title).toContainText('Runsheet of parcel SSL 0065 0007');
    await expect(title.getByRole('img', { name: /Graph of SSL 0065 0007/ })).toBeVisible({ timeout: 20_000 });
    await title.scrollIntoViewIfNeeded();
    await shotBoth(page, shot, 'title-report');

    // The PDF: the graph as an image beside its table, the decision and the runsheet in words.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export PDF' }).click();
    const pdfPath = path.join(outDir, 'title-report.pdf');
    await (await downloading).saveAs(pdfPath);
    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toContain('Title research');
    expect(text).toContain('Deed book 4417 names a different Joel Kuipers');
    expect(text).toContain('No earlier transfers in the sample');
    const images = pdfImageList(pdfPath);
    const pages = text.split('\f');
    const graphPage = pages.findIndex((body) => body.includes('Entity graph')) + 1;
    expect(graphPage).toBeGreaterThan(0);
    expect(images.filter((image) => image.page === graphPage && image.type === 'image' && image.width >= 800 && image.height >= 300)).toHaveLength(1);
    execFileSync('pdftoppm', ['-r', '60', '-png', pdfPath, path.join(outDir, 'page')]);
    expect(await session(page).textContent()).toBe('$0.02');
  });

  test('the DISTRICT OF COLUMBIA: every holding, counted whole, and its graph', async ({ page, host, shot }) => {
    test.setTimeout(180_000);
    await openApp(page, host.url);
    // The file's tests share one host (one session), so spend is counted from here.
    const before = dollars(await session(page).textContent());
    const spent = (amount: number) => `$${(before + amount).toFixed(2)}`;
    const results = await searchOwners(page, 'District of Columbia');
    await results.getByTestId('owner-group').filter({ has: page.getByRole('heading', { name: 'DISTRICT OF COLUMBIA', exact: true }) }).getByRole('button', { name: 'Other holdings of this owner' }).click();
    const ownerPage = page.getByTestId('owner-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Owner · DISTRICT OF COLUMBIA');
    const summary = ownerPage.getByText(/^\d+ owner names? containing “DISTRICT OF COLUMBIA”/);
    await expect(summary).toContainText('with 50 of 252 holdings loaded');
    // Every page, each priced on its button and bought once: 50 a page.
    for (const loaded of [100, 150, 200, 250]) {
      await ownerPage.getByRole('button', { name: /^Load the next page/ }).first().click();
      await expect(summary).toContainText(`with ${loaded} of 252 holdings loaded`);
    }
    await ownerPage.getByRole('button', { name: /^Load the next page/ }).first().click();
    await expect(summary).toContainText('with 252 holdings.');
    await expect(ownerPage.getByRole('button', { name: /^Load the next page/ })).toHaveCount(0);
    // The first page and four more, $0.02 each; the whole count, and the total over every holding.
    await expect(session(page)).toHaveText(spent(0.12));
    await expect(ownerPage).toContainText('9 owner names containing “DISTRICT OF COLUMBIA”, with 252 holdings.');
    await expect(ownerPage).toContainText('Sum of the assessed values of 251 of 252 holdings (1 has no assessed value in the answers).');
    const dc = ownerPage.getByTestId('owner-group').filter({ has: page.getByRole('heading', { name: 'DISTRICT OF COLUMBIA', exact: true }) });
    await expect(dc.getByTestId('owner-group-count')).toHaveText('82 holdings');
    await expect(ownerPage).not.toContainText('of 252 loaded');
    await shotBoth(page, shot, 'title-dc-portfolio');

    // Its graph, two steps from the owner (holdings, and the parcels or units they sit on), with every
    // page the owner's page holds drawn at no further cost.
    await page.getByRole('button', { name: 'Open in the graph' }).click();
    const graph = page.getByTestId('graph-view');
    await expect(graph.getByRole('heading', { name: /Drawn from DISTRICT OF COLUMBIA/ })).toBeVisible();
    await expect(graph).toContainText('the graph reaches two steps');
    await expect(graph.getByRole('application')).toHaveAttribute(
      'aria-label',
      // Each holding's ownership record is a fact; its "located on" from the owner search states no rule, so a lead.
      /Graph of DISTRICT OF COLUMBIA: 513 entities \(9 owners, 252 properties, 247 parcels, 5 units\) and 504 links: \d+ facts and (\d+) leads, \1 to confirm\./,
      { timeout: 30_000 },
    );
    await expect(graph.getByTestId('graph-sources')).toContainText('Drawn from 6 of 6 answers');
    await expect(session(page)).toHaveText(spent(0.12));
    // DISTRICT OF COLUMBIA's holdings in groups by street, each closed; the status line counts what cytoscape holds.
    const canvas = graph.getByRole('application');
    const drawnLine = graph.getByTestId('graph-drawn');
    const agree = async () => {
      await expect(canvas).toHaveAttribute('data-drawn-entities', /\d+/);
      const read = async (name: string) => Number(await canvas.getAttribute(name));
      const [entities, links, groups] = [await read('data-drawn-entities'), await read('data-drawn-links'), await read('data-drawn-groups')];
      const line = (await drawnLine.textContent()) ?? '';
      expect(line).toMatch(new RegExp(`^Drawn: ${entities} entities and ${links} links`));
      expect(line).toContain('The table lists all 513 entities and 504 links.');
      return { entities, groups, line };
    };
    await expect(drawnLine).toContainText(/closed groups holding \d+ more entities/, { timeout: 30_000 });
    await expect(graph.getByTestId('graph-groups')).toContainText(/\d+ groups/);
    const closed = await agree();
    expect(closed.groups).toBeGreaterThan(1);
    // Drawn and inside the closed groups: every entity of the table, once.
    expect(closed.entities + Number(/holding (\d+) more entit/.exec(closed.line)?.[1])).toBe(513);
    await shotBoth(page, shot, 'title-dc-graph');

    // A group opens on demand (Enter on it): its holdings drawn inside it, the counts still agreeing.
    await canvas.focus();
    await page.keyboard.press('Home');
    let opened = false;
    for (let step = 0; step < 40 && !opened; step++) {
      await page.keyboard.press('ArrowRight');
      const heard = (await graph.locator('.entity-graph [aria-live]').textContent()) ?? '';
      if (/^Group .*closed: Enter opens it/.test(heard)) {
        await page.keyboard.press('Enter');
        opened = true;
      }
    }
    expect(opened).toBe(true);
    await expect(drawnLine).toContainText('1 group open', { timeout: 10_000 });
    await expect.poll(async () => Number(await canvas.getAttribute('data-drawn-entities'))).toBeGreaterThan(closed.entities);
    const afterOpen = await agree();
    expect(afterOpen.groups).toBe(closed.groups);
    await shotBoth(page, shot, 'title-dc-graph-group-open');
    await expect(session(page)).toHaveText(spent(0.12));
  });
});
