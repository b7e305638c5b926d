// The report's title research on screen and in the print route, on real documents the core builds
// from the embedded service's answers (1708 21ST ST NW as the Graph view keeps it; ABDOLLAH POOZESH's
// holdings with a same-name lead cut); the graph's offscreen renderer is faked, so the tests can say
// when it draws, fails or never answers.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { clearPrintFlags, renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import type { GraphImageRequest } from '../../components/graph/graph-types.ts';
import { buildSubjectReport } from '../../../shared/report/build-subject-report.ts';
import type { ReportDocument } from '../../../shared/report/document.ts';
import type { GraphDecision } from '../../../shared/graph/decisions.ts';
import { fixtures, ids } from '../../../shared/graph/test-kit.ts';
import subjectFixture from '../../../shared/report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import type { KeptServiceAnswer } from '../../../shared/report/title-research-section.ts';
import { PrintReport } from './PrintReport.tsx';
import { ReportDocumentView } from './ReportDocumentView.tsx';
import { GRAPH_IMAGE_TIMEOUT_MS } from './graph-image.ts';
import { resetImageRenderer, type FakeImageRenderer } from './report-test-kit.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const state = vi.hoisted(() => ({ report: null as unknown }));
const graphRender = vi.hoisted((): FakeImageRenderer => ({ mode: 'draw', requests: [], release: null }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, { getSubjectReport: () => state.report });
});

vi.mock('../../components/graph/render-graph-image.ts', async () => {
  const { fakeImage } = await import('./report-test-kit.ts');
  return { renderGraphImage: (request: GraphImageRequest) => fakeImage(graphRender, request, 'The graph image could not be drawn: no 2D canvas') };
});

const kept = (operation: string, request: Record<string, unknown>, envelope: unknown): KeptServiceAnswer => ({ operation, request, envelope });

function titleReport(subjectRef: string, answers: KeptServiceAnswer[], decisions: GraphDecision[] = []): ReportDocument {
  return buildSubjectReport({
    assignment: {
      id: 'p1',
      name: 'Title review',
      capMicroUsd: null,
      details: { subjectRef, subjectLabel: '', effectiveDate: '2017-01-01', intendedUse: 'Title review', client: 'Bank', reference: '', notes: '' },
    },
    subject: subjectRef === subjectFixture.subjectRef ? subjectFixture.subject : null,
    summary: subjectRef === subjectFixture.subjectRef ? subjectFixture.summary : null,
    choices: [],
    queryLog: [],
    spentMicroUsd: 0,
    generatedAt: '2026-11-24T12:00:00.000Z',
    prices: { subjectReportMicroUsd: 0, summaryMicroUsd: 0 },
    titleResearch: { answers, decisions },
  });
}

/** 1708 21ST ST NW as the Graph view keeps it: the property's links, the parcel's connected entities and record, the owner's search. */
const doc1708 = titleReport(ids.property1708, [
  kept('v2.traverseRelationships', { path: { entity_ref: ids.property1708 }, query: { direction: 'both', depth: 2, max_nodes: 100, max_edges: 200, page_size: 100 } }, fixtures.relationships1708Depth2.envelope),
  kept('v4.connected', { path: { q_id: ids.parcel1708 }, query: { depth: 2, limit: 100 } }, fixtures.connected1708.envelope),
  kept('v2.getEntity', { path: { entity_ref: ids.parcel1708 } }, fixtures.entityParcel1708.envelope),
  kept('v2.searchProperties', { body: fixtures.searchKuipers.request.body }, fixtures.searchKuipers.envelope),
]);

const lead = 'owned_by:rec_9fc93e21-30ec-5501-8571-88f0bf084983→owner:ABDOLLAH POOZESH';
const docPoozesh = titleReport(
  ids.propertyPoozesh,
  [
    kept('v2.traverseRelationships', { path: { entity_ref: ids.propertyPoozesh }, query: { direction: 'both', depth: 2 } }, fixtures.relationshipsPoozesh.envelope),
    kept('v2.searchProperties', { body: fixtures.searchPoozesh.request.body }, fixtures.searchPoozesh.envelope),
  ],
  [{ edgeKey: lead, decision: 'cut', note: 'The deed names a different Abdollah Poozesh.', at: '2026-11-23T21:00:00Z' }],
);

