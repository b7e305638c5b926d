// The assignment workfile: one JSON file with everything an assignment holds (details, every answer
// with its request, envelope and citations, the appraiser's choices, the query log, the comparable
// sales work), so a reviewer opens the same workfile on another machine without buying anything
// again. The file carries the sha256 of its canonical content: a file that was cut short, edited or
// damaged is refused whole. The checksum alone anyone can recompute, so the file is also signed with
// the exporting installation's key (a detached RSA-SHA256 signature over the same canonical content,
// with its certificate): an import says whose signature it carries, and refuses one that does not match.
//
// Formats: 1 (no comparables) is still read, as a workfile without comparables; 2 adds `comparables`,
// and may carry `graphDecisions` (the researcher's confirmed and cut links), left out when there are none.
import { hash, verify, X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { AssignmentDetailsSchema, ServiceCallOperationSchema, ValueChoiceSchema } from '../../../shared/ipc.ts';
import { ComparablesWorkfileSchema } from '../../../shared/comparables/model.ts';
import { GraphDecisionsSchema } from '../../../shared/graph/decisions.ts';
import { QueryLogEntrySchema } from '../../../shared/report/document.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import { FILE_JSON_MAX_DEPTH, readBoundedJson } from '../../../shared/bounded-json.ts';
import { PlatFailure } from '../failure.ts';
import type { DetachedSignature } from '../installation-identity.ts';
import type { WorkfileSignature } from '../../../shared/ipc.ts';

export const WORKFILE_FORMAT = 'plat-assignment-workfile';
export const WORKFILE_VERSION = 2;
/** The longest workfile Plat writes or reads: `importAssignment` takes no more (shared/ipc.ts), so a longer one could never be opened again. */
export const MAX_WORKFILE_LENGTH = 15 * 1024 * 1024;

const MicroUsd = z.number().int().nonnegative();

export const WorkfileAnswerSchema = z.strictObject({
  id: z.string().min(1).max(64),
  operation: ServiceCallOperationSchema,
  /** The request parts as the gateway normalised them: with `connectionId`, the response cache's key. */
  request: z.record(z.string(), z.unknown()),
  /** Which service answered (`local-sample`, or `live:<origin>`): its answers stand only for that service. */
  connectionId: z.string().min(1).max(300),
  parameters: z.string(),
  label: z.string(),
  at: z.string(),
  servedAt: z.string(),
  chargedMicroUsd: MicroUsd,
  cacheHit: z.boolean(),
  replayed: z.boolean(),
  requestId: z.string().nullable(),
  /** The distinct citations of the answer, as the service gave them (also inside the envelope). */
  citations: z.array(z.record(z.string(), z.unknown())),
  envelope: z.unknown(),
});
export type WorkfileAnswer = z.infer<typeof WorkfileAnswerSchema>;

const workfileParts = {
  format: z.literal(WORKFILE_FORMAT),
  exportedAt: z.string(),
  exportedBy: z.string(),
  assignment: z.strictObject({
    id: z.string(),
    name: z.string(),
    capMicroUsd: MicroUsd.nullable(),
    createdAt: z.string(),
    details: AssignmentDetailsSchema,
  }),
  spentMicroUsd: MicroUsd,
  answers: z.array(WorkfileAnswerSchema),
  choices: z.array(ValueChoiceSchema),
  queryLog: z.array(QueryLogEntrySchema),
};

/** Format 1: written before comparables were kept. */
const WorkfileV1ContentSchema = z.strictObject({ ...workfileParts, version: z.literal(1) });

export const WorkfileContentSchema = z.strictObject({
  ...workfileParts,
  version: z.literal(WORKFILE_VERSION),
  /** The comparable-sales workfile; null when the assignment has none saved. */
  comparables: ComparablesWorkfileSchema.nullable(),
  /** The researcher's decisions on the graph's links; absent when there are none (a file written before they were kept reads the same). */
  graphDecisions: GraphDecisionsSchema.optional(),
});
export type WorkfileContent = z.infer<typeof WorkfileContentSchema>;

/** The checksum a workfile carries: sha256 of its content's canonical JSON (as written, in its own format). */
export const workfileChecksum = (content: WorkfileContent | z.infer<typeof WorkfileV1ContentSchema>): string => hash('sha256', canonicalJson(content), 'hex');

/** What signs a workfile: this installation's identity. */
export interface WorkfileSigner {
  signDetached(content: string): DetachedSignature;
}

const SignatureSchema = z.strictObject({
  algorithm: z.literal('RSA-SHA256'),
  signature: z.string().min(1).max(4_096),
  certificate: z.string().min(1).max(16_384),
});

/** The file's text: the content, its checksum and (with a signer) its signature (pretty enough to read, one answer per block). */
export function writeWorkfile(content: WorkfileContent, signer: WorkfileSigner | null = null): string {
  const signature = signer ? { signature: signer.signDetached(canonicalJson(content)) } : {};
  return `${JSON.stringify({ ...content, sha256: workfileChecksum(content), ...signature }, null, 1)}\n`;
}

const refuse = (message: string): never => {
  throw new PlatFailure('invalid_payload', `${message} Nothing was imported`);
};

/**
 * Reads a workfile, refusing with a message for a person: a file that is not Plat's, one written by
 * a newer Plat, or one that is damaged or was changed after it was exported.
 */
export function readWorkfile(text: string): WorkfileContent {
  return readSignedWorkfile(text, null).content;
}

/**
 * Reads a workfile and says whose signature it carries: this installation's (`ownFingerprint`),
 * another's, or none. A signature that does not match the content is refused with the reason.
 */
export function readSignedWorkfile(text: string, ownFingerprint: string | null): { content: WorkfileContent; signature: WorkfileSignature } {
  const read = readBoundedJson(text, { maxBytes: MAX_WORKFILE_LENGTH, maxDepth: FILE_JSON_MAX_DEPTH });
  if (!read.ok && read.reason === 'not-json') {
    return refuse('This file cannot be read as a Plat workfile: it is not complete JSON (it may be damaged, cut short, or another kind of file).');
  }
  if (!read.ok) return refuse(`This workfile ${read.problem}; Plat refuses it.`);
  const parsed = read.value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || (parsed as { format?: unknown }).format !== WORKFILE_FORMAT) {
    return refuse('This file is not a Plat assignment workfile (export one from an assignment page in Plat).');
  }
  const { version, sha256, signature, ...content } = parsed as { version?: unknown; sha256?: unknown; signature?: unknown };
  if (typeof version === 'number' && Number.isInteger(version) && version > WORKFILE_VERSION) {
    return refuse(`This workfile was written by a newer Plat (format ${version}; this Plat reads format ${WORKFILE_VERSION}). Update Plat to open it.`);
  }
  const checked = (version === 1 ? WorkfileV1ContentSchema : WorkfileContentSchema).safeParse({ ...content, version });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    if (issue?.path[0] === 'graphDecisions') {
      return refuse(`This workfile is damaged: its decisions on the graph's links (confirmed or cut, each with a note) are not in the shape Plat writes${where} (${issue.message}).`);
    }
    if (issue?.path[0] === 'comparables') {
      return refuse(`This workfile is damaged: its comparable sales (criteria, searches, chosen comps, adjustments) are not in the shape Plat writes${where} (${issue.message}).`);
    }
    return refuse(`This workfile is damaged: it does not have the shape Plat writes${where} (${issue?.message ?? 'invalid'}).`);
  }
  if (typeof sha256 !== 'string' || sha256 !== workfileChecksum(checked.data)) {
    return refuse('This workfile was changed or damaged after Plat exported it: its checksum does not match its content.');
  }
  const signedBy = checkSignature(signature, canonicalJson(checked.data), ownFingerprint);
  // A format 1 file is a workfile without comparables.
  return { content: checked.data.version === 1 ? { ...checked.data, version: WORKFILE_VERSION, comparables: null } : checked.data, signature: signedBy };
}

