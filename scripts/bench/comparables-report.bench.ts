// The subject report with its comparables section: building the document from real answers (the
// embedded service's subject report for 1708 21ST ST NW and its comparables search, sold in 2016),
// and the whole PDF export in the browser host (print route → the map drawn offscreen → Chromium →
// citations attached) for an assignment seeded as an appraiser would: the subject bought, a search
// run (both pages, undated sales included), five comps chosen, two rates, an indicated value, and the
// sample's copied areas accepted for the grid (the sales' areas are the sample's copies: without the act
// the price-against-size chart has nothing to draw). So the PDF holds the three charts of issue 23: the
// market's price trend (from the search's sales), the comps' adjusted prices with the indicated value,
// and sale price against size with the comps drawn apart; each a vector SVG with alt text and its table.
// Targets: comps PDF export with the three charts p50 ≤ 1.5 s (≤ 3 s for the first, which launches
// Chromium). The seeding is exported for scripts that want to look at the PDF.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buyReportSources, rendererDir, withPrintingHost, type CoreCall } from './printing-host.ts';
import { benchReportInput, readSubjectFixture } from './subject-fixture.ts';
import type { ReportDocument } from '../../shared/report/document.ts';
import { buildSubjectReport } from '../../shared/report/build-subject-report.ts';
import { comparablesRequestBody } from '../../shared/comparables/search.ts';
import { DEFAULT_CRITERIA, emptyComparablesWorkfile, type ComparablesWorkfile, type CompSearchRun } from '../../shared/comparables/model.ts';
import { atMostMs, latencyFigures, measureLatency, type BenchOptions, type LatencyFigures } from './measure.ts';

const compsFixturePath = fileURLToPath(new URL('../../shared/comparables/fixtures/dc-1708-comps-2016.json', import.meta.url));
const EXPORTS = 10;
const EFFECTIVE_DATE = '2017-01-01';
export const COMPS_SUBJECT_REF = 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b';

type Json = Record<string, unknown>;
const record = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});

/** Five chosen comps and two rates over a search's pages, as the appraiser leaves them. */
function workfileFor(run: CompSearchRun, envelopes: unknown[]): ComparablesWorkfile {
  const items = envelopes.flatMap((envelope) => {
    const list = record(record(envelope).data).items;
    return Array.isArray(list) ? list.map(record) : [];
  });
  // Dated market sales, nearest first as the service lists them.
  const chosen = items
    .filter((item) => {
      const transfer = record(record(item.sections).transfer);
      return typeof transfer.sale_date === 'string' && typeof transfer.price_dollars === 'number' && transfer.price_dollars > 0;
    })
    .slice(0, 5)
    .map((item) => String(item.record_ref));
  const empty = emptyComparablesWorkfile();
  return {
    ...empty,
    criteria: run.criteria,
    searches: [run],
    chosen,
    rates: { ...empty.rates, glaPerSqft: 150, timePctPerMonth: 0.25 },
    rateSource: { glaPerSqft: 'appraiser', timePctPerMonth: 'appraiser' },
    weights: Object.fromEntries(chosen.map((id, index) => [id, index < 2 ? 'most' : 'less'])),
    reconciliation: { indicatedValueDollars: 1_400_000, comment: 'Most weight on comps 1 and 2, the nearest arm’s-length sales; the others bracket the subject’s condition.' },
    syntheticAccepted: [{ row: 'gla', compId: null, reason: 'Areas checked against the listing sheets and the assessor’s sketches.', at: '2026-11-27T22:30:00Z' }],
  };
}

function buildFromFixtures(): () => ReportDocument {
  const subject = readSubjectFixture();
  const comps = JSON.parse(readFileSync(compsFixturePath, 'utf8')) as { request: Json; envelope: { data: { total: number; snapshot: string } } };
  const run: CompSearchRun = {
    id: 'run_bench',
    criteria: { ...DEFAULT_CRITERIA, includeUndated: false },
    effectiveDate: EFFECTIVE_DATE,
    radiusMiles: 0.5,
    pages: [comps.request],
    ranAt: '2026-11-23T21:45:24.090Z',
    dataAsOf: comps.envelope.data.snapshot,
    total: comps.envelope.data.total,
    returned: comps.envelope.data.total,
  };
  const workfile = workfileFor(run, [comps.envelope]);
  return () => buildSubjectReport(benchReportInput(subject, { capMicroUsd: null, effectiveDate: EFFECTIVE_DATE }, { workfile, pages: [comps.envelope] }));
}

/**
 * An assignment for 1708 21ST ST NW, effective 2017-01-01, with its subject report and summary bought,
 * the default search run (every page), and the workfile saved: five comps, two rates, an indicated value.
 */
