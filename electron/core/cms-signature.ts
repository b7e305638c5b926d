// Detached CMS (PKCS #7) signatures, the kind a PDF's adbe.pkcs7.detached signature holds: encoded
// with node-forge's ASN.1 (node:crypto cannot build CMS), digested, signed and checked with node:crypto.
// A check says what it proved: that the signed bytes are the ones the signer's certificate signed, and
// whose certificate that is (its SHA-256 fingerprint). Nothing here trusts the certificate: whose
// word it is comes from comparing its fingerprint with this installation's.
import { createHash, sign, verify, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SHA256 = '2.16.840.1.101.3.4.2.1';
const OID_DATA = '1.2.840.113549.1.7.1';
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';
const OID_RSA_ENCRYPTION = '1.2.840.113549.1.1.1';

/**
 * A detached CMS SignedData over `content`, with the certificate inside; DER. Assembled with forge's
 * ASN.1 writer, but digested and signed with node:crypto: forge's own SHA-256 took 0.7 s on a 3 MB PDF.
 */
export function signCmsDetached(content: Uint8Array | readonly Uint8Array[], privateKey: KeyObject, certificateDer: Uint8Array, signingTime: Date): Uint8Array {
  const { asn1 } = forge;
  const { UNIVERSAL, CONTEXT_SPECIFIC } = asn1.Class;
  const seq = (...items: forge.asn1.Asn1[]) => asn1.create(UNIVERSAL, asn1.Type.SEQUENCE, true, items);
  const set = (...items: forge.asn1.Asn1[]) => asn1.create(UNIVERSAL, asn1.Type.SET, true, items);
  const oidNode = (value: string) => asn1.create(UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(value).getBytes());
  const octets = (bytes: Uint8Array) => asn1.create(UNIVERSAL, asn1.Type.OCTETSTRING, false, Buffer.from(bytes).toString('binary'));
  const sha256Algorithm = () => seq(oidNode(OID_SHA256), asn1.create(UNIVERSAL, asn1.Type.NULL, false, ''));
  const der = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');

  const certificate = asn1.fromDer(forge.util.createBuffer(Buffer.from(certificateDer).toString('binary')));
  const tbs = children(children(certificate)[0]);
  const serial = tbs[1]!;
  const issuer = tbs[3]!;
  const digest = createHash('sha256');
  for (const part of Array.isArray(content) ? content : [content as Uint8Array]) digest.update(part);
  const attributes = [
    seq(oidNode(OID_CONTENT_TYPE), set(oidNode(OID_DATA))),
    seq(oidNode(OID_SIGNING_TIME), set(asn1.create(UNIVERSAL, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(signingTime)))),
    seq(oidNode(OID_MESSAGE_DIGEST), set(octets(digest.digest()))),
  ]
    // DER orders a SET OF by its members' encodings.
    .map((node) => ({ node, bytes: der(node) }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
    .map(({ node }) => node);
  const signature = sign('sha256', der(set(...attributes)), privateKey);
  const signerInfo = seq(
    asn1.create(UNIVERSAL, asn1.Type.INTEGER, false, '\x01'),
    seq(issuer, serial),
    sha256Algorithm(),
    asn1.create(CONTEXT_SPECIFIC, 0, true, attributes),
    seq(oidNode(OID_RSA_ENCRYPTION), asn1.create(UNIVERSAL, asn1.Type.NULL, false, '')),
    octets(signature),
  );
  const signedData = seq(
    asn1.create(UNIVERSAL, asn1.Type.INTEGER, false, '\x01'),
    set(sha256Algorithm()),
    seq(oidNode(OID_DATA)),
    asn1.create(CONTEXT_SPECIFIC, 0, true, [certificate]),
    set(signerInfo),
  );
  return new Uint8Array(der(seq(oidNode(OID_SIGNED_DATA), asn1.create(CONTEXT_SPECIFIC, 0, true, [signedData]))));
}

export type CmsCheck =
  | { ok: true; certificate: X509Certificate; fingerprint: string; signingTime: Date | null }
  | { ok: false; reason: string; fingerprint: string | null };

/** Checks a detached CMS signature over `signedBytes`: the digest it signed and the signature of the signer's certificate. Never throws. */
export function checkCmsDetached(der: Uint8Array, signedBytes: Uint8Array | readonly Uint8Array[]): CmsCheck {
  let parts: ReturnType<typeof signerParts>;
  try {
    parts = signerParts(der);
  } catch {
    return { ok: false, reason: 'the signature cannot be read', fingerprint: null };
  }
  const { certificate, signedAttributes, signature, digestOid, messageDigest, signingTime } = parts;
  const fingerprint = certificate.fingerprint256;
  if (digestOid !== OID_SHA256) return { ok: false, reason: 'the signature uses a digest Plat does not check (only SHA-256)', fingerprint };
  const digest = createHash('sha256');
  for (const part of Array.isArray(signedBytes) ? signedBytes : [signedBytes as Uint8Array]) digest.update(part);
  if (messageDigest === null || !Buffer.from(messageDigest).equals(digest.digest())) {
    return { ok: false, reason: 'the signed bytes were changed after signing (their digest differs from the signed one)', fingerprint };
  }
  let valid: boolean;
  try {
    valid = verify('sha256', signedAttributes, certificate.publicKey, signature);
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: 'the signature does not match its certificate', fingerprint };
  return { ok: true, certificate, fingerprint, signingTime };
}

/** The first signer of a SignedData: its certificate, its signed attributes (DER, as signed: a SET) and its signature. */
function signerParts(der: Uint8Array) {
  const root = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(der).toString('binary')), false);
  const [contentType, explicit] = children(root);
  if (oid(contentType) !== OID_SIGNED_DATA) throw new Error('not SignedData');
  const signedData = children(children(explicit)[0]);
  const certificates = signedData.find((node) => node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === 0);
  const signerInfos = signedData.at(-1)!;
  const signerInfo = children(children(signerInfos)[0]);
  const digestOid = oid(children(signerInfo[2])[0]);
  const attributes = signerInfo.find((node) => node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === 0);
  if (!attributes || !certificates) throw new Error('no signed attributes or certificate');
  const signatureNode = signerInfo.at(-1)!;
  // The signature covers the attributes encoded as a SET, not as the [0] they are stored under.
  const asSet = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, children(attributes));
  let messageDigest: Uint8Array | null = null;
  let signingTime: Date | null = null;
  for (const attribute of children(attributes)) {
    const [type, values] = children(attribute);
    const value = children(values)[0];
    if (oid(type) === OID_MESSAGE_DIGEST && typeof value?.value === 'string') messageDigest = Buffer.from(value.value, 'binary');
    if (oid(type) === OID_SIGNING_TIME && typeof value?.value === 'string') {
      signingTime = value.type === forge.asn1.Type.UTCTIME ? forge.asn1.utcTimeToDate(value.value) : forge.asn1.generalizedTimeToDate(value.value);
    }
  }
  const certificate = new X509Certificate(Buffer.from(forge.asn1.toDer(children(certificates)[0]!).getBytes(), 'binary'));
  return {
    certificate,
    signedAttributes: Buffer.from(forge.asn1.toDer(asSet).getBytes(), 'binary'),
    signature: Buffer.from(String(signatureNode.value), 'binary'),
    digestOid,
    messageDigest,
    signingTime,
  };
}

function children(node: forge.asn1.Asn1 | undefined): forge.asn1.Asn1[] {
  if (!node || !Array.isArray(node.value)) throw new Error('unexpected ASN.1 shape');
  return node.value;
}

function oid(node: forge.asn1.Asn1 | undefined): string {
  if (!node || node.type !== forge.asn1.Type.OID || typeof node.value !== 'string') throw new Error('expected an OID');
  return forge.asn1.derToOid(node.value);
}
