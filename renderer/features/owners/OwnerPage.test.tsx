// The owner page with the platform faked by real answers of the embedded service: the price before
// the first page, counts that say how much is loaded, the next page offered at its price from the
// owner's own header, and each holding one click from its entity page.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../app/App.tsx';
import { useUiStore } from '../../app/ui-store.ts';
import { OwnerPage } from './OwnerPage.tsx';
import { ownerSearchBody } from '../../components/owner-lookup.ts';
import { serviceQueryKey } from '../../platform/query-keys.ts';
import { fixtures } from '../../../shared/graph/test-kit.ts';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import type * as PlatModule from '../../platform/plat.ts';
import type { RecordedDownload } from '../../platform/fake-download.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);

const downloads = vi.hoisted(() => [] as RecordedDownload[]);
vi.mock('../../components/download.ts', async (importOriginal) => {
  const { recordTextDownloads } = await import('../../platform/fake-download.ts');
  return recordTextDownloads(importOriginal, downloads);
});

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer } = await import('../../platform/fake-plat.ts');
  const { PlatCallError } = await importOriginal<typeof PlatModule>();
  const { fixtures } = await import('../../../shared/graph/test-kit.ts');
  const billing = { chargedMicroUsd: 20_000, cacheHit: false, replayed: false, servedAt: '2026-11-23T21:53:21.692Z' };
  return fakePlatModule(importOriginal, calls, {
    getCatalogFacet: () =>
      serviceAnswer({ facet: 'coverage', items: [{ area_uid: 'area_us_dc', name: 'Washington, DC', domain_key: 'ownership', status: 'partial' }] }, 0),
    previewCost: (request) => ((request as { operation: string }).operation === 'v2.getCatalog' ? listedPrice('v2.getCatalog', 0) : listedPrice('v2.searchProperties', 20_000)),
    searchProperties: (request) => {
      const body = (request as { request: { body: { filters: Array<{ value: string }>; cursor?: string } } }).request.body;
      const name = body.filters[0]?.value;
      if (name === 'DISTRICT OF COLUMBIA') return { envelope: body.cursor ? fixtures.searchDc2.envelope : fixtures.searchDc1.envelope, billing };
      if (name === 'JOEL KUIPERS') return { envelope: fixtures.searchKuipers.envelope, billing };
      if (name === 'anthony c cheng') return { envelope: fixtures.searchCheng.envelope, billing };
      return Promise.reject(new PlatCallError({ code: 'not_found', message: 'No property in area_us_dc matches this search.', retryable: false, chargedMicroUsd: 0 }));
    },
  });
});

beforeEach(() => {
  calls.length = 0;
  useUiStore.setState({ activeView: 'owners', entityTrail: [] });
});
afterEach(cleanup);

function renderPage(name: string, client = createQueryClient()) {
  render(
    <QueryClientProvider client={client}>
      <OwnerPage name={name} areaUid="area_us_dc" />
    </QueryClientProvider>,
  );
}

const searches = () => calls.filter((call) => call.operation === 'searchProperties');

/** Clicks "Find every holding" once its price is shown (the button waits for it). */
async function findEveryHolding() {
  const button = await screen.findByRole('button', { name: 'Find every holding' });
  await vi.waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  fireEvent.click(button);
}

