import { describe, expect, it } from 'vitest';
import type { ReportVerification } from '../../../shared/ipc.ts';
import {
  activeAssignment,
  checkChoiceReason,
  citationIndex,
  markersFor,
  missingTotal,
  printFooterTemplate,
  printHeaderTemplate,
  reportSourceRequests,
  spendLine,
  verificationHeadline,
} from './report-model.ts';
import { sampleReport } from './report-fixture.ts';
import { printRoutePath, readPrintRoute } from '../../../shared/print-route.ts';

const verification = (overrides: Partial<ReportVerification>): ReportVerification => ({
  kind: 'plat',
  message: '',
  assignmentId: 'p1',
  assignmentName: 'Dupont row house',
  generatedAt: '2026-05-01T14:03:22.000Z',
  rows: [],
  recheck: null,
  signature: null,
  checks: [],
  ...overrides,
});
const row = (outcome: ReportVerification['rows'][number]['outcome']) => ({ field: 'f', label: 'F', printed: '1', current: '1', outcome, citation: 'c' });

describe('markers', () => {
  it('are the endnote numbers, in order, once each; unknown ids are skipped', () => {
    const index = citationIndex(sampleReport());
    expect(markersFor(['gis', 'otr', 'gis', 'nowhere'], index).map((citation) => citation.number)).toEqual([1, 4]);
    expect(markersFor([], index)).toEqual([]);
  });
});

describe('what the missing sources cost', () => {
  const source = (expectedCostMicroUsd: number | null) => ({ ipcOperation: 'getEntitySummary' as const, request: {}, label: 'x', expectedCostMicroUsd });
  it('is their sum, or not known when one price is not known (never a guess)', () => {
    expect(missingTotal({ missing: [source(300_000), source(100_000)] })).toBe(400_000);
    expect(missingTotal({ missing: [source(null), source(100_000)] })).toBeNull();
  });
});

describe('the print route', () => {
  it('is read from the page address, and nothing else is', () => {
    expect(readPrintRoute('?route=print-report&assignment=p%201')).toEqual({ assignmentId: 'p 1', dialog: false });
    expect(readPrintRoute('?route=print-report&assignment=p1&dialog=1')).toEqual({ assignmentId: 'p1', dialog: true });
    expect(readPrintRoute('?route=print-report')).toEqual({ assignmentId: '', dialog: false });
    expect(readPrintRoute('')).toBeNull();
    expect(readPrintRoute('?route=other&assignment=p1')).toBeNull();
    expect(readPrintRoute(new URL(`http://x${printRoutePath('a&b', true)}`).search)).toEqual({ assignmentId: 'a&b', dialog: true });
    expect(readPrintRoute(new URL(`http://x${printRoutePath('a&b')}`).search)).toEqual({ assignmentId: 'a&b', dialog: false });
  });

  it('gives the printer a running header and a page-number footer, with the page’s text escaped', () => {
    const doc = sampleReport({ cover: { ...sampleReport().cover, assignmentName: '<script>alert(1)</script> & co' } });
    const header = printHeaderTemplate(doc);
    expect(header).toContain('1708 21ST ST NW');
    expect(header).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    expect(header).not.toContain('<script>');
    expect(header).toMatch(/font-size:\s*[\d.]+px/);
    const footer = printFooterTemplate(doc);
    expect(footer).toContain('<span class="pageNumber"></span>');
    expect(footer).toContain('<span class="totalPages"></span>');
  });
});

describe('verification in words', () => {
  it('says plainly when the PDF is not Plat’s, unreadable or altered', () => {
    expect(verificationHeadline(verification({ kind: 'not-plat', rows: [] }))).toMatchObject({ tone: 'error', text: expect.stringContaining('not exported by Plat') });
    expect(verificationHeadline(verification({ kind: 'unreadable' }))).toMatchObject({ tone: 'error', text: expect.stringContaining('cannot read') });
    expect(verificationHeadline(verification({ kind: 'altered', rows: [row('altered'), row('unchanged')] }))).toEqual({
      tone: 'error',
      text: 'This PDF was altered after Plat wrote it (1 value).',
    });
    const broken = { status: 'broken', fingerprint: null, detail: 'The signature does not cover the whole file.' } as const;
    expect(verificationHeadline(verification({ kind: 'altered', signature: broken, rows: [row('altered')] }))).toEqual({
      tone: 'error',
      text: 'This PDF was altered after it was signed (1 value no longer agrees).',
    });
  });

  it('counts values unchanged, changed and no longer held', () => {
    expect(verificationHeadline(verification({ rows: [row('unchanged'), row('unchanged')] }))).toEqual({ tone: 'ok', text: 'All 2 values agree with the data Plat holds now.' });
    expect(verificationHeadline(verification({ rows: [row('unchanged'), row('changed'), row('not-held')] }))).toEqual({
      tone: 'warning',
      text: '1 of 3 values unchanged, 1 changed, 1 no longer held.',
    });
    expect(verificationHeadline(verification({ rows: [row('not-held')] })).text).toContain('does not hold this assignment');
  });
});

describe('the appraiser’s reason', () => {
  it('is required and bounded', () => {
    expect(checkChoiceReason('   ')).toMatchObject({ ok: false });
    expect(checkChoiceReason('x'.repeat(2_001))).toMatchObject({ ok: false, error: expect.stringContaining('2,001') });
    expect(checkChoiceReason('  The permit shows new construction in 2013.  ')).toEqual({ ok: true, value: 'The permit shows new construction in 2013.' });
  });
});

describe('assignment and spend', () => {
  const project = (id: string, assignment: boolean) => ({
    id,
    name: id,
    capMicroUsd: null,
    archived: false,
    createdAt: '2026-05-01T00:00:00Z',
    assignment: assignment
      ? { subjectRef: 'prop_x', subjectLabel: 'X', effectiveDate: '2026-05-01', intendedUse: '', client: '', reference: '', notes: '' }
      : null,
  });
  it('shows the active project only when it is an assignment', () => {
    expect(activeAssignment({ projects: [project('a', true), project('b', false)], activeProjectId: 'a' })?.id).toBe('a');
    expect(activeAssignment({ projects: [project('a', true), project('b', false)], activeProjectId: 'b' })).toBeNull();
    expect(activeAssignment({ projects: [project('a', true)], activeProjectId: null })).toBeNull();
    expect(activeAssignment(undefined)).toBeNull();
  });
  it('says what was spent against the cap', () => {
    expect(spendLine({ totalMicroUsd: 250_000, capMicroUsd: 5_000_000 })).toBe('$0.25 spent of a $5.00 cap ($4.75 left)');
    expect(spendLine({ totalMicroUsd: 6_000_000, capMicroUsd: 5_000_000 })).toBe('$6.00 spent of a $5.00 cap ($0.00 left)');
    expect(spendLine({ totalMicroUsd: 0, capMicroUsd: null })).toBe('$0.00 spent (no cap)');
  });
  it('re-checks the same two sources the report is built from', () => {
    expect(reportSourceRequests('prop_x')).toEqual([
      { operation: 'queryRecords', parts: { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: 'prop_x' } } },
      { operation: 'getEntitySummary', parts: { path: { q_id: 'prop_x' } } },
    ]);
  });
});
