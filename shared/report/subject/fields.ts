// A field's candidates: each source's value of it, with its status and citations, before the
// report chooses one.
import { asSynthetic, documentCitation, fromV4Citation, type CitationFields } from '../../cited/citation.ts';
import type { Candidate, CandidateStatus } from '../conflicts.ts';
import { formatFieldValue, humanizeCode } from '../format.ts';
import { acceptanceCodeText } from '../../comparables/sale-market.ts';
import { isRecord } from '../../json-data.ts';
import { citationForRef, strings, text, withChecksum, type Answers, type Json, type Raw } from './answers.ts';

// ---------------------------------------------------------------------------------------------
// Statuses

/**
 * The document's status for a service's status word, never upgraded: anything that is not plainly
 * "reported" (derived, normalised, approximate, imputed…) is derived; a synthetic source makes it synthetic.
 */
export function statusOf(word: unknown, citations: readonly CitationFields[], derived: boolean): CandidateStatus | 'unavailable' {
  const w = typeof word === 'string' ? word.toLowerCase() : null;
  if (w === 'unavailable' || w === 'not_available' || w === 'missing') return 'unavailable';
  if (w === 'synthetic' || citations.some((c) => c.synthetic)) return 'synthetic';
  if (derived) return 'derived';
  if (w === null || w === 'reported' || w === 'as_published' || w === 'published' || w === 'ok') return 'reported';
  return 'derived';
}

/** A synthetic value's citations name the sample, whatever the answer put under them. */
export const citationsFor = (status: CandidateStatus, citations: CitationFields[]): CitationFields[] =>
  status === 'synthetic' ? citations.map(asSynthetic) : citations;

// ---------------------------------------------------------------------------------------------
// Fields

export interface FieldSpec {
  /** Key inside its section (the document's field is `<section>.<key>`). */
  key: string;
  label: string;
  /** The field name the value is formatted by (`assessed_value_dollars`, `year_built`…). */
  format: string;
  /** The v4 summary's canonical field for the same fact. */
  summary?: string;
  /** What a derived value of this field is derived from, when the answer does not say. */
  derivedFrom?: string;
}

/** A value as one source gives it, before it becomes a candidate. */
export interface SourceValue {
  raw: Raw;
  status: unknown;
  refs: string[];
  /** A v4 citation, when the value came with its own. */
  citation?: Json;
  derivedFrom: string | null;
  note: string | null;
  limitation: string | null;
}

/** A value as published: a number written as text ("18402.50", "1985") stays that text, formatted only for display. */
function rawOf(value: unknown): Raw {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return null;
}

export const derivedFromText = (value: unknown): string | null => {
  const refs = strings(value);
  return refs.length > 0 ? `record${refs.length > 1 ? 's' : ''} ${refs.join(', ')}` : null;
};

/**
 * A field of a v3 section: a field cell `{value, status, source_refs, …}` or a plain value with the
 * section's refs (and a sibling `<key>_status` when the service gives one).
 */
export function v3Value(section: Json | null, key: string, sectionRefs: string[], sectionStatus: unknown): SourceValue | null {
  if (!section || !(key in section)) return null;
  const entry = section[key];
  if (isRecord(entry) && 'value' in entry) {
    return {
      raw: rawOf(entry.value),
      status: entry.status,
      refs: strings(entry.source_refs),
      derivedFrom: derivedFromText(entry.derived_from),
      note: text(entry.note),
      limitation: text(entry.limitation),
    };
  }
  if (entry === null || entry === undefined || entry === '') {
    const status = section[`${key}_status`] ?? 'unavailable';
    return { raw: null, status, refs: [], derivedFrom: null, note: null, limitation: text(section[`${key}_limitation`]) };
  }
  return {
    raw: rawOf(entry),
    status: section[`${key}_status`] ?? sectionStatus,
    refs: sectionRefs,
    derivedFrom: text(section[`${key}_derived_from`]),
    note: null,
    limitation: null,
  };
}

