// The embedded service's answers for 1708 21ST ST NW, kept as a fixture, and the report input of a
// bench assignment that bought them: what the report benches build their documents from.
import { readFileSync } from 'node:fs';
import type { SubjectReportInput } from '../../shared/report/build-subject-report.ts';

export interface SubjectFixture {
  subjectRef: string;
  subject: unknown;
  summary: unknown;
}

export function readSubjectFixture(): SubjectFixture {
  return JSON.parse(readFileSync(new URL('../../shared/report/fixtures/dc-1708-21st-st-nw.json', import.meta.url), 'utf8')) as SubjectFixture;
}

/** The report input of a bench assignment on the fixture's subject, generated now. */
export function benchReportInput(
  fixture: SubjectFixture,
  assignment: { capMicroUsd: number | null; effectiveDate: string },
  comparables?: SubjectReportInput['comparables'],
): SubjectReportInput {
  return {
    assignment: {
      id: 'prj_bench',
      name: '1708 21st St NW',
      capMicroUsd: assignment.capMicroUsd,
      details: { subjectRef: fixture.subjectRef, subjectLabel: '1708 21ST ST NW', effectiveDate: assignment.effectiveDate, intendedUse: 'Bench', client: 'Bench', reference: 'B-1', notes: '' },
    },
    subject: fixture.subject,
    summary: fixture.summary,
    choices: [],
    queryLog: [],
    spentMicroUsd: 0,
    generatedAt: new Date().toISOString(),
    prices: { subjectReportMicroUsd: 0, summaryMicroUsd: 0 },
    ...(comparables === undefined ? {} : { comparables }),
  };
}
