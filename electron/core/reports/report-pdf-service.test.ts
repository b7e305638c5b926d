import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument } from '@cantoo/pdf-lib';
import { ReportVerificationSchema } from '../../../shared/ipc.ts';
import type { ReportDocument } from '../../../shared/report/document.ts';
import { buildSubjectReport, citationRows, citationsCsv, type SubjectReportInput } from '../../../shared/report/build-subject-report.ts';
import { asIndependentDialect } from '../../../shared/report/test-kit.ts';
import { receivedNote, receivedText } from '../../../shared/workfile/received.ts';
import { PlatFailure } from '../failure.ts';
import { CITATIONS_CSV, CITATIONS_JSON } from './pdf-evidence.ts';
import { printedPdf, smallPdf } from './pdf-test-kit.ts';
import { NoPrinterError, type Printer } from './printer.ts';
import { ReportPdfService, reportFilename, type ReportPdfServiceOptions } from './report-pdf-service.ts';

const fixture = JSON.parse(readFileSync(new URL('../../../shared/report/fixtures/dc-1708-21st-st-nw.json', import.meta.url), 'utf8')) as {
  subjectRef: string;
  subject: unknown;
  summary: unknown;
};

/** The subject report of 1708 21ST ST NW as the builder makes it from the embedded service's real answers (or `answers`). */
function subjectReport(name = '1708 21st St NW', answers: { subject: unknown; summary: unknown } = fixture): ReportDocument {
  return buildSubjectReport(subjectReportInput(name, answers));
}

function subjectReportInput(name = '1708 21st St NW', answers: { subject: unknown; summary: unknown } = fixture): SubjectReportInput {
  return {
    assignment: {
      id: 'prj_1',
      name,
      capMicroUsd: 5_000_000,
      details: { subjectRef: fixture.subjectRef, subjectLabel: '1708 21ST ST NW', effectiveDate: '2026-03-02', intendedUse: 'Refinance', client: 'First Bank', reference: 'FB-17', notes: '' },
    },
    subject: answers.subject,
    summary: answers.summary,
    choices: [],
    queryLog: [],
    spentMicroUsd: 410_000,
    generatedAt: '2026-03-02T15:04:05.000Z',
    prices: { subjectReportMicroUsd: 250_000, summaryMicroUsd: 160_000 },
  };
}

/** The same report with one printed value changed, as if a newer answer said otherwise. */
function withOwner(document: ReportDocument, owner: string): ReportDocument {
  const changed = structuredClone(document);
  const value = changed.sections.flatMap((section) => section.values).find((candidate) => candidate.field === ownerRow(document).field);
  value!.display = owner;
  return changed;
}

/** The first reported, cited value of the ownership section. */
function ownerRow(document: ReportDocument) {
  const row = citationRows(document).find((candidate) => candidate.role === 'value' && candidate.status === 'reported' && candidate.section.toLowerCase().includes('owner'));
  if (!row) throw new Error('the fixture report has no reported ownership value');
  return row;
}

/** The pages a printer prints for a report: its values, as the print route lays them out. */
const pagesOf = (document: ReportDocument) => printedPdf(citationRows(document));

class FakePrinter implements Printer {
  readonly description = 'a test printer';
  calls = 0;
  private readonly print: (call: number) => Promise<Uint8Array>;
  constructor(print: (call: number) => Promise<Uint8Array> = () => pagesOf(subjectReport())) {
    this.print = print;
  }
  printReport(): Promise<Uint8Array> {
    this.calls++;
    return this.print(this.calls);
  }
}

function service(overrides: Partial<ReportPdfServiceOptions> = {}): ReportPdfService {
  const document = subjectReport();
  return new ReportPdfService({
    printer: () => new FakePrinter(),
    documentFor: (id) => (id === 'prj_1' ? document : null),
    recheckPrice: () => ({ expectedCostMicroUsd: 410_000, calls: 2 }),
    now: () => new Date('2026-03-02T15:04:05.000Z'),
    appVersion: '0.1.0',
    ...overrides,
  });
}

const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));
const base64Of = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** The exported PDF with citations.json rewritten, the way a person would edit it with a PDF tool. */
async function withEditedJson(pdfBase64: string, edit: (rows: Array<Record<string, unknown>>) => void): Promise<string> {
  const pdf = await PDFDocument.load(bytesOf(pdfBase64));
  const json = pdf.getAttachments().find((attachment) => attachment.name === CITATIONS_JSON)!;
  const rows = JSON.parse(new TextDecoder().decode(json.data)) as Array<Record<string, unknown>>;
  edit(rows);
  pdf.detach(CITATIONS_JSON);
  await pdf.attach(new TextEncoder().encode(JSON.stringify(rows, null, 2)), CITATIONS_JSON, { mimeType: 'application/json' });
  return base64Of(await pdf.save());
}

