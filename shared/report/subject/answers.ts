// Reading the answers the subject report is built from (the v3 subject report and the v4 summary),
// and how a value or a sentence cites the records and sources they name.
import { documentCitation, fromV4Citation, type CitationFields, type CitationView } from '../../cited/citation.ts';
import { citeRef, emptyRefIndex, indexV3Sources, placeRef, sourceIdOfRef } from '../../cited/source-refs.ts';
import type { CitedValue } from '../../cited/value.ts';
import { isRecord } from '../../json-data.ts';
import { canonicalSummary, summaryFields } from '../../service/summary-fields.ts';

export type Json = Record<string, unknown>;
export type Raw = CitedValue['raw'];

export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
export const strings = (value: unknown): string[] =>
  typeof value === 'string' ? (value.trim() === '' ? [] : [value]) : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];

export interface Answers {
  /** The subject's v3 item, or null when not bought (or answered with an error). */
  item: Json | null;
  /** The v4 summary's entries under Plat's canonical names (and its `limitations`), or null. */
  summary: Json | null;
  /** Why an answer that was kept cannot be read (an error envelope), in the service's words. */
  problems: string[];
  /** Records the answers place in a source, by their exact ref (the embedded service's `record_refs`, the summary's `record_ref`s). */
  records: Map<string, CitationView>;
  /** v3 source entries by source id: a ref naming the source, bare or decorated, cites it (their checksums complete the v4 citations). */
  sources: Map<string, CitationView>;
}

function okData(envelope: unknown, what: string, problems: string[]): Json | null {
  if (!isRecord(envelope)) return null;
  if (envelope.status === 'error') {
    const error = isRecord(envelope.error) ? envelope.error : {};
    problems.push(`The service answered the ${what} with an error: ${text(error.message) ?? text(error.code) ?? 'no reason given'}.`);
    return null;
  }
  return isRecord(envelope.data) ? envelope.data : null;
}

export function readAnswers(subject: unknown, summary: unknown): Answers {
  const problems: string[] = [];
  const subjectData = okData(subject, 'subject report', problems);
  const published = okData(summary, 'summary', problems);
  // The summary under Plat's names, wherever the service put its fields (data or data.fields).
  const summaryData = published === null ? null : canonicalSummary(published);
  const unread = published === null ? [] : summaryFields(published).entries.filter((entry) => entry.entry === null);
  if (unread.length > 0) {
    const names = unread.map((entry) => `“${entry.published}”`).join(', ');
    problems.push(`The summary’s ${unread.length === 1 ? 'entry' : 'entries'} ${names} ${unread.length === 1 ? 'is' : 'are'} not recognised by Plat: not used in this report; the property’s page shows ${unread.length === 1 ? 'it' : 'them'} as published.`);
  }
  const items = Array.isArray(subjectData?.items) ? subjectData.items.filter(isRecord) : [];
  const { sources, records } = emptyRefIndex();
  indexV3Sources({ sources, records }, subjectData?.sources);
  // The summary's citations name their record and source: they place records the v3 answer does not index.
  const visit = (citation: unknown) => {
    if (!isRecord(citation)) return;
    const view = withChecksum(fromV4Citation(citation), sources);
    if (view.recordRef && !records.has(view.recordRef)) records.set(view.recordRef, { ...view, extra: {} });
  };
  for (const entry of Object.values(summaryData ?? {})) {
    if (!isRecord(entry)) continue;
    visit(entry.citation);
    if (Array.isArray(entry.alternatives)) for (const alternative of entry.alternatives) if (isRecord(alternative)) visit(alternative.citation);
  }
  return { item: items[0] ?? null, summary: summaryData, problems, records, sources };
}

export function withChecksum(view: CitationView, sources: ReadonlyMap<string, CitationView>): CitationView {
  const source = view.sourceId ? sources.get(view.sourceId) : undefined;
  return source && !view.sha256 ? { ...view, sha256: source.sha256 ?? null } : view;
}

/** A ref's citation (shared/cited/source-refs.ts); a ref the answers do not place still cites the record, and says so. */
export function citationForRef(answers: Answers, ref: string): CitationFields {
  return citeRef(answers, ref);
}

/** A source as a whole, not one of its records. */
const sourceCitation = (view: CitationView): CitationFields => documentCitation({ ...view, recordRef: null, extra: {} });

/**
 * How a sentence about a source cites it: by the one record of it the answer cites there (the same
 * endnote as the values it qualifies), else as a whole (several records, or none: a dataset named by id).
 * A ref the answers do not place cites the record, and says so.
 */
function citeSource(answers: Answers, sourceId: string | null, refs: readonly string[]): CitationFields | null {
  if (refs.length === 1) return citationForRef(answers, refs[0]!);
  const source = sourceId ? answers.sources.get(sourceId) : undefined;
  if (source) return sourceCitation(source);
  const placed = refs[0] === undefined ? null : placeRef(answers, refs[0]);
  return placed ? sourceCitation(placed.view) : null;
}

/**
 * The sources parts of the answer draw on, each once, in the order first met: the sources of the
 * records in every `source_refs` inside them (cells, tables, the location), and every source in a
 * `source_ids` (a dataset the section speaks about as a whole, e.g. the permits dataset's coverage,
 * cited as a whole even where the section also cites some of its records).
 */
export function sourcesOf(answers: Answers, ...parts: unknown[]): CitationFields[] {
  const refsBySource = new Map<string, { sourceId: string | null; refs: string[]; whole: boolean }>();
  const entry = (key: string, sourceId: string | null) => {
    let found = refsBySource.get(key);
    if (!found) refsBySource.set(key, (found = { sourceId, refs: [], whole: false }));
    return found;
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    if (!isRecord(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'source_refs') {
        for (const ref of strings(value)) {
          const sourceId = sourceIdOfRef(answers, ref);
          const found = entry(sourceId ?? `record:${ref}`, sourceId);
          if (!found.refs.includes(ref)) found.refs.push(ref);
        }
      } else if (key === 'source_ids') {
        for (const id of strings(value)) if (answers.sources.has(id)) entry(id, id).whole = true;
      } else visit(value);
    }
  };
  parts.forEach(visit);
  return [...refsBySource.values()].flatMap(({ sourceId, refs, whole }) => {
    const citation = citeSource(answers, sourceId, whole ? [] : refs);
    return citation ? [citation] : [];
  });
}

/** A source of the answer a sentence names by its id ("synthetic (plat_synthetic_characteristics)"), cited as `citeSource` does. */
export function namedSources(answers: Answers, line: string): CitationFields[] {
  return [...answers.sources.keys()].flatMap((sourceId) => {
    if (!new RegExp(`\\b${sourceId.replace(/[^A-Za-z0-9_]/g, '\\$&')}\\b`).test(line)) return [];
    const refs = [...answers.records.entries()].filter(([, view]) => view.sourceId === sourceId).map(([ref]) => ref);
    const citation = citeSource(answers, sourceId, refs);
    return citation ? [citation] : [];
  });
}
