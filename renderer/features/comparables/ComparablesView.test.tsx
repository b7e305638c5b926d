// The Comparables view with the platform faked and the map stood in for (no WebGL here): what it asks
// before buying, what it refuses to send, what it buys and keeps, and one selection shared by the map,
// the candidate list and the grid, with the arithmetic on screen and the workfile saved.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { useUiStore } from '../../app/ui-store.ts';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import type { RecordedDownload } from '../../platform/fake-download.ts';
import type { PlatMapProps } from '../../components/map/map-types.ts';
import { emptyComparablesWorkfile, type ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { comps2016Body, comps2016Run } from '../../../shared/comparables/test-kit.ts';
import compsFixture from '../../../shared/comparables/fixtures/dc-1708-comps-2016.json';
import subjectFixture from '../../../shared/report/fixtures/dc-1708-21st-st-nw.json';
import { ComparablesView } from './ComparablesView.tsx';
import { useComparablesStore, SAVE_DELAY_MS } from './comparables-store.ts';

const SUBJECT_REF = 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b';
const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const state = vi.hoisted(() => ({
  active: 'p1' as string | null,
  effectiveDate: '2017-01-01',
  workfile: null as unknown,
  subject: null as unknown,
  pages: [] as unknown[],
  /** The market-sales search's kept pages. */
  marketPages: [] as unknown[],
  comps: null as unknown,
  saves: [] as unknown[],
  /** While set, the assignment's comparables are read only once it settles (a slow read after a save). */
  hold: null as Promise<void> | null,
}));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, {
    listProjects: () => ({
      projects: [
        {
          id: 'p1',
          name: 'Dupont row house',
          capMicroUsd: 5_000_000,
          archived: false,
          createdAt: '2026-05-01T00:00:00Z',
          assignment: { subjectRef: SUBJECT_REF, subjectLabel: '1708 21ST ST NW', effectiveDate: state.effectiveDate, intendedUse: 'Lending', client: 'Bank', reference: 'R1', notes: '' },
        },
      ],
      activeProjectId: state.active,
    }),
    getComparables: async () => {
      if (state.hold) await state.hold;
      return { workfile: state.workfile, subject: state.subject, pages: state.pages, marketPages: state.marketPages, receivedIn: null };
    },
    saveComparables: (request) => {
      const { workfile } = request as { workfile: ComparablesWorkfile };
      state.saves.push(workfile);
      state.workfile = { ...workfile, savedAt: '2026-05-01T10:00:00.000Z' };
      return { workfile: state.workfile };
    },
    getAppInfo: () => ({ appName: 'Plat', appVersion: '0.1.0', runtime: 'browser-host', service: {} }),
    previewCost: (request) => {
      const { operation, request: parts } = request as { operation: string; request: { body?: { mode?: string; projection?: string } } };
      if (parts.body?.mode === 'catalog') return { ...listedPrice(operation, 0), basis: 'free' };
      return listedPrice(operation, parts.body?.projection === 'report_subject_v1' ? 250_000 : 150_000);
    },
    queryRecords: (request) => {
      const body = (request as { request: { body: { mode: string; projection?: string } } }).request.body;
      if (body.mode === 'catalog') {
        return serviceAnswer({ items: [{ dataset: 'sales', field: 'sale_date', data_type: 'date', description: 'Sale date', coverage: { earliest: '1964-12-22', latest: '2017-01-17' } }] }, 0);
      }
      if (body.projection === 'report_subject_v1') {
        state.subject = (subjectFixture as { subject: unknown }).subject;
        return { envelope: state.subject, billing: { chargedMicroUsd: 250_000, cacheHit: false, replayed: false, servedAt: '2026-01-01T00:00:00.000Z' } };
      }
      // The market-sales search's second page: the core keeps it with the market search once saved.
      if ((body as { cursor?: string }).cursor === 'market-2') {
        const page2 = { status: 'ok', data: { items: [], total: 14 }, meta: {} };
        state.marketPages = [...state.marketPages, page2];
        return { envelope: page2, billing: { chargedMicroUsd: 150_000, cacheHit: false, replayed: false, servedAt: '2026-01-01T00:00:00.000Z' } };
      }
      // The core keeps the answer with the active assignment; the next read finds it by the run saved.
      state.pages = [state.comps];
      return { envelope: state.comps, billing: { chargedMicroUsd: 150_000, cacheHit: false, replayed: false, servedAt: '2026-01-01T00:00:00.000Z' } };
    },
  });
});

