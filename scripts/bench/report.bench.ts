// The subject report: building its document from real answers (shared/report buildSubjectReport on
// the embedded service's answers for 1708 21ST ST NW), and a full PDF export in the browser host
// (print route in Debian's Chromium → PDF → citations attached), as the Report view asks for it.
// Targets: PDF export ≤ 0.5 s warm (≤ 2 s for the first, which launches Chromium) in the browser host.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buyReportSources, rendererDir, withPrintingHost } from './printing-host.ts';
import { benchReportInput, readSubjectFixture } from './subject-fixture.ts';
import type { ReportDocument } from '../../shared/report/document.ts';
import { buildSubjectReport } from '../../shared/report/build-subject-report.ts';
import { atMostMs, latencyFigures, measureLatency, type BenchOptions, type LatencyFigures } from './measure.ts';
import { ReportPdfService } from '../../electron/core/reports/report-pdf-service.ts';

const EXPORTS = 10;

function buildFromFixture(): () => ReportDocument {
  const fixture = readSubjectFixture();
  return () => buildSubjectReport(benchReportInput(fixture, { capMicroUsd: 5_000_000, effectiveDate: '2026-03-02' }));
}

export async function benchReport({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  const build = buildFromFixture();
  const document = build();
  const values = document.sections.reduce((sum, section) => sum + section.values.length + section.tables.reduce((cells, table) => cells + table.rows.length * table.columns.length, 0), 0);
  console.log(`report document for 1708 21ST ST NW: ${document.sections.length} sections, ${values} values, ${document.citations.length} citations`);
  const figures = [await measureLatency('report document build (buildSubjectReport, 1708 21ST ST NW)', async () => build(), { requests: smoke ? 5 : 500, concurrency: 1, warmup: smoke ? 1 : 50 })];
  // 11 MB of junk after a %PDF- header: refused by the structural check before any parsing (it took 72 s).
  const junk = new Uint8Array(11 * 1024 * 1024);
  for (let index = 0; index < junk.length; index++) junk[index] = (index * 7919 + 13) % 251;
  junk.set(new TextEncoder().encode('%PDF-1.7\n'), 0);
  const junkBase64 = Buffer.from(junk).toString('base64');
  const verifier = new ReportPdfService({ printer: () => null, documentFor: () => null, recheckPrice: () => null });
  figures.push(await measureLatency('Verify a report: 11 MB of junk after %PDF- (refused)', () => verifier.verify(junkBase64), { requests: smoke ? 1 : 5, concurrency: 1, warmup: smoke ? 0 : 1, target: atMostMs(2000) }));

  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    console.log('(no renderer build in dist/renderer: the PDF export was skipped)');
    return figures;
  }
  return withPrintingHost(async (call) => {
    const fixture = readSubjectFixture();
    const assignment = await call<{ id: string }>('createAssignment', {
      name: '1708 21st St NW',
      capMicroUsd: null,
      details: { subjectRef: fixture.subjectRef, subjectLabel: '1708 21ST ST NW' },
      activate: true,
    });
    await buyReportSources(call, assignment.id);
    const exportOnce = () => call<{ byteLength: number; pageCount: number }>('exportReportPdf', { assignmentId: assignment.id });
    const coldStarted = performance.now();
    const first = await exportOnce();
    const cold = performance.now() - coldStarted;
    console.log(`subject report PDF: ${first.pageCount} pages, ${(first.byteLength / 1024).toFixed(0)} KiB`);
    const warm: number[] = [];
    for (let index = 0; index < (smoke ? 1 : EXPORTS); index++) {
      const started = performance.now();
      await exportOnce();
      warm.push(performance.now() - started);
    }
    figures.push(
      latencyFigures('PDF export, first (launches Chromium)', [cold], { target: atMostMs(2_000) }),
      latencyFigures('PDF export, browser host (print route → Chromium → attachments)', warm, { target: atMostMs(500) }),
    );
    return figures;
  });
}
