// "Verify a report": what a PDF proves about itself, check by check, and then value by value against
// the data Plat holds now. The checks: the digital signature (whose, and whether every byte is as
// signed); the attachments against the manifest Plat wrote beside them; citations.csv against
// citations.json, row for row; the text of the printed pages against the evidence (every printed
// value with its markers is there, and no line gives a labelled value the evidence does not);
// derived values made again from their inputs by their rule. The message says what was proved and
// what could not be. Pure: reading the PDF and building the current document are the caller's.
import type { ReportVerification } from '../../../shared/ipc.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { FILE_JSON_MAX_DEPTH, readBoundedJsonBytes } from '../../../shared/bounded-json.ts';
import { saysReceived } from '../../../shared/workfile/received.ts';
import { recompute, type Derivation } from '../../../shared/cited/derivation.ts';
import { CITATIONS_CSV, CITATIONS_JSON, MAX_VERIFIED_PDF_BYTES, rowDigest, sha256Hex, type ReadEvidence } from './pdf-evidence.ts';
import type { SignatureCheck } from './pdf-signature.ts';
import { csvRecords } from './csv-records.ts';
import type { PageLine } from './pdf-text.ts';

/** One printed value as verification compares it. */
export interface PrintedValue {
  field: string;
  label: string;
  /** The value as printed. */
  printed: string;
  status: string;
  /** The full citation, in words. */
  citation: string;
  /** The label printed beside the value (an alternative's is its value's). */
  printedLabel: string;
  /** The endnote markers printed after the value. */
  markers: number[];
}

/** A row of citations.json as read: its view, its CSV record as Plat would write it, and its derivation. */
export interface ReadRow {
  raw: unknown;
  /** Null when the row is not one Plat writes. */
  view: PrintedValue | null;
  csv: string[] | null;
  derivation: Derivation | null;
}

export interface VerifyInput {
  evidence: ReadEvidence;
  /** The rows of a citations.json; null when the text is not Plat's rows (unreadable, or not a list). */
  rowsOf: (json: unknown) => ReadRow[] | null;
  /** The printed values of the assignment's report as Plat holds it now; null for an assignment this machine does not hold. */
  current: (assignmentId: string) => PrintedValue[] | null;
  recheck: (assignmentId: string) => ReportVerification['recheck'];
  /** The PDF's signature as checked (pdf-signature.ts). */
  signature: SignatureCheck;
  /** The text of each page, line by line, each line in the pieces the page draws; null when it could not be read. */
  pages: PageLine[][] | null;
  /** Where the answers the assignment's report reads now came from when a workfile brought them ("Received in workfile …"); null when bought here. */
  received: (assignmentId: string) => string | null;
}

type Row = ReportVerification['rows'][number];
type Check = ReportVerification['checks'][number];

