// The entity graph from the answers a researcher holds: v2 relationship traversals, v4 connected
// entities (depth 1–3), v2 entity records and owner-name searches merged into one model (entities by
// id, links by the triple subject–predicate–object, which is also each link's key for decisions), plus
// Plat's owner nodes: the owner name as published, grouped after normalisation, linked to the
// holdings whose records name it. Merging an expansion's answer adds only what is new. The model
// becomes the GraphSpec the graph component draws, each link a fact or a lead, caps stated.
import { isRecord } from '../json-data.ts';
import { documentCitation, type CitationFields, type CitationView } from '../cited/citation.ts';
import { V2EntityResponseSchema, V2SearchResponseSchema, V2TraversalResponseSchema, type V2EntityData, type V2SearchData, type V2TraversalData } from '../service/v2.ts';
import { V4ConnectedResponseSchema, type V4ConnectedData } from '../service/v4.ts';
import { citationOf, readAnswer, strings, text, type Json } from './answers.ts';
import { placeRef, unplacedRef, v2ProvenanceIndex, type PlacedRef } from '../cited/source-refs.ts';
import { answerCitations } from '../service/unrecognised.ts';
import { graphNodeKinds, type GraphNodeKind } from './graph-spec.ts';
import { kindOfId, ownerNameKey, ownerNodeId, type Identifier } from './relations.ts';
import { holdingsOf, type OwnershipRow } from './holdings.ts';
import { CitationBook } from '../cited/citation-book.ts';

// The drawing of a model (its GraphSpec) lives beside it in graph-view.ts.
export { graphSpec, PORTFOLIO_HOLDINGS, type GraphFilters, type GraphView } from './graph-view.ts';

export interface EntityInfo {
  id: string;
  kind: GraphNodeKind | 'record';
  identifiers: Identifier[];
  /** For a record: what it is (`permit`). */
  recordKind: string | null;
  /** The service's own label for it, used when the answers carry no identifier to name it by. */
  label?: string | null;
}

/** A link the service states, with everything "why linked" needs. */
export interface LinkInfo {
  key: string;
  subject: string;
  predicate: string;
  object: string;
  relationshipRef: string | null;
  /** `same_row`, `ssl_match`, `address_match`, `owner_name_match`, or null when the answer does not say. */
  method: string | null;
  confidence: number | null;
  /** For owner links the normalised name; for address matches the normalised address. */
  basis: string | null;
  /** The service's own words. */
  explanation: string | null;
  validFrom: string | null;
  validTo: string | null;
  sourceRefs: string[];
}

/** One ownership record naming an owner: the holding it is about, the name as printed, its citation. */
export interface OwnerClaim {
  holdingId: string;
  published: string;
  recordRef: string | null;
  citation: CitationView | null;
}

export interface CapCount {
  /** What is counted, around what: links or entities within `depth` of an entity, or holdings of an owner-name search. */
  counts: 'links' | 'entities' | 'holdings';
  /** The entity id, or the owner name searched for. */
  around: string;
  depth: number | null;
  total: number;
  held: string[];
  /** Set when the service itself stopped listing (its max_nodes or max_edges). */
  stopped: string | null;
  /** Holdings: the parcels the held rows make (holdings.ts), and the rows the service matched. */
  parcelsHeld?: number;
  rowsTotal?: number;
}

export interface GraphModel {
  rootId: string;
  entities: ReadonlyMap<string, EntityInfo>;
  links: ReadonlyMap<string, LinkInfo>;
  /** Owner node id → its claims by ownership record (or holding, when the record is not named). */
  owners: ReadonlyMap<string, ReadonlyMap<string, OwnerClaim>>;
  /** Citations by record ref. */
  citations: ReadonlyMap<string, CitationView>;
  /** Sources the answers' provenance names as a whole, by source id: a ref naming one, bare or decorated, cites it (refCitation). */
  sources: ReadonlyMap<string, CitationView>;
  /** Entities and owners whose neighbours an answer listed in full. */
  expanded: ReadonlySet<string>;
  /** What each answer held of what the service has, by answer. */
  caps: ReadonlyMap<string, CapCount>;
  /** The owner searches' rows of the roll, by property: what holdings.ts makes holdings (parcels) of. */
  ownership: ReadonlyMap<string, OwnershipRow>;
}

export type GraphAnswer =
  | { kind: 'relationships'; envelope: unknown }
  /** v4 connected does not echo the entity asked about nor the depth: the request says them. */
  | { kind: 'connected'; qId: string; depth: number; envelope: unknown }
  | { kind: 'entity'; envelope: unknown }
  /** One page of the v2 property search by owner name; `name` is the text searched for. */
  | { kind: 'owner-search'; name: string; envelope: unknown };

