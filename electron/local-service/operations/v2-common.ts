// What the v2 operations share: the sample's generation ids, opaque cursors bound to the request
// that issued them, v2 citations, and the envelope's provenance block, which lists every source
// ref the answer uses so that each value can be traced to its publisher (or to Plat's synthetic
// source, marked as such).
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { Citation, SampleSource, SampleStore, SourceCitation } from '../sample-store.ts';
import { ServiceFailure } from '../operation.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';

// ---------------------------------------------------------------------------------------------
// Generation

export interface SampleGeneration {
  /** `gen_<16 hex>`: a hash of every source's id and checksum, so a rebuilt sample reads apart. */
  generationId: string;
  /** `pub_<newest release_id>`: the newest source publication in the sample. */
  publicationId: string;
}

const generations = new WeakMap<SampleStore, SampleGeneration>();

export function sampleGeneration(store: SampleStore): SampleGeneration {
  const cached = generations.get(store);
  if (cached) return cached;
  const sources = [...store.listSources()].sort((a, b) => (a.source_id < b.source_id ? -1 : 1));
  const hash = createHash('sha256');
  for (const source of sources) hash.update(`${source.source_id}:${source.sha256}\n`);
  const newest = sources.reduce((max, source) => Math.max(max, source.release_id), 0);
  const generation = { generationId: `gen_${hash.digest('hex').slice(0, 16)}`, publicationId: `pub_${newest}` };
  generations.set(store, generation);
  return generation;
}

/** The meta fields every successful v2 answer carries. */
export function generationMeta(store: SampleStore): { publication_id: string; generation_ids: string[] } {
  const generation = sampleGeneration(store);
  return { publication_id: generation.publicationId, generation_ids: [generation.generationId] };
}

// ---------------------------------------------------------------------------------------------
// Cursors

/** A short hash of what a request asked (key order does not matter), to bind its cursors to it. */
export function requestFingerprint(scope: string, request: unknown): string {
  return createHash('sha256').update(`${scope}\n${canonicalJson(request)}`).digest('hex').slice(0, 16);
}

/**
 * An opaque cursor: base64url of `{"s":scope,"p":[positions],"f":fingerprint}`. Positions are
 * whole numbers (an offset, or an offset and a position inside one result's expansion).
 */
export function encodeCursor(scope: string, fingerprint: string, positions: readonly number[]): string {
  return Buffer.from(JSON.stringify({ s: scope, p: positions, f: fingerprint }), 'utf8').toString('base64url');
}

/** The positions of a cursor issued for this scope and request, or null when it is not one. */
export function readCursor(cursor: string, scope: string, fingerprint: string, arity: number): number[] | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { s, p, f } = parsed as { s?: unknown; p?: unknown; f?: unknown };
  if (s !== scope || f !== fingerprint || !Array.isArray(p) || p.length !== arity) return null;
  if (!p.every((n): n is number => Number.isSafeInteger(n) && (n as number) >= 0)) return null;
  return p;
}

/** Like readCursor, but a cursor that is not one answers 400 `invalid_cursor`. */
export function decodeCursor(cursor: string | undefined, scope: string, fingerprint: string, arity: number): number[] | null {
  if (cursor === undefined) return null;
  const positions = readCursor(cursor, scope, fingerprint, arity);
  if (positions === null) {
    const message = 'not a cursor this service issued for this request; repeat the request without it';
    throw new ServiceFailure(400, 'invalid_cursor', `cursor: ${message}.`, { details: [{ parameter: 'cursor', location: 'cursor', message }] });
  }
  return positions;
}

// ---------------------------------------------------------------------------------------------
// Citations and provenance

/** A value's citation in v2 answers: who published it, in which dataset, as of when, and where to check. */
export interface V2Citation {
  /** The publisher, or "Plat synthetic sample (not a public record)". */
  source: string;
  dataset: string;
  as_of: string;
  source_id: string;
  record_ref?: string;
  release_id: string;
  official_url: string;
  synthetic: boolean;
}

