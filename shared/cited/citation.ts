// One way to say where a value came from, whichever generation reported it: v4 citations, v3
// sources and v2 provenance all become a CitationView (the chip, the tables), and a CitationView
// becomes the report document's Citation (its endnotes, the PDF's attachments). Lives in shared/ so
// the screen, the PDF and every export cite one way.
import { formatDay } from '../format-date.ts';
import type { Citation } from './value.ts';

export interface CitationView {
  publisher: string | null;
  dataset: string | null;
  asOf: string | null;
  sourceId?: string | null;
  releaseId?: string | number | null;
  sha256?: string | null;
  officialUrl?: string | null;
  recordRef?: string | null;
  /** A value Plat's sample had to make up: never shown as a public record. */
  synthetic: boolean;
  /** Anything else the service attached (method, publisher's notes…). */
  extra?: Record<string, unknown>;
}

/** Who a synthetic value is cited to: the sample that made it up, never a real publisher. */
export const SYNTHETIC_PUBLISHER = 'Plat synthetic sample (not a public record)';

const SYNTHETIC = /synthetic/i;

const asText = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** Whether a publisher's name is the synthetic sample's (or any made-up source's), not a real publisher. */
export const isSyntheticPublisher = (publisher: string | null | undefined): boolean => SYNTHETIC.test(publisher ?? '');

/** From a v4 search record's citation (source, dataset, as_of, plus extra properties). */
export function fromV4Citation(citation: Record<string, unknown>, extra: { sourceId?: string; recordRef?: string } = {}): CitationView {
  // source_id and record_ref have their own rows: left in the extras they were shown twice.
  const { source, dataset, as_of, synthetic, official_url, sha256, release_id, source_id, record_ref, ...rest } = citation;
  const publisher = asText(source);
  return {
    publisher,
    dataset: asText(dataset),
    asOf: asText(as_of),
    sourceId: extra.sourceId ?? asText(source_id),
    recordRef: extra.recordRef ?? asText(record_ref),
    officialUrl: asText(official_url),
    sha256: asText(sha256),
    releaseId: typeof release_id === 'number' || typeof release_id === 'string' ? release_id : null,
    synthetic: synthetic === true || SYNTHETIC.test(publisher ?? '') || SYNTHETIC.test(asText(dataset) ?? ''),
    extra: rest,
  };
}

/**
 * From a v3 `sources[]` entry. The spec promises `source_id`, `release_id`, `sha256` and
 * `official_url`; the publisher, dataset and date are taken where the service gives them, under
 * `publisher`/`dataset`/`as_of` or, failing those, `source`/`published_at`/`captured_at`.
 */
export function fromV3Source(source: Record<string, unknown>): CitationView {
  // record_refs lists the records of the source an answer cites: an index, not part of a citation.
  const {
    source_id, release_id, sha256, official_url, publisher, dataset, as_of, synthetic, record_refs: _recordRefs,
    source: sourceName, published_at, captured_at, ...rest
  } = source;
  const publisherText = asText(publisher) ?? asText(sourceName);
  const asOf = asText(as_of) ?? asText(published_at) ?? asText(captured_at);
  // A fallback that was not used stays with the extras (nothing the service said is dropped).
  const unused = Object.fromEntries(
    Object.entries({ source: sourceName, published_at, captured_at }).filter(([key, value]) => value !== undefined && !(key === 'source' ? publisherText === asText(value) : asOf === asText(value))),
  );
  return {
    publisher: publisherText,
    dataset: asText(dataset),
    asOf,
    sourceId: asText(source_id),
    releaseId: typeof release_id === 'number' || asText(release_id) !== null ? (release_id as number | string) : null,
    sha256: asText(sha256),
    officialUrl: asText(official_url),
    synthetic: synthetic === true || SYNTHETIC.test(asText(source_id) ?? '') || SYNTHETIC.test(publisherText ?? ''),
    extra: { ...rest, ...unused },
  };
}

/** From a v2 provenance source (source_ref, source_kind, publisher, release_id, captured_at, official_url). */
export function fromV2Source(source: Record<string, unknown>): CitationView {
  const { source_ref, publisher, release_id, captured_at, official_url, dataset, synthetic, ...rest } = source;
  const { source_kind } = source;
  const publisherText = asText(publisher);
  return {
    publisher: publisherText,
    // `source_kind` says what the ref names (a record, a source, a release), not which dataset.
    dataset: asText(dataset),
    asOf: asText(captured_at),
    sourceId: asText(source_ref),
    releaseId: typeof release_id === 'string' || typeof release_id === 'number' ? release_id : null,
    officialUrl: asText(official_url),
    synthetic: synthetic === true || SYNTHETIC.test(publisherText ?? '') || SYNTHETIC.test(asText(source_kind) ?? ''),
    extra: rest,
  };
}

const ABBREVIATIONS: Array<[RegExp, string]> = [
  [/Office of Tax and Revenue/i, 'DC OTR'],
  [/Consumer and Regulatory Affairs/i, 'DCRA'],
  [/Chief Technology Officer|DC GIS/i, 'DC GIS'],
  [/City of Alexandria/i, 'Alexandria'],
  [/Census/i, 'Census'],
  [/synthetic/i, 'Synthetic'],
];

/** A publisher's name in full, as every table, endnote, PDF and export prints it. */
export function publisherName(publisher: string | null): string {
  return publisher ?? 'Source not named in the answer';
}

/**
 * A publisher's short name, for chips only: "DC OTR", "Alexandria", "Synthetic" for the publishers Plat
 * knows, any other publisher's name up to its first comma or parenthesis, never cut inside a word.
 */
export function publisherShortName(publisher: string | null): string {
  if (publisher === null) return 'Unknown source';
  const known = ABBREVIATIONS.find(([pattern]) => pattern.test(publisher))?.[1];
  if (known) return known;
  const head = publisher.split(/[,(]/)[0]?.trim() ?? '';
  return head === '' ? publisher : head;
}

/** The chip's short text: a publisher abbreviation and the as-of date. */
export function citationLabel(citation: Pick<CitationView, 'publisher' | 'asOf'>): string {
  const date = citation.asOf ? formatDay(citation.asOf) : 'undated';
  return `${publisherShortName(citation.publisher)} · ${date}`;
}

// ---------------------------------------------------------------------------------------------
// The report document's citations

export type CitationFields = Omit<Citation, 'id'>;

/**
 * A document citation from a view. A synthetic citation is never left under a real publisher's name:
 * the sample is named instead, and the real source it imitates goes into the note.
 */
export function documentCitation(view: CitationView, note: string | null = null): CitationFields {
  const fields: CitationFields = {
    publisher: view.publisher,
    dataset: view.dataset,
    asOf: view.asOf,
    sourceId: view.sourceId ?? null,
    recordRef: view.recordRef ?? null,
    releaseId: view.releaseId ?? null,
    sha256: view.sha256 ?? null,
    officialUrl: view.officialUrl ?? null,
    synthetic: view.synthetic,
    note,
  };
  return view.synthetic ? asSynthetic(fields) : fields;
}

/** The same citation marked synthetic, under the sample's name when it named a real publisher. */
export function asSynthetic(citation: CitationFields): CitationFields {
  if (citation.synthetic && isSyntheticPublisher(citation.publisher)) return citation;
  const imitated = citation.publisher !== null && !isSyntheticPublisher(citation.publisher) ? citation.publisher : null;
  const notes = [citation.note, imitated ? `Made up by the sample, not published by ${imitated}.` : null].filter((n): n is string => n !== null);
  return {
    ...citation,
    publisher: SYNTHETIC_PUBLISHER,
    dataset: imitated ? null : citation.dataset,
    synthetic: true,
    note: notes.length > 0 ? notes.join(' ') : null,
  };
}

/** What makes two citations the same endnote. */
export function citationKey(citation: CitationFields): string {
  return JSON.stringify([
    citation.publisher,
    citation.dataset,
    citation.asOf,
    citation.sourceId,
    citation.recordRef,
    citation.releaseId,
    citation.sha256,
    citation.officialUrl,
    citation.synthetic,
    citation.note,
  ]);
}

/** The endnote's text: publisher, dataset, as-of, record (or source id), release, checksum, address, note. */
export function citationText(citation: CitationFields): string {
  const parts = [
    publisherName(citation.publisher),
    citation.dataset,
    citation.asOf ? `as of ${formatDay(citation.asOf)}` : 'undated',
    // A source cited as a whole is told from its siblings (one publisher's ownership, assessment and sale tables) by its id.
    citation.recordRef ? `record ${citation.recordRef}` : citation.sourceId ? `source ${citation.sourceId}` : null,
    citation.releaseId !== null ? `release ${citation.releaseId}` : null,
    citation.sha256 ? `sha256 ${citation.sha256}` : null,
    citation.officialUrl,
    citation.note,
  ];
  return parts.filter((part): part is string => part !== null && part !== '').join('; ');
}

/** A document citation as the chip's view (the report on screen reuses the chip). */
export function citationView(citation: CitationFields): CitationView {
  return {
    publisher: citation.publisher,
    dataset: citation.dataset,
    asOf: citation.asOf,
    sourceId: citation.sourceId,
    releaseId: citation.releaseId,
    sha256: citation.sha256,
    officialUrl: citation.officialUrl,
    recordRef: citation.recordRef,
    synthetic: citation.synthetic,
    extra: citation.note ? { note: citation.note } : {},
  };
}