/** A part of an answer Plat could not read, kept to be shown as published with its citations. */
export interface UnreadPart {
  /** Which part, as a noun phrase: "the relationships answer", "node 3 of the relationships answer". */
  part: string;
  value: unknown;
  /** Every citation the answer it is part of carries. */
  citations: CitationView[];
}

export interface MergeResult {
  model: GraphModel;
  /** Nodes the answer added (an expansion draws only these). */
  added: string[];
  problems: string[];
  /** What of the answer Plat could not read: never dropped, shown as published. */
  unread: UnreadPart[];
}

export function emptyGraph(rootId: string): GraphModel {
  return { rootId, entities: new Map(), links: new Map(), owners: new Map(), citations: new Map(), sources: new Map(), expanded: new Set(), caps: new Map(), ownership: new Map() };
}

/** The key of a link: stable across re-fetches (decisions are kept by it). A same-owner link reads the same both ways. */
export function linkKey(subject: string, predicate: string, object: string): string {
  const [a, b] = predicate === 'same_owner' && object < subject ? [object, subject] : [subject, object];
  return `${predicate}:${a}→${b}`;
}

/** Kinds a holding's owner hangs on, best first: the tax account (parcel → account → owner), then the property. */
const HOLDING_PREFERENCE: readonly string[] = ['tax_account', 'property', 'unit', 'parcel'];

const holdingRank = (kind: string): number => {
  const rank = HOLDING_PREFERENCE.indexOf(kind);
  return rank < 0 ? HOLDING_PREFERENCE.length : rank;
};

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function graphKind(kind: unknown, id: string): GraphNodeKind | null {
  return typeof kind === 'string' && (graphNodeKinds as readonly string[]).includes(kind) ? (kind as GraphNodeKind) : kindOfId(id);
}

/** A traversal node as Plat reads it: its id, kind and label, whichever keys the service gave them. */
export interface TraversalNode {
  id: string;
  /** The kind as published (`parcel`, `tax_account`, `permit`…), or null when the node gives none. */
  kind: string | null;
  /** A record (a permit), not an entity. */
  record: boolean;
  label: string | null;
  depth: number | null;
  identifiers: Identifier[];
}

/**
 * A v2 traversal node, whose inner shape the spec does not show: the id under `entity_ref`, `ref`,
 * `id`, `q_id` or `node_ref`, the kind under `entity_kind`, `kind`, `type` or `node_kind`; null when
 * it names no id.
 */
export function readTraversalNode(node: Json): TraversalNode | null {
  const id = text(node.entity_ref) ?? text(node.ref) ?? text(node.id) ?? text(node.q_id) ?? text(node.node_ref);
  if (id === null) return null;
  const kind = text(node.entity_kind) ?? text(node.kind) ?? text(node.type) ?? text(node.node_kind);
  return {
    id,
    kind,
    record: node.node_type === 'record' || kind === 'record',
    label: text(node.label) ?? text(node.name),
    depth: num(node.depth),
    identifiers: identifiersOf(node.identifiers),
  };
}

function identifiersOf(value: unknown): Identifier[] {
  if (isRecord(value)) {
    // A search item's canonical_identity: { address, ssl, account_no }.
    return Object.entries(value).flatMap(([scheme, v]) => (typeof v === 'string' ? [{ scheme, value: v }] : []));
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => (isRecord(item) && typeof item.scheme === 'string' && typeof item.value === 'string' ? [{ scheme: item.scheme, value: item.value }] : []));
}

/** A mutable copy of the model for one merge; the caller's model is never changed. */
class Draft {
  entities: Map<string, EntityInfo>;
  links: Map<string, LinkInfo>;
  owners: Map<string, Map<string, OwnerClaim>>;
  citations: Map<string, CitationView>;
  sources: Map<string, CitationView>;
  expanded: Set<string>;
  caps: Map<string, CapCount>;
  ownership: Map<string, OwnershipRow>;
  added: string[] = [];
  unread: UnreadPart[] = [];
  readonly copied = new Set<string>();
  readonly before: GraphModel;
  constructor(before: GraphModel) {
    this.before = before;
    this.entities = new Map(before.entities);
    this.links = new Map(before.links);
    this.owners = new Map(before.owners as ReadonlyMap<string, Map<string, OwnerClaim>>);
    this.citations = new Map(before.citations);
    this.sources = new Map(before.sources);
    this.expanded = new Set(before.expanded);
    this.caps = new Map(before.caps);
    this.ownership = new Map(before.ownership);
  }

