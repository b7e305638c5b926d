// PDF export of the subject report and "Verify a report". The printer (Electron's hidden window or a
// Chromium on the machine) prints the renderer's print route; this service then attaches the
// evidence (citations.json, citations.csv and the manifest, pdf-evidence.ts), sets the metadata and
// signs the whole with this installation's key. Verification reads any PDF back, checks it against
// itself (signature, attachments, pages) and compares it with what Plat holds now, at no cost.
import type { ReportVerification } from '../../../shared/ipc.ts';
import { formatDay } from '../../../shared/format-date.ts';
import { safeFilename } from '../../../shared/filename.ts';
import type { ReportDocument } from '../../../shared/report/document.ts';
import { citationRows, citationsCsv } from '../../../shared/report/build-subject-report.ts';
import { PlatFailure } from '../failure.ts';
import { attachEvidence, MAX_VERIFIED_PDF_BYTES, MAX_VERIFY_BYTES, readEvidence, rowDigest } from './pdf-evidence.ts';
import { checkPdfSignature, type PdfSigner, type SignatureCheck } from './pdf-signature.ts';
import { pageLines, type PageLine } from './pdf-text.ts';
import { NoPrinterError, type Printer } from './printer.ts';
import { verifyEvidence } from './verify-report.ts';
import { printedValuesOf, rowsFromJson } from './citation-rows.ts';

export interface ReportPdfServiceOptions {
  printer: () => Printer | null;
  /** The report document as Plat holds it now (built from the assignment's kept answers); null for an unknown assignment. */
  documentFor: (assignmentId: string) => ReportDocument | null;
  /** What re-checking an assignment's sources against the service would cost now (refreshing its report answers). */
  recheckPrice: (assignmentId: string) => { expectedCostMicroUsd: number | null; calls: number } | null;
  now?: () => Date;
  /** Names the creator in the PDF's metadata ("Plat 0.1.0"). */
  appVersion?: string;
  /** This installation's signing identity: every exported PDF is signed with it; null exports unsigned. */
  signer?: PdfSigner | null;
}

export interface ExportedPdf {
  filename: string;
  pdfBase64: string;
  pageCount: number;
  byteLength: number;
}

/** Printing again when the report changed while it printed (an answer bought meanwhile), at most this often. */
const PRINT_ATTEMPTS = 2;

export class ReportPdfService {
  private readonly options: ReportPdfServiceOptions;

  constructor(options: ReportPdfServiceOptions) {
    this.options = options;
  }

  async exportPdf(assignmentId: string): Promise<ExportedPdf> {
    let document = this.documentOrFail(assignmentId);
    const printer = this.options.printer();
    if (!printer) throw noPrinter('Plat has no PDF printer here');
    for (let attempt = 1; ; attempt++) {
      const printed = await this.print(printer, assignmentId);
      // The pages were printed from the report as it was while printing: the evidence must be the same.
      const after = this.documentOrFail(assignmentId);
      if (sameValues(document, after) || attempt === PRINT_ATTEMPTS) {
        document = after;
        return this.withEvidence(printed, document);
      }
      document = after;
    }
  }

  async verify(pdfBase64: string): Promise<ReportVerification> {
    // The size is checked on the text, before anything is decoded or parsed.
    const tooLarge = pdfBase64.length > Math.ceil((MAX_VERIFY_BYTES * 4) / 3) + 4096;
    const bytes = tooLarge ? null : bytesFromBase64(pdfBase64);
    const evidence = tooLarge
      ? ({ kind: 'unreadable', reason: `This file is larger than ${MAX_VERIFY_BYTES / 1024 / 1024} MB; Plat verifies PDFs up to that size, and the reports it exports are far smaller.` } as const)
      : bytes === null
        ? ({ kind: 'unreadable', reason: 'This file is not a PDF.' } as const)
        : await readEvidence(bytes);
    let signature: SignatureCheck = { status: 'none', fingerprint: null, detail: 'This PDF carries no digital signature.' };
    let pages: PageLine[][] | null = null;
    if (bytes !== null && evidence.kind === 'evidence' && evidence.manifest !== null) {
      signature = checkPdfSignature(bytes, evidence.signatures, this.options.signer?.fingerprint() ?? null);
      pages = await pageLines(bytes).catch(() => null);
    }
    return verifyEvidence({
      evidence,
      signature,
      pages,
      rowsOf: rowsFromJson,
      current: (assignmentId) => {
        const document = this.options.documentFor(assignmentId);
        return document === null ? null : printedValuesOf(citationRows(document));
      },
      recheck: (assignmentId) => this.options.recheckPrice(assignmentId),
      received: (assignmentId) => this.options.documentFor(assignmentId)?.received?.text ?? null,
    });
  }

