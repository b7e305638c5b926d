// The report input the section tests share: an assignment on 1708 21ST ST NW with the embedded
// service's real subject report and summary of it kept (fixtures/dc-1708-21st-st-nw.json).
import type { SubjectReportInput } from './build-subject-report.ts';
import dc1708 from './fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };

/** Effective 2017-01-01, for First Bank, nothing spent; `patch` adds the part a test is about. */
export function dc1708Input(assignment: { name: string; intendedUse: string }, patch: Partial<SubjectReportInput>): SubjectReportInput {
  return {
    assignment: {
      id: 'asg_1',
      name: assignment.name,
      capMicroUsd: null,
      details: { subjectRef: dc1708.subjectRef, subjectLabel: '', effectiveDate: '2017-01-01', intendedUse: assignment.intendedUse, client: 'First Bank', reference: '', notes: '' },
    },
    subject: dc1708.subject,
    summary: dc1708.summary,
    choices: [],
    queryLog: [],
    spentMicroUsd: 0,
    generatedAt: '2026-11-24T12:00:00.000Z',
    prices: { subjectReportMicroUsd: 250_000, summaryMicroUsd: 100_000 },
    ...patch,
  };
}