  entity(id: string, kind: GraphNodeKind | 'record' | null, identifiers: Identifier[], recordKind: string | null = null, label: string | null = null): void {
    if (kind === null) return;
    const known = this.entities.get(id);
    if (!known) {
      this.entities.set(id, { id, kind, identifiers, recordKind, ...(label === null ? {} : { label }) });
      if (!this.before.entities.has(id)) this.added.push(id);
      return;
    }
    const fresh = identifiers.filter((i) => !known.identifiers.some((k) => k.scheme === i.scheme && k.value === i.value));
    if (fresh.length > 0 || (known.recordKind === null && recordKind !== null) || (!known.label && label !== null)) {
      this.entities.set(id, { ...known, identifiers: [...known.identifiers, ...fresh], recordKind: known.recordKind ?? recordKind, label: known.label ?? label });
    }
  }

  link(link: Omit<LinkInfo, 'key'>): void {
    const key = linkKey(link.subject, link.predicate, link.object);
    const known = this.links.get(key);
    if (!known) {
      this.links.set(key, { ...link, key });
      return;
    }
    // The same link from another answer: keep what either says, the first answer's words first.
    this.links.set(key, {
      ...known,
      relationshipRef: known.relationshipRef ?? link.relationshipRef,
      method: known.method ?? link.method,
      confidence: known.confidence ?? link.confidence,
      basis: known.basis ?? link.basis,
      explanation: known.explanation ?? link.explanation,
      validFrom: known.validFrom ?? link.validFrom,
      validTo: known.validTo ?? link.validTo,
      sourceRefs: [...new Set([...known.sourceRefs, ...link.sourceRefs])],
    });
  }

  claim(holdingId: string, kind: string, fact: unknown): void {
    if (!isRecord(fact)) return;
    const published = text(fact.value);
    if (published === null) return;
    const ownerId = ownerNodeId(published);
    if (ownerId === 'owner:') return;
    const citation = citationOf(fact.citation);
    const recordRef = citation?.recordRef ?? strings(fact.source_refs)[0] ?? null;
    const claimKey = recordRef ?? holdingId;
    // Each owner's claims are copied once per merge, not once per claim: a portfolio has thousands.
    const claims = this.copied.has(ownerId) ? (this.owners.get(ownerId) ?? new Map<string, OwnerClaim>()) : new Map(this.owners.get(ownerId) ?? []);
    this.copied.add(ownerId);
    const known = claims.get(claimKey);
    if (!known || holdingRank(kind) < holdingRank(this.entities.get(known.holdingId)?.kind ?? '')) claims.set(claimKey, { holdingId, published, recordRef, citation });
    if (!this.owners.has(ownerId) && !this.before.owners.has(ownerId)) this.added.push(ownerId);
    this.owners.set(ownerId, claims);
    if (citation?.recordRef) this.citations.set(citation.recordRef, citation);
  }

  /** An answer's `provenance.sources`: its records by ref, the sources it names as a whole by id. */
  provenance(provenance: Json | null): void {
    const index = v2ProvenanceIndex(provenance?.sources);
    for (const [ref, view] of index.records) this.citations.set(ref, view);
    for (const [id, view] of index.sources) this.sources.set(id, view);
  }

  cap(answerKey: string, cap: CapCount): void {
    const known = this.caps.get(answerKey);
    this.caps.set(answerKey, known ? { ...cap, held: [...new Set([...known.held, ...cap.held])] } : cap);
  }

  finish(problems: string[]): MergeResult {
    const { rootId } = this.before;
    const model: GraphModel = { rootId, entities: this.entities, links: this.links, owners: this.owners, citations: this.citations, sources: this.sources, expanded: this.expanded, caps: this.caps, ownership: this.ownership };
    return { model, added: this.added, problems, unread: this.unread };
  }

  /**
   * An answer that is not in the contract's shape: its problem, and (unless it is an error answer,
   * which carries nothing bought) the answer kept to be shown as published with its citations.
   */
  unreadable(envelope: unknown, what: string, problem: string): string[] {
    if (isRecord(envelope) && envelope.status !== 'error') this.unread.push({ part: `the ${what} answer`, value: envelope.data ?? envelope, citations: answerCitations(envelope) });
    return [problem];
  }
}

