// What the entity page shows, as pure functions of the service's answers: the entity's kind from its
// id, connected entities grouped by relation, the summary's best values with their alternatives, and
// the v2 record's identifiers and attributes. The spec leaves the inner shapes open, so each reader
// takes Plat's local-service shape first and falls back to showing the raw value, uncited, never
// inventing a citation.
import {
  connectedEntityIdPrefixes,
  entityKindLabelByPrefix,
  entityPrefix,
  type EntityIdPrefix,
} from '../../../shared/service/common.ts';
import { summaryCanonicalFields, V4SummaryFieldSchema, type V4ConnectedItem, type V4SummaryField } from '../../../shared/service/v4.ts';
import type { V2RelationshipEdge, V2TraversalData } from '../../../shared/service/v2.ts';
import { fromV2Source, fromV4Citation, type CitationView } from '../../../shared/report/citation.ts';
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

/** `parc_f90a34ed…`: enough to tell entities apart in a trail or a list. */
export function shortEntityId(entityId: string): string {
  const match = /^([a-z]+_[0-9a-f]{8})[0-9a-f-]{28}$/.exec(entityId);
  return match?.[1] ? `${match[1]}…` : entityId.length > 22 ? `${entityId.slice(0, 21)}…` : entityId;
}

/** Whether the connected operation (its first form: parcels, accounts, units, addresses) takes this id. */
export function canListConnected(entityId: string): boolean {
  const prefix = entityPrefix(entityId);
  return prefix !== undefined && (connectedEntityIdPrefixes as readonly string[]).includes(prefix);
}

/** Whether the summary operation takes this id (any well-formed entity id). */
export function canSummarise(entityId: string): boolean {
  return entityPrefix(entityId) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Connected entities

const RELATION_LABELS: Record<string, string> = {
  located_in: 'Located in',
  taxed_in: 'Taxed in',
  assessed_in: 'Assessed in',
  served_by: 'Served by (address)',
  permitted_by: 'Permitted by',
  same_owner: 'Same owner name',
};

export function relationLabel(relation: string): string {
  return RELATION_LABELS[relation] ?? capitalise(relation.replace(/_/g, ' '));
}

export interface ConnectedEntry {
  qId: string;
  type: string;
  relation: string;
  via: string;
  depth: number;
  direction: string | null;
  confidence: number | null;
  explanation: string | null;
  citation: CitationView | null;
  /** What the service calls it ("1626 - 1632 U ST NW (parcel)"), when it says. */
  label: string | null;
  /** False for things that are not entities (a permit record at the end of a `permitted_by` link). */
  openable: boolean;
}

export interface ConnectedGroup {
  relation: string;
  label: string;
  entries: ConnectedEntry[];
  /** Owner-name links join records by a name only: same-name strangers are common. */
  nameOnly: boolean;
}


export function connectedEntry(item: V4ConnectedItem): ConnectedEntry {
  const extra = item as V4ConnectedItem & Record<string, unknown>;
  return {
    qId: item.q_id,
    type: item.type,
    relation: item.relation,
    via: item.via,
    depth: item.depth,
    direction: typeof extra.direction === 'string' ? extra.direction : null,
    confidence: typeof extra.confidence === 'number' ? extra.confidence : null,
    explanation: typeof extra.explanation === 'string' ? extra.explanation : null,
    citation: isRecord(extra.citation) ? fromV4Citation(extra.citation) : null,
    label: null,
    openable: entityPrefix(item.q_id) !== undefined,
  };
}

/** Groups by relation (in the order relations first appear), nearest first inside each group. */
export function groupConnected(items: readonly V4ConnectedItem[]): ConnectedGroup[] {
  return groupEntries(items.map(connectedEntry));
}

function groupEntries(entries: readonly ConnectedEntry[]): ConnectedGroup[] {
  const groups = new Map<string, ConnectedEntry[]>();
  for (const entry of entries) {
    const list = groups.get(entry.relation);
    if (list) list.push(entry);
    else groups.set(entry.relation, [entry]);
  }
  return [...groups].map(([relation, entries]) => ({
    relation,
    label: relationLabel(relation),
    entries: [...entries].sort((a, b) => a.depth - b.depth),
    nameOnly: relation === 'same_owner',
  }));
}

/**
 * A v2 traversal as the same groups: each edge seen from the root, the entity at its other end, its
 * reason, confidence and first cited source (looked up in the envelope's provenance).
 */
export function relationshipGroups(data: V2TraversalData, sources: readonly Record<string, unknown>[] | undefined): ConnectedGroup[] {
  const citations = provenanceCitations(sources);
  const nodes = new Map<string, Record<string, unknown>>();
  for (const node of data.nodes) if (typeof node.id === 'string') nodes.set(node.id, node);
  const entries = data.edges.map((edge): ConnectedEntry => {
    const extra = edge as V2RelationshipEdge & Record<string, unknown>;
    const via = typeof extra.via_ref === 'string' ? extra.via_ref : data.root_ref;
    const other = edge.subject_ref === via ? edge.object_ref : edge.subject_ref;
    const node = nodes.get(other);
    const kind = typeof node?.kind === 'string' ? node.kind : entityKindLabel(other);
    return {
      qId: other,
      type: kind,
      relation: edge.predicate,
      via,
      depth: typeof extra.depth === 'number' ? extra.depth : 1,
      direction: edge.direction ?? null,
      confidence: edge.confidence ?? null,
      explanation: typeof extra.explanation === 'string' ? extra.explanation : null,
      citation: firstCitation(edge.source_refs, citations),
      // The node label repeats the kind in brackets; the list shows the kind already.
      label: typeof node?.label === 'string' ? node.label.replace(/\s*\([^()]*\)$/, '') : null,
      openable: entityPrefix(other) !== undefined && node?.node_type !== 'record',
    };
  });
  return groupEntries(entries);
}

export const depthOptions = [1, 2, 3] as const;
export type LinkDepth = (typeof depthOptions)[number];

// ---------------------------------------------------------------------------------------------
// Summary

export interface SummaryRow {
  field: string;
  label: string;
  best: CitedValue | null;
  /** Shown when the entry is not in a shape Plat reads: the raw value, uncited. */
  raw: string | null;
  alternatives: CitedValue[];
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
  };
}

