// What the entity page shows, as pure functions of the service's answers: the entity's kind from its
// id, its names from its record, the summary's best values with their alternatives, and the v2
// record's identifiers and attributes (its links: connected-model.ts). The spec leaves the inner
// shapes open, so each reader takes Plat's local-service shape first and falls back to showing the
// raw value, uncited, never inventing a citation.
import { entityKindLabelByPrefix, entityPrefix, type EntityIdPrefix } from '../../../shared/service/common.ts';
import type { V4SummaryField } from '../../../shared/service/v4.ts';
import { summaryEntryOf, summaryFields } from '../../../shared/service/summary-fields.ts';
import { answerCitations } from '../../../shared/service/unrecognised.ts';
import { V2EntityResponseSchema, type V2EntityData } from '../../../shared/service/v2.ts';
import { fromV4Citation, type CitationView } from '../../../shared/cited/citation.ts';
import { placeRef, v2ProvenanceIndex, type RefIndex } from '../../../shared/cited/source-refs.ts';
import { readAnswer } from '../../../shared/graph/answers.ts';
import { entityName, kindOfId } from '../../../shared/graph/relations.ts';
import { formatFieldValue } from '../../../shared/report/format.ts';
import { citedValue, type CitedValue, type SummaryScalar } from '../../components/cited-value.ts';
import { isRecord } from '../../../shared/json-data.ts';

// ---------------------------------------------------------------------------------------------
// Ids

const GENERIC_PREFIX = /^([a-z]+)_/;

/** "parcel", "tax account"…, or "entity" for an id of no known kind. */
export function entityKindLabel(entityId: string): string {
  const prefix = entityPrefix(entityId) ?? (GENERIC_PREFIX.exec(entityId)?.[1] as EntityIdPrefix | undefined);
  return prefix && prefix in entityKindLabelByPrefix ? entityKindLabelByPrefix[prefix] : 'entity';
}

export const capitalise = (text: string): string => (text === '' ? text : text.charAt(0).toUpperCase() + text.slice(1));

/** Whether the summary operation takes this id (any well-formed entity id). */
export function canSummarise(entityId: string): boolean {
  return entityPrefix(entityId) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// The page's name

export interface PageTitle {
  /** What a person recognises the entity by, most telling first: ["SSL 0065 0007", "1708 21ST ST NW"]. */
  names: string[];
  /** Why the entity's key cannot be trusted to name one piece of land, when it cannot. */
  invalidKey: string | null;
  /** The area the record is in (owner pages search there). */
  areaUid: string | null;
}

/**
 * The entity's names from its v2 record (identifiers, and the address it carries as an attribute),
 * named as the graph and the links name it (shared/graph/relations.ts); before the record is held,
 * the caption another screen showed it with.
 */
export function pageTitle(entityId: string, recordEnvelope: unknown, caption: string | undefined): PageTitle {
  const read = readAnswer<V2EntityData>(V2EntityResponseSchema, recordEnvelope, 'entity');
  if (!read.ok) return { names: caption ? [caption] : [], invalidKey: null, areaUid: null };
  const { entity } = read.data;
  const identifiers = (entity.identifiers ?? []).flatMap((identifier) =>
    isRecord(identifier) && typeof identifier.scheme === 'string' && typeof identifier.value === 'string' ? [{ scheme: identifier.scheme, value: identifier.value }] : [],
  );
  const addressFact = entity.attributes?.address;
  const address = isRecord(addressFact) && typeof addressFact.value === 'string' ? addressFact.value.trim() : identifiers.find((i) => i.scheme === 'address')?.value ?? null;
  const name = entityName({ id: entityId, kind: kindOfId(entityId) ?? 'record', identifiers: address && !identifiers.some((i) => i.scheme === 'address') ? [...identifiers, { scheme: 'address', value: address }] : identifiers });
  // The second name: the address when the label is not it, else the SSL or account the sublabel gives.
  const second = address !== null && address !== name.label ? address : (name.sublabel.split(' · ')[1] ?? null);
  return {
    names: [name.label, ...(second && second !== name.label ? [second] : [])],
    invalidKey: name.invalidKey,
    areaUid: typeof entity.area_uid === 'string' ? entity.area_uid : null,
  };
}

export const depthOptions = [1, 2, 3] as const;
export type LinkDepth = (typeof depthOptions)[number];

// ---------------------------------------------------------------------------------------------
// Summary

export interface SummaryRow {
  field: string;
  label: string;
  best: CitedValue | null;
  /** The entry's text when it is not in a shape Plat reads (for sorting and copying). */
  raw: string | null;
  alternatives: CitedValue[];
  /** An entry Plat could not read: shown as published with every citation found in it, never dropped. */
  published: { value: unknown; citations: CitationView[] } | null;
}

export interface SummaryView {
  rows: SummaryRow[];
  /** What the service says it could not answer ("living_area_sqft: no source…"). */
  limitations: string[];
}

const FIELD_LABELS: Record<string, string> = {
  address: 'Address',
  owner_name: 'Owner name',
  use_code: 'Use code',
  year_built: 'Year built',
  bedrooms: 'Bedrooms',
  full_bathrooms: 'Full bathrooms',
  half_bathrooms: 'Half bathrooms',
  living_area_sqft: 'Living area',
  gross_area_sqft: 'Gross building area',
  land_area_sqft: 'Land area',
  assessed_value_dollars: 'Assessed value',
  last_sale_price_dollars: 'Last sale price',
  last_sale_date: 'Last sale date',
  effective_year_built: 'Effective year built',
  latitude: 'Latitude',
  longitude: 'Longitude',
  ssl: 'SSL',
  account_no: 'Account number',
  zip: 'ZIP code',
  sub_neighborhood: 'Sub-neighborhood',
  gross_building_area_sqft: 'Gross building area',
  air_conditioning: 'Air conditioning',
  mar_id: 'MAR id',
};

export function fieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? capitalise(field.replace(/_/g, ' '));
}

