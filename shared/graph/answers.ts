// Reading the service answers title research is built from: each envelope checked against the
// contract (an error answer or an unreadable one becomes a sentence, never a crash or a silent gap),
// the v2 provenance turned into citations per record, and a cited fact of an answer turned into the
// report document's cited value. Shared by the graph, the portfolio and the runsheet.
import type { z } from 'zod';
import { isRecord } from '../json-data.ts';
import { documentCitation, fromV4Citation, type CitationView } from '../cited/citation.ts';
import type { Cite } from '../cited/citation-book.ts';
import type { CitedValue, ValueStatus } from '../cited/value.ts';
import { formatFieldValue } from '../report/format.ts';

export type Json = Record<string, unknown>;

export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : []);

export type Read<T> = { ok: true; data: T; meta: Json; provenance: Json | null } | { ok: false; problem: string };

/**
 * An answer's data when the envelope is a success of the contract's shape (`schema`, whose data is
 * `T`); otherwise what went wrong, in words: the service's own error message, or the first place the
 * answer breaks the shape.
 */
export function readAnswer<T>(schema: z.ZodType, envelope: unknown, what: string): Read<T & Json> {
  if (isRecord(envelope) && envelope.status === 'error' && isRecord(envelope.error)) {
    const code = text(envelope.error.code) ?? 'error';
    return { ok: false, problem: `The ${what} answer is an error (${code}): ${text(envelope.error.message) ?? 'no message'}` };
  }
  const parsed = schema.safeParse(envelope);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the answer';
    return { ok: false, problem: `The ${what} answer is not in the shape Plat reads (${where}: ${issue?.message ?? 'unreadable'}); nothing was taken from it.` };
  }
  const answer = parsed.data as Json;
  if (!isRecord(answer.data)) return { ok: false, problem: `The ${what} answer holds no data.` };
  return {
    ok: true,
    data: answer.data as T & Json,
    meta: isRecord(answer.meta) ? answer.meta : {},
    provenance: isRecord(answer.provenance) ? answer.provenance : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Citations

/** A citation the answers give for a value (v4 style: source, dataset, as_of, record_ref…), or null. */
export function citationOf(value: unknown): CitationView | null {
  return isRecord(value) ? fromV4Citation(value) : null;
}

// ---------------------------------------------------------------------------------------------
// Cited values

export type Scalar = string | number | boolean | null;

const isScalar = (value: unknown): value is Scalar => value === null || ['string', 'number', 'boolean'].includes(typeof value);

export function unavailable(field: string, label: string, why: string): CitedValue {
  return { field, label, raw: null, display: '—', status: 'unavailable', citationIds: [], derivedFrom: null, limitation: why, alternatives: [], choice: null };
}

/**
 * A cited fact of a v2 answer (`{value, status, citation, note?}`) as a cited value; null when the
 * answer does not hold the field. A synthetic value cites the synthetic sample, never the publisher
 * it imitates (documentCitation); a derived one says what it was derived from.
 */
export function citedFact(field: string, label: string, fact: unknown, cite: Cite, display: (raw: Scalar) => string = (raw) => formatFieldValue(field, raw)): CitedValue | null {
  if (!isRecord(fact) || !isScalar(fact.value) || fact.value === null) return null;
  const view = citationOf(fact.citation);
  if (view === null) return unavailable(field, label, `The answer gives ${label.toLowerCase()} without a citation, so Plat does not show it as a record.`);
  const synthetic = fact.synthetic === true || fact.status === 'synthetic' || view.synthetic;
  const status: ValueStatus = synthetic ? 'synthetic' : fact.status === 'derived' ? 'derived' : 'reported';
  const note = text(fact.note);
  return {
    field,
    label,
    raw: fact.value,
    display: display(fact.value),
    status,
    citationIds: [cite(documentCitation({ ...view, synthetic }, status === 'derived' ? null : note))],
    derivedFrom: status === 'derived' ? (note ?? `Derived by the service (${text(fact.method) ?? 'method not named'}).`) : null,
    limitation: null,
    alternatives: [],
    choice: null,
  };
}

/** A value read from a record the answers cite (a v4 search record's column): reported, cited to that record. */
export function recordValue(field: string, label: string, raw: Scalar, view: CitationView, cite: Cite, display?: string): CitedValue {
  return {
    field,
    label,
    raw,
    display: display ?? formatFieldValue(field, raw),
    status: view.synthetic ? 'synthetic' : 'reported',
    citationIds: [cite(documentCitation(view))],
    derivedFrom: null,
    limitation: null,
    alternatives: [],
    choice: null,
  };
}
