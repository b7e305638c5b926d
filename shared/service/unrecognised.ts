// A paid answer, or a part of one, whose inner shape Plat does not recognise is still shown: its
// value as published (key/value rows, not a JSON blob) and every citation it carries, whatever the
// generation wrote them as: v4 `citation` objects, v3 `sources[]`, v2 `provenance.sources[]`, and the
// `source_refs` any of them point from. The spec leaves most inner shapes open, so nothing here
// assumes one: it walks what is there.
import { fromV3Source, fromV4Citation, type CitationView } from '../cited/citation.ts';
import { emptyRefIndex, indexV3Sources, placeRef, v2SourceView } from '../cited/source-refs.ts';
import { isRecord } from '../json-data.ts';

/** What Plat adds to a value, a term or a part of an answer it has no reading for: shown as published, never read. */
export const NOT_RECOGNISED = 'not recognised by Plat';

/** Keys whose value is a citation (or a list of them): shown as chips, not as rows. */
const CITATION_KEYS = new Set(['citation', 'citations', 'provenance', 'source_refs', 'sources']);

const asText = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** Whether an object reads as a v4 citation: it names a publisher, a dataset, a date or a source. */
function isV4Citation(value: Record<string, unknown>): boolean {
  return ['source', 'dataset', 'as_of', 'publisher', 'source_id'].some((key) => asText(value[key]) !== null);
}

/** A ref no source of the answer places: still a citation of that ref, so it is never lost. */
const refOnly = (ref: string): CitationView => ({ publisher: null, dataset: null, asOf: null, sourceId: null, recordRef: ref, synthetic: false });

const citationKey = (view: CitationView): string =>
  [view.publisher, view.dataset, view.asOf, view.sourceId, view.recordRef, view.releaseId, String(view.synthetic)].map((part) => String(part ?? '')).join('|');

/**
 * Every citation an answer (an envelope, its data, or any part of either) carries, each once, in the
 * order met: the sources and citation objects it holds, and each `source_refs` entry no source of it
 * places (cited by the ref alone, so it is never lost). Refs are placed as everywhere else
 * (shared/cited/source-refs.ts); a ref a source places adds nothing: the source is already there.
 */
export function answerCitations(answer: unknown): CitationView[] {
  const views: CitationView[] = [];
  const index = emptyRefIndex();
  const refs: string[] = [];
  const seen = new WeakSet<object>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 40 || node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'citation' && isRecord(value) && isV4Citation(value)) {
        const view = fromV4Citation(value);
        views.push(view);
        if (view.sourceId && !index.sources.has(view.sourceId)) index.sources.set(view.sourceId, view);
      } else if (key === 'sources' && Array.isArray(value)) {
        for (const source of value) {
          if (!isRecord(source)) continue;
          if (asText(source.source_ref) !== null) {
            // A v2 provenance entry: a record, or the source itself.
            const { view, record } = v2SourceView(source);
            views.push(view);
            if (record && view.recordRef) index.records.set(view.recordRef, view);
            else if (view.sourceId && !index.sources.has(view.sourceId)) index.sources.set(view.sourceId, view);
          } else if (asText(source.source_id) !== null) {
            views.push(fromV3Source(source));
            indexV3Sources(index, [source]);
          }
        }
      } else if (key === 'source_refs') {
        for (const ref of Array.isArray(value) ? value : [value]) if (typeof ref === 'string' && ref.trim() !== '') refs.push(ref.trim());
        continue;
      }
      visit(value, depth + 1);
    }
  };
  visit(answer, 0);
  for (const ref of refs) if (placeRef(index, ref) === null) views.push(refOnly(ref));
  const unique = new Map<string, CitationView>();
  for (const view of views) if (!unique.has(citationKey(view))) unique.set(citationKey(view), view);
  return [...unique.values()];
}

// ---------------------------------------------------------------------------------------------
// The value as published

export interface PublishedRow {
  /** Where in the value: `fields.owner_name.value`, `items[2].SSL`; '' for a bare value. */
  path: string;
  /** The value as the service wrote it (text as is, numbers and booleans as written, null as "null"). */
  text: string;
}

/** Rows shown before the rest are counted ("and 40 more values"): a page stays readable. */
export const PUBLISHED_ROWS_MAX = 60;

const scalarText = (value: unknown): string => (typeof value === 'string' ? value : value === null ? 'null' : String(value));
const isScalar = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * A value as key/value rows: nested objects by their path, lists of plain values on one row, citations
 * left out (they are shown as chips). `more` counts the rows past `max`.
 */
export function publishedRows(value: unknown, max: number = PUBLISHED_ROWS_MAX): { rows: PublishedRow[]; more: number } {
  const rows: PublishedRow[] = [];
  let more = 0;
  const push = (path: string, text: string) => {
    if (rows.length < max) rows.push({ path, text });
    else more++;
  };
  const walk = (node: unknown, path: string, depth: number): void => {
    if (isScalar(node)) return push(path, scalarText(node));
    if (node === undefined || typeof node !== 'object' || depth > 12) return push(path, typeof node === 'object' ? '(nested too deep to list)' : String(node));
    if (Array.isArray(node)) {
      if (node.length === 0) return push(path, '(empty list)');
      if (node.every(isScalar)) return push(path, node.map(scalarText).join(', '));
      node.forEach((item, index) => walk(item, `${path}[${index}]`, depth + 1));
      return;
    }
    const entries = Object.entries(node as Record<string, unknown>).filter(([key]) => !CITATION_KEYS.has(key));
    if (entries.length === 0 && path !== '') return push(path, '(no values)');
    for (const [key, item] of entries) walk(item, path === '' ? key : `${path}.${key}`, depth + 1);
  };
  walk(value, '', 0);
  return { rows, more };
}
