// The evidence a Plat PDF carries: `citations.json` and `citations.csv` as file attachments (one row
// per printed value with its full citation), the document's metadata, and a manifest in the PDF's
// document information (`/PlatReport`) holding the sha256 of each attachment and of each row, so an
// attachment changed after export is detected and the rows it touched are named. The manifest is not
// a signature (anyone can recompute it): the PDF's digital signature (pdf-signature.ts), made last,
// is what proves whose it is and that no byte changed.
import { createHash } from 'node:crypto';
import { AFRelationship, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, EncryptedPDFError } from '@cantoo/pdf-lib';
import { z } from 'zod';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import { addSignaturePlaceholder, findSignatures, signPdf, type FoundSignature, type PdfSigner } from './pdf-signature.ts';
import { FILE_JSON_MAX_DEPTH, readBoundedJson } from '../../../shared/bounded-json.ts';

export const CITATIONS_JSON = 'citations.json';
export const CITATIONS_CSV = 'citations.csv';

/**
 * The largest PDF exported: "Verify a report" takes a PDF back over the same bridge, whose requests
 * stop at 15 MiB of base64 (shared/ipc.ts verifyReport), so a larger one could never be verified.
 * No JSON inside one (its manifest, its citations.json) is read past this size either.
 */
export const MAX_VERIFIED_PDF_BYTES = Math.floor((15 * 1024 * 1024 * 3) / 4);
/** The document-information key holding the manifest. */
const MANIFEST_KEY = 'PlatReport';
const MANIFEST_FORMAT = 'plat-report-evidence';
export const MANIFEST_VERSION = 1;
/**
 * Objects pdf-lib reads or writes before it lets other work run. Its defaults (100 and 50) suit a
 * browser tab; a tagged report with a comparables section holds some 20,000 objects, and yielding
 * every 50 of them added about 1.5 s to each export. Every 2,000 still lets the core answer between.
 */
const PDF_OBJECTS_PER_TICK = 2_000;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const EvidenceManifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  version: z.number().int().min(1),
  /** "Plat 0.1.0": who wrote it. */
  creator: z.string(),
  assignmentId: z.string(),
  assignmentName: z.string(),
  subjectLabel: z.string(),
  generatedAt: z.string(),
  attachments: z.array(z.object({ name: z.string(), sha256: Sha256, byteLength: z.number().int().min(0) })),
  /** sha256 of each row of citations.json (its canonical JSON), in order: names the rows an edit touched. */
  rowDigests: z.array(Sha256),
});
export type EvidenceManifest = z.infer<typeof EvidenceManifestSchema>;

