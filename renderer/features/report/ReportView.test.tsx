// The Report view and the print route with the platform faked: what they show of a report document,
// what they send when the appraiser chooses another value, what Export PDF saves, and the flag the
// printers wait for.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from '../../app/App.tsx';
import { serviceAnswer, type RecordedPlatCall } from '../../platform/fake-plat.ts';
import { clearPrintFlags, renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import type * as PlatModule from '../../platform/plat.ts';
import type * as DownloadModule from '../../components/download.ts';
import { serviceQueryKey } from '../../platform/query-keys.ts';
import { ReportView } from './ReportView.tsx';
import { PrintReport } from './PrintReport.tsx';
import { preloadPrintReport, PrintSession } from './PrintSession.tsx';
import { PRINT_NEXT_FUNCTION, type PrintNext } from '../../../shared/print-route.ts';
import { sampleReport } from './report-fixture.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const state = vi.hoisted(() => ({ active: 'p1' as string | null, report: null as unknown, exportFails: false, buyFails: false, exportMs: 0 }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer } = await import('../../platform/fake-plat.ts');
  const { PlatCallError } = await importOriginal<typeof PlatModule>();
  const assignment = { subjectRef: 'prop_0b9e2f1c-5d1e-4c1a-9a51-2f9a3c1b7e10', subjectLabel: '1708 21ST ST NW', effectiveDate: '2026-05-01', intendedUse: 'Lending', client: 'Bank', reference: 'R1', notes: '' };
  return fakePlatModule(importOriginal, calls, {
    listProjects: () => ({
      projects: [{ id: 'p1', name: 'Dupont row house', capMicroUsd: 5_000_000, archived: false, createdAt: '2026-05-01T00:00:00Z', assignment }],
      activeProjectId: state.active,
    }),
    getSubjectReport: () => state.report,
    getAppInfo: () => ({ appName: 'Plat', appVersion: '0.1.0', runtime: 'browser-host', service: {} }),
    previewCost: (request) => listedPrice((request as { operation: string }).operation, 250_000),
    setValueChoice: () => ({ choices: [] }),
    getEntitySummary: () => {
      if (state.buyFails) throw new PlatCallError({ code: 'service_unreachable', message: 'The service did not answer.', retryable: true });
      return serviceAnswer({ owner_name: { value: 'SMITH JOHN' } }, 0);
    },
    exportReportPdf: () => {
      if (state.exportFails) throw new PlatCallError({ code: 'internal', message: 'No Chromium-family browser was found on this machine.', retryable: false });
      const exported = { filename: 'Dupont row house – subject report – 2026-05-01.pdf', pdfBase64: btoa('%PDF-1.7 test'), pageCount: 7, byteLength: 183_000 };
      return state.exportMs === 0 ? exported : new Promise((resolve) => setTimeout(() => resolve(exported), state.exportMs));
    },
  });
});

const downloads = vi.hoisted(() => [] as Array<{ filename: string; base64: string }>);
vi.mock('../../components/download.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof DownloadModule>()),
  downloadBase64File: (filename: string, base64: string) => downloads.push({ filename, base64 }),
}));

setUpViewTests({ afterCleanup: clearPrintFlags });
beforeEach(() => {
  calls.length = 0;
  downloads.length = 0;
  state.active = 'p1';
  state.report = sampleReport();
  state.exportFails = false;
  state.buyFails = false;
  state.exportMs = 0;
});

async function renderView(node: React.ReactNode, client?: QueryClient) {
  // The project list, then the report it names, then their renders.
  await renderWithQueries(node, 4, client);
}