describe('OwnerPage', () => {
  it('prices the first page before buying it, then never calls a partial count whole', async () => {
    renderPage('DISTRICT OF COLUMBIA');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Owner · DISTRICT OF COLUMBIA');
    expect((await screen.findByTestId('cost-tag')).textContent).toContain('$0.02');
    expect(searches()).toEqual([]);
    await findEveryHolding();

    expect((await screen.findByTestId('portfolio-count')).textContent).toBe('10 of 252 holdings loaded');
    const group = screen.getByTestId('owner-group');
    expect(within(group).getByTestId('owner-group-count').textContent).toBe('10 holdings in the loaded pages (10 of 252 loaded)');
    // The owner's own group offers no link to itself; the next page is offered at its price in its header.
    expect(within(group).queryByRole('button', { name: 'Other holdings of this owner' })).toBeNull();
    const next = within(group).getByRole('button', { name: 'Load the next page' });
    expect(searches()).toHaveLength(1);
    await vi.waitFor(() => expect(next.hasAttribute('disabled')).toBe(false));
    fireEvent.click(next);

    expect(await screen.findByText('20 of 252 holdings loaded')).toBeTruthy();
    expect(within(screen.getByTestId('owner-group')).getByTestId('owner-group-count').textContent).toBe('20 holdings in the loaded pages (20 of 252 loaded)');
    expect(searches().map((call) => Boolean((call.request as { request: { body: { cursor?: string } } }).request.body.cursor))).toEqual([false, true]);
    expect(screen.getByText(/Sum of the assessed values of 19 of 20 holdings \(1 has no assessed value in the answers\)\. Not every holding of the search is loaded/)).toBeTruthy();
  });

  it('gives a whole count and total when every page is held, and opens a holding on its entity page', async () => {
    renderPage('JOEL KUIPERS');
    await findEveryHolding();
    expect((await screen.findByTestId('portfolio-count')).textContent).toBe('1 holding');
    const group = screen.getByTestId('owner-group');
    expect(within(group).getByText('Sum of the assessed values of its one holding.', { exact: false })).toBeTruthy();
    const table = within(group).getByRole('table', { name: 'Holdings published under the owner name JOEL KUIPERS' });
    expect(within(table).getByText('$1,361,000 on 2013-12-17')).toBeTruthy();
    expect(within(table).getAllByRole('button', { name: /^DC OTR (ownership|assessment|sale):/ })).toHaveLength(3);
    fireEvent.click(within(table).getByRole('button', { name: '1708 21ST ST NW' }));
    expect(useUiStore.getState().entityTrail).toEqual(['parc_f6ac2820-1e68-58bf-891b-63fc223242fd']);
  });

  it('sums up the portfolio (holdings, assessed by use, last sales) and exports it as CSV with its citations', async () => {
    downloads.length = 0;
    renderPage('JOEL KUIPERS');
    await findEveryHolding();
    const summary = await screen.findByTestId('portfolio-summary');
    expect(within(summary).getByRole('heading', { level: 2 }).textContent).toBe('Portfolio in brief');
    expect(summary.textContent).toContain('1 holding (each a parcel). Last sales recorded from 2013-12-17 to 2013-12-17 (1 holding); 0 holdings with no last sale date in the answers.');
    const byUse = within(summary).getByRole('table', { name: 'Holdings and assessed value by use' });
    expect(within(byUse).getAllByRole('row')[1]?.textContent).toMatch(/^\S+1\$\d/);
    fireEvent.click(within(summary).getByRole('button', { name: 'Export the portfolio (CSV, with citations)' }));
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.filename).toMatch(/^portfolio JOEL KUIPERS – \d{4}-\d{2}-\d{2}\.csv$/);
    const lines = downloads[0]!.text.split('\r\n');
    expect(lines[0]).toBe('Owner name,Parcel,Address,Use,Assessed value,Last sale price,Last sale date,Rows of the roll,Status,Sources');
    expect(lines[1]).toMatch(/^JOEL KUIPERS,.*1708 21ST ST NW.*2013-12-17.*DC Office of Tax and Revenue/);
  });

  it('says a name no record carries is free and found nothing', async () => {
    renderPage('ZZQX');
    await findEveryHolding();
    expect((await screen.findByTestId('owners-none')).textContent).toContain('No owner name contains “ZZQX”. Nothing was charged');
    expect(screen.queryByRole('button', { name: 'Find every holding' })).toBeNull();
  });

  it('buys nothing when a search already bought whole lists every holding of the owner', async () => {
    const client = createQueryClient();
    // The Owners view's search for PUGH, every page held: it lists every holding of NORMAN A PUGH-NEWBY.
    const billing = { chargedMicroUsd: 20_000, cacheHit: false, replayed: false, servedAt: '2026-11-23T21:53:21.692Z' };
    client.setQueryData(serviceQueryKey('searchProperties', { body: ownerSearchBody('area_us_dc', 'PUGH') }), { envelope: fixtures.searchPugh.envelope, billing });
    renderPage('NORMAN A PUGH-NEWBY', client);
    expect((await screen.findByTestId('portfolio-count')).textContent).toBe('4 holdings');
    // Only the owner's names: NORMAN A PUGH-NEWBY and its spelling without the hyphen, not DANIEL or RICHARD A PUGH.
    expect(screen.getAllByTestId('owner-group').map((group) => within(group).getByRole('heading').textContent)).toEqual(['NORMAN A PUGH-NEWBY']);
    expect(screen.queryByRole('button', { name: 'Find every holding' })).toBeNull();
    expect(searches()).toEqual([]);
    expect(calls.filter((call) => call.operation === 'previewCost' && (call.request as { operation?: string }).operation === 'v2.searchProperties')).toEqual([]);
  });

  it('shows a name group only the values its own rows carry: the parcel’s other row’s value is marked and not summed', async () => {
    renderPage('anthony c cheng');
    await findEveryHolding();
    expect((await screen.findByTestId('portfolio-count')).textContent).toBe('4 holdings');
    const [own, spouse] = screen.getAllByTestId('owner-group');
    expect(within(own!).getByTestId('owner-group-count').textContent).toBe('4 holdings');
    expect(within(own!).getByText('$3,247,420')).toBeTruthy();
    expect(within(own!).queryAllByText(/parcel’s other row/)).toEqual([]);
    expect(within(spouse!).getByRole('heading').textContent).toBe('ANTHONY C CHENG YUN L CHENG');
    expect(within(spouse!).getAllByText(/^Shown from the parcel’s other row \(published under ANTHONY C CHENG\)/)).toHaveLength(4);
    expect(within(spouse!).getByText(/None of the 4 holdings has an assessed value on its own rows/)).toBeTruthy();
  });
});
