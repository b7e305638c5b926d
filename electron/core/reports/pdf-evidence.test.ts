import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFHexString, PDFName } from '@cantoo/pdf-lib';
import { smallPdf } from './pdf-test-kit.ts';
import { attachEvidence, CITATIONS_CSV, CITATIONS_JSON, readEvidence, rowDigest, sha256Hex, type EvidenceInput } from './pdf-evidence.ts';

const rows = [
  { field: 'ownership.owner_name', label: 'Owner', value: 'SMITH JOHN', status: 'reported' },
  { field: 'assessment.total', label: 'Assessed value', value: '$1,250,000', status: 'reported' },
];

const input: EvidenceInput = {
  rows,
  csv: 'field,label,value,status\r\nownership.owner_name,Owner,SMITH JOHN,reported\r\nassessment.total,Assessed value,"$1,250,000",reported\r\n',
  creator: 'Plat 0.1.0',
  producer: 'Plat 0.1.0 (test)',
  assignmentId: 'prj_1',
  assignmentName: '1708 21st St NW',
  subjectLabel: '1708 21ST ST NW',
  generatedAt: '2026-03-02T15:04:05.000Z',
  title: 'Subject report — 1708 21ST ST NW',
  subject: 'Subject report for 1708 21ST ST NW',
  keywords: ['Plat', 'subject report'],
};

const hasPoppler = existsSync('/usr/bin/pdfdetach') && existsSync('/usr/bin/pdfinfo');
const scratch = mkdtempSync(path.join(tmpdir(), 'plat-pdf-evidence-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('attachEvidence', () => {
  it('attaches citations.json and citations.csv, sets the metadata and keeps the pages', async () => {
    const { bytes, pageCount } = await attachEvidence(await smallPdf(3), input);
    expect(pageCount).toBe(3);
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    const attachments = new Map(pdf.getAttachments().map((attachment) => [attachment.name, attachment]));
    expect([...attachments.keys()].sort()).toEqual([CITATIONS_CSV, CITATIONS_JSON]);
    expect(JSON.parse(new TextDecoder().decode(attachments.get(CITATIONS_JSON)!.data))).toEqual(rows);
    expect(new TextDecoder().decode(attachments.get(CITATIONS_CSV)!.data)).toBe(input.csv);
    expect(attachments.get(CITATIONS_JSON)!.mimeType).toBe('application/json');
    expect(pdf.getTitle()).toBe(input.title);
    expect(pdf.getSubject()).toBe(input.subject);
    expect(pdf.getKeywords()).toBe('Plat, subject report');
    expect(pdf.getCreator()).toBe('Plat 0.1.0');
    expect(pdf.getProducer()).toBe('Plat 0.1.0 (test)');
    expect(pdf.getCreationDate()?.toISOString()).toBe(input.generatedAt);
  });

  it.runIf(hasPoppler)('is read the same by poppler: pdfdetach lists the two attachments, pdfinfo the metadata', async () => {
    const { bytes } = await attachEvidence(await smallPdf(), input);
    const file = path.join(scratch, 'report.pdf');
    writeFileSync(file, bytes);
    const listed = execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' });
    expect(listed).toContain('2 embedded files');
    expect(listed).toContain(CITATIONS_JSON);
    expect(listed).toContain(CITATIONS_CSV);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(info).toMatch(/Title:\s+Subject report — 1708 21ST ST NW/);
    expect(info).toMatch(/Creator:\s+Plat 0\.1\.0/);
    execFileSync('pdfdetach', ['-saveall', '-o', scratch, file]);
  });
});

describe('readEvidence', () => {
  it('reads back the manifest with each attachment’s sha256 and each row’s digest', async () => {
    const { bytes } = await attachEvidence(await smallPdf(), input);
    const evidence = await readEvidence(bytes);
    expect(evidence.kind).toBe('evidence');
    if (evidence.kind !== 'evidence') return;
    expect(evidence.manifest?.assignmentId).toBe('prj_1');
    expect(evidence.manifest?.rowDigests).toEqual(rows.map(rowDigest));
    const json = evidence.attachments.get(CITATIONS_JSON)!;
    expect(evidence.manifest?.attachments.find((file) => file.name === CITATIONS_JSON)?.sha256).toBe(sha256Hex(json));
  });

  it('tells a PDF without Plat’s evidence, random bytes and a damaged PDF apart', async () => {
    expect((await readEvidence(await smallPdf())).kind).toBe('not-plat');
    expect(await readEvidence(new Uint8Array([1, 2, 3, 4, 5, 6]))).toEqual({ kind: 'unreadable', reason: 'This file is not a PDF.' });
    const truncated = (await smallPdf()).slice(0, 40);
    expect((await readEvidence(truncated)).kind).toMatch(/unreadable|not-plat/);
  });

  it('says so when the manifest comes from a newer Plat', async () => {
    const { bytes } = await attachEvidence(await smallPdf(), input);
    const pdf = await PDFDocument.load(bytes);
    const info = pdf.context.lookup(pdf.context.trailerInfo.Info, PDFDict);
    info.set(PDFName.of('PlatReport'), PDFHexString.fromText(JSON.stringify({ format: 'plat-report-evidence', version: 9 })));
    const evidence = await readEvidence(await pdf.save());
    expect(evidence).toMatchObject({ kind: 'evidence', newerVersion: 9, manifest: null });
  });
});
