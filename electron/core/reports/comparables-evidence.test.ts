// A report with a comparables section, exported and verified: its grid, the sales not used and the
// prior sales are in citations.json and citations.csv with their citations, and "Verify a report"
// compares each of them with what Plat holds now, as it does the subject's values.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { ReportDocument } from '../../../shared/report/document.ts';
import { buildSubjectReport, citationRows, citationsCsv } from '../../../shared/report/build-subject-report.ts';
import { emptyComparablesWorkfile, type ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { comps2016Run } from '../../../shared/comparables/test-kit.ts';
import type { CitationRow } from '../../../shared/report/citation-export.ts';
import { attachEvidence, CITATIONS_CSV, CITATIONS_JSON } from './pdf-evidence.ts';
import { printedPdf } from './pdf-test-kit.ts';
import { ReportPdfService } from './report-pdf-service.ts';

const read = (relative: string) => JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as Record<string, unknown>;
const subject = read('../../../shared/report/fixtures/dc-1708-21st-st-nw.json') as { subjectRef: string; subject: unknown; summary: unknown };
const comps = read('../../../shared/comparables/fixtures/dc-1708-comps-2016.json') as { envelope: { data: { items: Array<{ record_ref: string }> } } };
const ids = comps.envelope.data.items.map((item) => item.record_ref);

function report(chosen: string[], patch: Partial<ComparablesWorkfile> = {}): ReportDocument {
  const empty = emptyComparablesWorkfile();
  const workfile: ComparablesWorkfile = {
    ...empty,
    searches: [comps2016Run({ criteria: empty.criteria })],
    chosen,
    rates: { ...empty.rates, glaPerSqft: 150 },
    savedAt: '2026-11-23T22:00:00.000Z',
    ...patch,
  };
  return buildSubjectReport({
    assignment: {
      id: 'prj_1',
      name: '1708 21st St NW',
      capMicroUsd: null,
      details: { subjectRef: subject.subjectRef, subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01', intendedUse: '', client: '', reference: '', notes: '' },
    },
    subject: subject.subject,
    summary: subject.summary,
    choices: [],
    queryLog: [],
    spentMicroUsd: 550_000,
    generatedAt: '2026-11-24T12:00:00.000Z',
    prices: { subjectReportMicroUsd: 0, summaryMicroUsd: 0 },
    comparables: { workfile, pages: [comps.envelope] },
  });
}

function service(documentFor: () => ReportDocument): ReportPdfService {
  return new ReportPdfService({
    // The pages show the report's values, as the print route lays them out.
    printer: () => ({ description: 'a test printer', printReport: () => printedPdf(citationRows(documentFor())) }),
    documentFor: (id) => (id === 'prj_1' ? documentFor() : null),
    recheckPrice: () => ({ expectedCostMicroUsd: 0, calls: 0 }),
    now: () => new Date('2026-11-24T12:00:00.000Z'),
    appVersion: '0.1.0',
  });
}

async function attachment(pdfBase64: string, name: string): Promise<string> {
  const pdf = await PDFDocument.load(new Uint8Array(Buffer.from(pdfBase64, 'base64')));
  return new TextDecoder().decode(pdf.getAttachments().find((file) => file.name === name)!.data);
}

/** A PDF whose pages print `printedRows` and whose evidence is `evidenceRows`, as attachEvidence writes it (unsigned). */
async function pdfOf(printedRows: CitationRow[], evidenceRows: CitationRow[]): Promise<string> {
  const { bytes } = await attachEvidence(await printedPdf(printedRows), {
    rows: evidenceRows,
    csv: citationsCsv(evidenceRows),
    creator: 'Plat 0.1.0',
    producer: 'Plat 0.1.0',
    assignmentId: 'prj_1',
    assignmentName: '1708 21st St NW',
    subjectLabel: '1708 21ST ST NW',
    generatedAt: '2026-11-24T12:00:00.000Z',
    title: 'Subject report',
    subject: 'Subject report',
    keywords: [],
  });
  return Buffer.from(bytes).toString('base64');
}

describe('a report with comparables, exported and verified', () => {
  const chosen = [ids[3]!, ids[0]!, ids[1]!];

  it('carries the comparables values and their citations in citations.json and citations.csv', async () => {
    const document = report(chosen);
    const exported = await service(() => document).exportPdf('prj_1');
    const rows = JSON.parse(await attachment(exported.pdfBase64, CITATIONS_JSON)) as Array<{ field: string; section: string; printed: string; citations: Array<{ publisher: string }> }>;
    const comparables = rows.filter((row) => row.section === 'Comparable sales');
    expect(comparables.length).toBe(citationRows(document).filter((row) => row.section === 'Comparable sales').length);
    expect(comparables.find((row) => row.field === `comparables.grid.${ids[3]}.salePrice`)).toMatchObject({
      printed: '$1,330,000',
      citations: [expect.objectContaining({ publisher: 'DC Office of Tax and Revenue' })],
    });
    const csv = await attachment(exported.pdfBase64, CITATIONS_CSV);
    expect(csv).toContain(`comparables.grid.${ids[3]}.salePrice,Comp 1: Sale price,Comparable sales,value,,"$1,330,000",reported`);
    expect(csv).toContain('Plat synthetic sample (not a public record)');
  });

  it('verifies every value, the comparables’ included, against what Plat holds now', async () => {
    const exported = await service(() => report(chosen)).exportPdf('prj_1');
    const same = await service(() => report(chosen)).verify(exported.pdfBase64);
    expect(same.kind).toBe('plat');
    expect(same.rows.filter((row) => row.field.startsWith('comparables.')).length).toBeGreaterThan(60);
    expect(same.rows.every((row) => row.outcome === 'unchanged')).toBe(true);
    // The appraiser has since dropped comp 1: its printed cells are no longer in the report Plat holds.
    const later = await service(() => report(chosen.slice(1))).verify(exported.pdfBase64);
    expect(later.kind).toBe('plat');
    const dropped = later.rows.filter((row) => row.field === `comparables.grid.${ids[3]}.salePrice`);
    expect(dropped).toEqual([expect.objectContaining({ outcome: 'not-held', printed: '$1,330,000' })]);
    expect(later.rows.filter((row) => row.field.startsWith('ownership.')).every((row) => row.outcome === 'unchanged')).toBe(true);
  });

  it('carries the regression’s figures as derived values that Verify refits, and catches a changed one', async () => {
    const document = report(chosen);
    const rows = citationRows(document).filter((row) => row.field.startsWith('comparables.regression.'));
    // The 2016 sales around 1708 give n, R², and the time rate with its interval (the characteristics are copied, not fitted).
    expect(rows.map((row) => [row.field, row.status, row.derivation?.rule])).toEqual([
      ['comparables.regression.n', 'derived', 'ols-n'],
      ['comparables.regression.r2', 'derived', 'ols-r2'],
      ['comparables.regression.timePctPerMonth.suggested', 'derived', 'ols-rate'],
      ['comparables.regression.timePctPerMonth.interval', 'derived', 'ols-rate-interval'],
    ]);
    const exported = await service(() => document).exportPdf('prj_1');
    const verified = await service(() => document).verify(exported.pdfBase64);
    expect(verified.checks.find((check) => check.check === 'derived')).toMatchObject({ outcome: 'passed' });

    const forged = citationRows(document).map((row) => (row.field === 'comparables.regression.r2' ? { ...row, printed: '0.950' } : row));
    const caught = await service(() => document).verify(await pdfOf(forged, forged));
    const r2 = rows.find((row) => row.field === 'comparables.regression.r2')!;
    expect(caught.checks.find((check) => check.check === 'derived')).toMatchObject({
      outcome: 'failed',
      detail: expect.stringContaining(`Regression: R² reads 0.950, its inputs make ${r2.printed}`),
    });
  });
});

describe('the appraiser’s figures, exported and verified', () => {
  const chosen = [ids[3]!, ids[0]!, ids[1]!];
  // A time rate and a lump sum (adjustments the test printer can draw: it has no minus sign), and the indicated value.
  const appraised = () =>
    report(chosen, {
      rates: { ...emptyComparablesWorkfile().rates, timePctPerMonth: 0.25 },
      manual: { [ids[0]!]: { site: 12_000 } },
      reconciliation: { indicatedValueDollars: 1_400_000, comment: 'Most weight on comp 1.' },
    });
  const INDICATED = 'comparables.reconciliation.indicatedValue';

  const edit = (rows: CitationRow[], field: string, printed: string) => rows.map((row) => (row.field === field ? { ...row, printed } : row));
  const checkOf = (verification: { checks: Array<{ check: string; outcome: string; detail: string }> }, name: string) => verification.checks.find((check) => check.check === name);

  it('carries the indicated value, each adjustment and the totals in citations.json with their rule and inputs, and Verify makes each again', async () => {
    const exported = await service(appraised).exportPdf('prj_1');
    const rows = JSON.parse(await attachment(exported.pdfBase64, CITATIONS_JSON)) as CitationRow[];
    expect(rows.find((row) => row.field === INDICATED)).toMatchObject({ label: 'Indicated value by sales comparison', printed: '$1,400,000', status: 'derived', derivation: { rule: 'appraiser-value' } });
    const rules = new Set(rows.flatMap((row) => (row.derivation ? [row.derivation.rule] : [])));
    // The grid's rules (the regression's figures carry theirs too).
    expect([...rules]).toEqual(expect.arrayContaining(['adjustment-time', 'appraiser-adjustment', 'appraiser-rate', 'appraiser-value', 'gross-of-adjustments', 'percent-of-price', 'price-plus-net', 'range-of-adjusted-prices', 'sum-of-adjustments']));
    const verification = await service(appraised).verify(exported.pdfBase64);
    expect(verification.kind).toBe('plat');
    expect(checkOf(verification, 'derived')).toMatchObject({ outcome: 'passed', detail: `${rows.filter((row) => row.derivation).length} derived values made again from their inputs agree.` });
  });

  it('reports an indicated value changed in citations.json and on the page, naming it', async () => {
    const rows = citationRows(appraised());
    const forged = edit(rows, INDICATED, '$1,990,000');
    const verification = await service(appraised).verify(await pdfOf(forged, forged));
    expect(verification.kind).toBe('altered');
    expect(checkOf(verification, 'derived')).toMatchObject({ outcome: 'failed', detail: '1 derived value does not follow from its inputs: Indicated value by sales comparison reads $1,990,000, its inputs make $1,400,000.' });
    expect(verification.rows.find((row) => row.field === INDICATED)).toMatchObject({ outcome: 'altered', printed: '$1,990,000', current: '$1,400,000' });
    expect(verification.message).toContain('Indicated value by sales comparison reads $1,990,000, its inputs make $1,400,000');
  });

  it('reports an indicated value changed on the page alone, naming it', async () => {
    const rows = citationRows(appraised());
    const verification = await service(appraised).verify(await pdfOf(edit(rows, INDICATED, '$1,990,000'), rows));
    expect(verification.kind).toBe('altered');
    expect(checkOf(verification, 'pages')).toMatchObject({ outcome: 'failed', detail: expect.stringContaining('Indicated value by sales comparison “$1,400,000”') });
    expect(checkOf(verification, 'pages')?.detail).toMatch(/page \d+ reads “Indicated value by sales comparison \$1,990,000 Derived \[\d+\]/);
  });

  it('reports a changed adjustment, naming it', async () => {
    const rows = citationRows(appraised());
    const time = rows.find((row) => row.field === `comparables.grid.${ids[3]}.saleDate.adjustment`)!;
    expect(time).toMatchObject({ label: 'Comp 1: Date of sale adjustment', status: 'derived', derivation: { rule: 'adjustment-time' } });
    const forged = edit(rows, time.field, '+$99,999');
    const verification = await service(appraised).verify(await pdfOf(forged, forged));
    expect(verification.kind).toBe('altered');
    expect(checkOf(verification, 'derived')?.detail).toContain(`Comp 1: Date of sale adjustment reads +$99,999, its inputs make ${time.printed}`);
  });
});
