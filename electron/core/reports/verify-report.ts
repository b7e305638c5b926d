// "Verify a report": what a PDF's evidence says, checked against the manifest Plat wrote beside it and
// then value by value against the data Plat holds now. Pure: reading the PDF (pdf-evidence.ts) and
// building the current document are the caller's; nothing here costs anything.
import type { ReportVerification } from '../../../shared/ipc.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { FILE_JSON_MAX_DEPTH, readBoundedJsonBytes } from '../../../shared/bounded-json.ts';
import { saysReceived } from '../../../shared/workfile/received.ts';
import { CITATIONS_JSON, MAX_VERIFIED_PDF_BYTES, rowDigest, sha256Hex, type ReadEvidence } from './pdf-evidence.ts';

/** One printed value as verification compares it. */
export interface PrintedValue {
  field: string;
  label: string;
  /** The value as printed. */
  printed: string;
  status: string;
  /** The full citation, in words. */
  citation: string;
}

export interface VerifyInput {
  evidence: ReadEvidence;
  /** The rows of a citations.json, each with its view; null when the text is not Plat's rows (unreadable, or not a list). */
  rowsOf: (json: unknown) => { raw: unknown; view: PrintedValue | null }[] | null;
  /** The printed values of the assignment's report as Plat holds it now; null for an assignment this machine does not hold. */
  current: (assignmentId: string) => PrintedValue[] | null;
  recheck: (assignmentId: string) => ReportVerification['recheck'];
  /** Where the answers the assignment's report reads now came from when a workfile brought them ("Received in workfile …"); null when bought here. */
  received: (assignmentId: string) => string | null;
}

type Row = ReportVerification['rows'][number];

export function verifyEvidence(input: VerifyInput): ReportVerification {
  const { evidence } = input;
  const empty = { assignmentId: null, assignmentName: null, generatedAt: null, rows: [], recheck: null };
  if (evidence.kind === 'unreadable') return { kind: 'unreadable', message: evidence.reason, ...empty };
  if (evidence.kind === 'not-plat') return { kind: 'not-plat', message: `${evidence.reason} Only reports exported from Plat’s Report view can be verified.`, ...empty };
  if (evidence.newerVersion !== null) {
    return { kind: 'unreadable', message: `This report was exported by a newer version of Plat (evidence format ${evidence.newerVersion}); update Plat to verify it.`, ...empty };
  }

  const jsonBytes = evidence.attachments.get(CITATIONS_JSON) ?? null;
  const read = jsonBytes === null ? null : readCitationsJson(jsonBytes);
  const rows = read === null || typeof read === 'string' ? null : input.rowsOf(read.value);
  const { manifest } = evidence;
  if (manifest === null) {
    return {
      kind: 'altered',
      message: 'This PDF carries Plat’s citations, but the record of what Plat attached is missing or damaged: the PDF was changed after it was exported, so its citations cannot be trusted.',
      ...empty,
      rows: (rows ?? []).map(({ view }) => alteredRow(view, null)),
    };
  }

  // What changed since Plat wrote it: attachments (by their sha256) and, inside citations.json, rows.
  const problems: string[] = [];
  for (const written of manifest.attachments) {
    const bytes = evidence.attachments.get(written.name);
    if (!bytes) problems.push(`${written.name} was removed`);
    else if (sha256Hex(bytes) !== written.sha256) problems.push(`${written.name} was edited`);
  }
  if (typeof read === 'string') problems.push(read);
  else if (jsonBytes !== null && rows === null) problems.push(`${CITATIONS_JSON} is no longer readable`);
  const writtenDigests = new Set(manifest.rowDigests);
  const seenDigests = new Set<string>();
  const currentRows = input.current(manifest.assignmentId);
  const nextCurrent = occurrenceMatcher(currentRows ?? []);
  const result: Row[] = [];
  const alteredLabels: string[] = [];
  for (const { raw, view } of rows ?? []) {
    const digest = rowDigest(raw);
    const intact = view !== null && writtenDigests.has(digest);
    if (intact) seenDigests.add(digest);
    const now = view === null ? null : nextCurrent(view.field);
    if (!intact) {
      alteredLabels.push(view?.label ?? 'an unreadable row');
      result.push(alteredRow(view, now));
      continue;
    }
    if (currentRows === null || now === null) {
      result.push({ ...rowOf(view), current: null, outcome: 'not-held' });
      continue;
    }
    const same = now.printed === view.printed && now.status === view.status;
    const current = now.status === view.status ? now.printed : `${now.printed} (now ${now.status})`;
    result.push({ ...rowOf(view), current, outcome: same ? 'unchanged' : 'changed' });
  }
  const removed = rows === null ? 0 : manifest.rowDigests.filter((digest) => !seenDigests.has(digest)).length;
  if (alteredLabels.length > 0) problems.push(`${count(alteredLabels.length, 'value')} in ${CITATIONS_JSON} ${alteredLabels.length === 1 ? 'differs' : 'differ'} from what Plat wrote (${summarise(alteredLabels)})`);
  if (removed > alteredLabels.length) problems.push(`${count(removed - alteredLabels.length, 'value')} Plat wrote ${removed - alteredLabels.length === 1 ? 'is' : 'are'} missing`);

  const exported = `Exported by Plat on ${formatDateTime(manifest.generatedAt)} for “${manifest.assignmentName}”.`;
  // Values that came in a workfile agree with the file, not with anything bought: said so, whichever way Plat learns it.
  const printedReceived = (rows ?? []).some(({ view }) => view !== null && saysReceived(view.citation));
  const heldReceived = currentRows === null ? null : input.received(manifest.assignmentId);
  const comparison = compareSummary(result, currentRows !== null, heldReceived !== null);
  const provenance = [
    printedReceived ? 'Its values were printed from answers received in a workfile, not bought from the service (each citation says which file).' : null,
    heldReceived !== null ? `The answers this machine holds for it came from a workfile, not from the service (${heldReceived}): they are only that file’s word until re-checked.` : null,
  ].filter((line) => line !== null).join(' ');
  const base = { assignmentId: manifest.assignmentId, assignmentName: manifest.assignmentName, generatedAt: manifest.generatedAt, rows: result };
  const recheck = currentRows === null ? null : input.recheck(manifest.assignmentId);
  if (problems.length > 0) {
    return {
      kind: 'altered',
      message: `${exported} This PDF was changed after it was exported: ${problems.join('; ')}. Do not rely on its attachments. ${comparison} ${provenance}`.trim(),
      ...base,
      recheck,
    };
  }
  return { kind: 'plat', message: `${exported} Its attachments are intact. ${comparison} ${provenance}`.trim(), ...base, recheck };
}