export interface EvidenceInput {
  /** One per printed value (shared/report citationRows). */
  rows: readonly unknown[];
  csv: string;
  creator: string;
  producer: string;
  assignmentId: string;
  assignmentName: string;
  subjectLabel: string;
  generatedAt: string;
  title: string;
  subject: string;
  keywords: string[];
  /** Signs the PDF once its evidence is attached (this installation's identity); unsigned without one. */
  signer?: PdfSigner | null;
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The digest that identifies one row, whatever the key order it is written in. */
export function rowDigest(row: unknown): string {
  return sha256Hex(canonicalJson(row));
}

/** The printed PDF with its evidence attached and its metadata set; the pages are untouched. */
export async function attachEvidence(printed: Uint8Array, input: EvidenceInput): Promise<{ bytes: Uint8Array; pageCount: number }> {
  // Chromium's PDF keeps its own producer line until we set ours below.
  const pdf = await PDFDocument.load(printed, { updateMetadata: false, parseSpeed: PDF_OBJECTS_PER_TICK });
  const generated = new Date(input.generatedAt);
  const json = new TextEncoder().encode(`${JSON.stringify(input.rows, null, 2)}\n`);
  const csv = new TextEncoder().encode(input.csv);
  const files = [
    { name: CITATIONS_JSON, bytes: json, mimeType: 'application/json', description: 'Every value printed in this report with its field, status and full citation (JSON)' },
    { name: CITATIONS_CSV, bytes: csv, mimeType: 'text/csv', description: 'Every value printed in this report with its field, status and full citation (CSV, RFC 4180)' },
  ];
  for (const file of files) {
    await pdf.attach(file.bytes, file.name, {
      mimeType: file.mimeType,
      description: file.description,
      creationDate: generated,
      modificationDate: generated,
      afRelationship: AFRelationship.Data,
    });
  }
  pdf.setTitle(input.title, { showInWindowTitleBar: true });
  pdf.setSubject(input.subject);
  // One entry, comma-separated: pdf-lib joins entries with spaces, which would split "subject report".
  pdf.setKeywords([input.keywords.join(', ')]);
  pdf.setCreator(input.creator);
  pdf.setProducer(input.producer);
  pdf.setCreationDate(generated);
  pdf.setModificationDate(generated);
  pdf.setLanguage('en-US');
  const manifest: EvidenceManifest = {
    format: MANIFEST_FORMAT,
    version: MANIFEST_VERSION,
    creator: input.creator,
    assignmentId: input.assignmentId,
    assignmentName: input.assignmentName,
    subjectLabel: input.subjectLabel,
    generatedAt: input.generatedAt,
    attachments: files.map((file) => ({ name: file.name, sha256: sha256Hex(file.bytes), byteLength: file.bytes.byteLength })),
    // Digests of the rows as written (and read back): what JSON drops (undefined) must not count.
    rowDigests: (JSON.parse(new TextDecoder().decode(json)) as unknown[]).map(rowDigest),
  };
  infoDict(pdf).set(PDFName.of(MANIFEST_KEY), PDFHexString.fromText(JSON.stringify(manifest)));
  const signer = input.signer ?? null;
  if (signer) addSignaturePlaceholder(pdf, { name: 'This Plat installation', reason: 'Exported by Plat with its evidence attached', appName: input.creator, signingTime: generated });
  const saved = await pdf.save({ objectsPerTick: PDF_OBJECTS_PER_TICK });
  const bytes = signer ? await signPdf(saved, signer, generated) : saved;
  return { bytes, pageCount: pdf.getPageCount() };
}

/** What a PDF holds, as far as verification reads it. */
export type ReadEvidence =
  | { kind: 'unreadable'; reason: string }
  | { kind: 'not-plat'; reason: string }
  | {
      kind: 'evidence';
      /** Null when the PDF has Plat's attachments but no readable manifest (re-saved or edited). */
      manifest: EvidenceManifest | null;
      /** A manifest written by a newer Plat (its version). */
      newerVersion: number | null;
      attachments: Map<string, Uint8Array>;
      /** The digital signatures the PDF carries, as it states them (pdf-signature.ts checks them). */
      signatures: FoundSignature[];
      /** Annotations of kinds Plat's PDFs never carry (Plat writes links and its signature's widget), by page. */
      foreignAnnotations: { page: number; subtype: string }[];
    };

/**
 * The largest PDF Verify reads: checked before anything is parsed. The bridge already stops at about
 * 11 MB; this bounds any other caller, and a report Plat exports is far smaller.
 */
export const MAX_VERIFY_BYTES = 50 * 1024 * 1024;

/** Reads the manifest and attachments of any PDF; never throws for bad input. */
export async function readEvidence(bytes: Uint8Array): Promise<ReadEvidence> {
  if (bytes.byteLength > MAX_VERIFY_BYTES) {
    return { kind: 'unreadable', reason: `This file is ${Math.ceil(bytes.byteLength / 1024 / 1024)} MB; Plat verifies PDFs up to ${MAX_VERIFY_BYTES / 1024 / 1024} MB, and the reports it exports are far smaller.` };
  }
  if (!looksLikePdf(bytes)) return { kind: 'unreadable', reason: 'This file is not a PDF.' };
  const structure = structuralProblem(bytes);
  if (structure !== null) return { kind: 'unreadable', reason: `This PDF is damaged or is not a PDF at all: ${structure}.` };
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: PDF_OBJECTS_PER_TICK });
  } catch (error) {
    // Plat never encrypts its reports, so an encrypted PDF is someone else's.
    if (error instanceof EncryptedPDFError) return { kind: 'not-plat', reason: 'This PDF is encrypted; reports Plat exports never are, so it was not exported by Plat.' };
    return { kind: 'unreadable', reason: 'This PDF is damaged or in a form Plat cannot read.' };
  }
  const attachments = new Map<string, Uint8Array>();
  let rawManifest: string | null;
  let signatures: FoundSignature[];
  let foreignAnnotations: { page: number; subtype: string }[];
  try {
    for (const attachment of pdf.getAttachments()) {
      if (attachment.name === CITATIONS_JSON || attachment.name === CITATIONS_CSV) attachments.set(attachment.name, attachment.data);
    }
    rawManifest = manifestText(pdf);
    signatures = findSignatures(pdf);
    foreignAnnotations = foreignAnnotationsOf(pdf);
  } catch {
    return { kind: 'unreadable', reason: 'This PDF’s attachments are damaged; Plat cannot read them.' };
  }
  if (rawManifest === null && attachments.size === 0) {
    return { kind: 'not-plat', reason: 'This PDF was not exported by Plat: it carries no Plat citations.' };
  }
  if (rawManifest === null) return { kind: 'evidence', manifest: null, newerVersion: null, attachments, signatures, foreignAnnotations };
  // A manifest that is too large or too deep to be Plat's reads as a missing one: the PDF was changed.
  const read = readBoundedJson(rawManifest, { maxBytes: MAX_VERIFIED_PDF_BYTES, maxDepth: FILE_JSON_MAX_DEPTH });
  if (!read.ok) return { kind: 'evidence', manifest: null, newerVersion: null, attachments, signatures, foreignAnnotations };
  const parsedJson = read.value;
  const version = z.object({ format: z.literal(MANIFEST_FORMAT), version: z.number() }).safeParse(parsedJson);
  if (version.success && version.data.version > MANIFEST_VERSION) return { kind: 'evidence', manifest: null, newerVersion: version.data.version, attachments, signatures, foreignAnnotations };
  const manifest = EvidenceManifestSchema.safeParse(parsedJson);
  return { kind: 'evidence', manifest: manifest.success ? manifest.data : null, newerVersion: null, attachments, signatures, foreignAnnotations };
}

