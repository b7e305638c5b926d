// The Graph view as pure functions: what a root is (an entity id, or an owner name), which service
// requests draw it and expand a node (v2 relationships, v4 connected entities, the v2 entity record
// for its owner, the owner-name search), how held answers become the model (merging only what is new),
// the table beside the drawing (every node and link, with its rule, confidence, decision and sources),
// and the runsheet's record searches. The screen (GraphView.tsx) only wires these to the platform.
import { canonicalJson } from '../../../shared/canonical-json.ts';
import { buildGraph, mergeAnswer, refCitation, type GraphAnswer, type GraphModel, type UnreadPart } from '../../../shared/graph/build-graph.ts';
import { linkStanding, type GraphDecision, type LinkStanding } from '../../../shared/graph/decisions.ts';
import { graphNodeKindLabels, type GraphNodeKind } from '../../../shared/graph/graph-spec.ts';
import type { GraphFilters, GraphView } from '../../../shared/graph/graph-view.ts';
import { distancesFrom, linkRuleLabels, nodeName, ownerVariants, type ModelLink } from '../../../shared/graph/links.ts';
import { kindOfId, OWNED_BY, ownerNodeId, relationLabel, sslText } from '../../../shared/graph/relations.ts';
import type { Cite } from '../../../shared/cited/citation-book.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { safeFilename } from '../../../shared/filename.ts';
import { ConnectedEntityIdSchema, type RelationshipPredicate } from '../../../shared/service/common.ts';
import { parseSsl } from '../../../shared/service/identifiers.ts';
import { encodeSearchFilter } from '../../../shared/service/v4.ts';
import { fieldForRole, recordFieldMap, roleSearchProblem, type CatalogItemFields } from '../../../shared/service/record-fields.ts';
import { isRecord } from '../../../shared/json-data.ts';
import type { ServiceRequestParts } from '../../platform/service-calls.ts';
import { ownerSearchBody } from '../../components/owner-lookup.ts';
import type { V2PropertySearchInput } from '../../../shared/service/v2.ts';

// ---------------------------------------------------------------------------------------------
// The root

/** What the graph is drawn from: an entity, or an owner (the name as published, grouped after normalisation). */
export type GraphRoot = { kind: 'entity'; id: string } | { kind: 'owner'; id: string; name: string; areaUid: string | null };

const ENTITY_ID = /^(prop|parc|acct|unit|addr)_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The root a person typed or opened: an entity id (`prop_…`, `parc_…`, `acct_…`, `unit_…`, `addr_…`),
 * an owner (`owner:NAME`, or an owner page's `owner:AREA/NAME`), or an owner name. A problem in words
 * when it can be none of them.
 */
export function readRoot(text: string): { ok: true; root: GraphRoot } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'Type an entity id (prop_…, parc_…, acct_…, unit_…, addr_…) or an owner name.' };
  const lower = trimmed.toLowerCase();
  if (ENTITY_ID.test(lower)) return { ok: true, root: { kind: 'entity', id: lower } };
  if (/^(prop|parc|acct|unit|addr|loan)_/i.test(trimmed)) {
    return { ok: false, problem: `“${trimmed}” looks like an entity id but is not one Plat can draw: an id is a prefix (prop, parc, acct, unit, addr) and a full uuid.` };
  }
  const owner = trimmed.replace(/^owner:\s*/i, '');
  // An owner page names its area before the name: `owner:area_us_dc/JOEL KUIPERS` (or `owner:/NAME`).
  const inArea = /^owner:/i.test(trimmed) ? /^(area_[a-z0-9_]+)?\/(.+)$/s.exec(owner) : null;
  const name = (inArea?.[2] ?? owner).trim();
  const areaUid = inArea?.[1] ?? null;
  const letters = name.replace(/[^\p{L}\p{N}]/gu, '');
  if (letters.length < 2) return { ok: false, problem: 'An owner name needs at least two letters or digits.' };
  if (name.length > 100) return { ok: false, problem: `An owner name is searched by at most 100 characters (this is ${name.length}).` };
  return { ok: true, root: { kind: 'owner', id: ownerNodeId(name), name, areaUid } };
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface TraversalSettings {
  direction: 'both' | 'out' | 'in';
  /** 1 to 3 links from the root (v2 relationships and v4 connected alike). */
  depth: 1 | 2 | 3;
  /** The relations asked for; null: all. */
  predicates: RelationshipPredicate[] | null;
  /** The service's caps (1 to 200 each). */
  maxNodes: number;
  maxEdges: number;
}

