// The report's comparables section on screen and in the print route, on the real document the core
// builds for 1708 21ST ST NW with a comparables search; the map's offscreen renderer is faked (no
// WebGL here), so the tests can say when it draws, fails or never answers.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { clearPrintFlags, renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import type { MapImageRequest } from '../../components/map/map-types.ts';
import { NO_RATES } from '../../../shared/comparables/model.ts';
import { PrintReport } from './PrintReport.tsx';
import { ReportDocumentView } from './ReportDocumentView.tsx';
import { comparablesReport, COMP_IDS } from './report-fixture.ts';
import { MAP_IMAGE_TIMEOUT_MS } from './map-image.ts';
import { resetImageRenderer, type FakeImageRenderer } from './report-test-kit.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const state = vi.hoisted(() => ({ report: null as unknown }));
const mapRender = vi.hoisted((): FakeImageRenderer => ({ mode: 'draw', requests: [], release: null }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, { getSubjectReport: () => state.report });
});

vi.mock('../../components/map/render-map-image.ts', async () => {
  const { fakeImage } = await import('./report-test-kit.ts');
  return {
    renderMapImage: (request: MapImageRequest) => fakeImage(mapRender, request, 'This computer could not draw the map image (WebGL is not available); the report lists every sale in its tables.'),
    mapImageAttribution: () => Promise.resolve('Map data: DC GIS / OCTO · DDOT'),
  };
});

const doc = comparablesReport();

setUpViewTests({ afterCleanup: clearPrintFlags });
beforeEach(() => {
  calls.length = 0;
  state.report = doc;
  resetImageRenderer(mapRender);
});

const section = () => screen.getByRole('region', { name: 'Comparable sales' });

