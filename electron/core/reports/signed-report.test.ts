// Signed, self-checking PDFs: the signature a reader can check, and Verify failing each forgery of
// issue 20 — an overlaid page, a resealed CSV, a changed derived value, an unsigned file edited.
import { execFileSync } from 'node:child_process';
import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import forge from 'node-forge';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, rgb, StandardFonts } from '@cantoo/pdf-lib';
import { ReportVerificationSchema } from '../../../shared/ipc.ts';
import type { ReportDocument } from '../../../shared/report/document.ts';
import { buildSubjectReport, citationRows, citationsCsv, type CitationRow } from '../../../shared/report/build-subject-report.ts';
import { InstallationIdentity, memoryIdentityStorage } from '../installation-identity.ts';
import { attachEvidence, CITATIONS_CSV, CITATIONS_JSON, EvidenceManifestSchema, readEvidence, rowDigest, sha256Hex } from './pdf-evidence.ts';
import { printedPdf } from './pdf-test-kit.ts';
import { ReportPdfService } from './report-pdf-service.ts';

const fixture = JSON.parse(readFileSync(new URL('../../../shared/report/fixtures/dc-1708-21st-st-nw.json', import.meta.url), 'utf8')) as {
  subjectRef: string;
  subject: unknown;
  summary: unknown;
};

/** The subject report of 1708 21ST ST NW, with a derived total that carries its inputs and rule. */
function report(): ReportDocument {
  const document = buildSubjectReport({
    assignment: {
      id: 'prj_1',
      name: '1708 21st St NW',
      capMicroUsd: 5_000_000,
      details: { subjectRef: fixture.subjectRef, subjectLabel: '1708 21ST ST NW', effectiveDate: '2026-03-02', intendedUse: 'Refinance', client: 'First Bank', reference: 'FB-17', notes: '' },
    },
    subject: fixture.subject,
    summary: fixture.summary,
    choices: [],
    queryLog: [],
    spentMicroUsd: 410_000,
    generatedAt: '2026-03-02T15:04:05.000Z',
    prices: { subjectReportMicroUsd: 250_000, summaryMicroUsd: 160_000 },
  });
  const section = document.sections[0]!;
  section.values.push({
    field: 'portfolio.total_assessed_value_dollars',
    label: 'Portfolio total assessed value',
    raw: 2_604_520,
    display: '$2,604,520',
    status: 'derived',
    citationIds: section.values[0]!.citationIds,
    derivedFrom: 'Sum of the assessed values of both holdings.',
    limitation: null,
    derivation: { rule: 'sum-of-dollars', inputs: [1_302_760, 1_301_760] },
    alternatives: [],
    choice: null,
  });
  return document;
}

const here = new InstallationIdentity(memoryIdentityStorage());
const elsewhere = new InstallationIdentity(memoryIdentityStorage());

function service(signer: InstallationIdentity | null = here): ReportPdfService {
  const document = report();
  return new ReportPdfService({
    printer: () => ({ description: 'a test printer', printReport: () => printedPdf(citationRows(document)) }),
    documentFor: (id) => (id === 'prj_1' ? document : null),
    recheckPrice: () => ({ expectedCostMicroUsd: 410_000, calls: 2 }),
    now: () => new Date('2026-03-02T15:04:05.000Z'),
    appVersion: '0.1.0',
    signer,
  });
}

const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));
const base64Of = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const checkOf = (verification: { checks: { check: string; outcome: string; detail: string }[] }, name: string) => verification.checks.find((check) => check.check === name);

async function exported(signer: InstallationIdentity | null = here): Promise<Uint8Array> {
  return bytesOf((await service(signer).exportPdf('prj_1')).pdfBase64);
}