/** The summary's canonical fields in Plat's order (then any others), and its limitations. */
export function summaryView(data: Record<string, unknown>): SummaryView {
  const limitations = Array.isArray(data.limitations) ? data.limitations.filter((l): l is string => typeof l === 'string') : [];
  const known = summaryCanonicalFields as readonly string[];
  const fields = [...known.filter((field) => field in data), ...Object.keys(data).filter((field) => !known.includes(field) && field !== 'limitations')];
  const rows = fields.map((field): SummaryRow => {
    const entry = data[field];
    const parsed = V4SummaryFieldSchema.safeParse(entry);
    if (!parsed.success) return { field, label: fieldLabel(field), best: null, raw: formatFieldValue(field, entry), alternatives: [] };
    return citedRow(field, parsed.data);
  });
  return { rows, limitations };
}

// ---------------------------------------------------------------------------------------------
// v2 record

export interface IdentifierRow {
  scheme: string;
  value: string;
  citation: CitationView | null;
}

/** A lookup from a v2 `source_ref` to its provenance entry's citation. */
export function provenanceCitations(sources: readonly Record<string, unknown>[] | undefined): Map<string, CitationView> {
  const map = new Map<string, CitationView>();
  for (const source of sources ?? []) {
    if (typeof source.source_ref !== 'string') continue;
    const view = fromV2Source(source);
    // The local service writes `synthetic` as the text "true"/"false" in this string-valued block.
    map.set(source.source_ref, { ...view, synthetic: view.synthetic || source.synthetic === 'true' });
  }
  return map;
}

function firstCitation(refs: unknown, citations: ReadonlyMap<string, CitationView>): CitationView | null {
  if (!Array.isArray(refs)) return null;
  for (const ref of refs) {
    const citation = typeof ref === 'string' ? citations.get(ref) : undefined;
    if (citation) return citation;
  }
  return null;
}

/** v2 identifiers, whatever their shape (`{scheme, value, source_refs}` objects, or plain strings), each cited when it can be. */
export function identifierRows(identifiers: readonly unknown[] | undefined, citations: ReadonlyMap<string, CitationView> = new Map()): IdentifierRow[] {
  return (identifiers ?? []).map((identifier) => {
    if (isRecord(identifier)) {
      return {
        scheme: typeof identifier.scheme === 'string' ? identifier.scheme : '',
        value: formatFieldValue('', identifier.value),
        citation: isRecord(identifier.citation) ? fromV4Citation(identifier.citation) : firstCitation(identifier.source_refs, citations),
      };
    }
    return { scheme: '', value: formatFieldValue('', identifier), citation: null };
  });
}

/**
 * v2 attributes: `{value, citation, alternatives}` per field (Plat's local service), or a plain
 * value. A plain value is cited through its `source_refs` when it has them, and otherwise shown uncited.
 */
export function attributeRows(attributes: Record<string, unknown> | undefined, citations: ReadonlyMap<string, CitationView> = new Map()): SummaryRow[] {
  return Object.entries(attributes ?? {}).map(([field, entry]): SummaryRow => {
    const parsed = V4SummaryFieldSchema.safeParse(isRecord(entry) && !('alternatives' in entry) ? { ...entry, alternatives: [] } : entry);
    if (parsed.success) return citedRow(field, parsed.data);
    const value = isRecord(entry) && 'value' in entry ? entry.value : entry;
    const citation = isRecord(entry) ? firstCitation(entry.source_refs, citations) : null;
    if (citation && (value === null || ['string', 'number', 'boolean'].includes(typeof value))) {
      const scalar = value as SummaryScalar;
      return {
        field,
        label: fieldLabel(field),
        best: { value: scalar, text: formatFieldValue(field, scalar), citation, synthetic: citation.synthetic, note: null },
        raw: null,
        alternatives: [],
      };
    }
    return { field, label: fieldLabel(field), best: null, raw: formatFieldValue(field, value), alternatives: [] };
  });
}