describe('the comparables section on screen', () => {
  it('draws the map with the offscreen renderer, "Loading the map…" until it is ready, with its alt text and caption', async () => {
    mapRender.mode = 'manual';
    render(<ReportDocumentView doc={doc} mode="screen" />);
    expect(within(section()).getByRole('status').textContent).toBe('Loading the map…');
    await settle();
    expect(mapRender.requests).toEqual([{ spec: doc.comparables!.map!.spec, widthPx: 1200, heightPx: 700 }]);
    await act(async () => mapRender.release?.());
    await settle();
    const image = within(section()).getByRole('img');
    expect(image.getAttribute('alt')).toBe(doc.comparables!.map!.spec.altText);
    expect(image.getAttribute('alt')).toContain('tax-square centroids (approximate)');
    const figure = screen.getByTestId('report-map');
    expect(figure.querySelector('figcaption')?.textContent).toContain('Map data: DC GIS / OCTO · DDOT.');
    expect(figure.querySelector('figcaption')?.textContent).toContain('Sales and their locations: DC Office of Tax and Revenue');
  });

  it('prints the search as run and the grid as a table: subject and comps, each value cited, the adjustment beneath', async () => {
    render(<ReportDocumentView doc={doc} mode="screen" />);
    await settle();
    expect(within(section()).getByRole('heading', { name: 'The search as run' })).toBeTruthy();
    expect(section().textContent).toContain('Sold 2016-01-01 to 2017-01-01 (12 months before the effective date)');
    const grid = within(section()).getByRole('table', { name: 'Sales comparison grid' });
    const headers = within(grid).getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual(['Feature', 'Subject', 'Comp 1Less weight', 'Comp 2Less weight', 'Comp 3Less weight', 'Comp 4Less weight']);
    const price = grid.querySelector('tr[data-row="salePrice"]') as HTMLElement;
    const cells = within(price).getAllByRole('cell');
    expect(cells[1]?.textContent).toContain('$1,330,000');
    // The price's endnote marker is a chip naming the publisher.
    expect(within(cells[1]!).getByRole('button', { name: /source DC Office of Tax and Revenue/ })).toBeTruthy();
    const gla = grid.querySelector('tr[data-row="gla"]') as HTMLElement;
    expect(within(gla).getAllByRole('cell')[1]?.textContent).toMatch(/^2,016 sq ft.*synthetic.*−\$122,400/);
    // A row no source fills says so once across the row.
    expect((grid.querySelector('tr[data-row="fireplaces"]') as HTMLElement).textContent).toBe('Fireplaces— Not in the sample (the subject and every comp)');
    const footer = grid.querySelector('tfoot') as HTMLElement;
    expect(footer.textContent).toContain('Adjusted sale price');
    const grid0 = doc.comparables!.grid!;
    expect(footer.textContent).toContain(`$${grid0.summary[0]!.adjustedPrice.toLocaleString('en-US')}`);
    expect(screen.getByTestId('report-indicated-value').textContent).toMatch(/^\$1,300,000derived.*The appraiser’s value by sales comparison, reconciled from the adjusted prices \$[\d,]+ to \$[\d,]+ \((within|outside) the range\)$/);
  });

  it('cites the appraiser’s figures with quiet chips, and lists the copied values the appraiser accepted', async () => {
    render(<ReportDocumentView doc={doc} mode="screen" />);
    await settle();
    const grid = within(section()).getByRole('table', { name: 'Sales comparison grid' });
    const gla = grid.querySelector('tr[data-row="gla"]') as HTMLElement;
    const adjustment = within(gla).getAllByRole('cell')[1]!.querySelector('.report-grid__amount') as HTMLElement;
    expect(adjustment.textContent).toMatch(/^−\$122,400derived/);
    // The adjustment cites the appraiser (the rate), the subject's and the comp's living areas.
    expect(within(adjustment).getByRole('button', { name: /source The appraiser/ })).toBeTruthy();
    expect(within(adjustment).getAllByRole('button', { name: /source Plat synthetic sample/ }).length).toBeGreaterThan(0);
    const indicated = screen.getByTestId('report-indicated-value');
    expect(within(indicated).getByRole('button', { name: /source The appraiser/ })).toBeTruthy();
    const accepted = within(section()).getByRole('table', { name: 'Copied values accepted by the appraiser' });
    expect(within(accepted).getAllByRole('row')[1]?.textContent).toMatch(/^Gross building area \(published; stands in for GLA\)the whole gridThe appraiserLiving areas checked against the 2016 listings\.2026-11-23/);
  });

  it('gives the rates beside their support, the regression, the sales not used and the prior sales', async () => {
    render(<ReportDocumentView doc={doc} mode="screen" />);
    await settle();
    const rates = within(section()).getByRole('table', { name: 'Adjustment rates' });
    // DC CAMA publishes gross building area: the rate says so.
    const gla = within(rates).getByRole('rowheader', { name: 'Gross building area (published; stands in for GLA)' }).closest('tr') as HTMLElement;
    // The rate is the appraiser's derived value; the regression's suggestion beside it.
    expect(gla.textContent).toMatch(/^Gross building area \(published; stands in for GLA\)\$150 per sq ftderived.*Appraiser/);
    expect(within(rates).getByRole('rowheader', { name: 'Bedrooms' }).closest('tr')?.textContent).toContain('No adjustment');
    expect(within(section()).getByRole('table', { name: 'Regression coefficients' })).toBeTruthy();
    const used = within(section()).getByRole('table', { name: 'Sales the regression used' });
    expect(within(used).getAllByRole('row').length - 1).toBe(doc.comparables!.support!.n);
    const notUsed = within(section()).getByRole('table', { name: 'Sales analyzed and not used' });
    expect(within(notUsed).getAllByRole('row')).toHaveLength(1 + 10);
    const swann = within(notUsed).getByText('1744 SWANN ST NW').closest('tr') as HTMLElement;
    expect(swann.textContent).toContain('Size (living area) (appraiser)Much larger than the subject.');
    const prior = within(section()).getByRole('table', { name: 'Prior sales of the subject and the comps' });
    expect(prior.textContent).toContain('Subject: 1708 21ST ST NW');
  });

  it('prints a suggestion the sales do not support as such, the appraiser’s reason for using it next to the rate, and the regression’s figures as derived values', async () => {
    const suggested = doc.comparables!.support!.suggestions.timePctPerMonth.value!;
    const withReason = comparablesReport({
      rates: { ...NO_RATES, glaPerSqft: 150, timePctPerMonth: suggested },
      rateSource: { glaPerSqft: 'appraiser', timePctPerMonth: 'suggestion' },
      unsupportedRateReasons: { timePctPerMonth: { reason: 'Matches the paired resales on the block.', at: '2026-11-27T22:00:00Z' } },
    });
    render(<ReportDocumentView doc={withReason} mode="screen" />);
    await settle();
    const rates = within(section()).getByRole('table', { name: 'Adjustment rates' });
    const time = within(rates).getByRole('rowheader', { name: 'Market conditions (time)' }).closest('tr') as HTMLElement;
    expect(time.textContent).toContain('Regression’s suggestion, used by the appraiser although not supported');
    expect(time.textContent).toContain('Not supported: ');
    expect(within(time).getByTestId('report-rate-reason-timePctPerMonth').textContent).toBe(
      'Used although not supported. The appraiser’s reason: “Matches the paired resales on the block.”',
    );
    const coefficients = within(section()).getByRole('table', { name: 'Regression coefficients' });
    expect(within(coefficients).getByTestId('report-standing-timePctPerMonth').textContent).toContain('straddles zero');
    const figure = withReason.comparables!.support!.figures!.rates.timePctPerMonth!.value;
    expect(figure.status).toBe('derived');
    expect(coefficients.textContent).toContain(figure.display);
    expect(coefficients.querySelector('.report-value--derived')).not.toBeNull();
  });

  it('says when no search has been run, and nothing else', async () => {
    render(<ReportDocumentView doc={{ ...doc, comparables: { ...doc.comparables!, search: null, map: null, grid: null, support: null, notUsed: [], priorSales: null, missing: ['No comparables search has been run for this assignment.'], problems: [] } }} mode="screen" />);
    await settle();
    expect(section().textContent).toBe('Comparable salesNo comparables search has been run for this assignment.');
    expect(mapRender.requests).toEqual([]);
  });

  it('prints nothing about comparables when the assignment never searched', async () => {
    render(<ReportDocumentView doc={{ ...doc, comparables: null }} mode="screen" />);
    await settle();
    expect(screen.queryByRole('region', { name: 'Comparable sales' })).toBeNull();
  });
});