function looksLikePdf(bytes: Uint8Array): boolean {
  // The header may follow a few bytes of junk (the format allows it within the first 1024 bytes).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

/**
 * A fast look at the file's end before parsing it: a PDF ends with `startxref`, the offset of its
 * cross-reference section, and `%%EOF`. Parsing junk object by object took a minute on 11 MB; this
 * takes microseconds and refuses what has no PDF ending.
 */
export function structuralProblem(bytes: Uint8Array): string | null {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.byteLength - 1024))).toString('latin1');
  if (!/%%EOF\s*$/.test(tail)) return 'it does not end with the end-of-file marker every PDF ends with';
  const offset = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)?.[1];
  if (offset === undefined) return 'it does not say where its cross-reference table is';
  const at = Number(offset);
  if (!Number.isSafeInteger(at) || at >= bytes.byteLength) return 'its cross-reference table is said to be past its end';
  const there = Buffer.from(bytes.subarray(at, at + 64)).toString('latin1');
  if (!/^\s*(xref\b|\d+\s+\d+\s+obj\b)/.test(there)) return 'there is no cross-reference table where it says';
  return null;
}

/** Chromium writes links (the markers, the outline's targets); Plat adds its signature's widget. */
const PLAT_ANNOTATIONS = new Set(['Link', 'Widget']);

function foreignAnnotationsOf(pdf: PDFDocument): { page: number; subtype: string }[] {
  const found: { page: number; subtype: string }[] = [];
  pdf.getPages().forEach((page, index) => {
    const annotations = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    if (!annotations) return;
    for (let at = 0; at < annotations.size(); at++) {
      const annotation = pdf.context.lookup(annotations.get(at));
      const subtype = annotation instanceof PDFDict ? annotation.lookup(PDFName.of('Subtype')) : null;
      const name = subtype instanceof PDFName ? subtype.decodeText() : 'unknown';
      if (!PLAT_ANNOTATIONS.has(name)) found.push({ page: index + 1, subtype: name });
    }
  });
  return found;
}

function infoDict(pdf: PDFDocument): PDFDict {
  // setTitle above has created the information dictionary if the printer wrote none.
  const info = pdf.context.lookup(pdf.context.trailerInfo.Info);
  if (!(info instanceof PDFDict)) throw new Error('the PDF has no document information dictionary');
  return info;
}

function manifestText(pdf: PDFDocument): string | null {
  const info = pdf.context.lookup(pdf.context.trailerInfo.Info);
  if (!(info instanceof PDFDict)) return null;
  const value = info.lookup(PDFName.of(MANIFEST_KEY));
  return value instanceof PDFHexString || value instanceof PDFString ? value.decodeText() : null;
}