setUpViewTests({ afterCleanup: clearPrintFlags });
beforeEach(() => {
  calls.length = 0;
  state.report = doc1708;
  resetImageRenderer(graphRender);
});

const section = () => screen.getByRole('region', { name: 'Title research' });

describe('the title research on screen', () => {
  it('draws the whole graph with the graph’s own renderer, "Drawing the graph…" until it is ready, with its alt text', async () => {
    graphRender.mode = 'manual';
    render(<ReportDocumentView doc={doc1708} mode="screen" />);
    expect(within(section()).getByRole('status').textContent).toBe('Drawing the graph…');
    await settle();
    expect(graphRender.requests).toEqual([{ spec: doc1708.titleResearch!.graph!.spec, widthPx: 1000, heightPx: 460 }]);
    await act(async () => graphRender.release?.());
    await settle();
    const image = within(screen.getByTestId('report-graph')).getByRole('img');
    expect(image.getAttribute('alt')).toBe(doc1708.titleResearch!.graph!.spec.altText);
    expect(image.getAttribute('alt')).toContain('1708 21ST ST NW owned by JOEL KUIPERS.');
    expect(screen.getByTestId('report-graph').querySelector('figcaption')?.textContent).toContain('5 entities and 6 links: 6 facts and 0 leads, none to confirm');
  });

  it('lists the graph as tables beside the picture: every entity, and every link with its rule, sources and dates', async () => {
    render(<ReportDocumentView doc={doc1708} mode="screen" />);
    await settle();
    const entities = within(section()).getByRole('table', { name: 'The graph’s entities' });
    expect(within(entities).getAllByRole('row')).toHaveLength(1 + 5);
    const owner = within(entities).getByText('JOEL KUIPERS').closest('tr') as HTMLElement;
    // An owner's name is cited like any value: its chip names the publisher of the ownership record.
    expect(within(owner).getByRole('button', { name: /source DC Office of Tax and Revenue/ })).toBeTruthy();
    const links = within(section()).getByRole('table', { name: 'The graph’s links' });
    const ownerLink = links.querySelector('tr[data-link^="owned_by:"]') as HTMLElement;
    expect(ownerLink.textContent).toMatch(/^1708 21ST ST NW — owned by → JOEL KUIPERS.*Owner of record.*Fact.*The ownership record of 1708 21ST ST NW names “JOEL KUIPERS” as its owner\..*Owner of record as of the roll released 2017-02-05.*1/);
    expect(within(links).getAllByRole('row')).toHaveLength(1 + 6);
  });

  it('prints a cut link as cut with its note, lists the decision, and says what it leaves unreached', async () => {
    render(<ReportDocumentView doc={docPoozesh} mode="screen" />);
    await settle();
    const links = within(section()).getByRole('table', { name: 'The graph’s links' });
    const cut = links.querySelector(`tr[data-link="${lead}"]`) as HTMLElement;
    expect(cut.className).toBe('report-title__row--cut');
    // 1620 Q ST NW's own record names the owner: a fact, which the researcher's cut overrides.
    expect(cut.textContent).toContain('Owner of recordFact');
    expect(cut.textContent).toContain('✕ Cut The deed names a different Abdollah Poozesh.');
    expect(screen.getByTestId('report-graph').querySelector('figcaption')?.textContent).toContain('1 cut by the researcher');
    // What a lead asks is said once above the table; each lead's row points to it.
    const asks = within(section()).getByRole('list', { name: 'What the leads ask' });
    expect(within(asks).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^A lead, not a fact: different people and companies can share a name\./),
      expect.stringMatching(/^A lead, not a fact: the service states this link without a rule Plat reads as one/),
    ]);
    const decisions = within(section()).getByRole('heading', { name: 'The researcher’s decisions' }).parentElement as HTMLElement;
    expect(within(decisions).getAllByRole('listitem')[0]?.textContent).toMatch(/^✕ Cut 1620 Q ST NW — owned by → ABDOLLAH POOZESH.*: The deed names a different Abdollah Poozesh\./);
    expect(decisions.textContent).toContain('Reached from the subject only through a cut link (drawn cut off): 1620 Q ST NW, SSL 0180 0031.');
    const holdings = within(section()).getByRole('table', { name: 'Holdings of the subject’s owner' });
    expect(within(holdings).getAllByRole('row')[2]?.textContent).toMatch(/^1620 Q ST NW.*✕ Cut by the researcher: The deed names a different Abdollah Poozesh\./);
    expect(section().textContent).toContain('One holding published under the name was cut by the researcher as another owner’s');
  });

  it('gives the owner portfolio with its count and total, and the runsheet in date order with its gaps', async () => {
    render(<ReportDocumentView doc={doc1708} mode="screen" />);
    await settle();
    expect(section().textContent).toContain('the subject’s owner of record, found by a search of owner names: 1 holding.');
    const holdings = within(section()).getByRole('table', { name: 'Holdings of the subject’s owner' });
    expect(within(holdings).getAllByRole('row')[1]?.textContent).toMatch(/^1708 21ST ST NW.*Subject0065 0007.*24.*\$1,302,760.*\$1,361,000.*2013-12-17/);
    const runsheet = within(section()).getByRole('table', { name: 'Runsheet of parcel SSL 0065 0007' });
    expect(within(runsheet).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual(['Recorded sale', 'Owner of record']);
    // A dash is keyed to its reason, said once under the table.
    expect(within(runsheet).getAllByRole('row')[1]?.textContent).toContain('— (a)');
    expect(within(section()).getByRole('list', { name: 'Why a runsheet value is a dash' }).textContent).toBe('(a) The sale record names no buyer or seller.');
    const gaps = within(section()).getByRole('list', { name: 'What the records do not show' });
    expect(gaps.textContent).toContain('No earlier transfers in the sample: OTR publishes each lot’s last sale only.');
  });

  it('prints nothing about title research when the assignment holds none', async () => {
    render(<ReportDocumentView doc={{ ...doc1708, titleResearch: null }} mode="screen" />);
    await settle();
    expect(screen.queryByRole('region', { name: 'Title research' })).toBeNull();
    expect(graphRender.requests).toEqual([]);
  });
});