export const defaultTraversal: TraversalSettings = { direction: 'both', depth: 2, predicates: null, maxNodes: 100, maxEdges: 200 };

/** Links listed per page of a relationships or connected answer (the most the service gives). */
export const LINK_PAGE_SIZE = 100;

export type GraphRequest =
  | { key: string; kind: 'relationships'; operation: 'traverseRelationships'; about: string; depth: number; parts: { path: { entity_ref: string }; query: Record<string, string | number> } }
  | { key: string; kind: 'connected'; operation: 'getConnectedEntities'; about: string; depth: number; parts: { path: { q_id: string }; query: Record<string, string | number> } }
  | { key: string; kind: 'entity'; operation: 'getEntity'; about: string; parts: { path: { entity_ref: string } } }
  | { key: string; kind: 'owner-search'; operation: 'searchProperties'; about: string; name: string; parts: { body: V2PropertySearchInput } };

const keyed = <R extends Omit<GraphRequest, 'key'>>(request: R): R & { key: string } => ({ ...request, key: `${request.operation}:${canonicalJson(request.parts)}` });

export function relationshipsRequest(id: string, settings: TraversalSettings, cursor?: string): GraphRequest {
  const query: Record<string, string | number> = {
    direction: settings.direction,
    depth: settings.depth,
    max_nodes: settings.maxNodes,
    max_edges: settings.maxEdges,
    page_size: LINK_PAGE_SIZE,
  };
  if (settings.predicates !== null) query.predicates = settings.predicates.join(',');
  if (cursor !== undefined) query.cursor = cursor;
  return keyed({ kind: 'relationships', operation: 'traverseRelationships', about: id, depth: settings.depth, parts: { path: { entity_ref: id }, query } });
}

/** v4 connected answers for addresses, parcels, accounts and units only (its first form). */
export const canListConnected = (id: string): boolean => ConnectedEntityIdSchema.safeParse(id).success;

export function connectedRequest(id: string, depth: number, cursor?: string): GraphRequest {
  const query: Record<string, string | number> = { depth, limit: LINK_PAGE_SIZE };
  if (cursor !== undefined) query.cursor = cursor;
  return keyed({ kind: 'connected', operation: 'getConnectedEntities', about: id, depth, parts: { path: { q_id: id }, query } });
}

export function entityRequest(id: string): GraphRequest {
  return keyed({ kind: 'entity', operation: 'getEntity', about: id, parts: { path: { entity_ref: id } } });
}

export function ownerSearchRequest(name: string, areaUid: string, cursor?: string): GraphRequest {
  // The owner pages' own request, so a page bought there is held here (and the other way round).
  const body = ownerSearchBody(areaUid, name, cursor);
  return keyed({ kind: 'owner-search', operation: 'searchProperties', about: ownerNodeId(name), name: name.trim(), parts: { body } });
}

/**
 * What draws a root: for an entity, its links within the depth (v2 relationships), its connected
 * entities (v4, when it takes the id) and its own record (which names its owner); for an owner, the
 * search of holdings by that name (null area: the owner-name areas are not known yet).
 */
export function rootRequests(root: GraphRoot, settings: TraversalSettings, areaUid: string | null): GraphRequest[] {
  if (root.kind === 'owner') {
    const area = root.areaUid ?? areaUid;
    return area === null ? [] : [ownerSearchRequest(root.name, area)];
  }
  return [
    relationshipsRequest(root.id, settings),
    ...(canListConnected(root.id) ? [connectedRequest(root.id, settings.depth)] : []),
    entityRequest(root.id),
  ];
}