export function candidateFromV3(answers: Answers, spec: FieldSpec, value: SourceValue, rank: number): Candidate | null {
  const found = value.refs.map((ref) => citationForRef(answers, ref));
  const status = statusOf(value.status, found, value.derivedFrom !== null && value.status !== 'synthetic');
  if (status === 'unavailable' || value.raw === null || value.raw === '') return null;
  // A value with nothing to cite is not shown as a fact (the rule: cited, or unavailable).
  if (found.length === 0) return null;
  return {
    key: keyFor(found, value.raw, 'report'),
    raw: value.raw,
    display: displayFor(spec, value.raw),
    status,
    citations: citationsFor(status, found),
    derivedFrom: status === 'derived' ? (value.derivedFrom ?? spec.derivedFrom ?? value.note ?? 'the records cited') : value.derivedFrom,
    note: value.note,
    rank,
  };
}

/** A summary entry (`{value, status, citation, note, alternatives}`) or one of its alternatives as a candidate. */
export function candidateFromSummary(answers: Answers, spec: FieldSpec, entry: Json, rank: number): Candidate | null {
  if (!isRecord(entry.citation)) return null;
  const raw = rawOf(entry.value);
  if (raw === null || raw === '') return null;
  const view = withChecksum(fromV4Citation(entry.citation), answers.sources);
  const method = text(view.extra?.method);
  const sourceField = text(view.extra?.source_field);
  const citationDerivedFrom = derivedFromText(view.extra?.derived_from);
  const entryDerivedFrom = derivedFromText(entry.derived_from);
  const notPublishedAsIs = method !== null && method !== 'as_published';
  const citation = documentCitation({ ...view, extra: {} });
  const status = statusOf(entry.status, [citation], entryDerivedFrom !== null || (notPublishedAsIs && entry.status !== 'synthetic'));
  if (status === 'unavailable') return null;
  let derivedFrom = entryDerivedFrom ?? citationDerivedFrom;
  if (status === 'derived' && derivedFrom === null) {
    derivedFrom = [method ? humanizeCode(method) : null, sourceField ? `from the column ${sourceField}` : null].filter(Boolean).join(' ') || 'the cited record';
  }
  return {
    key: keyFor([citation], raw, 'summary'),
    raw,
    display: displayFor(spec, raw),
    status,
    citations: citationsFor(status, [citation]),
    derivedFrom,
    note: text(entry.note),
    rank,
  };
}

/** Stable within a field: the record the value came from, or its source and value. */
export function keyFor(citations: readonly CitationFields[], raw: Raw, origin: string): string {
  const first = citations[0];
  if (first?.recordRef) return `rec:${first.recordRef}`;
  return `${origin}:${first?.sourceId ?? first?.publisher ?? 'unknown'}:${String(raw)}`.slice(0, 200);
}

function displayFor(spec: FieldSpec, raw: Raw): string {
  if (typeof raw === 'string' && CODE_FIELDS.has(spec.key)) return codeDisplay(spec.key, raw);
  return formatFieldValue(spec.format, raw);
}

const CODE_FIELDS = new Set(['property_type', 'sale_type', 'acceptance_code']);
function codeDisplay(key: string, code: string): string {
  // Market or not is decided in one place, which marks a code it does not recognise (`01`) as such.
  if (key === 'acceptance_code') return acceptanceCodeText(code);
  return humanizeCode(code);
}

/**
 * Every source's candidate for a field: the v3 section's value (rank 0), the summary's best value
 * (rank 1) and its alternatives (rank 2). The report's fields and the resolved subject
 * (shared/comparables/subject/) both gather them here, so they weigh the same candidates.
 */
export function fieldCandidates(answers: Answers, section: Json | null, spec: FieldSpec, refs: string[], status: unknown): { candidates: Candidate[]; fromReport: SourceValue | null } {
  const fromReport = v3Value(section, spec.key, refs, status);
  const candidates: Array<Candidate | null> = [fromReport ? candidateFromV3(answers, spec, fromReport, 0) : null];
  const summaryEntry = spec.summary ? answers.summary?.[spec.summary] : undefined;
  if (isRecord(summaryEntry)) {
    candidates.push(candidateFromSummary(answers, spec, summaryEntry, 1));
    if (Array.isArray(summaryEntry.alternatives)) {
      for (const alternative of summaryEntry.alternatives) if (isRecord(alternative)) candidates.push(candidateFromSummary(answers, spec, alternative, 2));
    }
  }
  return { candidates: candidates.filter((c): c is Candidate => c !== null), fromReport };
}
