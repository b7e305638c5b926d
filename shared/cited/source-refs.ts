// How a ref an answer gives (`source_refs` of v3 cells and sections, of v2 entities, nodes, edges and
// envelopes) finds the source it names. The spec promises only that v3 `sources[]` entries carry a
// `source_id` and v2 `provenance.sources` a `source_ref`: what a ref looks like is the service's
// choice. Plat's embedded service names records (`rec_…`, placed through a non-spec `record_refs`
// index or a v2 entry per record); another service names the source itself, bare or decorated
// (`dc_otr_ownership@20170205`, `dc_otr_ownership:rec_1`). One resolver reads them all, so a value is
// "uncited" only when the answer really names no source for it.
import { isRecord } from '../json-data.ts';
import { documentCitation, fromV2Source, fromV3Source, type CitationFields, type CitationView } from './citation.ts';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : []);

/** What an answer names refs by: whole sources, and records it places in them. */
export interface RefIndex {
  /** Records by their exact ref (the embedded service's `record_refs`, a v2 provenance entry per record). */
  records: ReadonlyMap<string, CitationView>;
  /** Sources by source id: a ref that is the id, or the id followed by a decoration, cites it. */
  sources: ReadonlyMap<string, CitationView>;
}

export const emptyRefIndex = (): { records: Map<string, CitationView>; sources: Map<string, CitationView> } => ({ records: new Map(), sources: new Map() });

/** A ref placed in its source: the citation's view (its record set when the ref names one) and what the ref says that the source entry does not. */
export interface PlacedRef {
  view: CitationView;
  note: string | null;
}

const IDENTIFIER = /[A-Za-z0-9_]/;

/**
 * The source a ref names: a record the answer lists by that exact ref, else the source whose id is the
 * longest one the ref equals or starts with followed by a character no id holds (`@`, `:`, `/`, `#`…).
 * `<id>@<release>` names a release of the source: one that differs from the entry's still cites the
 * entry, and the note says so; anything after the id (other than a release alone) names a record in it.
 */
export function placeRef(index: RefIndex, ref: string): PlacedRef | null {
  const record = index.records.get(ref);
  if (record) return { view: { ...record, recordRef: ref }, note: null };
  const exact = index.sources.get(ref);
  if (exact) return { view: { ...exact, recordRef: null }, note: null };
  let best: string | null = null;
  for (const id of index.sources.keys()) {
    if (ref.length > id.length && ref.startsWith(id) && !IDENTIFIER.test(ref[id.length]!) && (best === null || id.length > best.length)) best = id;
  }
  if (best === null) return null;
  const source = index.sources.get(best)!;
  const decoration = ref.slice(best.length);
  if (!decoration.startsWith('@')) return { view: { ...source, recordRef: ref }, note: null };
  const release = /^@([A-Za-z0-9_.-]+)/.exec(decoration)?.[1] ?? '';
  const rest = decoration.slice(1 + release.length);
  const view: CitationView = { ...source, recordRef: rest === '' ? null : ref };
  if (release === '') return { view, note: null };
  if (source.releaseId === null || source.releaseId === undefined) return { view: { ...view, releaseId: release }, note: null };
  if (String(source.releaseId) === release) return { view, note: null };
  return { view, note: `The answer cites release ${release} of ${best}; its list of sources gives release ${source.releaseId}.` };
}

/** A ref the answer names without naming its source: still cited by the ref, and saying so. */
export function unplacedRef(ref: string): CitationFields {
  return {
    publisher: null,
    dataset: null,
    asOf: null,
    sourceId: null,
    recordRef: ref,
    releaseId: null,
    sha256: null,
    officialUrl: null,
    synthetic: false,
    note: 'The answer cites this record without naming its source.',
  };
}

/** A ref's citation: its source's publisher, dataset and date, or the ref alone when the answer names no source for it. */
export function citeRef(index: RefIndex, ref: string): CitationFields {
  const placed = placeRef(index, ref);
  return placed ? documentCitation(placed.view, placed.note) : unplacedRef(ref);
}

/** The source id a ref names, or null when the answer names none for it. */
export const sourceIdOfRef = (index: RefIndex, ref: string): string | null => placeRef(index, ref)?.view.sourceId ?? null;

/** Adds a v3 answer's `data.sources` to an index: each source by its id, and the records its `record_refs` (the embedded service's index) place in it. */
export function indexV3Sources(index: ReturnType<typeof emptyRefIndex>, sources: unknown): void {
  for (const source of Array.isArray(sources) ? sources : []) {
    if (!isRecord(source)) continue;
    const view = fromV3Source(source);
    if (view.sourceId) index.sources.set(view.sourceId, view);
    for (const ref of strings(source.record_refs)) index.records.set(ref, { ...view, recordRef: ref, extra: {} });
  }
}

/**
 * One v2 provenance entry as a citation: `source_ref` names a record when the entry says so
 * (`source_kind: record`, or a `source_id` beside it that differs), else the source itself, bare or
 * as `<source_id>@<release_id>`. The embedded service writes `synthetic` as the text "true"/"false"
 * in this string-valued block.
 */
export function v2SourceView(source: Record<string, unknown>): { view: CitationView; record: boolean } {
  const base = fromV2Source(source);
  const { source_id: _sourceId, sha256, ...extra } = base.extra ?? {};
  const sourceRef = text(source.source_ref);
  const sourceId = text(source.source_id);
  const record = sourceRef !== null && (text(source.source_kind) === 'record' || (sourceId !== null && sourceRef !== sourceId));
  const named = sourceRef === null ? null : /^([^@]+)@(.+)$/.exec(sourceRef);
  const id = sourceId ?? (record ? null : (named?.[1] ?? sourceRef));
  return {
    view: {
      ...base,
      sourceId: id,
      recordRef: record ? sourceRef : null,
      releaseId: base.releaseId ?? (record ? null : (named?.[2] ?? null)),
      sha256: text(sha256),
      synthetic: base.synthetic || source.synthetic === 'true',
      extra,
    },
    record,
  };
}

/** The index of a v2 envelope's `provenance.sources`: records by their ref, sources by their id. */
export function v2ProvenanceIndex(sources: unknown): { records: Map<string, CitationView>; sources: Map<string, CitationView> } {
  const index = emptyRefIndex();
  for (const source of Array.isArray(sources) ? sources : []) {
    if (!isRecord(source)) continue;
    const { view, record } = v2SourceView(source);
    if (record && view.recordRef) index.records.set(view.recordRef, view);
    else if (view.sourceId && !index.sources.has(view.sourceId)) index.sources.set(view.sourceId, view);
  }
  return index;
}