/** The published name an owner node is searched by: its most used spelling, or the name in its id. */
export function ownerSearchName(model: GraphModel, ownerId: string): string {
  const claims = model.owners.get(ownerId);
  const variant = claims ? ownerVariants(claims.values())[0]?.published : undefined;
  return variant ?? ownerId.replace(/^owner:/, '');
}

/**
 * What expanding a node asks: an entity's links one step out (with the root's direction and
 * relations), its connected entities and its record; an owner's holdings by name.
 */
export function expansionRequests(model: GraphModel, nodeId: string, settings: TraversalSettings, areaUid: string | null): GraphRequest[] {
  if (nodeId.startsWith('owner:')) return areaUid === null ? [] : [ownerSearchRequest(ownerSearchName(model, nodeId), areaUid)];
  const step = { ...settings, depth: 1 as const };
  return [relationshipsRequest(nodeId, step), ...(canListConnected(nodeId) ? [connectedRequest(nodeId, 1)] : []), entityRequest(nodeId)];
}

const cursorOf = (envelope: unknown): string | null => {
  if (!isRecord(envelope)) return null;
  const data = isRecord(envelope.data) ? envelope.data : {};
  const meta = isRecord(envelope.meta) ? envelope.meta : {};
  const cursor = data.next_cursor ?? meta.next_cursor;
  return typeof cursor === 'string' && cursor !== '' ? cursor : null;
};

/** The next page of a held answer that says there is more, or null. */
export function nextPageRequest(request: GraphRequest, envelope: unknown): GraphRequest | null {
  const cursor = cursorOf(envelope);
  if (cursor === null) return null;
  switch (request.kind) {
    case 'relationships':
      return keyed({ ...request, parts: { ...request.parts, query: { ...request.parts.query, cursor } } });
    case 'connected':
      return keyed({ ...request, parts: { ...request.parts, query: { ...request.parts.query, cursor } } });
    case 'owner-search':
      return keyed({ ...request, parts: { body: { ...request.parts.body, cursor } } });
    default:
      return null;
  }
}

/** Requests without repeats, first kept. */
export function uniqueRequests(requests: readonly GraphRequest[]): GraphRequest[] {
  const seen = new Set<string>();
  return requests.filter((request) => (seen.has(request.key) ? false : (seen.add(request.key), true)));
}

/** A held answer as the graph model merges it. */
export function graphAnswerOf(request: GraphRequest, envelope: unknown): GraphAnswer {
  switch (request.kind) {
    case 'relationships':
      return { kind: 'relationships', envelope };
    case 'connected':
      return { kind: 'connected', qId: request.parts.path.q_id, depth: request.depth, envelope };
    case 'entity':
      return { kind: 'entity', envelope };
    case 'owner-search':
      return { kind: 'owner-search', name: request.name, envelope };
  }
}

/** What a request is, for a person ("Links of 1708 21ST ST NW within 2 steps"). */
export function describeRequest(request: GraphRequest, model: GraphModel): string {
  const name = nodeName(model, request.about).label;
  const page = (request.kind === 'owner-search' ? request.parts.body.cursor : 'query' in request.parts ? request.parts.query.cursor : undefined) ? ' (next page)' : '';
  const steps = (n: number) => `${n} ${n === 1 ? 'step' : 'steps'}`;
  switch (request.kind) {
    case 'relationships':
      return `Links of ${name} within ${steps(request.depth)} (relationships)${page}`;
    case 'connected':
      return `Entities connected to ${name} within ${steps(request.depth)}${page}`;
    case 'entity':
      return `The record of ${name} (its owner of record)`;
    case 'owner-search':
      return `Holdings of owners named like “${request.name}”${page}`;
  }
}

// ---------------------------------------------------------------------------------------------
// The model, merged as answers arrive

export interface MergedGraph {
  rootId: string;
  model: GraphModel;
  /** The keys of the answers merged, in order. */
  merged: string[];
  /** Nodes the last merge added. */
  added: string[];
  problems: string[];
  /** What of the answers Plat could not read, shown as published. */
  unread: UnreadPart[];
}

/**
 * The model for these answers: when `previous` was built for the same root from a prefix of them,
 * only the answers after it are merged (an expansion adds only its new neighbours); otherwise the
 * model is built again from all of them.
 */
