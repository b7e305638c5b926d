// A paid answer, or a part of one, whose inner shape Plat does not recognise is still shown: its
// value as published (key/value rows, not a JSON blob) and every citation it carries, whatever the
// generation wrote them as: v4 `citation` objects, v3 `sources[]`, v2 `provenance.sources[]`, and the
// `source_refs` any of them point from. The spec leaves most inner shapes open, so nothing here
// assumes one: it walks what is there.
import { fromV2Source, fromV3Source, fromV4Citation, type CitationView } from '../report/citation.ts';
import { isRecord } from '../json-data.ts';

/** Keys whose value is a citation (or a list of them): shown as chips, not as rows. */
const CITATION_KEYS = new Set(['citation', 'citations', 'provenance', 'source_refs', 'sources']);

/** `<source_id>@<release_id>`, the form another service gives its refs. */
const DECORATED_REF = /^([a-z0-9_]+)@(.+)$/;

const asText = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** Whether an object reads as a v4 citation: it names a publisher, a dataset, a date or a source. */
function isV4Citation(value: Record<string, unknown>): boolean {
  return ['source', 'dataset', 'as_of', 'publisher', 'source_id'].some((key) => asText(value[key]) !== null);
}

/** A `sources[]` entry: a v2 provenance source when it has a `source_ref`, else a v3 source. */
function sourceView(source: Record<string, unknown>): CitationView {
  if (asText(source.source_ref) === null) return fromV3Source(source);
  const view = fromV2Source(source);
  const ref = asText(source.source_ref) ?? '';
  // fromV2Source files the ref as the source; when the entry names its source id, the ref is the record.
  const sourceId = asText(source.source_id);
  if (sourceId !== null) return { ...view, sourceId, recordRef: ref };
  // A ref of the form `<source_id>@<release_id>` names the source and its release.
  const at = DECORATED_REF.exec(ref);
  return at ? { ...view, sourceId: at[1] ?? null, releaseId: view.releaseId ?? at[2] ?? null } : view;
}

/**
 * The source id a ref names, whatever decoration it carries: the ref itself, or the longest known id it
 * starts with followed by a character no id has (`dc_otr_ownership@20170205`, `dc_otr_sale:row/12`).
 */
function sourceOfRef(ref: string, views: readonly CitationView[]): CitationView | null {
  const exact = views.find((view) => view.recordRef === ref || view.sourceId === ref);
  if (exact) return exact;
  let best: CitationView | null = null;
  for (const view of views) {
    const id = view.sourceId;
    if (!id || !ref.startsWith(id) || !/[^A-Za-z0-9_]/.test(ref.charAt(id.length))) continue;
    if (best === null || id.length > (best.sourceId ?? '').length) best = view;
  }
  return best;
}

/** A ref no source of the answer places: still a citation of that ref, its source read from the ref's form. */
function refOnly(ref: string): CitationView {
  const at = DECORATED_REF.exec(ref);
  return { publisher: null, dataset: null, asOf: null, sourceId: at?.[1] ?? null, releaseId: at?.[2] ?? null, recordRef: ref, synthetic: false };
}

const citationKey = (view: CitationView): string =>
  [view.publisher, view.dataset, view.asOf, view.sourceId, view.recordRef, view.releaseId, String(view.synthetic)].map((part) => String(part ?? '')).join('|');

/**
 * Every citation an answer (an envelope, its data, or any part of either) carries, each once, in the
 * order met: the sources and citation objects it holds, and each `source_refs` entry no source of it
 * places (cited by the ref alone, so it is never lost). A ref a source places adds nothing: the
 * source is already there.
 */
export function answerCitations(answer: unknown): CitationView[] {
  const views: CitationView[] = [];
  const refs: string[] = [];
  const seen = new WeakSet<object>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 40 || node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (key === 'citation' && isRecord(value) && isV4Citation(value)) views.push(fromV4Citation(value));
      else if (key === 'sources' && Array.isArray(value)) {
        for (const source of value) if (isRecord(source) && (asText(source.source_id) ?? asText(source.source_ref)) !== null) views.push(sourceView(source));
      } else if (key === 'source_refs') {
        for (const ref of Array.isArray(value) ? value : [value]) if (typeof ref === 'string' && ref.trim() !== '') refs.push(ref.trim());
        continue;
      }
      visit(value, depth + 1);
    }
  };
  visit(answer, 0);
  for (const ref of refs) if (sourceOfRef(ref, views) === null) views.push(refOnly(ref));
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