function serviceLink(raw: Json, subject: string, object: string): Omit<LinkInfo, 'key'> {
  return {
    subject,
    predicate: text(raw.predicate) ?? text(raw.relation) ?? 'related_to',
    object,
    relationshipRef: text(raw.relationship_ref),
    method: text(raw.method),
    confidence: num(raw.confidence),
    basis: text(raw.basis),
    explanation: text(raw.explanation),
    validFrom: text(raw.valid_from),
    validTo: text(raw.valid_to),
    sourceRefs: strings(raw.source_refs),
  };
}

function mergeRelationships(draft: Draft, envelope: unknown): string[] {
  const read = readAnswer<V2TraversalData>(V2TraversalResponseSchema, envelope, 'relationships');
  if (!read.ok) return draft.unreadable(envelope, 'relationships', read.problem);
  const { data, meta } = read;
  draft.provenance(read.provenance);
  const nodes: TraversalNode[] = [];
  data.nodes.forEach((raw, index) => {
    const node = readTraversalNode(raw);
    if (node) nodes.push(node);
    else draft.unread.push({ part: `node ${index + 1} of the relationships answer (it names no id Plat reads)`, value: raw, citations: answerCitations({ raw, provenance: read.provenance }) });
  });
  for (const node of nodes) {
    // A kind Plat has no node for, on an id of no known prefix, is still listed: as a record of that kind.
    const kind = node.record ? 'record' : (graphKind(node.kind, node.id) ?? 'record');
    draft.entity(node.id, kind, node.identifiers, kind === 'record' ? (node.record ? node.kind : (node.kind ?? 'linked')) : null, node.label);
  }
  for (const edge of data.edges) {
    // An end the nodes do not list is still an entity when its id says its kind: the link is never dropped for it.
    for (const end of [edge.subject_ref, edge.object_ref]) if (!draft.entities.has(end)) draft.entity(end, kindOfId(end), []);
    draft.link(serviceLink(edge, edge.subject_ref, edge.object_ref));
  }
  const complete = !text(meta.next_cursor) && meta.truncated !== true;
  if (complete) {
    draft.expanded.add(data.root_ref);
    for (const node of nodes) if (node.depth !== null && node.depth < data.depth) draft.expanded.add(node.id);
  }
  const nodeCount = num(data.node_count) ?? data.nodes.length;
  const edgeCount = num(data.edge_count) ?? data.edges.length;
  const stopped = meta.truncated === true ? (nodeCount >= data.max_nodes ? `max_nodes ${data.max_nodes}` : `max_edges ${data.max_edges}`) : null;
  draft.cap(`relationships:${data.root_ref}:${data.depth}`, { counts: 'links', around: data.root_ref, depth: data.depth, total: edgeCount, held: data.edges.map((e) => linkKey(e.subject_ref, e.predicate, e.object_ref)), stopped });
  return [];
}

function mergeConnected(draft: Draft, qId: string, depth: number, envelope: unknown): string[] {
  const read = readAnswer<V4ConnectedData>(V4ConnectedResponseSchema, envelope, 'connected');
  if (!read.ok) return draft.unreadable(envelope, 'connected', read.problem);
  draft.entity(qId, kindOfId(qId), []);
  for (const item of read.data.items) {
    const extra = item as Json;
    draft.entity(item.q_id, graphKind(item.type, item.q_id), []);
    // `direction` is the link's as seen from `via`: out means via is its subject.
    const [subject, object] = extra.direction === 'in' ? [item.q_id, item.via] : [item.via, item.q_id];
    draft.link({ ...serviceLink({ ...extra, predicate: item.relation }, subject, object) });
    const view = citationOf(extra.citation);
    const ref = view?.recordRef ?? strings(extra.source_refs)[0];
    if (view && ref && !draft.citations.has(ref)) draft.citations.set(ref, { ...view, recordRef: ref });
  }
  const more = text(read.data.next_cursor) ?? text(read.meta.next_cursor);
  if (!more) {
    draft.expanded.add(qId);
    for (const item of read.data.items) if (item.depth < depth) draft.expanded.add(item.q_id);
  }
  draft.cap(`connected:${qId}:${depth}`, { counts: 'entities', around: qId, depth, total: num(read.data.total) ?? read.data.items.length, held: read.data.items.map((i) => i.q_id), stopped: null });
  return [];
}

function mergeEntity(draft: Draft, envelope: unknown): string[] {
  const read = readAnswer<V2EntityData>(V2EntityResponseSchema, envelope, 'entity');
  if (!read.ok) return draft.unreadable(envelope, 'entity', read.problem);
  const { entity } = read.data;
  draft.provenance(read.provenance);
  const kind = graphKind(entity.entity_kind, entity.entity_ref);
  draft.entity(entity.entity_ref, kind, identifiersOf(entity.identifiers));
  if (kind !== null && kind !== 'address') draft.claim(entity.entity_ref, kind, entity.attributes?.owner_name);
  return [];
}