export function verifyEvidence(input: VerifyInput): ReportVerification {
  const { evidence } = input;
  const empty = { assignmentId: null, assignmentName: null, generatedAt: null, rows: [], recheck: null, signature: null, checks: [] };
  if (evidence.kind === 'unreadable') return { kind: 'unreadable', message: evidence.reason, ...empty };
  if (evidence.kind === 'not-plat') return { kind: 'not-plat', message: `${evidence.reason} Only reports exported from Plat’s Report view can be verified.`, ...empty };
  if (evidence.newerVersion !== null) {
    return { kind: 'unreadable', message: `This report was exported by a newer version of Plat (evidence format ${evidence.newerVersion}); update Plat to verify it.`, ...empty };
  }
  const signature = signatureOf(input.signature);
  const jsonBytes = evidence.attachments.get(CITATIONS_JSON) ?? null;
  const read = jsonBytes === null ? null : readCitationsJson(jsonBytes);
  const rows = read === null || typeof read === 'string' ? null : input.rowsOf(read.value);
  const { manifest } = evidence;
  if (manifest === null) {
    return {
      kind: 'altered',
      message: 'This PDF carries Plat’s citations, but the record of what Plat attached is missing or damaged: the PDF was changed after it was exported, so its citations cannot be trusted.',
      ...empty,
      signature,
      rows: (rows ?? []).map(({ view }) => alteredRow(view, null)),
    };
  }

  const checks: Check[] = [signatureCheck(input.signature)];
  // Rows found altered by any check, by index in citations.json.
  const alteredRows = new Set<number>();

  // The attachments against the manifest (their sha256) and, inside citations.json, each row's digest.
  const attachmentProblems: string[] = [];
  for (const written of manifest.attachments) {
    const bytes = evidence.attachments.get(written.name);
    if (!bytes) attachmentProblems.push(`${written.name} was removed`);
    else if (sha256Hex(bytes) !== written.sha256) attachmentProblems.push(`${written.name} was edited`);
  }
  if (typeof read === 'string') attachmentProblems.push(read);
  else if (jsonBytes !== null && rows === null) attachmentProblems.push(`${CITATIONS_JSON} is no longer readable`);
  const writtenDigests = new Set(manifest.rowDigests);
  const seenDigests = new Set<string>();
  const alteredLabels: string[] = [];
  (rows ?? []).forEach(({ raw, view }, index) => {
    const digest = rowDigest(raw);
    if (view !== null && writtenDigests.has(digest)) seenDigests.add(digest);
    else {
      alteredRows.add(index);
      alteredLabels.push(view?.label ?? 'an unreadable row');
    }
  });
  const removed = rows === null ? 0 : manifest.rowDigests.filter((digest) => !seenDigests.has(digest)).length;
  if (alteredLabels.length > 0) attachmentProblems.push(`${count(alteredLabels.length, 'value')} in ${CITATIONS_JSON} ${alteredLabels.length === 1 ? 'differs' : 'differ'} from what Plat wrote (${summarise(alteredLabels)})`);
  if (removed > alteredLabels.length) attachmentProblems.push(`${count(removed - alteredLabels.length, 'value')} Plat wrote ${removed - alteredLabels.length === 1 ? 'is' : 'are'} missing`);
  checks.push(
    attachmentProblems.length === 0
      ? { check: 'attachments', outcome: 'passed', detail: `${CITATIONS_JSON} and ${CITATIONS_CSV} are the ones the manifest names.` }
      : { check: 'attachments', outcome: 'failed', detail: `${attachmentProblems.join('; ')}.` },
  );

  checks.push(compareCsv(evidence.attachments.get(CITATIONS_CSV) ?? null, rows, alteredRows));
  checks.push(comparePages(input.pages, rows, alteredRows, evidence.foreignAnnotations));
  checks.push(compareDerived(rows, alteredRows));

  // Then each value against what Plat holds now.
  const currentRows = input.current(manifest.assignmentId);
  const nextCurrent = occurrenceMatcher(currentRows ?? []);
  const result: Row[] = (rows ?? []).map(({ view }, index) => {
    const now = view === null ? null : nextCurrent(view.field);
    if (view === null || alteredRows.has(index)) return alteredRow(view, now);
    if (currentRows === null || now === null) return { ...rowOf(view), current: null, outcome: 'not-held' };
    const same = now.printed === view.printed && now.status === view.status;
    const current = now.status === view.status ? now.printed : `${now.printed} (now ${now.status})`;
    return { ...rowOf(view), current, outcome: same ? 'unchanged' : 'changed' };
  });

  const exported = `Exported by Plat on ${formatDateTime(manifest.generatedAt)} for “${manifest.assignmentName}”.`;
  // Values that came in a workfile agree with the file, not with anything bought: said so, whichever way Plat learns it.
  const printedReceived = (rows ?? []).some(({ view }) => view !== null && saysReceived(view.citation));
  const heldReceived = currentRows === null ? null : input.received(manifest.assignmentId);
  const comparison = compareSummary(result, currentRows !== null, heldReceived !== null);
  const provenance = [
    printedReceived ? 'Its values were printed from answers received in a workfile, not bought from the service (each citation says which file).' : null,
    heldReceived !== null ? `The answers this machine holds for it came from a workfile, not from the service (${heldReceived}): they are only that file’s word until re-checked.` : null,
  ].filter((line) => line !== null).join(' ');
  const base = { assignmentId: manifest.assignmentId, assignmentName: manifest.assignmentName, generatedAt: manifest.generatedAt, rows: result, signature, checks };
  const recheck = currentRows === null ? null : input.recheck(manifest.assignmentId);
  const failed = checks.filter((check) => check.outcome === 'failed');
  if (failed.length > 0) {
    return {
      kind: 'altered',
      message: `${exported} This PDF was changed after it was exported: ${failed.map((check) => asClause(check.detail)).join('; ')}. Do not rely on it. ${comparison} ${provenance}`.trim(),
      ...base,
      recheck,
    };
  }
  return { kind: 'plat', message: `${exported} ${provedSummary(input.signature)} ${comparison} ${provenance}`.trim(), ...base, recheck };
}

