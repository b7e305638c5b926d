// The PDF's digital signature: a standard adbe.pkcs7.detached signature (ISO 32000 12.8) over the whole
// file but the signature itself, made with this installation's key, so any PDF reader shows an edit
// made after export. The placeholder (signature dictionary, invisible widget, AcroForm) is written
// into the same save as the evidence, with @cantoo/pdf-lib (the @signpdf placeholder package needs
// upstream pdf-lib); @signpdf/signpdf then fills in the byte range and the CMS signature.
import { PDFArray, PDFDict, PDFHexString, PDFInvalidObject, PDFName, PDFNumber, PDFRef, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { SignPdf, Signer } from '@signpdf/signpdf';
import { ANNOTATION_FLAGS, DEFAULT_BYTE_RANGE_PLACEHOLDER, SIG_FLAGS, SUBFILTER_ADOBE_PKCS7_DETACHED } from '@signpdf/utils';
import { checkCmsDetached } from '../cms-signature.ts';

/** Room for the CMS signature in bytes: a 2048-bit RSA signature with its certificate needs about 1.5 KB. */
const SIGNATURE_CAPACITY = 8_192;

/** What signs a PDF: this installation's identity. */
export interface PdfSigner {
  signCms(content: readonly Uint8Array[], signingTime: Date): Uint8Array;
  fingerprint(): string;
}

export interface PlaceholderInput {
  /** Who signs, in words ("This Plat installation"). */
  name: string;
  reason: string;
  appName: string;
  signingTime: Date;
}

/** Adds an empty signature (byte range and contents to be filled in by signPdf) to the document before it is saved. */
export function addSignaturePlaceholder(pdf: PDFDocument, input: PlaceholderInput): void {
  const { context } = pdf;
  const placeholder = PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER);
  const byteRange = context.obj([0, placeholder, placeholder, placeholder]);
  const signature = context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    ByteRange: byteRange,
    Contents: PDFHexString.of('00'.repeat(SIGNATURE_CAPACITY)),
    Reason: PDFString.of(input.reason),
    M: PDFString.fromDate(input.signingTime),
    Name: PDFString.of(input.name),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' }, App: { Name: input.appName } },
  });
  // Written as raw bytes so the save keeps it out of a compressed object stream: signing finds and
  // fills the placeholder in the file's bytes.
  const raw = new Uint8Array(signature.sizeInBytes());
  signature.copyBytesInto(raw, 0);
  const signatureRef = context.register(PDFInvalidObject.of(raw));

  const page = pdf.getPages()[0];
  if (!page) throw new Error('the PDF has no page to hold its signature');
  const widget = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: [0, 0, 0, 0],
      V: signatureRef,
      T: PDFString.of('Plat signature'),
      F: ANNOTATION_FLAGS.PRINT,
      P: page.ref,
      // An empty appearance: the signature is invisible (readers list it in their signature panel).
      AP: { N: context.register(context.formXObject([], { BBox: [0, 0, 0, 0], Resources: {} })) },
    }),
  );
  const annotations = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray) ?? context.obj([]);
  annotations.push(widget);
  page.node.set(PDFName.of('Annots'), annotations);
  let form = pdf.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  if (!form) {
    form = context.obj({ Fields: [] });
    pdf.catalog.set(PDFName.of('AcroForm'), context.register(form));
  }
  const flags = form.lookupMaybe(PDFName.of('SigFlags'), PDFNumber)?.asNumber() ?? 0;
  form.set(PDFName.of('SigFlags'), PDFNumber.of(flags | SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY));
  const fields = form.lookupMaybe(PDFName.of('Fields'), PDFArray) ?? context.obj([]);
  fields.push(widget);
  form.set(PDFName.of('Fields'), fields);
}