/** A row for a field that came with its best value, citation and alternatives. */
function citedRow(field: string, parsed: V4SummaryField): SummaryRow {
  return {
    field,
    label: fieldLabel(field),
    best: citedValue(field, parsed),
    raw: null,
    alternatives: parsed.alternatives.map((alternative) => citedValue(field, alternative)),
    published: null,
  };
}

/** A row for an entry Plat could not read: as published, with the citations it carries. */
function publishedRow(field: string, entry: unknown, citations: CitationView[] = answerCitations(entry)): SummaryRow {
  return { field, label: fieldLabel(field), best: null, raw: formatFieldValue(field, entry), alternatives: [], published: { value: entry, citations } };
}

/**
 * The summary's canonical fields in Plat's order (then any others), and its limitations. The entries
 * are read wherever the service put them (shared/service/summary-fields.ts) under Plat's names; an
 * entry of another shape is kept as published.
 */
export function summaryView(data: Record<string, unknown>): SummaryView {
  const { entries, limitations } = summaryFields(data);
  const rows = entries.map(({ published, name, raw, entry }): SummaryRow => (entry ? citedRow(name ?? published, entry) : publishedRow(name ?? published, raw)));
  return { rows, limitations };
}

// ---------------------------------------------------------------------------------------------
// v2 record

export interface IdentifierRow {
  scheme: string;
  value: string;
  citation: CitationView | null;
}

/** A v2 envelope's `provenance.sources` as the index its refs are read through (shared/cited/source-refs.ts). */
export function provenanceCitations(sources: readonly Record<string, unknown>[] | undefined): RefIndex {
  return v2ProvenanceIndex(sources ?? []);
}

/** Every citation a provenance block holds (its records and the sources it names as a whole). */
export const provenanceViews = (index: RefIndex): CitationView[] => [...index.records.values(), ...index.sources.values()];

/** The citation of the first ref the answer names a source for; a release the ref names that differs from the entry's is noted. */
function firstCitation(refs: unknown, citations: RefIndex): CitationView | null {
  if (!Array.isArray(refs)) return null;
  for (const ref of refs) {
    const placed = typeof ref === 'string' ? placeRef(citations, ref) : null;
    if (placed) return placed.note ? { ...placed.view, extra: { ...placed.view.extra, note: placed.note } } : placed.view;
  }
  return null;
}

const EMPTY_INDEX: RefIndex = { records: new Map(), sources: new Map() };

/**
 * v2 identifiers, whatever their shape (`{scheme, value, source_refs}` objects, or plain strings), each
 * cited when it can be: by its own citation or refs, else by the entity's `source_refs` (the record it is an identifier of).
 */
export function identifierRows(identifiers: readonly unknown[] | undefined, citations: RefIndex = EMPTY_INDEX, entityRefs: unknown = []): IdentifierRow[] {
  const entityCitation = firstCitation(entityRefs, citations);
  return (identifiers ?? []).map((identifier) => {
    if (isRecord(identifier)) {
      return {
        scheme: typeof identifier.scheme === 'string' ? identifier.scheme : '',
        value: formatFieldValue('', identifier.value),
        citation: isRecord(identifier.citation) ? fromV4Citation(identifier.citation) : (firstCitation(identifier.source_refs, citations) ?? entityCitation),
      };
    }
    return { scheme: '', value: formatFieldValue('', identifier), citation: entityCitation };
  });
}

/**
 * v2 attributes: `{value, citation, alternatives}` per field (Plat's local service), or a plain
 * value. A plain value is cited through its `source_refs` when it has them, else through the entity's
 * `source_refs`, and shown uncited only when the answer names no source for it.
 */
export function attributeRows(attributes: Record<string, unknown> | undefined, citations: RefIndex = EMPTY_INDEX, entityRefs: unknown = []): SummaryRow[] {
  const entityCitation = firstCitation(entityRefs, citations);
  return Object.entries(attributes ?? {}).map(([field, entry]): SummaryRow => {
    const parsed = summaryEntryOf(entry);
    if (parsed) return citedRow(field, parsed);
    const value = isRecord(entry) && 'value' in entry ? entry.value : entry;
    const citation = (isRecord(entry) ? firstCitation(entry.source_refs, citations) : null) ?? entityCitation;
    if (citation && (value === null || ['string', 'number', 'boolean'].includes(typeof value))) {
      const scalar = value as SummaryScalar;
      return {
        field,
        label: fieldLabel(field),
        best: { value: scalar, text: formatFieldValue(field, scalar), citation, synthetic: citation.synthetic, note: null },
        raw: null,
        alternatives: [],
        published: null,
      };
    }
    return publishedRow(field, entry, citation ? [citation] : answerCitations(entry));
  });
}