/** What a PDF whose every check passed proves, and what it cannot, by whose signature it carries. */
function provedSummary(signature: SignatureCheck): string {
  const agree = 'Its attachments are intact, citations.csv agrees with citations.json row for row, the printed pages agree with them, and every derived value Plat can make again agrees with its inputs.';
  if (signature.status === 'this-installation') return `Signed by this Plat installation: every byte is as it signed. ${agree}`;
  if (signature.status === 'other-installation') {
    return `Signed by another installation (certificate SHA-256 ${signature.fingerprint}): the values agree with their evidence; their origin is that installation’s word. ${agree}`;
  }
  return `Not signed: nothing proves which Plat made this PDF or that it was not remade, only that its parts agree with each other. ${agree}`;
}

function signatureOf(check: SignatureCheck): ReportVerification['signature'] {
  return { status: check.status, fingerprint: check.fingerprint, detail: check.detail };
}

function signatureCheck(check: SignatureCheck): Check {
  if (check.status === 'broken') return { check: 'signature', outcome: 'failed', detail: check.detail };
  if (check.status === 'none') return { check: 'signature', outcome: 'not-checked', detail: check.detail };
  return { check: 'signature', outcome: 'passed', detail: check.detail };
}

/** citations.csv, record by record, against the record Plat writes for each row of citations.json. */
function compareCsv(csvBytes: Uint8Array | null, rows: ReadRow[] | null, alteredRows: Set<number>): Check {
  if (csvBytes === null) return { check: 'csv', outcome: 'failed', detail: `${CITATIONS_CSV} is missing.` };
  if (rows === null) return { check: 'csv', outcome: 'not-checked', detail: `${CITATIONS_JSON} cannot be read, so ${CITATIONS_CSV} was not compared with it.` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(csvBytes);
  } catch {
    return { check: 'csv', outcome: 'failed', detail: `${CITATIONS_CSV} is not UTF-8 text.` };
  }
  const records = csvRecords(text).slice(1);
  const differing: string[] = [];
  rows.forEach((row, index) => {
    const record = records[index];
    if (row.csv === null || record === undefined || record.length !== row.csv.length || record.some((field, at) => field !== row.csv![at])) {
      alteredRows.add(index);
      differing.push(row.view?.label ?? `row ${index + 1}`);
    }
  });
  const extra = records.length - rows.length;
  if (differing.length === 0 && extra <= 0) return { check: 'csv', outcome: 'passed', detail: `${CITATIONS_CSV} agrees with ${CITATIONS_JSON} row for row (${count(rows.length, 'row')}).` };
  const parts = [differing.length > 0 ? `${count(differing.length, 'row')} of ${CITATIONS_CSV} ${differing.length === 1 ? 'differs' : 'differ'} from ${CITATIONS_JSON} (${summarise(differing)})` : null, extra > 0 ? `${CITATIONS_CSV} has ${count(extra, 'row')} ${CITATIONS_JSON} does not` : null];
  return { check: 'csv', outcome: 'failed', detail: `${parts.filter(Boolean).join('; ')}.` };
}