describe('the comparables section in the print route', () => {
  async function renderPrint() {
    await renderWithQueries(<PrintReport assignmentId="p1" dialog={false} />, 4);
  }

  it('is ready only once the map is on the page', async () => {
    mapRender.mode = 'manual';
    await renderPrint();
    expect(document.documentElement.dataset.printReady).toBeUndefined();
    expect(within(section()).getByRole('status').textContent).toBe('Loading the map…');
    await act(async () => mapRender.release?.());
    await settle();
    expect(document.documentElement.dataset.printReady).toBe('true');
    expect(within(section()).getByRole('img').getAttribute('alt')).toBe(doc.comparables!.map!.spec.altText);
    // Drawn once, by the print route, for the page it prints.
    expect(mapRender.requests).toHaveLength(1);
  });

  it('prints the grid three comps to a table, each repeating the subject, with [n] markers', async () => {
    await renderPrint();
    const tables = within(section()).getAllByRole('table', { name: /^Sales comparison grid/ });
    expect(tables.map((table) => table.getAttribute('aria-label'))).toEqual(['Sales comparison grid, comps 1–3', 'Sales comparison grid, comp 4']);
    expect(within(tables[1]!).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Feature', 'Subject', 'Comp 4Less weight']);
    const price = tables[0]!.querySelector('tr[data-row="salePrice"]') as HTMLElement;
    expect(within(price).getAllByRole('cell')[1]?.textContent).toMatch(/^\$1,330,000\[\d+\]$/);
    expect(tables[1]!.querySelector('tr[data-row="address"]')?.textContent).toContain('1739 19TH ST NW');
    expect(COMP_IDS).toHaveLength(14);
  });

  it('prints the map’s table, and says why, when the map cannot be drawn', async () => {
    mapRender.mode = 'fail';
    await renderPrint();
    expect(document.documentElement.dataset.printReady).toBe('true');
    const figure = screen.getByTestId('report-map');
    expect(within(figure).queryByRole('img')).toBeNull();
    expect(within(figure).getByRole('note').textContent).toContain('The map could not be drawn here (This computer could not draw the map image (WebGL is not available)');
    const points = within(figure).getByRole('table', { name: 'The map’s points' });
    // The subject and the fourteen sales, the chosen comps first.
    expect(within(points).getAllByRole('row')).toHaveLength(1 + 1 + 14);
    expect(within(points).getAllByRole('row')[2]?.textContent).toBe('Comp 11730 18TH ST NWChosen comp0.25 mi E (approximate)');
  });

  it('never waits forever for a map that does not draw', async () => {
    mapRender.mode = 'hang';
    await renderPrint();
    expect(document.documentElement.dataset.printReady).toBeUndefined();
    await settle(MAP_IMAGE_TIMEOUT_MS);
    expect(document.documentElement.dataset.printReady).toBe('true');
    expect(within(screen.getByTestId('report-map')).getByRole('note').textContent).toContain(`it was not drawn within ${MAP_IMAGE_TIMEOUT_MS / 1000} s`);
  });
});