  private documentOrFail(assignmentId: string): ReportDocument {
    const document = this.options.documentFor(assignmentId);
    if (!document) throw new PlatFailure('not_found', 'There is no assignment with this id on this machine');
    return document;
  }

  private async print(printer: Printer, assignmentId: string): Promise<Uint8Array> {
    try {
      return await printer.printReport(assignmentId);
    } catch (error) {
      if (error instanceof PlatFailure) throw error;
      if (error instanceof NoPrinterError) throw noPrinter(error.message);
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new PlatFailure('internal', `The report could not be printed to PDF with ${printer.description} (${reason})`);
    }
  }

  private async withEvidence(printed: Uint8Array, document: ReportDocument): Promise<ExportedPdf> {
    const generatedAt = (this.options.now?.() ?? new Date()).toISOString();
    const rows = citationRows(document);
    const creator = this.options.appVersion ? `Plat ${this.options.appVersion}` : 'Plat';
    const { cover } = document;
    let result: { bytes: Uint8Array; pageCount: number };
    try {
      result = await attachEvidence(printed, {
        rows,
        csv: citationsCsv(rows),
        creator,
        producer: `${creator} (Chromium PDF, citations attached with @cantoo/pdf-lib)`,
        assignmentId: document.assignmentId,
        assignmentName: cover.assignmentName,
        subjectLabel: cover.subjectLabel,
        generatedAt,
        title: `${cover.title} — ${cover.subjectLabel}`,
        subject: `Subject report for ${cover.subjectLabel}, effective ${cover.effectiveDate}; assignment “${cover.assignmentName}”${cover.client ? ` for ${cover.client}` : ''}. Every value is cited: citations.json and citations.csv are attached.`,
        keywords: ['Plat', 'subject report', 'cited values', cover.subjectRef, document.assignmentId, ...(cover.reference ? [cover.reference] : [])],
        signer: this.options.signer ?? null,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new PlatFailure('internal', `The printed report could not be read to attach its citations (${reason})`);
    }
    if (result.bytes.byteLength > MAX_VERIFIED_PDF_BYTES) {
      throw new PlatFailure('internal', `The PDF would be ${Math.ceil(result.bytes.byteLength / 1024 / 1024)} MB, more than Plat can verify later (${Math.floor(MAX_VERIFIED_PDF_BYTES / 1024 / 1024)} MB)`);
    }
    return {
      filename: reportFilename(cover.assignmentName, generatedAt),
      pdfBase64: Buffer.from(result.bytes).toString('base64'),
      pageCount: result.pageCount,
      byteLength: result.bytes.byteLength,
    };
  }
}

/** `<assignment name> – subject report – <date>.pdf`, safe on every file system. */
export function reportFilename(assignmentName: string, generatedAt: string): string {
  const name = assignmentName.replace(/\s+/g, ' ').trim() || 'Plat';
  return safeFilename(`${name} – subject report – ${formatDay(generatedAt)}.pdf`);
}

function noPrinter(reason: string): PlatFailure {
  return new PlatFailure('printer_unavailable', reason);
}

/** Whether two builds of a report print the same values with the same citations. */
function sameValues(a: ReportDocument, b: ReportDocument): boolean {
  const left = citationRows(a).map(rowDigest);
  const right = citationRows(b).map(rowDigest);
  return left.length === right.length && left.every((digest, index) => digest === right[index]);
}

function bytesFromBase64(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, '').replace(/^data:application\/pdf;base64,/, '');
  if (compact.length === 0 || compact.length % 4 === 1 || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) return null;
  return new Uint8Array(Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64'));
}