const scratch = mkdtempSync(path.join(tmpdir(), 'plat-report-pdf-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('ReportPdfService.exportPdf', () => {
  it('attaches one row per printed value with its citation, as JSON and CSV, and sets the metadata', async () => {
    const document = subjectReport();
    const exported = await service().exportPdf('prj_1');
    expect(exported.filename).toBe('1708 21st St NW – subject report – 2026-03-02.pdf');
    expect(exported.pageCount).toBe(1);
    const bytes = bytesOf(exported.pdfBase64);
    expect(exported.byteLength).toBe(bytes.byteLength);
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    const attachments = new Map(pdf.getAttachments().map((attachment) => [attachment.name, new TextDecoder().decode(attachment.data)]));
    const rows = citationRows(document);
    expect(rows.length).toBeGreaterThan(20);
    expect(JSON.parse(attachments.get(CITATIONS_JSON)!)).toEqual(JSON.parse(JSON.stringify(rows)));
    expect(attachments.get(CITATIONS_CSV)).toBe(citationsCsv(rows));
    expect(pdf.getTitle()).toBe(`${document.cover.title} — 1708 21ST ST NW`);
    expect(pdf.getSubject()).toContain('effective 2026-03-02');
    expect(pdf.getKeywords()).toContain(fixture.subjectRef);
    expect(pdf.getCreator()).toBe('Plat 0.1.0');
    expect(pdf.getProducer()).toMatch(/^Plat 0\.1\.0/);
    expect(pdf.getCreationDate()?.toISOString()).toBe('2026-03-02T15:04:05.000Z');
    if (existsSync('/usr/bin/pdfdetach')) {
      const file = path.join(scratch, exported.filename);
      writeFileSync(file, bytes);
      const listed = execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' });
      // The name tree keeps its names sorted.
      expect(listed).toMatch(/^2 embedded files\n1: citations\.csv\n2: citations\.json\n$/);
    }
  });

  it("names the publisher of every citation it carries when the subject report came from another service (refs `<source_id>@<release_id>`, no record_refs)", async () => {
    const document = subjectReport('1708 21st St NW', { subject: asIndependentDialect(fixture.subject), summary: null });
    const exported = await service({ documentFor: () => document }).exportPdf('prj_1');
    const pdf = await PDFDocument.load(bytesOf(exported.pdfBase64), { updateMetadata: false });
    const json = pdf.getAttachments().find((attachment) => attachment.name === CITATIONS_JSON)!;
    const rows = JSON.parse(new TextDecoder().decode(json.data)) as Array<{ status: string; citations: Array<{ publisher: string | null; asOf: string | null }> }>;
    const cited = rows.filter((row) => row.status !== 'unavailable');
    expect(cited.length).toBeGreaterThan(10);
    for (const row of cited) {
      expect(row.citations.length).toBeGreaterThan(0);
      for (const citation of row.citations) expect(citation).toMatchObject({ publisher: expect.any(String), asOf: expect.any(String) });
    }
    expect(document.citations.every((citation) => citation.publisher !== null)).toBe(true);
  });

  it('prints again when the report changed while it printed, so the attachments match the pages', async () => {
    const before = subjectReport();
    const after = withOwner(before, 'SOMEONE ELSE');
    let builds = 0;
    const printer = new FakePrinter((call) => pagesOf(call === 1 ? before : after));
    const exported = await service({ printer: () => printer, documentFor: () => (++builds <= 1 ? before : after) }).exportPdf('prj_1');
    expect(printer.calls).toBe(2);
    const verification = await service({ documentFor: () => after }).verify(exported.pdfBase64);
    expect(verification.rows.every((row) => row.outcome === 'unchanged')).toBe(true);
  });

  it('refuses plainly without a printer, with a printer that cannot print, and for an unknown assignment', async () => {
    const failure = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof PlatFailure ? error.platError : error));
    const none = await failure(service({ printer: () => null }).exportPdf('prj_1'));
    expect(none).toMatchObject({ code: 'printer_unavailable', retryable: false });
    expect((none as { message: string }).message).toContain('Print on the Report view');
    const notFound = new FakePrinter(() => Promise.reject(new NoPrinterError('No Chromium, Chrome or Edge was found on this machine to print the PDF with')));
    expect(await failure(service({ printer: () => notFound }).exportPdf('prj_1'))).toMatchObject({
      code: 'printer_unavailable',
      message: expect.stringMatching(/^No Chromium, Chrome or Edge was found on this machine to print the PDF with — use Print on the Report view/),
    });
    const broken = new FakePrinter(() => Promise.reject(new Error('the report page did not finish rendering within 30 s')));
    expect(await failure(service({ printer: () => broken }).exportPdf('prj_1'))).toMatchObject({
      code: 'internal',
      message: expect.stringContaining('a test printer (the report page did not finish rendering within 30 s)'),
    });
    const garbage = new FakePrinter(async () => new TextEncoder().encode('not a pdf at all'));
    expect(await failure(service({ printer: () => garbage }).exportPdf('prj_1'))).toMatchObject({ code: 'internal' });
    const printer = new FakePrinter();
    expect(await failure(service({ printer: () => printer }).exportPdf('prj_unknown'))).toMatchObject({ code: 'not_found' });
    expect(printer.calls).toBe(0);
  });
});