export async function seedComparablesAssignment(call: CoreCall, name = '1708 21st St NW comparables'): Promise<{ assignmentId: string; workfile: ComparablesWorkfile }> {
  const assignment = await call<{ id: string }>('createAssignment', {
    name,
    capMicroUsd: null,
    details: { subjectRef: COMPS_SUBJECT_REF, subjectLabel: '1708 21ST ST NW', effectiveDate: EFFECTIVE_DATE, client: 'Bench Bank', intendedUse: 'Mortgage lending decision' },
    activate: true,
  });
  await buyReportSources(call, assignment.id);
  const report = await call<ReportDocument>('getSubjectReport', { assignmentId: assignment.id });
  const useCode = report.sections.flatMap((section) => section.values).find((value) => value.field === 'identity.use_code');
  const criteria = DEFAULT_CRITERIA;
  const pages: Json[] = [];
  const envelopes: unknown[] = [];
  let cursor: string | undefined;
  do {
    const body = comparablesRequestBody(COMPS_SUBJECT_REF, criteria, EFFECTIVE_DATE, useCode?.raw === null || useCode === undefined ? null : String(useCode.raw), cursor);
    const answer = await call<{ envelope: unknown }>('queryRecords', { request: { body }, confirmed: true });
    pages.push(body);
    envelopes.push(answer.envelope);
    const next = record(record(answer.envelope).meta).next_cursor;
    cursor = typeof next === 'string' ? next : undefined;
  } while (cursor !== undefined && pages.length < 5);
  const data = record(record(envelopes[0]).data);
  const returned = envelopes.reduce<number>((sum, envelope) => {
    const items = record(record(envelope).data).items;
    return sum + (Array.isArray(items) ? items.length : 0);
  }, 0);
  const run: CompSearchRun = {
    id: 'run_seed',
    criteria,
    effectiveDate: EFFECTIVE_DATE,
    radiusMiles: 0.5,
    pages,
    ranAt: new Date().toISOString(),
    dataAsOf: typeof data.snapshot === 'string' ? data.snapshot : null,
    total: typeof data.total === 'number' ? data.total : returned,
    returned,
  };
  const saved = await call<{ workfile: ComparablesWorkfile }>('saveComparables', { assignmentId: assignment.id, workfile: workfileFor(run, envelopes) });
  return { assignmentId: assignment.id, workfile: saved.workfile };
}

export { withPrintingHost, type CoreCall };

export async function benchComparablesReport({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  const build = buildFromFixtures();
  const document = build();
  const grid = document.comparables?.grid;
  const charts = [document.comparables?.market?.chart, ...(document.comparables?.charts ?? [])].filter((chart) => chart !== undefined);
  console.log(
    `report document with comparables: ${grid?.columns.length ?? 0} comps × ${grid?.rows.length ?? 0} grid rows, ${document.comparables?.notUsed.length ?? 0} not used, ${document.citations.length} citations, ${charts.length} charts (${charts.map((chart) => `${chart.id}: ${chart.points.length} points`).join(', ')})`,
  );
  const figures = [await measureLatency('report document build with comparables (1708 21ST ST NW, 14 sales, 5 comps)', async () => build(), { requests: smoke ? 5 : 200, concurrency: 1, warmup: smoke ? 1 : 20 })];

  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    console.log('(no renderer build in dist/renderer: the comps PDF export was skipped)');
    return figures;
  }
  return withPrintingHost(async (call) => {
    const { assignmentId, workfile } = await seedComparablesAssignment(call);
    const exportOnce = () => call<{ byteLength: number; pageCount: number }>('exportReportPdf', { assignmentId });
    const coldStarted = performance.now();
    const first = await exportOnce();
    const cold = performance.now() - coldStarted;
    console.log(`comps report PDF: ${workfile.searches[0]?.returned ?? 0} sales, ${workfile.chosen.length} comps, ${first.pageCount} pages, ${(first.byteLength / 1024).toFixed(0)} KiB`);
    const warm: number[] = [];
    for (let index = 0; index < (smoke ? 1 : EXPORTS); index++) {
      const started = performance.now();
      await exportOnce();
      warm.push(performance.now() - started);
    }
    const sorted = [...warm].sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? Number.NaN;
    console.log(`comps PDF export p95: ${p95.toFixed(0)} ms`);
    figures.push(
      latencyFigures('comps PDF export, first (launches Chromium)', [cold], { target: atMostMs(3_000) }),
      latencyFigures('comps PDF export (print route, map image, Chromium, attachments)', warm, { target: atMostMs(1_500) }),
    );
    // Verify reads it back: signature, attachments, CSV, every page's text, derived values.
    const { pdfBase64 } = await call<{ pdfBase64: string }>('exportReportPdf', { assignmentId });
    const verifications: number[] = [];
    for (let index = 0; index < 5; index++) {
      const started = performance.now();
      await call('verifyReport', { pdfBase64 });
      verifications.push(performance.now() - started);
    }
    figures.push(latencyFigures(`Verify a report: the comps PDF (${first.pageCount} pages)`, verifications));
    return figures;
  });
}