function checkSignature(signature: unknown, canonical: string, ownFingerprint: string | null): WorkfileSignature {
  if (signature === undefined) return { status: 'unsigned', fingerprint: null, message: 'This workfile is not signed: nothing shows which Plat exported it or that no one changed it and recomputed its checksum.' };
  const parsed = SignatureSchema.safeParse(signature);
  if (!parsed.success) return refuse('This workfile’s signature is damaged: it is not in the form Plat writes.');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(parsed.data.certificate);
  } catch {
    return refuse('This workfile’s signature is damaged: its certificate cannot be read.');
  }
  let valid: boolean;
  try {
    valid = verify('sha256', Buffer.from(canonical), certificate.publicKey, Buffer.from(parsed.data.signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) {
    return refuse(`This workfile was changed after it was signed: its signature (certificate SHA-256 ${certificate.fingerprint256}) does not match its content, although its checksum was made to.`);
  }
  const fingerprint = certificate.fingerprint256;
  if (ownFingerprint !== null && fingerprint === ownFingerprint) {
    return { status: 'this-installation', fingerprint, message: 'Signed by this Plat installation: the workfile is as it exported it.' };
  }
  return {
    status: 'other-installation',
    fingerprint,
    message: `Signed by another Plat installation (certificate SHA-256 ${fingerprint}): the workfile is as that installation exported it; its answers are that installation’s word.`,
  };
}