/**
 * The attached citations.json, or why Plat will not read it: a file past the PDF's own limit or nested
 * deeper than any Plat writes was made by someone else (not-JSON text is "no longer readable" above).
 */
function readCitationsJson(bytes: Uint8Array): { value: unknown } | string | null {
  const read = readBoundedJsonBytes(bytes, { maxBytes: MAX_VERIFIED_PDF_BYTES, maxDepth: FILE_JSON_MAX_DEPTH });
  if (read.ok) return { value: read.value };
  return read.reason === 'not-json' ? null : `${CITATIONS_JSON} ${read.problem}; Plat refuses to read it`;
}

/** The k-th current value for a field answers the k-th printed one (a field may print more than once). */
function occurrenceMatcher(current: PrintedValue[]): (field: string) => PrintedValue | null {
  const byField = new Map<string, PrintedValue[]>();
  for (const value of current) byField.set(value.field, [...(byField.get(value.field) ?? []), value]);
  const used = new Map<string, number>();
  return (field) => {
    const index = used.get(field) ?? 0;
    used.set(field, index + 1);
    return byField.get(field)?.[index] ?? null;
  };
}

function rowOf(view: PrintedValue): Omit<Row, 'current' | 'outcome'> {
  return { field: view.field, label: view.label, printed: view.printed, citation: view.citation };
}

function alteredRow(view: PrintedValue | null, now: PrintedValue | null): Row {
  return view === null
    ? { field: '', label: 'Unreadable row', printed: '', current: null, outcome: 'altered', citation: '' }
    : { ...rowOf(view), current: now?.printed ?? null, outcome: 'altered' };
}

function compareSummary(rows: Row[], held: boolean, heldFromWorkfile: boolean): string {
  if (!held) return 'This machine does not hold that assignment: import its workfile to compare the values with the data.';
  const compared = rows.filter((row) => row.outcome !== 'altered');
  const changed = compared.filter((row) => row.outcome === 'changed').length;
  const notHeld = compared.filter((row) => row.outcome === 'not-held').length;
  if (compared.length === 0) return '';
  const data = heldFromWorkfile ? 'the workfile’s answers this machine holds' : 'the data Plat holds now';
  if (changed === 0 && notHeld === 0) return `All ${count(compared.length, 'value')} agree with ${data}.`;
  const parts = [changed > 0 ? `${changed} of ${count(compared.length, 'value')} differ from ${data}` : null, notHeld > 0 ? `${count(notHeld, 'value')} ${notHeld === 1 ? 'is' : 'are'} no longer held` : null];
  return `${parts.filter(Boolean).join('; ')} (listed below).`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function summarise(labels: string[]): string {
  const shown = labels.slice(0, 5).join(', ');
  return labels.length > 5 ? `${shown} and ${labels.length - 5} more` : shown;
}