export function advanceGraph(previous: MergedGraph | null, rootId: string, answers: ReadonlyArray<{ key: string; answer: GraphAnswer }>): MergedGraph {
  const extends_ = previous !== null && previous.rootId === rootId && previous.merged.length <= answers.length && previous.merged.every((key, index) => answers[index]?.key === key);
  if (!extends_) {
    const built = buildGraph(
      rootId,
      answers.map((entry) => entry.answer),
    );
    return { rootId, model: built.model, merged: answers.map((entry) => entry.key), added: built.added, problems: built.problems, unread: built.unread };
  }
  let { model } = previous;
  const added: string[] = [];
  const problems = [...previous.problems];
  const unread = [...previous.unread];
  for (const entry of answers.slice(previous.merged.length)) {
    const next = mergeAnswer(model, entry.answer);
    model = next.model;
    added.push(...next.added);
    problems.push(...next.problems);
    unread.push(...next.unread);
  }
  if (answers.length === previous.merged.length) return previous;
  return { rootId, model, merged: answers.map((entry) => entry.key), added, problems, unread };
}

// ---------------------------------------------------------------------------------------------
// Filters

export interface FilterOption {
  value: string;
  label: string;
  count: number;
}

/** The relations and entity kinds the model holds, for the filters (each with how many it holds). */
export function filterOptions(view: GraphView, model: GraphModel): { relations: FilterOption[]; kinds: FilterOption[] } {
  const relations = new Map<string, number>();
  for (const link of view.links) relations.set(link.predicate, (relations.get(link.predicate) ?? 0) + 1);
  const kinds = new Map<GraphNodeKind, number>();
  for (const id of [...model.entities.keys(), ...model.owners.keys()]) {
    const kind = model.owners.has(id) ? 'owner' : model.entities.get(id)?.kind;
    if (kind === undefined || kind === 'record' || id === model.rootId) continue;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return {
    relations: [...relations].map(([value, count]) => ({ value, label: relationLabel(value, 'out'), count })),
    kinds: [...kinds].map(([value, count]) => ({ value, label: graphNodeKindLabels[value], count })),
  };
}

/** Every relation the model's links use, for a filter that starts with all of them shown. */
export function allRelations(model: GraphModel): string[] {
  const predicates = new Set<string>([...model.links.values()].map((link) => link.predicate));
  if (model.owners.size > 0) predicates.add(OWNED_BY);
  return [...predicates];
}

/** The filters as graphSpec takes them: a list left out when nothing is hidden. */
export function specFilters(hiddenKinds: readonly GraphNodeKind[], hiddenRelations: readonly string[], model: GraphModel): GraphFilters {
  const filters: GraphFilters = {};
  if (hiddenKinds.length > 0) filters.kinds = [...Object.keys(graphNodeKindLabels)].filter((kind) => !hiddenKinds.includes(kind as GraphNodeKind)) as GraphNodeKind[];
  if (hiddenRelations.length > 0) filters.relations = allRelations(model).filter((predicate) => !hiddenRelations.includes(predicate));
  return filters;
}

// ---------------------------------------------------------------------------------------------
// The table

export const decisionLabels: Record<GraphDecision['decision'], string> = { confirmed: 'Confirmed', cut: 'Cut' };

export interface NodeRow {
  id: string;
  kind: GraphNodeKind;
  kindLabel: string;
  name: string;
  detail: string;
  /** Steps from the root along the drawn links; null when the drawn links do not reach it. */
  depth: number | null;
  root: boolean;
  expandable: boolean;
  /** The records the node is known from (the links that reach it), cited. */
  citationIds: string[];
}

export interface LinkRow {
  key: string;
  fromId: string;
  from: string;
  label: string;
  toId: string;
  to: string;
  rule: string;
  strength: 'fact' | 'lead';
  /** The strength as the researcher's decision leaves it (the panel, the counts and the report read the same). */
  standing: LinkStanding;
  confidence: number | null;
  decision: GraphDecision | null;
  citationIds: string[];
}

/** The records a link rests on: the ownership record (and the one it is matched with), or the service's sources. */
export function linkRecordRefs(link: ModelLink): string[] {
  const refs = link.owner ? [link.owner.claim.recordRef] : (link.service?.sourceRefs ?? []);
  return [...new Set(refs.filter((ref): ref is string => ref !== null))];
}

/** The graph as rows: every drawn node and link, each with its sources cited in `cite`'s book. */
export function graphTable(model: GraphModel, view: GraphView, decisions: readonly GraphDecision[], cite: Cite): { nodes: NodeRow[]; links: LinkRow[] } {
  const byKey = new Map(decisions.map((decision) => [decision.edgeKey, decision]));
  const citeRef = (ref: string) => cite(refCitation(model, ref));
  const labels = new Map(view.spec.nodes.map((node) => [node.id, node.label]));
  const nodeCitations = new Map<string, Set<string>>();
  const links: LinkRow[] = view.links.map((link) => {
    const citationIds = [...new Set(linkRecordRefs(link).map(citeRef))];
    for (const end of [link.source, link.target]) {
      const set = nodeCitations.get(end) ?? new Set<string>();
      citationIds.forEach((id) => set.add(id));
      nodeCitations.set(end, set);
    }
    return {
      key: link.key,
      fromId: link.source,
      from: labels.get(link.source) ?? nodeName(model, link.source).label,
      label: link.label,
      toId: link.target,
      to: labels.get(link.target) ?? nodeName(model, link.target).label,
      rule: linkRuleLabels[link.rule],
      strength: link.strength,
      standing: linkStanding(link.strength, byKey.get(link.key)?.decision),
      confidence: link.confidence,
      decision: byKey.get(link.key) ?? null,
      citationIds,
    };
  });
  // An owner is known from the ownership records naming it; the root alone from its own record's claims.
  for (const [ownerId, claims] of model.owners) {
    const set = nodeCitations.get(ownerId) ?? new Set<string>();
    for (const claim of claims.values()) if (claim.recordRef) set.add(citeRef(claim.recordRef));
    nodeCitations.set(ownerId, set);
  }
  const depths = distancesFrom(model.rootId, view.spec.edges);
  const nodes: NodeRow[] = view.spec.nodes.map((node) => ({
    id: node.id,
    kind: node.kind,
    kindLabel: graphNodeKindLabels[node.kind],
    name: node.label,
    detail: node.sublabel,
    depth: depths.get(node.id) ?? null,
    root: node.root,
    expandable: node.expandable,
    citationIds: [...(nodeCitations.get(node.id) ?? [])],
  }));
  return { nodes, links };
}

export function confidenceText(confidence: number | null): string {
  if (confidence === null) return 'not given';
  return confidence >= 1 ? '1 (stated)' : String(confidence);
}

/** "Cut on 23 Nov 2026, 21:00: note". */
export function decisionText(decision: GraphDecision): string {
  return `${decisionLabels[decision.decision]} on ${formatDateTime(decision.at)}: ${decision.note}`;
}

// ---------------------------------------------------------------------------------------------
// Runsheet

/** The parcel a node's runsheet is about: the node when it is a parcel, else a parcel it links to directly. */
export function parcelOf(model: GraphModel, nodeId: string | null): string | null {
  if (nodeId === null) return null;
  const kind = model.entities.get(nodeId)?.kind ?? kindOfId(nodeId);
  if (kind === 'parcel') return nodeId;
  for (const link of model.links.values()) {
    const other = link.subject === nodeId ? link.object : link.object === nodeId ? link.subject : null;
    if (other !== null && (model.entities.get(other)?.kind ?? kindOfId(other)) === 'parcel') return other;
  }
  return null;
}

/** Every parcel the model holds (the runsheet's choices), named as people know them. */
export function parcelsOf(model: GraphModel): Array<{ id: string; label: string }> {
  return [...model.entities.values()].filter((entity) => entity.kind === 'parcel').map((entity) => ({ id: entity.id, label: nodeName(model, entity.id).label }));
}

/**
 * The parcel the runsheet opens on: the selected entity's (or that of either end of the selected
 * link), else the root's, else the first the graph holds.
 */
export function runsheetParcel(model: GraphModel, links: readonly ModelLink[], selection: { type: 'node' | 'link'; id: string } | null): string | null {
  const link = selection?.type === 'link' ? links.find((candidate) => candidate.key === selection.id) : undefined;
  const ends = link ? [link.source, link.target] : selection?.type === 'node' ? [selection.id] : [];
  for (const end of [...ends, model.rootId]) {
    const parcel = parcelOf(model, end);
    if (parcel) return parcel;
  }
  return parcelsOf(model)[0]?.id ?? null;
}

/** The parcel's SSL in the canonical form the records are searched by, from the answers; null when they give none. */
export function parcelSsl(model: GraphModel, parcelId: string, entityEnvelope?: unknown): string | null {
  const fromEntity = (() => {
    if (!isRecord(entityEnvelope) || !isRecord(entityEnvelope.data) || !isRecord(entityEnvelope.data.entity)) return null;
    const identifiers = entityEnvelope.data.entity.identifiers;
    const ssl = Array.isArray(identifiers) ? identifiers.find((item) => isRecord(item) && item.scheme === 'ssl') : undefined;
    return isRecord(ssl) && typeof ssl.value === 'string' ? ssl.value : null;
  })();
  const value = fromEntity ?? model.entities.get(parcelId)?.identifiers.find((identifier) => identifier.scheme === 'ssl')?.value ?? null;
  if (value === null) return null;
  const parsed = parseSsl(value);
  return parsed?.form === 'square' ? parsed.canonical : null;
}

/** DC's records (the only ones keyed by SSL) are searched in the District's county code. */
const DC_JURISDICTION = '11001' as const;

export type RunsheetSearchKind = 'sale' | 'ownership' | 'permit';

export const runsheetSearchLabels: Record<RunsheetSearchKind, { what: string; button: string }> = {
  sale: { what: 'the recorded sales of this parcel', button: 'Search sale records' },
  ownership: { what: 'the ownership records of this parcel', button: 'Search ownership records' },
  permit: { what: 'the building permits on this parcel (they name an owner)', button: 'Search permit records' },
};

/** The free catalog of DC's sources, which names the field each kind's records carry the SSL in. */
export const runsheetCatalogRequest = { query: { jurisdiction: DC_JURISDICTION } };

/** One record search of the runsheet: its request, or (no request, no charge) why it cannot be sent. */
export type RunsheetSearch = { kind: RunsheetSearchKind; parts: ServiceRequestParts<'searchRecords'>; problem: null } | { kind: RunsheetSearchKind; parts: null; problem: string };

/**
 * The v4 searches of records about a parcel, by its SSL, each filtered on the field the service's
 * catalog names for the parcel's SSL (`ssl`, `SSL`, a permit's canonical `SSL_CANONICAL`…). A kind
 * whose catalog names none is not searched: a guessed field would be refused, or ignored and charged.
 */
export function runsheetSearches(ssl: string, catalog: readonly CatalogItemFields[]): RunsheetSearch[] {
  const search = (kind: RunsheetSearchKind): RunsheetSearch => {
    const map = recordFieldMap(catalog, kind);
    const field = fieldForRole(map, 'ssl');
    if (field === null) return { kind, parts: null, problem: roleSearchProblem(map, 'ssl', 'DC', 'parcel') ?? '' };
    return { kind, parts: { query: { jurisdiction: DC_JURISDICTION, kind, filter: encodeSearchFilter({ conditions: [{ field, op: 'eq', value: ssl }] }), limit: 100 } }, problem: null };
  };
  return [search('sale'), search('ownership'), search('permit')];
}

/** "Dupont row house – runsheet SSL 0065 0007 – 2026-05-01.csv", safe on every file system. */
export function runsheetFilename(assignmentName: string | null, parcel: string, day: string): string {
  const head = assignmentName ? `${assignmentName} – ` : '';
  return safeFilename(`${head}runsheet ${parcel} – ${day}.csv`);
}

/** The parcel's name in a runsheet heading: its SSL when the answers give it. */
export function parcelLabel(model: GraphModel, parcelId: string, ssl: string | null): string {
  return ssl === null ? nodeName(model, parcelId).label : `SSL ${sslText(ssl)}`;
}

