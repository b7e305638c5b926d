// One way to show where a value came from, whichever generation reported it: v4 citations, v3
// sources and v2 provenance all become a CitationView for the chip and for exports.
import { formatDay } from '../../shared/format-date.ts';

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

const SYNTHETIC = /synthetic/i;

const asText = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

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

/** From a v3 `sources[]` entry (source_id, release_id, sha256, official_url). */
export function fromV3Source(source: Record<string, unknown>): CitationView {
  const { source_id, release_id, sha256, official_url, publisher, dataset, as_of, synthetic, ...rest } = source;
  return {
    publisher: asText(publisher),
    dataset: asText(dataset),
    asOf: asText(as_of),
    sourceId: asText(source_id),
    releaseId: typeof release_id === 'number' ? release_id : null,
    sha256: asText(sha256),
    officialUrl: asText(official_url),
    synthetic: synthetic === true || SYNTHETIC.test(asText(source_id) ?? '') || SYNTHETIC.test(asText(publisher) ?? ''),
    extra: rest,
  };
}

/** From a v2 provenance source (source_ref, source_kind, publisher, release_id, captured_at, official_url). */
export function fromV2Source(source: Record<string, unknown>): CitationView {
  const { source_ref, source_kind, publisher, release_id, captured_at, official_url, dataset, synthetic, ...rest } = source;
  const publisherText = asText(publisher);
  return {
    publisher: publisherText,
    dataset: asText(dataset) ?? asText(source_kind),
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

/** The chip's short text: a publisher abbreviation and the as-of date. */
export function citationLabel(citation: CitationView): string {
  const publisher = citation.publisher ?? 'Unknown source';
  const short = ABBREVIATIONS.find(([pattern]) => pattern.test(publisher))?.[1] ?? publisher.split(/[,(]/)[0]?.trim().slice(0, 24) ?? publisher;
  const date = citation.asOf ? formatDay(citation.asOf) : 'undated';
  return `${short} · ${date}`;
}