describe('ReportPdfService.verify', () => {
  it('finds every value unchanged in a PDF it exported, free, and offers the re-check with its price', async () => {
    const pdf = service();
    const exported = await pdf.exportPdf('prj_1');
    const verification = ReportVerificationSchema.parse(await pdf.verify(exported.pdfBase64));
    expect(verification.kind).toBe('plat');
    expect(verification.assignmentId).toBe('prj_1');
    expect(verification.assignmentName).toBe('1708 21st St NW');
    expect(verification.rows).toHaveLength(citationRows(subjectReport()).length);
    expect(verification.rows.every((row) => row.outcome === 'unchanged' && row.current === row.printed)).toBe(true);
    expect(verification.rows.find((row) => row.field === ownerRow(subjectReport()).field)?.citation).toMatch(/^\[\d+\] /);
    expect(verification.message).toMatch(/attachments are intact, .* All \d+ values agree with the data Plat holds now\./);
    expect(verification.recheck).toEqual({ expectedCostMicroUsd: 410_000, calls: 2 });
  });

  it('names a value that differs from what Plat holds now', async () => {
    const exported = await service().exportPdf('prj_1');
    const owner = ownerRow(subjectReport());
    const verification = await service({ documentFor: () => withOwner(subjectReport(), 'SOMEONE ELSE') }).verify(exported.pdfBase64);
    expect(verification.kind).toBe('plat');
    const changed = verification.rows.filter((row) => row.outcome === 'changed');
    expect(changed).toEqual([expect.objectContaining({ field: owner.field, printed: owner.printed, current: 'SOMEONE ELSE' })]);
    expect(verification.message).toContain(`1 of ${verification.rows.length} values differ from the data Plat holds now`);
  });

  it('says the values came from a workfile when the report was built from imported answers, never that they agree with bought data', async () => {
    const from = { fileName: 'forged.plat-workfile.json', exportedBy: 'Plat 0.1.0', exportedAt: '2026-03-01T10:00:00.000Z', assignmentName: '1708 21st St NW' };
    const received = { text: receivedText(from), note: receivedNote(from), answers: ['Summary of 1708 21ST ST NW'] };
    const imported = buildSubjectReport({ ...subjectReportInput(), received });
    const exported = await service({ documentFor: () => imported }).exportPdf('prj_1');
    const held = await service({ documentFor: () => imported }).verify(exported.pdfBase64);
    expect(held.kind).toBe('plat');
    expect(held.message).not.toContain('agree with the data Plat holds now');
    expect(held.message).toContain('agree with the workfile’s answers this machine holds');
    expect(held.message).toContain('Received in workfile “forged.plat-workfile.json”, exported by Plat 0.1.0 on 2026-03-01 for “1708 21st St NW”');
    expect(held.rows.find((row) => row.field === ownerRow(imported).field)?.citation).toMatch(/Received in workfile “forged\.plat-workfile\.json”.*not bought by this Plat/);
    // Re-checked since: the data now is bought, and the PDF still says where its own values came from.
    const rechecked = await service().verify(exported.pdfBase64);
    expect(rechecked.message).toContain('Its values were printed from answers received in a workfile, not bought from the service');
  });

  it('says when this machine does not hold the assignment, and offers no re-check', async () => {
    const exported = await service().exportPdf('prj_1');
    const verification = await service({ documentFor: () => null }).verify(exported.pdfBase64);
    expect(verification.kind).toBe('plat');
    expect(verification.rows.every((row) => row.outcome === 'not-held' && row.current === null)).toBe(true);
    expect(verification.message).toContain('does not hold that assignment');
    expect(verification.recheck).toBeNull();
  });

  it('detects an edited citations.json and names the value that was edited', async () => {
    const exported = await service().exportPdf('prj_1');
    const owner = ownerRow(subjectReport());
    const edited = await withEditedJson(exported.pdfBase64, (rows) => {
      const row = rows.find((candidate) => candidate.field === owner.field && candidate.role === 'value')!;
      row.printed = 'FORGED OWNER';
    });
    const verification = await service().verify(edited);
    expect(verification.kind).toBe('altered');
    expect(verification.message).toContain('citations.json was edited');
    expect(verification.message).toContain(`1 value in citations.json differs from what Plat wrote (${owner.label})`);
    const altered = verification.rows.filter((row) => row.outcome === 'altered');
    expect(altered).toEqual([expect.objectContaining({ field: owner.field, printed: 'FORGED OWNER', current: owner.printed })]);
    // The untouched rows are still compared.
    expect(verification.rows.filter((row) => row.outcome === 'unchanged')).toHaveLength(verification.rows.length - 1);
  });

  it('refuses a citations.json nested 200,000 levels deep with a reason, not an internal error', async () => {
    const exported = await service().exportPdf('prj_1');
    const pdf = await PDFDocument.load(bytesOf(exported.pdfBase64));
    pdf.detach(CITATIONS_JSON);
    await pdf.attach(new TextEncoder().encode(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), CITATIONS_JSON, { mimeType: 'application/json' });
    const verification = await service().verify(base64Of(await pdf.save()));
    expect(verification.kind).toBe('altered');
    expect(verification.message).toContain('citations.json nests deeper than 64 levels; Plat refuses to read it');
  });

  it('detects an edited citations.csv, and a removed attachment', async () => {
    const exported = await service().exportPdf('prj_1');
    const pdf = await PDFDocument.load(bytesOf(exported.pdfBase64));
    pdf.detach(CITATIONS_CSV);
    await pdf.attach(new TextEncoder().encode('field,printed\r\nownership.owner_name,FORGED\r\n'), CITATIONS_CSV, { mimeType: 'text/csv' });
    const csvEdited = await service().verify(base64Of(await pdf.save()));
    expect(csvEdited.kind).toBe('altered');
    expect(csvEdited.message).toContain('citations.csv was edited');
    pdf.detach(CITATIONS_CSV);
    const removed = await service().verify(base64Of(await pdf.save()));
    expect(removed.kind).toBe('altered');
    expect(removed.message).toContain('citations.csv was removed');
  });

  it('tells a PDF Plat did not export, random bytes and text that is not base64 apart', async () => {
    const plain = await service().verify(base64Of(await smallPdf()));
    expect(plain.kind).toBe('not-plat');
    expect(plain.message).toMatch(/^This PDF was not exported by Plat/);
    expect(plain.rows).toEqual([]);
    const random = await service().verify(base64Of(new Uint8Array(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 256))));
    expect(random).toMatchObject({ kind: 'unreadable', message: 'This file is not a PDF.', rows: [] });
    expect((await service().verify('%%% not base64 %%%')).kind).toBe('unreadable');
    const truncated = await service().exportPdf('prj_1').then((exported) => base64Of(bytesOf(exported.pdfBase64).slice(0, 2000)));
    expect((await service().verify(truncated)).kind).toMatch(/unreadable|not-plat/);
  });
});

describe('reportFilename', () => {
  it('is the assignment, the report and the day, safe on every file system', () => {
    expect(reportFilename('1708 21st St NW', '2026-03-02T15:04:05.000Z')).toBe('1708 21st St NW – subject report – 2026-03-02.pdf');
    expect(reportFilename('Smith/Jones: "appeal"?', '2026-03-02T15:04:05.000Z')).toBe('Smith-Jones- -appeal- – subject report – 2026-03-02.pdf');
    expect(reportFilename('   ', '2026-03-02T15:04:05.000Z')).toBe('Plat – subject report – 2026-03-02.pdf');
    const long = reportFilename('x'.repeat(400), '2026-03-02T15:04:05.000Z');
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.endsWith('.pdf')).toBe(true);
  });
});
