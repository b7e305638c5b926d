// What the v2 operations share: the sample's generation ids, opaque cursors bound to the request
// that issued them, v2 citations, and the envelope's provenance block, which lists every source
// ref the answer uses so that each value can be traced to its publisher (or to Plat's synthetic
// source, marked as such).
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { Citation, Fact, SampleEntity, SampleSource, SampleStore, SourceCitation } from '../sample-store.ts';
import type { LocalOperation } from '../operation.ts';
import { ServiceFailure } from '../operation.ts';
import { ENTITY_PREFIX_KIND } from '../sample-keys.ts';
import { serviceOperations } from '../../../shared/service/index.ts';
import type { ServiceOperationName } from '../../../shared/service/index.ts';
import { locationStatus, preferredFact } from './citations.ts';
import { cursorSeal, sealMatches } from './cursor-seal.ts';
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
 * An opaque cursor: base64url of `{"s":scope,"p":[positions],"m":seal}`, the seal (cursor-seal.ts)
 * covering the scope, the request's fingerprint and the positions. Positions are whole numbers (an
 * offset, or an offset and a position inside one result's expansion).
 */
export function encodeCursor(scope: string, fingerprint: string, positions: readonly number[]): string {
  return Buffer.from(JSON.stringify({ s: scope, p: positions, m: cursorSeal('v2', scope, fingerprint, JSON.stringify(positions)) }), 'utf8').toString('base64url');
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
  const { s, p, m } = parsed as { s?: unknown; p?: unknown; m?: unknown };
  if (s !== scope || typeof m !== 'string' || !Array.isArray(p) || p.length !== arity) return null;
  if (!p.every((n): n is number => Number.isSafeInteger(n) && (n as number) >= 0)) return null;
  return sealMatches(m, 'v2', scope, fingerprint, JSON.stringify(p)) ? p : null;
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

// ---------------------------------------------------------------------------------------------
// Operations and entities as v2 shows them

export function operation(name: ServiceOperationName, handle: LocalOperation['handle']): LocalOperation {
  const spec = serviceOperations[name];
  return {
    name: spec.name,
    envelopeOperation: spec.envelopeOperation,
    generation: 'v2',
    method: spec.method,
    path: spec.path,
    idempotent: spec.idempotencyKey,
    handle,
  };
}

export function notFound(message: string, details?: unknown): ServiceFailure {
  return new ServiceFailure(404, 'not_found', message, details === undefined ? {} : { details });
}

/** Entity kinds of the sample, in the order results list them. */
export const KIND_ORDER: readonly string[] = ['property', 'unit', 'parcel', 'tax_account', 'address'];
export const SAMPLE_KINDS = new Set(KIND_ORDER);

export function kindRank(kind: string): number {
  const rank = KIND_ORDER.indexOf(kind);
  return rank < 0 ? KIND_ORDER.length : rank;
}

/** The v2 entity kind of an entity ref, read from its prefix. */
export function kindOfRef(ref: string): string {
  const prefix = ref.slice(0, ref.indexOf('_'));
  return Object.hasOwn(ENTITY_PREFIX_KIND, prefix) ? ENTITY_PREFIX_KIND[prefix as keyof typeof ENTITY_PREFIX_KIND] : '';
}

export function knownAreas(store: SampleStore): string[] {
  return store.areas().map((area) => area.area_uid);
}

/** What a client shows for an entity: its first identifier of each scheme (address, SSL, account, ...). */
export function canonicalIdentity(entity: SampleEntity): Record<string, string> {
  const identity: Record<string, string> = {};
  for (const scheme of ['address', 'ssl', 'account_no', 'unit_designator', 'mar_id']) {
    const identifier = entity.identifiers.find((candidate) => candidate.scheme === scheme);
    if (identifier) identity[scheme] = identifier.value;
  }
  return identity;
}

/** Each identifier with where its value comes from (reported by a publisher, or derived by the service), cited. */
export function citedIdentifiers(store: SampleStore, entity: SampleEntity, provenance: ProvenanceCollector) {
  return store.identifierProvenance(entity.entity_id)?.map((identifier) => ({
    scheme: identifier.scheme,
    value: identifier.value,
    status: identifier.status,
    method: identifier.method,
    source_refs: [provenance.cite(identifier.citation)],
    ...(identifier.status === 'derived' ? { derived_from: identifier.record_ref, note: identifier.note, citation: { ...v2Citation(identifier.citation), status: 'derived' } } : {}),
  }));
}

/** For `canonical_identity`: which of its values a publisher printed and which the service derived (and how). */
export function identityProvenance(store: SampleStore, entity: SampleEntity, provenance: ProvenanceCollector): Record<string, unknown> {
  const identity = canonicalIdentity(entity);
  const out: Record<string, unknown> = {};
  for (const identifier of citedIdentifiers(store, entity, provenance) ?? []) {
    if (identity[identifier.scheme] !== identifier.value || identifier.scheme in out) continue;
    out[identifier.scheme] = identifier;
  }
  return out;
}

/** The record an entity's identity was read from: the first record of its defining row. */
export function definingRecords(entity: SampleEntity): string[] {
  return entity.source_refs.slice(0, 1);
}

export interface CitedFact {
  value: string | number | boolean;
  source_field: string;
  status: Fact['status'];
  synthetic: boolean;
  method: string;
  source_refs: string[];
  citation: V2Citation;
  note?: string;
  derived_from?: string;
}

export function citedFact(fact: Fact, provenance: ProvenanceCollector): CitedFact {
  return {
    value: fact.value,
    source_field: fact.source_field,
    status: fact.status,
    synthetic: fact.synthetic,
    method: fact.method,
    source_refs: [provenance.cite(fact.citation)],
    citation: v2Citation(fact.citation),
    ...(fact.note === null ? {} : { note: fact.note }),
    // The real record a synthetic value was copied from, or a derived value was derived from: cited too.
    ...(fact.derived_from === null ? {} : { derived_from: provenance.records([fact.derived_from])[0] }),
  };
}

/**
 * Facts grouped by field: the best value (the first real one in the store's preference order, or
 * the first synthetic one when no publisher gives the field) with every other value as an alternative.
 */
export function groupedFacts(facts: readonly Fact[], provenance: ProvenanceCollector, withAlternatives: boolean): Record<string, CitedFact & { alternatives?: CitedFact[] }> {
  const byField = new Map<string, Fact[]>();
  for (const fact of facts) {
    const list = byField.get(fact.field) ?? [];
    list.push(fact);
    byField.set(fact.field, list);
  }
  const out: Record<string, CitedFact & { alternatives?: CitedFact[] }> = {};
  for (const [field, list] of byField) {
    const best = preferredFact(list);
    if (!best) continue;
    out[field] = {
      ...citedFact(best, provenance),
      ...(withAlternatives ? { alternatives: list.filter((fact) => fact !== best).map((fact) => citedFact(fact, provenance)) } : {}),
    };
  }
  return out;
}

export function citedLocation(location: { lat: number; lon: number; precision: string; citation: Citation }, provenance: ProvenanceCollector) {
  return {
    lat: location.lat,
    lon: location.lon,
    precision: location.precision,
    ...locationStatus(location.precision),
    source_refs: [provenance.cite(location.citation)],
    citation: v2Citation(location.citation),
  };
}

export function realRecords(store: SampleStore, refs: readonly string[], provenance: ProvenanceCollector): string[] {
  return provenance.records(refs.filter((ref) => !citationOfRecord(store, ref).synthetic));
}