// No WebGL here: the map is stood in for by buttons that do what its points, picks and drawing do.
const mapProps = vi.hoisted(() => ({ last: null as PlatMapProps | null }));
vi.mock('../../components/map/PlatMap.tsx', () => ({
  PlatMap: (props: PlatMapProps) => {
    mapProps.last = props;
    return (
      <div role="application" aria-label={props.spec.altText} data-testid="map-stub" data-highlighted={props.highlightedId ?? ''}>
        {props.spec.subject && <span>Subject {props.spec.subject.label}</span>}
        {props.spec.points.map((point) => (
          <button key={point.id} type="button" onClick={() => props.onTogglePoint?.(point.id)}>
            Map point {point.label}
            {point.number ? ` #${point.number}` : ''}
          </button>
        ))}
        {props.drawing && (
          <button
            type="button"
            onClick={() =>
              props.onPolygonDrawn?.([
                [
                  [-77.05, 38.91],
                  [-77.04, 38.92],
                  [-77.04, 38.91],
                  [-77.05, 38.92],
                  [-77.05, 38.91],
                ],
              ])
            }
          >
            Finish a drawing that crosses itself
          </button>
        )}
      </div>
    );
  },
}));

const downloads = vi.hoisted(() => [] as RecordedDownload[]);
vi.mock('../../components/download.ts', async (importOriginal) => {
  const { recordTextDownloads } = await import('../../platform/fake-download.ts');
  return recordTextDownloads(importOriginal, downloads);
});

const comps = compsFixture as unknown as { envelope: unknown };

/** A workfile whose last search is the fixture's (the answer kept with the assignment). */
function searchedWorkfile(patch: Partial<ComparablesWorkfile> = {}): ComparablesWorkfile {
  const base = emptyComparablesWorkfile();
  return {
    ...base,
    searches: [comps2016Run({ id: 'r1', criteria: base.criteria, ranAt: '2026-05-01T09:00:00.000Z', dataAsOf: '2017-02-05' })],
    ...patch,
  };
}

setUpViewTests();
beforeEach(() => {
  calls.length = 0;
  downloads.length = 0;
  state.active = 'p1';
  state.effectiveDate = '2017-01-01';
  state.workfile = emptyComparablesWorkfile();
  state.subject = (subjectFixture as { subject: unknown }).subject;
  state.pages = [];
  state.marketPages = [];
  state.comps = comps.envelope;
  state.saves = [];
  state.hold = null;
  mapProps.last = null;
  useComparablesStore.getState().reset();
  useUiStore.setState({ activeView: 'comparables', openAssignmentId: null });
});

async function renderView() {
  return renderWithQueries(<ComparablesView />, 6);
}

const bought = (projection: string) =>
  calls.filter((call) => call.operation === 'queryRecords' && (call.request as { request: { body: { projection?: string } } }).request.body.projection === projection);
const candidates = () => screen.getByRole('table', { name: 'Candidates' });
const grid = () => screen.getByRole('table', { name: 'Sales comparison grid' });

/** Takes in a sale Plat screened out, with a written reason (the dialog asks for one). */
function confirmChoice(reason = 'The nearest sale of its kind; adjusted for the difference.') {
  const dialog = screen.getByRole('dialog');
  fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: reason } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Take it in' }));
}