describe('ReportView', () => {
  it('says no assignment is active, and how to start one, without asking for a report', async () => {
    state.active = null;
    await renderView(<ReportView />);
    expect((screen.getByTestId('report-no-assignment')).textContent).toContain('Start an assignment');
    expect(calls.some((call) => call.operation === 'getSubjectReport')).toBe(false);
  });

  it('says, above the values, that answers it reads came in a workfile and which ones', async () => {
    const text = 'Received in workfile “forged.plat-workfile.json”, exported by Plat 0.1.0 on 2026-11-27 for “Dupont row house”';
    state.report = sampleReport({ received: { text, answers: ['Summary of 1708 21ST ST NW'] } });
    await renderView(<ReportView />);
    const notice = screen.getByTestId('received-notice').textContent;
    expect(notice).toContain(`${text}. Not bought by this Plat`);
    expect(notice).toContain('Read from the file: Summary of 1708 21ST ST NW.');
  });

  it('shows every value with its status and its endnote number; unavailable values say why', async () => {
    await renderView(<ReportView />);
    const owner = document.querySelector('[data-field="ownership.owner_name"]')!;
    expect((owner).textContent).toContain('SMITH JOHN');
    expect(within(owner as HTMLElement).getByRole('button', { name: /^1: source DC Office of Tax and Revenue/ })).toBeTruthy();
    const location = document.querySelector('[data-field="land.location"]') as HTMLElement;
    expect((location).textContent).toContain('derived');
    expect((location).textContent).toContain('Derived from DC GIS square centroid of square 0065');
    expect((location).textContent).not.toContain('as published');
    const area = document.querySelector('[data-field="building.gross_area"]') as HTMLElement;
    expect((area).textContent).toContain('Unavailable — DC OTR does not publish building area.');
    expect((screen.getByRole('list', { name: 'Limitations of Building' })).textContent).toContain('synthetic where CAMA gives none');
    expect((screen.getByTestId('report-spend')).textContent).toContain('$0.25 spent of a $5.00 cap');
    expect((screen.getByRole('table', { name: 'Query log' })).textContent).toContain('v3.recordQuery');
  });

  it('follows each limitation with the markers of the source it is about, and one about no source with none', async () => {
    await renderView(<ReportView />);
    const ownership = screen.getByRole('list', { name: 'Limitations of Ownership' });
    const asOf = within(ownership).getByRole('listitem');
    expect(asOf.textContent).toMatch(/^Data as of 2017-02-05\./);
    expect(within(asOf).getByRole('button', { name: /^1: source DC Office of Tax and Revenue/ })).toBeTruthy();
    const building = within(screen.getByRole('list', { name: 'Limitations of Building' })).getAllByRole('listitem');
    expect(within(building[0]!).getByRole('button', { name: /^3: source Plat sample \(synthetic\)/ })).toBeTruthy();
    expect(building[1]!.textContent).toBe('Tax bills are not in the sample.');
    expect(within(building[1]!).queryByRole('button')).toBeNull();
  });

  it('opens the full citation from a marker', async () => {
    await renderView(<ReportView />);
    fireEvent.click(screen.getAllByRole('button', { name: /^4: source DC GIS/ })[0]!);
    const panel = screen.getByRole('dialog', { name: 'Source of this value' });
    expect((panel).textContent).toContain('Square centroids');
    expect((panel).textContent).toContain('Centroid of the square, not of the lot.');
  });

  it('asks for a reason before choosing another value, and sends the choice with it', async () => {
    await renderView(<ReportView />);
    const yearBuilt = document.querySelector('[data-field="building.year_built"]') as HTMLElement;
    expect((within(yearBuilt).getByRole('group', { name: 'Other values for Year built' })).textContent).toContain('1890synthetic');
    expect((yearBuilt).textContent).toContain('Plat’s choice: A permit for new construction outranks a synthetic year.');
    fireEvent.click(within(yearBuilt).getByRole('button', { name: 'Use this value…' }));
    const dialog = screen.getByRole('dialog', { name: /Use another value for year built/ });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use this value' }));
    expect((within(dialog).getByRole('alert')).textContent).toContain('Give the reason');
    expect(calls.some((call) => call.operation === 'setValueChoice')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText(/Reason/), { target: { value: 'Inspected: original 1890 facade retained.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use this value' }));
    await settle();
    expect(calls.filter((call) => call.operation === 'setValueChoice').map((call) => call.request)).toEqual([
      { assignmentId: 'p1', field: 'building.year_built', choice: { alternativeKey: 'synthetic:1890', reason: 'Inspected: original 1890 facade retained.' } },
    ]);
  });

  it('offers what the report still needs, each with its price', async () => {
    state.report = sampleReport({
      missing: [
        { ipcOperation: 'queryRecords', request: { request: { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: 'prop_x' } } }, label: 'Subject record (v3 report_subject_v1)', expectedCostMicroUsd: 250_000 },
        { ipcOperation: 'getEntitySummary', request: { request: { path: { q_id: 'prop_x' } } }, label: 'Entity summary (v4)', expectedCostMicroUsd: 50_000 },
      ],
    });
    await renderView(<ReportView />);
    const missing = screen.getByTestId('report-missing');
    expect((missing).textContent).toContain('2 sources are not bought yet · $0.30 in all');
    expect(within(missing).getAllByRole('button', { name: 'Buy' })).toHaveLength(2);
    const priced = calls.filter((call) => call.operation === 'previewCost').map((call) => call.request);
    expect(priced).toContainEqual({ operation: 'v4.summary', request: { path: { q_id: 'prop_x' } } });
    // Showing what is missing buys nothing.
    expect(calls.some((call) => call.operation === 'queryRecords' || call.operation === 'getEntitySummary')).toBe(false);
  });

  it('buys a missing source through the core, even one this session holds already, and builds the report again', async () => {
    const summary = { path: { q_id: 'prop_x' } };
    state.report = sampleReport({
      missing: [{ ipcOperation: 'getEntitySummary', request: { request: summary }, label: 'Entity summary (v4)', expectedCostMicroUsd: 50_000 }],
    });
    // Bought on the property page before the assignment began: only the core can keep it with the assignment.
    const client = createQueryClient();
    client.setQueryData(serviceQueryKey('getEntitySummary', summary), serviceAnswer({}, 50_000));
    await renderView(<ReportView />, client);
    const reads = () => calls.filter((call) => call.operation === 'getSubjectReport').length;
    const readsBefore = reads();
    fireEvent.click(within(screen.getByTestId('report-missing')).getByRole('button', { name: 'Buy' }));
    await settle(50);
    expect(calls.filter((call) => call.operation === 'getEntitySummary').map((call) => call.request)).toEqual([{ request: summary, actionId: expect.any(String) }]);
    expect(reads()).toBeGreaterThan(readsBefore);
  });

  it('says why a purchase failed and retries it with the same action, then builds the report again', async () => {
    state.buyFails = true;
    state.report = sampleReport({
      missing: [{ ipcOperation: 'getEntitySummary', request: { request: { path: { q_id: 'prop_x' } } }, label: 'Entity summary (v4)', expectedCostMicroUsd: 50_000 }],
    });
    await renderView(<ReportView />);
    const missing = screen.getByTestId('report-missing');
    fireEvent.click(within(missing).getByRole('button', { name: 'Buy' }));
    await settle(50);
    expect(missing.textContent).toContain('The service did not answer.');
    state.buyFails = false;
    const readsBefore = calls.filter((call) => call.operation === 'getSubjectReport').length;
    fireEvent.click(within(missing).getByRole('button', { name: /Try again|Retry/ }));
    await settle(50);
    const bought = calls.filter((call) => call.operation === 'getEntitySummary').map((call) => (call.request as { actionId: string }).actionId);
    expect(bought).toHaveLength(2);
    expect(bought[1]).toBe(bought[0]);
    expect(calls.filter((call) => call.operation === 'getSubjectReport').length).toBeGreaterThan(readsBefore);
  });

  it('exports the PDF as a download and says what it saved', async () => {
    await renderView(<ReportView />);
    fireEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    await settle();
    expect(downloads).toEqual([{ filename: 'Dupont row house – subject report – 2026-05-01.pdf', base64: btoa('%PDF-1.7 test') }]);
    expect((screen.getByTestId('report-export-status')).textContent).toContain('7 pages, 179 KB');
  });

  it('keeps the focus on Export PDF while it prints (busy, not disabled) and after, exporting once', async () => {
    state.exportMs = 1000;
    await renderView(<ReportView />);
    const button = screen.getByRole('button', { name: 'Export PDF' });
    button.focus();
    act(() => fireEvent.click(button));
    await settle();
    const busy = screen.getByRole('button', { name: 'Exporting…' });
    expect(busy).toBe(button);
    expect([button.hasAttribute('disabled'), button.getAttribute('aria-disabled')]).toEqual([false, 'true']);
    act(() => fireEvent.click(button));
    await settle(1000);
    expect(downloads).toHaveLength(1);
    expect(document.activeElement).toBe(button);
  });

  it('when no printer is found, says so and offers the browser’s own print dialog', async () => {
    state.exportFails = true;
    const opened: unknown[] = [];
    vi.spyOn(window, 'open').mockImplementation((url) => {
      opened.push(url);
      return null;
    });
    await renderView(<ReportView />);
    fireEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    await settle();
    expect((screen.getByRole('alert')).textContent).toContain('No Chromium-family browser was found');
    fireEvent.click(screen.getByRole('button', { name: 'Print with the browser’s dialog…' }));
    expect(opened).toEqual(['/?route=print-report&assignment=p1&dialog=1']);
    expect(downloads).toEqual([]);
  });
});

