// Citation shapes the v4 and v3 operations write, from the sample store's citations. One place, so
// a synthetic value is always cited to the synthetic source and marked, in every generation.
import { createHash } from 'node:crypto';
import type { Citation, Fact, SampleStore, SourceCitation } from '../sample-store.ts';

/**
 * A v4 citation (search records, summary values): the spec's `source` (publisher), `dataset` and
 * `as_of`, plus where to check it. `synthetic` is always written, so a reader never has to infer it.
 */
export interface V4Citation {
  source: string;
  dataset: string;
  as_of: string;
  source_id: string;
  official_url: string;
  release_id: number;
  synthetic: boolean;
  record_ref?: string;
}

export function v4Citation(citation: Citation | SourceCitation): V4Citation {
  return {
    source: citation.publisher,
    dataset: citation.dataset,
    as_of: citation.as_of,
    source_id: citation.source_id,
    official_url: citation.official_url,
    release_id: citation.release_id,
    synthetic: citation.synthetic,
    ...('record_ref' in citation ? { record_ref: citation.record_ref } : {}),
  };
}

/** A v3 `data.sources` entry: the spec's four fields plus who published it and whether it is synthetic. */
export interface V3SourceEntry {
  source_id: string;
  release_id: number;
  sha256: string;
  official_url: string;
  publisher: string;
  dataset: string;
  as_of: string;
  synthetic: boolean;
  /** The records of this source the answer cites in `source_refs`, so a reader can name each ref's publisher. */
  record_refs: string[];
}

/** Collects the sources a v3 answer drew on, each once, in the order first cited. */
export class SourceCollector {
  readonly #sources = new Map<string, V3SourceEntry>();

  /** Notes the source of a citation and returns the citation's record ref (for `source_refs`). */
  cite(citation: Citation): string {
    this.add(citation);
    const refs = this.#sources.get(citation.source_id)?.record_refs;
    if (refs && !refs.includes(citation.record_ref)) refs.push(citation.record_ref);
    return citation.record_ref;
  }

  add(citation: Citation | SourceCitation): void {
    if (this.#sources.has(citation.source_id)) return;
    this.#sources.set(citation.source_id, {
      source_id: citation.source_id,
      release_id: citation.release_id,
      sha256: citation.sha256,
      official_url: citation.official_url,
      publisher: citation.publisher,
      dataset: citation.dataset,
      as_of: citation.as_of,
      synthetic: citation.synthetic,
      record_refs: [],
    });
  }

  list(): V3SourceEntry[] {
    return [...this.#sources.values()];
  }
}

/**
 * The value of a field to give first among its candidates: a published one, else one derived from
 * published values, else the first (synthetic); the store's order decides within each.
 */
export function preferredFact(candidates: readonly Fact[]): Fact | undefined {
  return candidates.find((fact) => fact.status === 'reported') ?? candidates.find((fact) => fact.status === 'derived') ?? candidates[0];
}

/**
 * Where a location comes from: an OTR lot's point is the centroid of its tax square (DC GIS square
 * points), derived and approximate; address and permit points are the publisher's own.
 */
export function locationStatus(precision: string): { status: 'reported' | 'derived'; method: string; note?: string } {
  if (precision !== 'square_centroid') return { status: 'reported', method: 'as_published' };
  return {
    status: 'derived',
    method: 'tax_square_centroid',
    note: 'The centroid of the tax square (DC GIS Square Points), not a point of the lot: approximate, a median of about 100 m off.',
  };
}

const snapshots = new WeakMap<SampleStore, string>();

/**
 * The sample build a v3 answer comes from: `sample_v<schema>_<newest release date>_<content hash>`.
 * The hash covers every source's id and checksum, so a rebuilt sample with other inputs reads apart
 * even when its dates do not change.
 */
export function sampleSnapshot(store: SampleStore): string {
  const cached = snapshots.get(store);
  if (cached !== undefined) return cached;
  const sources = store.listSources();
  const newest = sources.reduce((max, source) => Math.max(max, source.release_id), 0);
  const hash = createHash('sha256');
  for (const source of [...sources].sort((a, b) => (a.source_id < b.source_id ? -1 : 1))) hash.update(`${source.source_id}:${source.sha256}\n`);
  const snapshot = `sample_v${store.info().schema_version}_${newest}_${hash.digest('hex').slice(0, 12)}`;
  snapshots.set(store, snapshot);
  return snapshot;
}

/** `2017-02-05T00:00:00Z` → `2017-02-05`. */
export function isoDay(dateTime: string): string {
  return dateTime.slice(0, 10);
}