/** Compared without white space or case, a minus sign as a hyphen: how a PDF splits text into pieces, and which dash a font draws, is the printer's choice. */
const compact = (text: string): string => text.replace(/[\s\u00a0\u2007\u202f]+/g, '').replace(/\u2212/g, '-').toLowerCase();
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The printed pages against the evidence: every value printed with its markers is on a page, and no
 * line that begins with a value's label followed by a colon, or a label cell followed by a cited
 * value, gives a value the evidence does not hold for it. A sentence that merely begins with a
 * label's words ("Location is the centroid…") is prose; a label cell followed by uncited text is
 * another table's row (a rate, a coefficient, a header).
 */
function comparePages(pages: PageLine[][] | null, rows: ReadRow[] | null, alteredRows: Set<number>, foreignAnnotations: readonly { page: number; subtype: string }[]): Check {
  if (pages === null) return { check: 'pages', outcome: 'not-checked', detail: 'The text of the pages could not be read, so the printed values were not compared with the evidence.' };
  if (rows === null) return { check: 'pages', outcome: 'not-checked', detail: `${CITATIONS_JSON} cannot be read, so the printed pages were not compared with it.` };
  const text = compact(pages.flat(2).join(' '));
  const missing: string[] = [];
  // Each cited value as printed: the value, perhaps a status flag ("Derived", "Synthetic"), its markers.
  const printedForms = rows.map(({ view }) => {
    if (view === null || view.status === 'unavailable') return null;
    const markers = view.markers.length === 0 ? 'nocitation' : view.markers.map((number) => `[${number}]`).join('');
    return `${escapeRegExp(compact(view.printed))}[a-z\\-]{0,24}${escapeRegExp(markers)}`;
  });
  const anyCitedValue = new RegExp(`^(?:${printedForms.filter((form) => form !== null).join('|') || '(?!)'})`);
  rows.forEach(({ view }, index) => {
    const form = printedForms[index];
    if (view === null || !form) return;
    if (!new RegExp(form).test(text)) {
      alteredRows.add(index);
      missing.push(`${view.label} “${view.printed}”`);
    }
  });
  // The printed values each label may show; longest labels first, so "Owner of record" is read before "Owner".
  const byLabel = new Map<string, Set<string>>();
  for (const { view } of rows) {
    if (view === null) continue;
    const values = byLabel.get(compact(view.printedLabel)) ?? new Set<string>();
    values.add(compact(view.status === 'unavailable' ? 'Unavailable' : view.printed));
    byLabel.set(compact(view.printedLabel), values);
  }
  const labels = [...byLabel.keys()].filter((label) => label.length > 0).sort((a, b) => b.length - a.length);
  const contradictions: string[] = [];
  pages.forEach((lines, pageIndex) => {
    for (const pieces of lines) {
      const compacted = compact(pieces.join(''));
      // Where each piece ends in the compacted line: a label cell ends exactly at one.
      const ends = new Set<number>();
      let at = 0;
      for (const piece of pieces) ends.add((at += compact(piece).length));
      const label = labels.find((candidate) => compacted.startsWith(candidate) && (ends.has(candidate.length) || compacted[candidate.length] === ':'));
      if (label === undefined) continue;
      const colon = compacted[label.length] === ':';
      // Separators after the label go; a minus before a number is the value's own sign.
      const rest = compacted.slice(label.length).replace(/^(?:[:–—]|-(?!\d))+/, '');
      // A label followed by markers alone gives no value (a permit's status "ISSUED [6]" reads as the "Issued" label).
      if (rest === '' || rest.startsWith('—') || /^(?:\[\d+\])+$/.test(rest)) continue;
      // A label cell followed by uncited text is another table's row (a rate, a coefficient, a header); a cited value has markers.
      if (!colon && !/\[\d+\]/.test(rest)) continue;
      const values = byLabel.get(label)!;
      // A value's line begins with one of its values; a section may print another row's value under
      // the same words (a portfolio's "Total assessed value"), with that row's markers; a table's
      // header row lists labels.
      if ([...values].some((value) => rest.startsWith(value)) || anyCitedValue.test(rest) || labels.some((other) => rest.startsWith(other))) continue;
      contradictions.push(`page ${pageIndex + 1} reads “${pieces.join(' ')}”, which no value of the evidence says`);
    }
  });
  // A note, a stamp or a text box over a page is drawn by the reader, not in the page's text.
  for (const { page, subtype } of foreignAnnotations) contradictions.push(`page ${page} carries a ${subtype} annotation, which Plat never writes (drawn over the page after export)`);
  if (missing.length === 0 && contradictions.length === 0) {
    return { check: 'pages', outcome: 'passed', detail: `Every printed value with its markers is on the pages (${count(pages.length, 'page')}), and no line contradicts the evidence.` };
  }
  const parts = [
    missing.length > 0 ? `${count(missing.length, 'value')} of the evidence ${missing.length === 1 ? 'is' : 'are'} not printed with ${missing.length === 1 ? 'its' : 'their'} markers on any page (${summarise(missing)})` : null,
    contradictions.length > 0 ? summarise(contradictions) : null,
  ];
  return { check: 'pages', outcome: 'failed', detail: `${parts.filter(Boolean).join('; ')}.` };
}