describe('PrintReport', () => {
  it('renders the document for paper and then tells the printer it is ready, with its header and footer', async () => {
    await renderView(<PrintReport assignmentId="p1" dialog={false} />);
    await settle();
    const root = document.documentElement;
    expect(root.dataset.printReady).toBe('true');
    expect(root.dataset.printFooter).toContain('class="pageNumber"');
    expect(root.dataset.printHeader).toContain('1708 21ST ST NW');
    expect((screen.getByRole('region', { name: 'Cover' })).textContent).toContain('First Federal <Bank> & Co');
    // Markers print as [n] and resolve to endnotes naming the publisher.
    const owner = document.querySelector('[data-field="ownership.owner_name"]') as HTMLElement;
    expect(owner.textContent).toBe('OwnerSMITH JOHN[1]');
    // A limitation prints its markers after the sentence, like a value; one about no source prints none.
    const limitations = screen.getByRole('list', { name: 'Limitations of Ownership' });
    expect(limitations.textContent).toBe('Data as of 2017-02-05.[1]');
    expect(within(limitations).getByRole('link', { name: '[1]' }).getAttribute('href')).toBe('#endnote-1');
    expect(within(screen.getByRole('list', { name: 'Limitations of Building' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Building characteristics in the sample are synthetic where CAMA gives none.[3]',
      'Tax bills are not in the sample.',
    ]);
    expect(document.getElementById('endnote-1')?.textContent).toContain('[1] DC Office of Tax and Revenue; Real property tax roll; as of 2017-02-05; record 0065 0007');
    expect(document.getElementById('endnote-3')?.textContent).toContain('Plat sample (synthetic)');
    expect((screen.getByRole('table', { name: 'Citation appendix' })).textContent).toContain('ownership.owner_name');
  });

  it('prints the signing certificate’s fingerprint on the cover when the core signs the PDF', async () => {
    const fingerprint = Array.from({ length: 32 }, (_, index) => (index * 7).toString(16).padStart(2, '0').toUpperCase()).join(':');
    const report = sampleReport();
    state.report = { ...report, cover: { ...report.cover, certificateFingerprint: fingerprint } };
    await renderView(<PrintReport assignmentId="p1" dialog={false} />);
    await settle();
    expect(screen.getByRole('region', { name: 'Cover' }).textContent).toContain(`Signed by this Plat installation · certificate SHA-256 ${fingerprint}`);
  });

  it('shows the next report the printer asks for in the same page, fetched afresh, with the marks reset first', async () => {
    const client = createQueryClient();
    // The report's code is in before the session renders, as the print route asks for it at start.
    await preloadPrintReport();
    await renderView(<PrintSession first={{ assignmentId: 'p1', dialog: false }} queryClient={client} />, client);
    await settle();
    const root = document.documentElement;
    expect(root.dataset.printReady).toBe('true');
    const next = (window as unknown as Record<string, PrintNext | undefined>)[PRINT_NEXT_FUNCTION];
    expect(typeof next).toBe('function');
    const report = sampleReport();
    state.report = { ...report, cover: { ...report.cover, subjectLabel: '1717 4TH ST NW' } };
    const reportsAsked = calls.filter((call) => call.operation === 'getSubjectReport').length;
    let returned: boolean | undefined;
    act(() => {
      returned = next?.('p1');
    });
    // The printer reads the marks right after the call: the last report's are gone.
    expect(returned).toBe(true);
    expect(root.dataset.printReady).toBeUndefined();
    expect(root.dataset.printHeader).toBeUndefined();
    for (let step = 0; step < 4; step++) await settle(50);
    expect(calls.filter((call) => call.operation === 'getSubjectReport').length).toBeGreaterThan(reportsAsked);
    expect(root.dataset.printReady).toBe('true');
    expect(root.dataset.printHeader).toContain('1717 4TH ST NW');
  });

  it('tells the printer why it cannot print', async () => {
    await renderView(<PrintReport assignmentId="" dialog={false} />);
    expect(document.documentElement.dataset.printReady).toBe('error');
    expect(document.documentElement.dataset.printError).toBe('The print address names no assignment.');
  });
});