describe('the title research in the print route', () => {
  async function renderPrint() {
    await renderWithQueries(<PrintReport assignmentId="p1" dialog={false} />, 4);
  }

  it('is ready only once the graph is on the page, its owner names followed by [n] markers', async () => {
    graphRender.mode = 'manual';
    await renderPrint();
    expect(document.documentElement.dataset.printReady).toBeUndefined();
    expect(within(section()).getByRole('status').textContent).toBe('Drawing the graph…');
    await act(async () => graphRender.release?.());
    await settle();
    expect(document.documentElement.dataset.printReady).toBe('true');
    expect(within(section()).getByRole('img').getAttribute('alt')).toBe(doc1708.titleResearch!.graph!.spec.altText);
    expect(graphRender.requests).toHaveLength(1);
    const entities = within(section()).getByRole('table', { name: 'The graph’s entities' });
    expect(within(entities).getByText('JOEL KUIPERS').closest('td')?.textContent).toMatch(/^JOEL KUIPERS\[\d+\]$/);
  });

  it('prints the tables alone, and says why, when the graph cannot be drawn', async () => {
    graphRender.mode = 'fail';
    await renderPrint();
    expect(document.documentElement.dataset.printReady).toBe('true');
    const figure = screen.getByTestId('report-graph');
    expect(within(figure).queryByRole('img')).toBeNull();
    expect(within(figure).getByRole('note').textContent).toBe(
      'The graph could not be drawn here (The graph image could not be drawn: no 2D canvas). Its tables below list every entity and every link it holds.',
    );
    expect(within(section()).getByRole('table', { name: 'The graph’s links' })).toBeTruthy();
  });

  it('never waits forever for a graph that does not draw', async () => {
    graphRender.mode = 'hang';
    await renderPrint();
    expect(document.documentElement.dataset.printReady).toBeUndefined();
    await settle(GRAPH_IMAGE_TIMEOUT_MS);
    expect(document.documentElement.dataset.printReady).toBe('true');
    expect(within(screen.getByTestId('report-graph')).getByRole('note').textContent).toContain(`it was not drawn within ${GRAPH_IMAGE_TIMEOUT_MS / 1000} s`);
  });
});
