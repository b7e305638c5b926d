// What the report's title research is built from: the answers an assignment keeps of the graph,
// owner-search and record operations (the embedded service's real answers, kept as a call keeps
// them) and the researcher's decisions, read back by reportSources; and the report built from them.
import { describe, expect, it } from 'vitest';
import type { ServiceOperationName } from '../../../shared/service/index.ts';
import { buildSubjectReport } from '../../../shared/report/build-subject-report.ts';
import { fixtures, ids } from '../../../shared/graph/test-kit.ts';
import type { RequestParts } from '../service-gateway.ts';
import { openAssignment } from './assignments-test-kit.ts';

function setUp() {
  const { assignments, id, keep: keepCharged } = openAssignment({ name: '1708 21st St NW title', subjectRef: ids.property1708, start: '2026-11-23T10:00:00Z' });
  /** Keeps an answer with the assignment, as the core does after a call (its parts as the renderer sends them). */
  const keep = (operation: ServiceOperationName, parts: RequestParts, envelope: unknown) => keepCharged(operation, parts, envelope, 0);
  return { assignments, id, keep };
}

describe('the title research an assignment keeps', () => {
  it('is null for an assignment without title research', () => {
    const { assignments, id } = setUp();
    expect(assignments.reportSources(id)?.titleResearch).toBeNull();
  });

  it('passes the kept answers of title research once per request, the latest, with their normalised requests, and the decisions', () => {
    const { assignments, id, keep } = setUp();
    const traversal = { path: { entity_ref: ids.property1708 }, query: { direction: 'both', depth: '2' } };
    keep('v2.traverseRelationships', traversal, fixtures.relationships1708Capped.envelope);
    keep('v4.connected', { path: { q_id: ids.parcel1708 }, query: { depth: '2' } }, fixtures.connected1708.envelope);
    keep('v2.searchProperties', { body: fixtures.searchKuipers.request.body }, fixtures.searchKuipers.envelope);
    // The same request asked again (a refresh): only its latest answer is read.
    keep('v2.traverseRelationships', traversal, fixtures.relationships1708Depth2.envelope);
    // Not title research: the subject's summary.
    keep('v4.summary', { path: { q_id: ids.property1708 } }, { status: 'ok' });
    const decisions = assignments.setGraphDecision(id, `owned_by:rec_23cf6780-2221-547e-b0e2-eaf741fda9ee→owner:JOEL KUIPERS`, { decision: 'confirmed', note: 'Matches the 2017 tax bill.' });

    const research = assignments.reportSources(id)?.titleResearch;
    expect(research?.decisions).toEqual(decisions);
    expect(research?.answers.map((answer) => answer.operation)).toEqual(['v4.connected', 'v2.searchProperties', 'v2.traverseRelationships']);
    expect(research?.answers[2]).toEqual({
      operation: 'v2.traverseRelationships',
      request: { path: { entity_ref: ids.property1708 }, query: { direction: 'both', depth: 2, max_nodes: 100, max_edges: 200, page_size: 50 } },
      envelope: fixtures.relationships1708Depth2.envelope,
    });

    // The report reads them: the graph, the decision on its owner link, the portfolio.
    const sources = assignments.reportSources(id)!;
    const doc = buildSubjectReport({ ...sources, generatedAt: '2026-11-23T12:00:00Z', prices: { subjectReportMicroUsd: 0, summaryMicroUsd: 0 } });
    const owner = doc.titleResearch?.graph?.links.find((link) => link.to === 'JOEL KUIPERS');
    expect(owner?.decision).toMatchObject({ decision: 'confirmed', note: 'Matches the 2017 tax bill.' });
    expect(doc.titleResearch?.graph?.caps).toEqual([]);
    expect(doc.titleResearch?.portfolio?.countText).toBe('1 holding');
  });
});