/** The PDF with its attachments replaced and the manifest recomputed to match, as a forger would. */
async function resealed(bytes: Uint8Array, edit: { json?: (rows: CitationRow[]) => void; csv?: (csv: string) => string }): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const attachments = new Map(pdf.getAttachments().map((attachment) => [attachment.name, new TextDecoder().decode(attachment.data)]));
  const rows = JSON.parse(attachments.get(CITATIONS_JSON)!) as CitationRow[];
  if (edit.json) edit.json(rows);
  const json = new TextEncoder().encode(`${JSON.stringify(rows, null, 2)}\n`);
  const csv = new TextEncoder().encode(edit.csv ? edit.csv(attachments.get(CITATIONS_CSV)!) : edit.json ? citationsCsv(rows) : attachments.get(CITATIONS_CSV)!);
  for (const [name, data, mimeType] of [[CITATIONS_JSON, json, 'application/json'], [CITATIONS_CSV, csv, 'text/csv']] as const) {
    pdf.detach(name);
    await pdf.attach(data, name, { mimeType });
  }
  const info = pdf.context.lookup(pdf.context.trailerInfo.Info, PDFDict);
  const manifest = EvidenceManifestSchema.parse(JSON.parse((info.lookup(PDFName.of('PlatReport')) as PDFHexString).decodeText()));
  manifest.attachments = [
    { name: CITATIONS_JSON, sha256: sha256Hex(json), byteLength: json.byteLength },
    { name: CITATIONS_CSV, sha256: sha256Hex(csv), byteLength: csv.byteLength },
  ];
  manifest.rowDigests = rows.map(rowDigest);
  info.set(PDFName.of('PlatReport'), PDFHexString.fromText(JSON.stringify(manifest)));
  return pdf.save();
}

const ownerOf = (rows: readonly CitationRow[]) => rows.find((row) => row.label === 'Owner of record' && row.role === 'value')!;