export function v2Citation(citation: Citation | SourceCitation): V2Citation {
  return {
    source: citation.publisher,
    dataset: citation.dataset,
    as_of: citation.as_of,
    source_id: citation.source_id,
    ...('record_ref' in citation ? { record_ref: citation.record_ref } : {}),
    release_id: String(citation.release_id),
    official_url: citation.official_url,
    synthetic: citation.synthetic,
  };
}

/** One `provenance.sources` entry; `source_ref` is a record ref (`rec_…`) or, in the catalog, a source id. */
export interface V2ProvenanceEntry {
  source_ref: string;
  /** `record`: source_ref is one record; `source`: a whole published source. */
  source_kind: 'record' | 'source';
  source_id: string;
  publisher: string;
  dataset: string;
  release_id: string;
  captured_at: string;
  official_url: string;
  sha256: string;
  synthetic: boolean;
}

const recordCitations = new WeakMap<SampleStore, Map<string, Citation>>();

/** The citation of a record ref (cached per store). Throws for a ref the store does not hold: that is a bug, not a request error. */
export function citationOfRecord(store: SampleStore, recordRef: string): Citation {
  let cache = recordCitations.get(store);
  if (!cache) recordCitations.set(store, (cache = new Map()));
  const cached = cache.get(recordRef);
  if (cached) return cached;
  const record = store.getRecord(recordRef);
  if (!record) throw new Error(`record ${recordRef} is not in the sample store`);
  cache.set(recordRef, record.citation);
  return record.citation;
}

function entryOf(sourceRef: string, kind: 'record' | 'source', citation: Citation | SourceCitation | SampleSource): V2ProvenanceEntry {
  return {
    source_ref: sourceRef,
    source_kind: kind,
    source_id: citation.source_id,
    publisher: citation.publisher,
    dataset: citation.dataset,
    release_id: String(citation.release_id),
    captured_at: citation.as_of,
    official_url: citation.official_url,
    sha256: citation.sha256,
    synthetic: citation.synthetic,
  };
}

/**
 * Collects the source refs an answer uses, each once in the order first used, and builds the
 * envelope's provenance: every ref in `source_refs` has exactly one entry in `sources`.
 */
export class ProvenanceCollector {
  readonly #store: SampleStore;
  readonly #entries = new Map<string, V2ProvenanceEntry>();

  constructor(store: SampleStore) {
    this.#store = store;
  }

  /** Notes record refs and returns them, so a value's `source_refs` and the provenance come from one place. */
  records(refs: Iterable<string>): string[] {
    const out: string[] = [];
    for (const ref of refs) {
      if (!this.#entries.has(ref)) this.#entries.set(ref, entryOf(ref, 'record', citationOfRecord(this.#store, ref)));
      if (!out.includes(ref)) out.push(ref);
    }
    return out;
  }

  /** Notes a citation's record and returns its ref. */
  cite(citation: Citation): string {
    if (!this.#entries.has(citation.record_ref)) this.#entries.set(citation.record_ref, entryOf(citation.record_ref, 'record', citation));
    return citation.record_ref;
  }

  /** Notes a whole source (catalog answers) under its source id. */
  source(source: SampleSource | SourceCitation): string {
    if (!this.#entries.has(source.source_id)) this.#entries.set(source.source_id, entryOf(source.source_id, 'source', source));
    return source.source_id;
  }

  build(): { source_refs: string[]; sources: Array<Record<string, string>> } {
    const sources = [...this.#entries.values()];
    // The envelope type is string-valued; `synthetic` goes as "true"/"false" so the entry stays flat.
    return {
      source_refs: sources.map((entry) => entry.source_ref),
      sources: sources.map((entry) => ({ ...entry, synthetic: String(entry.synthetic) })),
    };
  }
}

/** `2017-02-05T00:00:00Z` → `2017-02-05`. */
export function isoDay(dateTime: string): string {
  return dateTime.slice(0, 10);
}