/** Derived values made again from the inputs and rule the evidence gives. */
function compareDerived(rows: ReadRow[] | null, alteredRows: Set<number>): Check {
  const derived = (rows ?? []).map((row, index) => ({ row, index })).filter(({ row }) => row.view !== null && row.derivation !== null);
  if (derived.length === 0) return { check: 'derived', outcome: 'not-checked', detail: 'No value in this report carries the inputs and rule it was derived by.' };
  const wrong: string[] = [];
  const unknown: string[] = [];
  for (const { row, index } of derived) {
    const outcome = recompute(row.derivation!, row.view!.printed);
    if (outcome.kind === 'same') continue;
    if (outcome.kind === 'unknown-rule') {
      unknown.push(`${row.view!.label} (rule ${row.derivation!.rule})`);
      continue;
    }
    alteredRows.add(index);
    wrong.push(outcome.kind === 'differs' ? `${row.view!.label} reads ${row.view!.printed}, its inputs make ${outcome.recomputed}` : `${row.view!.label} has inputs its rule cannot use`);
  }
  if (wrong.length > 0) return { check: 'derived', outcome: 'failed', detail: `${count(wrong.length, 'derived value')} ${wrong.length === 1 ? 'does' : 'do'} not follow from ${wrong.length === 1 ? 'its' : 'their'} inputs: ${summarise(wrong)}.` };
  const checked = derived.length - unknown.length;
  const unknownNote = unknown.length > 0 ? ` ${count(unknown.length, 'value')} use a rule this Plat does not know (${summarise(unknown)}).` : '';
  return { check: 'derived', outcome: checked > 0 ? 'passed' : 'not-checked', detail: `${count(checked, 'derived value')} made again from ${checked === 1 ? 'its' : 'their'} inputs ${checked === 1 ? 'agrees' : 'agree'}.${unknownNote}` };
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

/** A sentence as a clause of a longer one: no full stop, and a capital that starts a word of prose lowered. */
function asClause(sentence: string): string {
  const clause = sentence.replace(/\.$/, '');
  return /^[A-Z][a-z]/.test(clause) ? `${clause[0]!.toLowerCase()}${clause.slice(1)}` : clause;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function summarise(labels: string[]): string {
  const shown = labels.slice(0, 5).join(', ');
  return labels.length > 5 ? `${shown} and ${labels.length - 5} more` : shown;
}