class IdentitySigner extends Signer {
  readonly #signer: PdfSigner;
  constructor(signer: PdfSigner) {
    super();
    this.#signer = signer;
  }
  override sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    return Promise.resolve(Buffer.from(this.#signer.signCms([pdfBuffer], signingTime ?? new Date())));
  }
}

/** The saved PDF (with a placeholder) signed: the byte range set and the CMS signature written in. */
export async function signPdf(saved: Uint8Array, signer: PdfSigner, signingTime: Date): Promise<Uint8Array> {
  const signed = await new SignPdf().sign(Buffer.from(saved.buffer, saved.byteOffset, saved.byteLength), new IdentitySigner(signer), signingTime);
  return new Uint8Array(signed.buffer, signed.byteOffset, signed.byteLength);
}

/** A signature found in a PDF: its byte range and CMS contents, as the PDF states them. */
export interface FoundSignature {
  byteRange: number[];
  contents: Uint8Array;
  subFilter: string | null;
}

/** The signatures of a loaded PDF (signature fields with a value). */
export function findSignatures(pdf: PDFDocument): FoundSignature[] {
  const form = pdf.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const fields = form?.lookupMaybe(PDFName.of('Fields'), PDFArray);
  if (!fields) return [];
  const found: FoundSignature[] = [];
  for (let index = 0; index < fields.size(); index++) {
    const field = pdf.context.lookup(fields.get(index));
    if (!(field instanceof PDFDict) || field.lookup(PDFName.of('FT')) !== PDFName.of('Sig')) continue;
    const value = field.get(PDFName.of('V'));
    const dict = value instanceof PDFRef ? pdf.context.lookup(value) : value;
    if (!(dict instanceof PDFDict)) continue;
    const range = dict.lookup(PDFName.of('ByteRange'));
    const contents = dict.lookup(PDFName.of('Contents'));
    if (!(range instanceof PDFArray) || !(contents instanceof PDFHexString || contents instanceof PDFString)) continue;
    const numbers = range.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : Number.NaN));
    const subFilter = dict.lookup(PDFName.of('SubFilter'));
    found.push({ byteRange: numbers, contents: contents.asBytes(), subFilter: subFilter instanceof PDFName ? subFilter.decodeText() : null });
  }
  return found;
}

/** Whose signature a PDF carries, and what it covers. */
export type SignatureCheck =
  | { status: 'none'; fingerprint: null; detail: string }
  | { status: 'broken'; fingerprint: string | null; detail: string }
  | { status: 'this-installation' | 'other-installation'; fingerprint: string; signedAt: string | null; detail: string };

/**
 * Checks the PDF's signature: one signature, whose byte range is the whole file but its own contents,
 * whose digest matches those bytes and whose signature matches its certificate; then whose it is.
 */
export function checkPdfSignature(bytes: Uint8Array, signatures: readonly FoundSignature[], ownFingerprint: string | null): SignatureCheck {
  if (signatures.length === 0) return { status: 'none', fingerprint: null, detail: 'This PDF carries no digital signature.' };
  if (signatures.length > 1) return { status: 'broken', fingerprint: null, detail: 'This PDF carries more than one signature; Plat signs its reports once.' };
  const [signature] = signatures as [FoundSignature];
  const [start, firstLength, secondStart, secondLength] = signature.byteRange;
  const whole =
    signature.byteRange.length === 4 &&
    start === 0 &&
    [firstLength, secondStart, secondLength].every((value) => Number.isInteger(value) && value! >= 0) &&
    secondStart! > firstLength! &&
    secondStart! + secondLength! === bytes.byteLength;
  if (!whole) return { status: 'broken', fingerprint: null, detail: 'The signature does not cover the whole file: the PDF was changed or added to after it was signed.' };
  // The gap must be exactly the signature's own contents, written as a hex string.
  const gap = Buffer.from(bytes.subarray(firstLength!, secondStart!)).toString('latin1');
  const hex = /^<([0-9A-Fa-f]*)>$/.exec(gap)?.[1];
  if (hex === undefined || !Buffer.from(hex, 'hex').equals(Buffer.from(signature.contents))) {
    return { status: 'broken', fingerprint: null, detail: 'The signature’s byte range leaves out more than the signature itself.' };
  }
  const check = checkCmsDetached(trimmedCms(signature.contents), [bytes.subarray(0, firstLength!), bytes.subarray(secondStart!, secondStart! + secondLength!)]);
  if (!check.ok) return { status: 'broken', fingerprint: check.fingerprint, detail: `The signature is not valid: ${check.reason}.` };
  const mine = ownFingerprint !== null && check.fingerprint === ownFingerprint;
  return {
    status: mine ? 'this-installation' : 'other-installation',
    fingerprint: check.fingerprint,
    signedAt: check.signingTime?.toISOString() ?? null,
    detail: mine
      ? 'Signed by this Plat installation; the signature covers the whole file and every byte is as signed.'
      : `Signed by another Plat installation or another signer (certificate SHA-256 ${check.fingerprint}); the signature covers the whole file and every byte is as signed.`,
  };
}

/** The CMS without the zero padding the placeholder leaves after it (its DER length says where it ends). */
function trimmedCms(contents: Uint8Array): Uint8Array {
  if (contents.length < 2 || contents[0] !== 0x30) return contents;
  const lengthByte = contents[1]!;
  if (lengthByte < 0x80) return contents.subarray(0, 2 + lengthByte);
  const count = lengthByte & 0x7f;
  if (count === 0 || count > 4 || contents.length < 2 + count) return contents;
  let length = 0;
  for (let index = 0; index < count; index++) length = length * 256 + contents[2 + index]!;
  return contents.subarray(0, Math.min(contents.length, 2 + count + length));
}
