// The subject report: building its document from real answers (shared/report buildSubjectReport on
// the embedded service's answers for 1708 21ST ST NW), and a full PDF export in the browser host
// (print route in Debian's Chromium → PDF → citations attached), as the Report view asks for it.
// Target: PDF export ≤ 2 s in the browser host.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rendererDir, withPrintingHost } from './printing-host.ts';
import type { ReportDocument } from '../../shared/report/document.ts';
import { buildSubjectReport } from '../../shared/report/build-subject-report.ts';
import { latencyFigures, measureLatency, type LatencyFigures } from './measure.ts';

const fixturePath = fileURLToPath(new URL('../../shared/report/fixtures/dc-1708-21st-st-nw.json', import.meta.url));
const EXPORTS = 10;

function buildFromFixture(): () => ReportDocument {
  const fixture = JSON.parse(readFileSync(fixturePath, 'utf8')) as { subjectRef: string; subject: unknown; summary: unknown };
  return () =>
    buildSubjectReport({
      assignment: {
        id: 'prj_bench',
        name: '1708 21st St NW',
        capMicroUsd: 5_000_000,
        details: { subjectRef: fixture.subjectRef, subjectLabel: '1708 21ST ST NW', effectiveDate: '2026-03-02', intendedUse: 'Bench', client: 'Bench', reference: 'B-1', notes: '' },
      },
      subject: fixture.subject,
      summary: fixture.summary,
      choices: [],
      queryLog: [],
      spentMicroUsd: 0,
      generatedAt: new Date().toISOString(),
      prices: { subjectReportMicroUsd: 0, summaryMicroUsd: 0 },
    });
}


export async function benchReport(): Promise<LatencyFigures[]> {
  const build = buildFromFixture();
  const document = build();
  const values = document.sections.reduce((sum, section) => sum + section.values.length + section.tables.reduce((cells, table) => cells + table.rows.length * table.columns.length, 0), 0);
  console.log(`report document for 1708 21ST ST NW: ${document.sections.length} sections, ${values} values, ${document.citations.length} citations`);
  const figures = [await measureLatency('report document build (buildSubjectReport, 1708 21ST ST NW)', async () => build(), { requests: 500, concurrency: 1, warmup: 50 })];

  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    console.log('(no renderer build in dist/renderer: the PDF export was skipped)');
    return figures;
  }
  return withPrintingHost(async (call) => {
    const fixture = JSON.parse(readFileSync(fixturePath, 'utf8')) as { subjectRef: string };
    const assignment = await call<{ id: string }>('createAssignment', {
      name: '1708 21st St NW',
      capMicroUsd: null,
      details: { subjectRef: fixture.subjectRef, subjectLabel: '1708 21ST ST NW' },
      activate: true,
    });
    // Buy what the report needs, as the Report view's "buy" button does.
    const before = await call<ReportDocument>('getSubjectReport', { assignmentId: assignment.id });
    for (const missing of before.missing) await call(missing.ipcOperation, { ...missing.request, confirmed: true });
    const exportOnce = () => call<{ byteLength: number; pageCount: number }>('exportReportPdf', { assignmentId: assignment.id });
    const coldStarted = performance.now();
    const first = await exportOnce();
    const cold = performance.now() - coldStarted;
    console.log(`subject report PDF: ${first.pageCount} pages, ${(first.byteLength / 1024).toFixed(0)} KiB`);
    const warm: number[] = [];
    for (let index = 0; index < EXPORTS; index++) {
      const started = performance.now();
      await exportOnce();
      warm.push(performance.now() - started);
    }
    figures.push(
      latencyFigures('PDF export, first (launches Chromium)', [cold], { target: '≤ 2 s' }),
      latencyFigures('PDF export, browser host (print route → Chromium → attachments)', warm, { target: '≤ 2 s' }),
    );
    return figures;
  });
}