const scratch = mkdtempSync(path.join(tmpdir(), 'plat-signed-report-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a signed PDF', () => {
  it('carries a standard signature over the whole file, made with this installation’s certificate (checked with node:crypto)', async () => {
    const bytes = await exported();
    const text = Buffer.from(bytes).toString('latin1');
    expect(text).toContain('/SubFilter /adbe.pkcs7.detached');
    const [, ...range] = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!.map(Number);
    const [start, firstLength, secondStart, secondLength] = range as [number, number, number, number];
    expect(start).toBe(0);
    expect(secondStart + secondLength).toBe(bytes.byteLength);
    const hex = text.slice(firstLength + 1, secondStart - 1);
    expect(hex).toMatch(/^[0-9a-f]+$/i);

    // The CMS: its signed attributes, their signature, and the certificate (read with forge's ASN.1 reader).
    // The placeholder's zero padding follows the CMS: forge reads up to its end (its typings lack the option).
    const cms = forge.asn1.fromDer(Buffer.from(hex, 'hex').toString('binary'), { parseAllBytes: false } as unknown as boolean);
    const signedData = (((cms.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!.value) as forge.asn1.Asn1[];
    const certificateNode = (signedData.find((node) => node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === 0)!.value as forge.asn1.Asn1[])[0]!;
    const certificate = new X509Certificate(Buffer.from(forge.asn1.toDer(certificateNode).getBytes(), 'binary'));
    expect(certificate.fingerprint256).toBe(here.fingerprint());
    const signerInfo = ((signedData.at(-1)!.value as forge.asn1.Asn1[])[0]!.value) as forge.asn1.Asn1[];
    const attributes = signerInfo.find((node) => node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === 0)!;
    const digestAttribute = (attributes.value as forge.asn1.Asn1[]).find((attribute) => forge.asn1.derToOid((attribute.value as forge.asn1.Asn1[])[0]!.value as string) === '1.2.840.113549.1.9.4')!;
    const signedDigest = Buffer.from(((digestAttribute.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!.value as string, 'binary');
    const digest = createHash('sha256').update(bytes.subarray(0, firstLength)).update(bytes.subarray(secondStart)).digest();
    expect(signedDigest.equals(digest)).toBe(true);
    const asSet = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes.value as forge.asn1.Asn1[]);
    const signature = Buffer.from(signerInfo.at(-1)!.value as string, 'binary');
    expect(verifySignature('sha256', Buffer.from(forge.asn1.toDer(asSet).getBytes(), 'binary'), certificate.publicKey, signature)).toBe(true);

    if (existsSync('/usr/bin/pdfsig')) {
      const file = path.join(scratch, 'signed.pdf');
      writeFileSync(file, bytes);
      const report = execFileSync('pdfsig', [file], { encoding: 'utf8' });
      expect(report).toContain('Signature is Valid');
      expect(report).toContain('Total document signed');
    }
  });

  it('verifies as signed by this installation, every check passed', async () => {
    const verification = ReportVerificationSchema.parse(await service().verify(base64Of(await exported())));
    expect(verification.kind).toBe('plat');
    expect(verification.signature).toMatchObject({ status: 'this-installation', fingerprint: here.fingerprint() });
    expect(verification.checks.map((check) => [check.check, check.outcome])).toEqual([
      ['signature', 'passed'],
      ['attachments', 'passed'],
      ['csv', 'passed'],
      ['pages', 'passed'],
      ['derived', 'passed'],
    ]);
    expect(verification.message).toContain('Signed by this Plat installation: every byte is as it signed.');
  });

  it('says whose word a PDF signed by another installation is', async () => {
    const verification = await service(here).verify(base64Of(await exported(elsewhere)));
    expect(verification.kind).toBe('plat');
    expect(verification.signature).toMatchObject({ status: 'other-installation', fingerprint: elsewhere.fingerprint() });
    expect(verification.message).toContain('the values agree with their evidence; their origin is that installation’s word');
  });
});

describe('Verify fails a forged PDF', () => {
  it('fails a page with “Owner of record: MALLORY” drawn over it, the evidence untouched', async () => {
    for (const signer of [here, null]) {
      const pdf = await PDFDocument.load(await exported(signer));
      const font = await pdf.embedFont(StandardFonts.Helvetica);
      pdf.getPage(0).drawRectangle({ x: 60, y: 560, width: 500, height: 200, color: rgb(1, 1, 1) });
      pdf.getPage(0).drawText('Owner of record: MALLORY', { x: 72, y: 600, size: 12, font });
      const verification = await service().verify(base64Of(await pdf.save()));
      expect(verification.kind).toBe('altered');
      expect(checkOf(verification, 'pages')).toMatchObject({ outcome: 'failed', detail: expect.stringContaining('“Owner of record: MALLORY”, which no value of the evidence says') });
      expect(checkOf(verification, 'attachments')?.outcome).toBe('passed');
      expect(verification.signature?.status).toBe(signer ? 'broken' : 'none');
    }
  });

  it('reads a label followed by markers alone as no value (a permit status “ISSUED [6]” under an “Issued” label)', async () => {
    const pdf = await PDFDocument.load(await exported(null));
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    // Two pieces on one line, as a table draws a cell and its markers.
    pdf.getPage(0).drawText('Owner of record', { x: 72, y: 40, size: 8, font });
    pdf.getPage(0).drawText('[1]', { x: 140, y: 40, size: 8, font });
    const verification = await service().verify(base64Of(await pdf.save()));
    expect(checkOf(verification, 'pages')).toMatchObject({ outcome: 'passed' });
  });

  it('fails a page with a text box annotation laid over it (a reader’s overlay, not page text)', async () => {
    const pdf = await PDFDocument.load(await exported(null));
    const page = pdf.getPage(0);
    const note = pdf.context.register(
      pdf.context.obj({ Type: 'Annot', Subtype: 'FreeText', Rect: [72, 600, 400, 620], Contents: PDFString.of('Owner of record: MALLORY'), DA: PDFString.of('/Helv 12 Tf 0 g') }),
    );
    page.node.set(PDFName.of('Annots'), pdf.context.obj([note]));
    const verification = await service().verify(base64Of(await pdf.save()));
    expect(verification.kind).toBe('altered');
    expect(checkOf(verification, 'pages')?.detail).toContain('page 1 carries a FreeText annotation, which Plat never writes');
  });

  it('fails a resealed citations.csv (edited, the manifest recomputed)', async () => {
    const original = await exported();
    const owner = ownerOf(JSON.parse(new TextDecoder().decode((await readEvidenceOf(original)).get(CITATIONS_JSON)!)) as CitationRow[]);
    const forged = await resealed(original, { csv: (csv) => csv.replace(owner.printed, 'MALLORY') });
    const verification = await service().verify(base64Of(forged));
    expect(verification.kind).toBe('altered');
    expect(checkOf(verification, 'attachments')?.outcome).toBe('passed');
    expect(checkOf(verification, 'csv')).toMatchObject({ outcome: 'failed', detail: expect.stringContaining('1 row of citations.csv differs from citations.json (Owner of record)') });
    expect(verification.rows.find((row) => row.label === 'Owner of record')?.outcome).toBe('altered');
  });

  it('fails a changed derived value whose inputs say otherwise, even consistently forged and signed elsewhere', async () => {
    const rows = citationRows(report()).map((row) => (row.derivation ? { ...row, printed: '$9,999,999' } : row));
    const { bytes } = await attachEvidence(await printedPdf(rows), {
      rows,
      csv: citationsCsv(rows),
      creator: 'Plat 0.1.0',
      producer: 'Plat 0.1.0',
      assignmentId: 'prj_1',
      assignmentName: '1708 21st St NW',
      subjectLabel: '1708 21ST ST NW',
      generatedAt: '2026-03-02T15:04:05.000Z',
      title: 'Subject report',
      subject: 'Subject report',
      keywords: [],
      signer: elsewhere,
    });
    const verification = await service().verify(base64Of(bytes));
    expect(verification.kind).toBe('altered');
    expect(verification.signature?.status).toBe('other-installation');
    expect(checkOf(verification, 'derived')).toMatchObject({
      outcome: 'failed',
      detail: expect.stringContaining('Portfolio total assessed value reads $9,999,999, its inputs make $2,604,520'),
    });
    expect(checkOf(verification, 'pages')?.outcome).toBe('passed');
  });

  it('fails an unsigned PDF whose evidence was edited and resealed, because the pages say otherwise', async () => {
    const forged = await resealed(await exported(null), { json: (rows) => void (ownerOf(rows).printed = 'MALLORY FORGED-OWNER') });
    const verification = await service().verify(base64Of(forged));
    expect(verification.kind).toBe('altered');
    expect(verification.signature?.status).toBe('none');
    expect(checkOf(verification, 'attachments')?.outcome).toBe('passed');
    expect(checkOf(verification, 'csv')?.outcome).toBe('passed');
    expect(checkOf(verification, 'pages')).toMatchObject({ outcome: 'failed', detail: expect.stringContaining('Owner of record “MALLORY FORGED-OWNER”') });
  });

  it('says an unsigned, untouched PDF proves only that its parts agree', async () => {
    const verification = await service().verify(base64Of(await exported(null)));
    expect(verification.kind).toBe('plat');
    expect(verification.message).toContain('Not signed: nothing proves which Plat made this PDF');
  });
});

describe('Verify bounds its work', () => {
  it('refuses 11 MB of junk after a %PDF- header before parsing it', async () => {
    const junk = new Uint8Array(11 * 1024 * 1024);
    for (let index = 0; index < junk.length; index++) junk[index] = (index * 7919 + 13) % 251;
    junk.set(new TextEncoder().encode('%PDF-1.7\n'), 0);
    const verification = await service().verify(base64Of(junk));
    expect(verification).toMatchObject({ kind: 'unreadable', message: expect.stringContaining('does not end with the end-of-file marker') });
  });

  it('refuses a file over the size limit before reading it', async () => {
    const evidence = await readEvidence(new Uint8Array(51 * 1024 * 1024));
    expect(evidence).toMatchObject({ kind: 'unreadable', reason: expect.stringContaining('Plat verifies PDFs up to 50 MB') });
  });
});

async function readEvidenceOf(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const evidence = await readEvidence(bytes);
  if (evidence.kind !== 'evidence') throw new Error('no evidence');
  return evidence.attachments;
}