describe('ComparablesView', () => {
  it('says no assignment is active and offers the Assignments page, asking for nothing', async () => {
    state.active = null;
    await renderView();
    expect(screen.getByTestId('comps-no-assignment').textContent).toContain('Start an assignment');
    fireEvent.click(screen.getByRole('button', { name: 'Assignments' }));
    expect(useUiStore.getState().activeView).toBe('assignments');
    expect(calls.some((call) => call.operation === 'getComparables')).toBe(false);
  });

  it('offers the subject report with its price when it is not bought, and will not search without the subject’s location', async () => {
    state.subject = null;
    await renderView();
    const missing = screen.getByTestId('comps-subject-missing');
    expect(within(missing).getByTestId('cost-tag').textContent).toBe('$0.25');
    expect(screen.getByTestId('comps-search-problems').textContent).toContain('buy its record above first');
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(missing).getByRole('button', { name: 'Buy the subject report' }));
    await settle(50);
    await settle(50);
    expect(bought('report_subject_v1')).toHaveLength(1);
    expect(screen.queryByTestId('comps-subject-missing')).toBeNull();
    expect(screen.queryByTestId('comps-search-problems')).toBeNull();
    expect(bought('report_comparables_v1')).toHaveLength(0);
  });

  it('says a subject the records do not locate cannot be searched around, and prices nothing', async () => {
    const envelope = structuredClone((subjectFixture as { subject: { data: { items: Array<Record<string, unknown>> } } }).subject);
    delete envelope.data.items[0]!.location;
    state.subject = envelope;
    await renderView();
    expect(screen.getByTestId('comps-search-problems').textContent).toContain('The subject has no location in the records');
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((call) => call.operation === 'previewCost' && JSON.stringify(call.request).includes('report_comparables_v1'))).toBe(false);
  });

  it('before any search, says none has run: no claim that a search returned nothing, nor that its sales are all chosen', async () => {
    await renderView();
    const text = document.body.textContent ?? '';
    expect(text).toContain('No search has been run yet: set the criteria above and search.');
    expect(text).toContain('No search has been run yet: the suggested rates come from a regression over its sales.');
    expect(text).not.toContain('The search returned no sales');
    expect(text).not.toContain('Every sale the search returned');
    expect(screen.getByTestId('comps-candidate-count').textContent).toBe('No search yet');
  });

  it('after a search that found no sale, says the search returned none: not “no search has been run”, not “every sale is a chosen comp”', async () => {
    const envelope = structuredClone(comps.envelope) as { data: { items: unknown[]; total: number } };
    envelope.data.items = [];
    envelope.data.total = 0;
    state.comps = envelope;
    await renderView();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    for (let step = 0; step < 4; step++) await settle(50);
    expect(bought('report_comparables_v1')).toHaveLength(1);
    const text = document.body.textContent ?? '';
    expect(text).toContain('The search returned no sales: widen the area, the dates or the living-area band and search again.');
    expect(text).toContain('The search returned no sales: none was analyzed.');
    expect(text).not.toContain('No search has been run yet');
    expect(text).not.toContain('Every sale the search returned');
    expect(text).not.toContain('Choose comps on the map or in the list');
  });

  it('says the sales a search just bought are on their way while the assignment is read again, never “0 returned” or “not kept”', async () => {
    await renderView();
    let release: () => void = () => undefined;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    for (let step = 0; step < 4; step++) await settle(50);
    expect(state.saves).toHaveLength(1);
    expect(screen.getByTestId('comps-pages-pending').textContent).toBe('Reading the sales this search bought…');
    expect(document.body.textContent).not.toContain('not kept with this assignment');
    expect(screen.queryByTestId('comps-candidate-count')).toBeNull();
    state.hold = null;
    release();
    for (let step = 0; step < 4; step++) await settle(50);
    expect(screen.queryByTestId('comps-pages-pending')).toBeNull();
    expect(screen.getByTestId('comps-candidate-count').textContent).toContain('14 returned · 0 chosen');
  });

  it('shows the search’s price first, buys it with the exact request, and keeps the search in the workfile', async () => {
    await renderView();
    const search = screen.getByRole('button', { name: 'Search' });
    expect(search.parentElement?.textContent).toContain('$0.15');
    expect(bought('report_comparables_v1')).toHaveLength(0);

    fireEvent.click(search);
    for (let step = 0; step < 4; step++) await settle(50);
    const sent = bought('report_comparables_v1').map((call) => (call.request as { request: { body: unknown } }).request.body);
    expect(sent).toEqual([comps2016Body(SUBJECT_REF, { toDate: '2017-01-01', includeUndated: false, limit: 100 })]);
    const saved = state.saves.at(-1) as ComparablesWorkfile;
    expect(saved.searches).toHaveLength(1);
    expect(saved.searches[0]).toMatchObject({ effectiveDate: '2017-01-01', radiusMiles: 0.5, pages: sent, total: 14, returned: 14, dataAsOf: 'sample_v1_20231105_d7b3abbd34f3' });
    expect(within(candidates()).getAllByRole('row')).toHaveLength(15);
    expect(screen.getByTestId('comps-candidate-count').textContent).toContain('14 returned · 0 chosen');
    expect(screen.getByTestId('comps-current-search').textContent).toContain('14 sales found');
  });

  it('refuses a radius of 0 or 500 miles and a drawn area that crosses itself with a message, sending nothing', async () => {
    await renderView();
    const priced = () => calls.filter((call) => call.operation === 'previewCost' && JSON.stringify(call.request).includes('report_comparables_v1')).length;
    const pricedBefore = priced();
    const radius = screen.getByLabelText(/Radius/);
    fireEvent.change(radius, { target: { value: '0' } });
    expect(screen.getByTestId('comps-search-problems').textContent).toContain('The radius must be more than 0 miles.');
    expect((screen.getByRole('button', { name: 'Search' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(radius, { target: { value: '500' } });
    expect(screen.getByTestId('comps-search-problems').textContent).toContain('The radius can be at most 5 miles');

    fireEvent.change(screen.getByLabelText('Market area'), { target: { value: 'polygon' } });
    fireEvent.click(screen.getByRole('button', { name: 'Finish a drawing that crosses itself' }));
    expect(screen.getByTestId('comps-search-problems').textContent).toContain('The drawn area crosses itself (sides numbered from the first corner placed: side 1 crosses side 3 at 38.91500° N, 77.04500° W), so it has no clear inside');
    await settle(50);
    // A search that cannot run is not even priced.
    expect(priced()).toBe(pricedBefore);
    expect(bought('report_comparables_v1')).toHaveLength(0);
  });

  it('says an effective date before every sale cannot have comparables, and where to change it', async () => {
    state.effectiveDate = '1950-01-01';
    await renderView();
    const problems = screen.getByTestId('comps-search-problems');
    expect(problems.textContent).toContain('before every dated sale the service holds (the earliest is 1964-12-22)');
    fireEvent.click(within(problems).getByRole('button', { name: 'Set the effective date in the assignment' }));
    expect(useUiStore.getState()).toMatchObject({ activeView: 'assignments', openAssignmentId: 'p1' });
  });

  it('widens the search by one step per click', async () => {
    await renderView();
    fireEvent.click(screen.getByRole('button', { name: 'Radius 0.5 → 1 mi' }));
    expect((screen.getByLabelText(/Radius/) as HTMLInputElement).value).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: 'Sold within 12 → 18 months' }));
    expect((screen.getByLabelText(/Sold within/) as HTMLInputElement).value).toBe('18');
  });

  it('one selection: chosen on the map, it is numbered in the list and gets a grid column; dropped in the grid, the list follows', async () => {
    state.workfile = searchedWorkfile();
    state.pages = [comps.envelope];
    await renderView();
    fireEvent.click(screen.getByRole('button', { name: 'Map point 2015 Q ST NW' }));
    // Its area (and the subject's) is a copy: nothing is screened out on it, so it is chosen at once.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(candidates()).getByRole('button', { name: 'Drop comp 1, 2015 Q ST NW' })).toBeTruthy();
    expect(within(grid()).getByRole('columnheader', { name: /Comp 1.*2015 Q ST NW/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Map point 2015 Q ST NW #1' })).toBeTruthy();

    fireEvent.click(within(grid()).getByRole('button', { name: 'Drop comp 1' }));
    expect(within(candidates()).getByRole('button', { name: 'Choose 2015 Q ST NW' })).toBeTruthy();
    expect(within(grid()).queryAllByText('2015 Q ST NW')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Map point 2015 Q ST NW' })).toBeTruthy();
  });

  it('the list does by keyboard what the map does: arrows move and ring the point, Space chooses, Enter drops', async () => {
    state.workfile = searchedWorkfile();
    state.pages = [comps.envelope];
    await renderView();
    const rows = within(candidates()).getAllByRole('row').slice(1);
    act(() => rows[0]!.focus());
    expect(screen.getByTestId('map-stub').dataset.highlighted).toBe('rec_f1ac8c64-86d3-5875-8621-4cdbe866c12e');
    fireEvent.keyDown(rows[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows[1]);
    expect(screen.getByTestId('map-stub').dataset.highlighted).toBe('rec_dd2626ab-43c1-5859-890f-9648dfecbb9d');
    fireEvent.keyDown(rows[1]!, { key: ' ' });
    expect(within(candidates()).getByRole('button', { name: 'Drop comp 1, 1638 19TH ST NW' })).toBeTruthy();
    fireEvent.keyDown(rows[1]!, { key: 'Enter' });
    expect(within(candidates()).getByRole('button', { name: 'Choose 1638 19TH ST NW' })).toBeTruthy();
  });

  it('asks before a non-market sale is used, saying why; cancelling leaves it out', async () => {
    state.workfile = searchedWorkfile();
    state.pages = [comps.envelope];
    await renderView();
    fireEvent.click(within(candidates()).getByRole('button', { name: 'Choose 1807 RIGGS PL NW' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Non-market or no price');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(candidates()).getByRole('button', { name: 'Choose 1807 RIGGS PL NW' })).toBeTruthy();
  });

  it('adjusts by the appraiser’s rates with the arithmetic on screen, and saves once after the typing stops', async () => {
    state.workfile = searchedWorkfile({ chosen: ['rec_f1ac8c64-86d3-5875-8621-4cdbe866c12e', 'rec_ed75840f-ec2e-5f5c-934f-f30f4618e207'] });
    state.pages = [comps.envelope];
    await renderView();
    const gla = screen.getByLabelText('Rate: Area as published (gross living or building area) ($ per sq ft)');
    fireEvent.change(gla, { target: { value: '1' } });
    fireEvent.change(gla, { target: { value: '15' } });
    fireEvent.change(gla, { target: { value: '150' } });
    // The living areas are copied from other houses (synthetic): no adjustment until the appraiser accepts them.
    expect(screen.getByTestId('grid-adjustment-gla-1').textContent).toBe('');
    expect(screen.getByText('Comp 1: Gross building area (GBA): copied from another house (synthetic) for the subject and this comp, not accepted: no adjustment.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Accept copied values: Gross building area/ }));
    const dialog = screen.getByRole('dialog', { name: /^Accept copied values: Gross building area/ });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept copied values' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Say why the copied values can be relied on');
    fireEvent.change(within(dialog).getByLabelText('Reason (required, printed in the report)'), { target: { value: 'Living areas checked against the 2016 listings.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept copied values' }));
    // Subject 1,200 sq ft; comp 1 3,042 sq ft at $2,350,000; comp 2 2,016 sq ft at $1,330,000.
    expect(screen.getByTestId('grid-adjustment-gla-1').textContent).toBe('−$276,300');
    // Each figure has its quiet chip: the rule and inputs Verify makes it again from.
    fireEvent.click(within(screen.getByTestId('grid-adjustment-gla-1')).getByRole('button', { name: 'How it was worked out: Comp 1: Gross building area (GBA) adjustment' }));
    const how = screen.getByRole('dialog', { name: 'How Comp 1: Gross building area (GBA) adjustment was worked out' });
    expect(how.textContent).toContain('Rule adjustment-rate-times-difference of 150, 1200, 3042');
    expect(how.textContent).toContain('The appraiser');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'How Comp 1: Gross building area (GBA) adjustment was worked out' })).toBeNull();
    // The rate itself is the appraiser's, cited to them.
    fireEvent.click(screen.getByRole('button', { name: 'How it was worked out: Rate: Gross building area (GBA)' }));
    expect(screen.getByRole('dialog', { name: 'How Rate: Gross building area (GBA) was worked out' }).textContent).toContain('The appraiser’s rate');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.getByTestId('grid-adjustment-gla-2').textContent).toBe('−$122,400');
    expect(screen.getByTestId('grid-net-1').textContent).toBe('−$276,300');
    expect(screen.getByTestId('grid-gross-1').textContent).toBe('$276,300');
    expect(screen.getByTestId('grid-net-pct-1').textContent).toBe('−11.8 %');
    expect(screen.getByTestId('grid-adjusted-1').textContent).toBe('$2,073,700');
    expect(screen.getByTestId('grid-adjusted-2').textContent).toBe('$1,207,600');
    expect(screen.getByTestId('grid-range').textContent).toContain('$1,207,600 to $2,073,700');
    fireEvent.click(within(screen.getByTestId('grid-adjusted-1')).getByRole('button', { name: 'How it was worked out: Comp 1: Adjusted sale price' }));
    expect(screen.getByRole('dialog', { name: 'How Comp 1: Adjusted sale price was worked out' }).textContent).toContain('Rule price-plus-net of 2350000, -276300');
    fireEvent.keyDown(window, { key: 'Escape' });

    // A lump sum on a row no rate covers joins the net.
    fireEvent.change(screen.getByLabelText('Comp 2: Site (land area) adjustment ($)'), { target: { value: '-5,000' } });
    expect(screen.getByTestId('grid-net-2').textContent).toBe('−$127,400');
    expect(screen.getByTestId('grid-gross-2').textContent).toBe('$127,400');

    expect(state.saves).toHaveLength(0);
    await settle(SAVE_DELAY_MS + 10);
    expect(state.saves).toHaveLength(1);
    const saved = state.saves[0] as ComparablesWorkfile;
    expect(saved.rates.glaPerSqft).toBe(150);
    expect(saved.rateSource).toEqual({ glaPerSqft: 'appraiser' });
    expect(saved.manual).toEqual({ 'rec_ed75840f-ec2e-5f5c-934f-f30f4618e207': { site: -5000 } });
    expect(saved.syntheticAccepted).toEqual([{ row: 'gla', compId: null, reason: 'Living areas checked against the 2016 listings.', at: expect.any(String) }]);
  });

  it('offers no Accept on a suggestion the sales do not support, and uses it only with the appraiser’s reason', async () => {
    state.workfile = searchedWorkfile();
    state.pages = [comps.envelope];
    await renderView();
    // The 2016 sales around 1708 give only a time rate (the characteristics are copied), its interval straddling zero.
    expect(screen.queryAllByRole('button', { name: /^Accept the suggested rate for / })).toHaveLength(0);
    const rate = screen.getByTestId('standing-timePctPerMonth').closest('[data-rate]') as HTMLElement;
    expect(rate.textContent).toContain('straddles zero');
    fireEvent.click(within(rate).getByRole('button', { name: /^Use the unsupported suggested rate for / }));
    fireEvent.change(within(rate).getByLabelText(/Why use a rate the sales do not support/), { target: { value: 'Matches the paired sales.' } });
    fireEvent.click(within(rate).getByRole('button', { name: 'Use with this reason' }));
    const input = within(rate).getByRole('textbox') as HTMLInputElement;
    expect(input.value).not.toBe('');
    expect(rate.textContent).toContain('suggested');
    await settle(SAVE_DELAY_MS + 10);
    const saved = state.saves.at(-1) as ComparablesWorkfile;
    expect(saved.rateSource).toEqual({ timePctPerMonth: 'suggestion' });
    expect(saved.rates.timePctPerMonth).toBe(Number(input.value));
    expect(saved.unsupportedRateReasons?.timePctPerMonth?.reason).toBe('Matches the paired sales.');
  });

  it('flags 1717 and 1719 Corcoran St NW as one deed, each naming the other, and takes one in only with a written reason', async () => {
    state.workfile = searchedWorkfile();
    state.pages = [comps.envelope];
    await renderView();
    const row = (address: string) => within(candidates()).getByText(address, { selector: '.comps-table__street' }).closest('tr')!;
    for (const [lot, other] of [
      ['1717 CORCORAN ST NW', '1719 CORCORAN ST NW'],
      ['1719 CORCORAN ST NW', '1717 CORCORAN ST NW'],
    ] as const) {
      expect(within(row(lot)).getByText('Multi-parcel').getAttribute('title')).toContain(other);
      const related = within(row(lot)).getByTestId('comps-related-lots');
      expect(related.textContent).toContain(`One deed with ${other}`);
      expect(within(related).getAllByRole('button').length).toBeGreaterThan(0);
    }
    fireEvent.click(within(candidates()).getByRole('button', { name: 'Choose 1717 CORCORAN ST NW' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Take in 1717 CORCORAN ST NW anyway?');
    expect(dialog.textContent).toContain('Multi-parcel sale');
    // No reason, no take-in: it says why and nothing is chosen.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take it in' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/Write why you take this sale in/);
    confirmChoice('The deed conveys the house and its rear parking pad only.');
    expect(within(candidates()).getByRole('button', { name: 'Drop comp 1, 1717 CORCORAN ST NW' })).toBeTruthy();
    await settle(SAVE_DELAY_MS + 10);
    const saved = state.saves.at(-1) as ComparablesWorkfile;
    expect(saved.chosen).toEqual([expect.stringMatching(/^rec_/)]);
    expect(saved.takenIn?.[saved.chosen[0]!]?.reason).toBe('The deed conveys the house and its rear parking pad only.');
  });

  it('lists an unchosen sale Plat did not screen as not chosen by the appraiser, not as Plat’s screening', async () => {
    // At ±100 % of the subject's living area, 1730 18th St NW fits every criterion: Plat screens nothing.
    const criteria = { ...emptyComparablesWorkfile().criteria, livingAreaBandPct: 100 };
    state.workfile = searchedWorkfile({ criteria, searches: [comps2016Run({ id: 'r1', criteria, ranAt: '2026-05-01T09:00:00.000Z', dataAsOf: '2017-02-05' })] });
    state.pages = [comps.envelope];
    await renderView();
    const list = screen.getByRole('table', { name: 'Analyzed, not used' });
    const plain = within(list).getByLabelText('Reason 1730 18TH ST NW was not used') as HTMLSelectElement;
    expect(plain.value).toBe('');
    expect(plain.selectedOptions[0]!.textContent).toMatch(/^Not chosen by the appraiser/);
    expect(within(plain.closest('tr')!).getByTestId('comps-notused-by').textContent).toBe('not chosen');
    // A sale Plat did screen says so.
    const screened = within(list).getByLabelText('Reason 1717 CORCORAN ST NW was not used') as HTMLSelectElement;
    expect(screened.value).toBe('multi_parcel');
    expect(within(screened.closest('tr')!).getByTestId('comps-notused-by').textContent).toBe('Plat’s screening');
    // The appraiser can give a reason of their own.
    fireEvent.change(plain, { target: { value: 'condition' } });
    await settle(SAVE_DELAY_MS + 10);
    expect(Object.values((state.saves.at(-1) as ComparablesWorkfile).notUsed)).toEqual([{ reason: 'condition', note: '' }]);
  });

  it('reads the market sales’ next page when the service has more, priced first, and keeps it with the market-sales search', async () => {
    const market = comps2016Run({ id: 'market_1', criteria: { ...emptyComparablesWorkfile().criteria, monthsBack: 36 } });
    state.workfile = searchedWorkfile({ marketSearch: market });
    state.pages = [comps.envelope];
    const envelope = comps.envelope as { meta: Record<string, unknown> };
    state.marketPages = [{ ...envelope, meta: { ...envelope.meta, next_cursor: 'market-2' } }];
    await renderView();
    const next = screen.getByRole('button', { name: 'Read the next page of market sales' });
    expect(next.parentElement?.textContent).toContain('$0.15');
    fireEvent.click(next);
    for (let step = 0; step < 4; step++) await settle(50);
    const sent = bought('report_comparables_v1').map((call) => (call.request as { request: { body: { cursor?: string } } }).request.body);
    expect(sent.map((body) => body.cursor)).toEqual(['market-2']);
    const saved = state.saves.at(-1) as ComparablesWorkfile;
    expect(saved.marketSearch?.pages).toEqual([market.pages[0], { ...market.pages[0], cursor: 'market-2' }]);
    expect(saved.searches).toEqual((state.workfile as ComparablesWorkfile).searches);
    // The last page said no more: nothing further is offered.
    expect(screen.queryByRole('button', { name: 'Read the next page of market sales' })).toBeNull();
  });

  it('offers no further page of the market sales past five, and says why', async () => {
    const market = comps2016Run({ id: 'market_1', criteria: { ...emptyComparablesWorkfile().criteria, monthsBack: 36 } });
    const pages = [1, 2, 3, 4, 5].map((page) => (page === 1 ? market.pages[0]! : { ...market.pages[0], cursor: `market-${page}` }));
    state.workfile = searchedWorkfile({ marketSearch: { ...market, pages } });
    state.pages = [comps.envelope];
    const envelope = comps.envelope as { meta: Record<string, unknown> };
    state.marketPages = pages.map(() => ({ ...envelope, meta: { ...envelope.meta, next_cursor: 'market-6' } }));
    await renderView();
    expect(screen.queryByRole('button', { name: 'Read the next page of market sales' })).toBeNull();
    expect(screen.getByTestId('market-conditions').textContent).toContain('More sales match, but a search keeps at most 5 pages.');
  });

  it('keeps the appraiser’s reason for a sale not used', async () => {
    state.workfile = searchedWorkfile();
    state.pages = [comps.envelope];
    await renderView();
    const list = screen.getByRole('table', { name: 'Analyzed, not used' });
    expect(within(list).getAllByRole('row')).toHaveLength(15);
    fireEvent.change(within(list).getByLabelText('Reason 1723 WILLARD ST NW was not used'), { target: { value: 'condition' } });
    fireEvent.change(within(list).getByLabelText('Note on 1723 WILLARD ST NW'), { target: { value: 'Gut renovation.' } });
    await settle(SAVE_DELAY_MS + 10);
    expect((state.saves.at(-1) as ComparablesWorkfile).notUsed).toEqual({ 'rec_80b9a012-8b26-50fe-8712-ed0a70d2ddde': { reason: 'condition', note: 'Gut renovation.' } });
  });

  it('saves what is waiting when the view is left, without waiting for the pause', async () => {
    state.workfile = searchedWorkfile({ chosen: ['rec_f1ac8c64-86d3-5875-8621-4cdbe866c12e'] });
    state.pages = [comps.envelope];
    const view = await renderView();
    fireEvent.change(screen.getByLabelText('Reconciliation comment (required)'), { target: { value: 'Comp 1 only.' } });
    view.unmount();
    await settle(0);
    expect((state.saves.at(-1) as ComparablesWorkfile).reconciliation.comment).toBe('Comp 1 only.');
  });

  it('exports the sales comparison as UAD-shaped JSON and the grid as CSV', async () => {
    state.workfile = searchedWorkfile({ chosen: ['rec_f1ac8c64-86d3-5875-8621-4cdbe866c12e'] });
    state.pages = [comps.envelope];
    await renderView();
    fireEvent.click(screen.getByRole('button', { name: 'Export UAD-shaped JSON' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export grid CSV' }));
    expect(downloads.map((download) => [download.filename, download.mime])).toEqual([
      ['Dupont row house – sales comparison (UAD-shaped) – 2017-01-01.json', 'application/json'],
      ['Dupont row house – sales comparison grid – 2017-01-01.csv', 'text/csv'],
    ]);
    expect(JSON.parse(downloads[0]!.text).notice).toMatch(/not a certified UAD file/);
    expect(downloads[1]!.text).toContain('2015 Q ST NW');
    expect(screen.getByTestId('comps-export-status').textContent).toContain('Exported');
  });
});