function mergeOwnerSearch(draft: Draft, name: string, envelope: unknown): string[] {
  const read = readAnswer<V2SearchData>(V2SearchResponseSchema, envelope, 'owner search');
  if (!read.ok) return draft.unreadable(envelope, 'owner search', read.problem);
  draft.provenance(read.provenance);
  const groups = new Set<string>();
  for (const item of read.data.items) {
    const extra = item as Json;
    const kind = graphKind(item.entity_kind, item.entity_ref);
    draft.entity(item.entity_ref, kind, identifiersOf(item.canonical_identity));
    const propertyRef = text(item.property_ref);
    const via = text(extra.via_predicate);
    if (propertyRef && via && propertyRef !== item.entity_ref) {
      draft.entity(propertyRef, 'property', []);
      draft.link({ ...serviceLink({ ...extra, predicate: via }, propertyRef, item.entity_ref), sourceRefs: strings(extra.source_refs) });
    }
    const facts = isRecord(extra.facts) ? extra.facts : {};
    if (kind !== null) draft.claim(item.entity_ref, kind, facts.owner_name);
    const published = isRecord(facts.owner_name) ? text(facts.owner_name.value) : null;
    if (published) groups.add(ownerNodeId(published));
  }
  const complete = !text(read.meta.next_cursor);
  if (complete) for (const id of groups) draft.expanded.add(id);
  // Each row of the roll is its property and its parcel or unit; a row's items may span two pages.
  for (const item of read.data.items) {
    const propertyRef = text(item.property_ref) ?? item.entity_ref;
    const known = draft.ownership.get(propertyRef);
    if (known?.items.some((held) => held.entity_ref === item.entity_ref)) continue;
    draft.ownership.set(propertyRef, { propertyRef, items: [...(known?.items ?? []), item as OwnershipRow['items'][number]] });
  }
  const key = `owner-search:${ownerNameKey(name)}`;
  const properties = [...new Set([...(draft.caps.get(key)?.held ?? []), ...read.data.items.map((item) => text(item.property_ref) ?? item.entity_ref)])];
  // The service counts rows (properties); Plat counts holdings as parcels (holdings.ts). All rows held: the parcels are the count.
  const rows = properties.flatMap((ref) => draft.ownership.get(ref) ?? []);
  const parcels = holdingsOf(rows, new CitationBook().cite).holdings.length;
  const matched = num(read.data.properties_matched) ?? properties.length;
  const total = properties.length >= matched ? parcels : matched;
  draft.cap(key, { counts: 'holdings', around: name.trim(), depth: null, total, held: properties, stopped: null, parcelsHeld: parcels, rowsTotal: matched });
  return [];
}

/** The model with one answer merged in: new entities, links and owners added, known ones kept (and completed). */
export function mergeAnswer(model: GraphModel, answer: GraphAnswer): MergeResult {
  const draft = new Draft(model);
  switch (answer.kind) {
    case 'relationships':
      return draft.finish(mergeRelationships(draft, answer.envelope));
    case 'connected':
      return draft.finish(mergeConnected(draft, answer.qId, answer.depth, answer.envelope));
    case 'entity':
      return draft.finish(mergeEntity(draft, answer.envelope));
    case 'owner-search':
      return draft.finish(mergeOwnerSearch(draft, answer.name, answer.envelope));
  }
}

/** A model of several answers, merged in order. */
export function buildGraph(rootId: string, answers: readonly GraphAnswer[]): MergeResult {
  let result: MergeResult = { model: emptyGraph(rootId), added: [], problems: [], unread: [] };
  for (const answer of answers) {
    const next = mergeAnswer(result.model, answer);
    result = { model: next.model, added: [...result.added, ...next.added], problems: [...result.problems, ...next.problems], unread: [...result.unread, ...next.unread] };
  }
  return result;
}

/** What a ref an answer gives cites in this graph: its record, or the source it names (shared/cited/source-refs.ts); null when the answers name no source for it. */
export function refPlace(model: GraphModel, ref: string): PlacedRef | null {
  return placeRef({ records: model.citations, sources: model.sources }, ref);
}

/** A ref's citation in this graph, the ref alone (saying so) when the answers name no source for it. */
export function refCitation(model: GraphModel, ref: string): CitationFields {
  const placed = refPlace(model, ref);
  return placed ? documentCitation(placed.view, placed.note) : unplacedRef(ref);
}
