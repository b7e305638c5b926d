// The v2 operations of the local Property Records Service: property searches, the catalog, one
// entity, and relationship traversal (spec, "Endpoints / v2"); resolutions are v2-resolutions.ts.
// Each is a pure, synchronous function of its request and the sample store. Every value answered
// is cited: entity and edge `source_refs` are record refs, each listed with its publisher, release
// and URL in the envelope's provenance; synthetic values are cited to Plat's synthetic source and
// marked. Choices the spec leaves open are documented in docs/service-notes.md ("v2 operations").
import type { LocalOperation, OperationResult } from '../operation.ts';
import type { ServiceFailure } from '../operation.ts';
import { resolveEntities } from './v2-resolutions.ts';
import type { SampleEntity, SampleRelationship, SampleStore } from '../sample-store.ts';
import {
  chargeFor,
  priceRuleFor,
  queryObject,
  relationshipPredicates,
  V2CatalogQuerySchema,
  V2EntityPathSchema,
  V2PropertySearchSchema,
  V2RelationshipsQuerySchema,
} from '../../../shared/service/index.ts';
import {
  decodeCursor,
  encodeCursor,
  generationMeta,
  isoDay,
  ProvenanceCollector,
  requestFingerprint,
  sampleGeneration,
  v2Citation,
  operation,
  notFound,
  SAMPLE_KINDS,
  kindRank,
  kindOfRef,
  knownAreas,
  canonicalIdentity,
  citedIdentifiers,
  definingRecords,
  groupedFacts,
  citedLocation,
  realRecords,
} from './v2-common.ts';
import { catalogFacetCapabilities, catalogListing } from './v2-catalog.ts';
import { propertyIndex, queryProperties } from './v2-property-index.ts';
import type { IndexedProperty } from './v2-property-index.ts';
import { identifierProblem } from '../../../shared/service/identifiers.ts';

// ---------------------------------------------------------------------------------------------
// POST /api/v2/property-searches

/** How a property reaches related entities of each kind (one link away). */
const KINDS_BY_PREDICATE: Record<string, readonly string[]> = {
  located_in: ['parcel', 'unit'],
  taxed_in: ['tax_account'],
  served_by: ['address'],
  assessed_in: [],
  permitted_by: [],
};

interface SearchHit {
  entityRef: string;
  kind: string;
  property: IndexedProperty;
  relationship: SampleRelationship | null;
}

function expansionOf(store: SampleStore, property: IndexedProperty, kinds: ReadonlySet<string>, predicates: readonly string[]): SearchHit[] {
  const hits: SearchHit[] = [];
  if (kinds.has('property')) hits.push({ entityRef: property.entityRef, kind: 'property', property, relationship: null });
  const followed = predicates.filter((predicate) => (KINDS_BY_PREDICATE[predicate] ?? []).some((kind) => kinds.has(kind)));
  if (followed.length === 0) return hits;
  const related = store
    .relationships(property.entityRef, { direction: 'out', predicates: followed, includeRecordObjects: false })
    .map((relationship) => ({ relationship, kind: kindOfRef(relationship.object_ref) }))
    .filter((link) => kinds.has(link.kind))
    .sort((a, b) => kindRank(a.kind) - kindRank(b.kind) || (a.relationship.object_ref < b.relationship.object_ref ? -1 : 1));
  for (const link of related) hits.push({ entityRef: link.relationship.object_ref, kind: link.kind, property, relationship: link.relationship });
  return hits;
}

const searchProperties = operation('v2.searchProperties', (request, { store }) => {
  const search = V2PropertySearchSchema.parse(request.body);
  const index = propertyIndex(store);
  if (!index.byArea.has(search.area_uid)) {
    throw notFound(
      `area_uid ${search.area_uid}: no records in the sample. Areas with records: ${knownAreas(store).join(', ')}. Maryland and Northern Virginia outside Alexandria have none.`,
      { parameter: 'area_uid', known_area_uids: knownAreas(store) },
    );
  }
  const kinds = new Set<string>(search.entity_kinds ?? ['property']);
  const predicates: readonly string[] = search.predicates ?? relationshipPredicates;
  const warnings: string[] = [];
  const absentKinds = [...kinds].filter((kind) => !SAMPLE_KINDS.has(kind));
  if (absentKinds.length > 0) warnings.push(`The sample holds no ${absentKinds.join(' or ')} entities.`);
  if (search.filters.some((filter) => filter.field.startsWith('imputed_'))) {
    warnings.push('imputed_* fields are SYNTHETIC (plat_synthetic_characteristics): copied from a CAMA record near each lot’s tax square (not necessarily the nearest to the lot), not records of these lots.');
  }

  const fingerprint = requestFingerprint('v2.search', { ...search, cursor: undefined, limit: undefined });
  const start = decodeCursor(search.cursor, 'search', fingerprint, 2) ?? [0, 0];
  const matches = queryProperties(index, { areaUid: search.area_uid, filters: search.filters, sort: search.sort });
  const reachable = kinds.has('property') || predicates.some((predicate) => (KINDS_BY_PREDICATE[predicate] ?? []).some((kind) => kinds.has(kind)));

  const hits: SearchHit[] = [];
  let next: [number, number] | null = null;
  if (reachable) {
    const [firstProperty = 0, firstHit = 0] = start;
    scan: for (let p = firstProperty; p < matches.length; p++) {
      const property = matches[p];
      if (!property) break;
      const expansion = expansionOf(store, property, kinds, predicates);
      for (let h = p === firstProperty ? firstHit : 0; h < expansion.length; h++) {
        const hit = expansion[h];
        if (!hit) break;
        if (hits.length === search.limit) {
          next = [p, h];
          break scan;
        }
        hits.push(hit);
      }
    }
  }
  if (hits.length === 0) {
    // An SSL filter on a placeholder (`0000 0000`) finds nothing because no parcel is keyed by one: say so.
    const placeholders = search.filters.flatMap((filter) => {
      const problem = filter.field === 'ssl' && typeof filter.value === 'string' ? identifierProblem('ssl', filter.value) : null;
      return problem?.includes('placeholder') ? [` SSL ${problem}: no property is keyed by it.`] : [];
    });
    throw notFound(
      search.cursor === undefined
        ? `No ${[...kinds].join(' or ')} in ${search.area_uid} matches this search.${placeholders.join('')}`
        : 'No further results for this search.',
      { parameter: null, area_uid: search.area_uid, properties_matched: matches.length },
    );
  }

  const provenance = new ProvenanceCollector(store);
  const items = hits.map((hit) => {
    const base: Record<string, unknown> = { entity_ref: hit.entityRef, entity_kind: hit.kind, status: 'current', area_uid: hit.property.areaUid };
    if (hit.relationship === null) {
      const a = hit.property.attributes;
      const identity: Record<string, string> = {};
      for (const key of ['address', 'ssl', 'account_no'] as const) {
        const value = a[key];
        if (typeof value === 'string') identity[key] = value;
      }
      base['canonical_identity'] = identity;
      base['property_ref'] = hit.property.entityRef;
      base['source_refs'] = realRecords(store, hit.property.sourceRefs, provenance);
    } else {
      const entity = store.getEntity(hit.entityRef);
      if (!entity) throw new Error(`related entity ${hit.entityRef} is not in the sample store`);
      base['canonical_identity'] = canonicalIdentity(entity);
      base['property_ref'] = hit.property.entityRef;
      base['via_predicate'] = hit.relationship.predicate;
      base['relationship_ref'] = hit.relationship.relationship_ref;
      base['source_refs'] = provenance.records([...definingRecords(entity), ...hit.relationship.source_refs]);
    }
    if (search.projection === 'fact_summary') {
      const facts = store.factsFor(hit.entityRef);
      if (facts) {
        base['facts'] = groupedFacts(facts.facts, provenance, false);
        base['location'] = facts.location === null ? null : citedLocation(facts.location, provenance);
        base['limitations'] = facts.limitations;
      }
    }
    return base;
  });

  const charge = chargeFor(priceRuleFor('v2.searchProperties'), { hasResults: items.length > 0 });
  return {
    data: { items, projection: search.projection, area_uid: search.area_uid, properties_matched: matches.length },
    meta: {
      ...generationMeta(store),
      ...(next === null ? {} : { next_cursor: encodeCursor('search', fingerprint, next) }),
      ...(warnings.length > 0 ? { warnings } : {}),
    },
    provenance: provenance.build(),
    charge,
  } satisfies OperationResult;
});

// ---------------------------------------------------------------------------------------------
// GET /api/v2/catalog

const getCatalog = operation('v2.getCatalog', (request, { store }) => {
  const query = V2CatalogQuerySchema.parse(queryObject(request.query));
  const fingerprint = requestFingerprint('v2.catalog', { ...query, cursor: undefined, page_size: undefined });
  const [offset = 0] = decodeCursor(query.cursor, 'catalog', fingerprint, 1) ?? [0];
  const listing = catalogListing(store, query);
  const items = listing.items.slice(offset, offset + query.page_size);
  const next = offset + query.page_size < listing.items.length ? encodeCursor('catalog', fingerprint, [offset + query.page_size]) : null;
  const provenance = new ProvenanceCollector(store);
  for (const id of listing.sourceIds) {
    const source = store.getSource(id);
    if (source) provenance.source(source);
  }
  return {
    data: { facet: query.facet, items, capabilities: catalogFacetCapabilities, total_items: listing.items.length },
    meta: {
      ...generationMeta(store),
      ...(next === null ? {} : { next_cursor: next }),
      ...(listing.warnings.length > 0 ? { warnings: listing.warnings } : {}),
    },
    provenance: provenance.build(),
    charge: chargeFor(priceRuleFor('v2.getCatalog'), { hasResults: items.length > 0 }),
  } satisfies OperationResult;
});

// ---------------------------------------------------------------------------------------------
// GET /api/v2/entities/{entity_ref}

/** Not found, saying why when the sample knows (an id a placeholder SSL would have keyed). */
function entityNotFound(store: SampleStore, entityRef: string): ServiceFailure {
  const why = store.missingEntityNote(entityRef);
  return notFound(`No entity ${entityRef} in the sample.${why ? ` ${why}` : ''}`, { parameter: 'entity_ref' });
}

const getEntity = operation('v2.getEntity', (request, { store }) => {
  const { entity_ref: entityRef } = V2EntityPathSchema.parse(request.params);
  const entity = store.getEntity(entityRef);
  const facts = entity ? store.factsFor(entityRef) : null;
  if (!entity || !facts) throw entityNotFound(store, entityRef);
  const provenance = new ProvenanceCollector(store);
  const attributes = groupedFacts(facts.facts, provenance, true);
  const defining = definingRecords(entity);
  // An identifier is cited to the record that printed it, or, when the service derived it (an
  // address normalised from `304 ADAMS AV`, a building address read off its units' addresses), marked
  // derived and cited to the record it was derived from.
  const identifiers = citedIdentifiers(store, entity, provenance) ?? entity.identifiers.map((identifier) => ({ ...identifier, source_refs: provenance.records(defining) }));
  const generation = sampleGeneration(store);
  return {
    data: {
      entity: {
        entity_ref: entity.entity_id,
        entity_kind: entity.entity_kind,
        area_uid: entity.area_uid,
        generation_id: generation.generationId,
        status: entity.status,
        identifiers,
        attributes,
        source_refs: provenance.records(entity.source_refs),
        coverage_status: entity.coverage_status,
        valid_from: entity.valid_from,
        valid_to: entity.valid_to,
        location: facts.location === null ? null : citedLocation(facts.location, provenance),
        permits: facts.permits.map((permit) => ({
          record_ref: permit.record_ref,
          permit_id: permit.permit_id,
          record_type: permit.record_type,
          status: permit.status,
          issue_date: permit.issue_date,
          description: permit.description,
          address: permit.address,
          method: permit.method,
          confidence: permit.confidence,
          source_refs: [provenance.cite(permit.citation)],
          citation: v2Citation(permit.citation),
          ...(permit.limitations.length > 0 ? { limitations: permit.limitations } : {}),
        })),
        limitations: facts.limitations,
      },
    },
    meta: generationMeta(store),
    provenance: provenance.build(),
    charge: chargeFor(priceRuleFor('v2.getEntity'), { hasResults: true }),
  } satisfies OperationResult;
});

// ---------------------------------------------------------------------------------------------
// GET /api/v2/entities/{entity_ref}/relationships

interface TraversalNode {
  id: string;
  node_type: 'entity' | 'record';
  kind: string;
  label: string;
  identifiers: Array<{ scheme: string; value: string }>;
  area_uid: string | null;
  depth: number;
  source_refs: string[];
  /** A record's limitations (a permit's placeholder SSL keys no parcel), when it has any. */
  limitations?: string[];
}

interface TraversalEdge extends Omit<SampleRelationship, 'object_type' | 'basis'> {
  object_type: 'entity' | 'record';
  basis: string | null;
  generation_id: string;
  via_ref: string;
  depth: number;
}

/** Whether a link dated [from, to) holds on a calendar day (to null: still holds). */
function validOn(from: string, to: string | null, day: string): boolean {
  return from <= day && (to === null || to > day);
}

const PREDICATE_ORDER = [...relationshipPredicates, 'same_owner'];

function entityNode(entity: SampleEntity, depth: number): TraversalNode {
  const identity = canonicalIdentity(entity);
  const label = identity['address'] ?? identity['ssl'] ?? identity['account_no'] ?? entity.entity_id;
  return {
    id: entity.entity_id,
    node_type: 'entity',
    kind: entity.entity_kind,
    label: `${label} (${entity.entity_kind.replace('_', ' ')})`,
    identifiers: entity.identifiers.map((identifier) => ({ scheme: identifier.scheme, value: identifier.value })),
    area_uid: entity.area_uid,
    depth,
    source_refs: definingRecords(entity),
  };
}

function nodeFor(store: SampleStore, ref: string, depth: number): TraversalNode | null {
  if (ref.startsWith('rec_')) {
    const record = store.getRecord(ref);
    if (!record) return null;
    const permitId = record.data['PERMIT_ID'];
    const address = record.data['FULL_ADDRESS'];
    const identifiers = typeof permitId === 'string' ? [{ scheme: 'permit_id', value: permitId }] : [];
    return {
      id: ref,
      node_type: 'record',
      kind: record.kind,
      label: [record.kind, typeof permitId === 'string' ? permitId : null, typeof address === 'string' ? address : null].filter((part) => part !== null).join(' '),
      identifiers,
      area_uid: null,
      depth,
      source_refs: [ref],
      ...(record.limitations.length > 0 ? { limitations: record.limitations } : {}),
    };
  }
  const entity = store.getEntity(ref);
  return entity ? entityNode(entity, depth) : null;
}

const traverseRelationships = operation('v2.traverseRelationships', (request, { store, now }) => {
  const { entity_ref: rootRef } = V2EntityPathSchema.parse(request.params);
  const query = V2RelationshipsQuerySchema.parse(queryObject(request.query));
  const root = store.getEntity(rootRef);
  if (!root) throw entityNotFound(store, rootRef);
  const fingerprint = requestFingerprint('v2.relationships', { ...query, entity_ref: rootRef, cursor: undefined, page_size: undefined });
  const [offset = 0] = decodeCursor(query.cursor, 'relationships', fingerprint, 1) ?? [0];
  // Edges are valid from the day their supporting source was published; compared by calendar day.
  const asOfDay = query.as_of === undefined ? isoDay(now.toISOString()) : isoDay(query.as_of);
  const generation = sampleGeneration(store);
  const warnings: string[] = [];
  if (root.valid_from > asOfDay) warnings.push(`${rootRef} first appears in a source published ${root.valid_from}, after as_of ${asOfDay}.`);

  const nodes = new Map<string, TraversalNode>([[rootRef, entityNode(root, 0)]]);
  const edges: TraversalEdge[] = [];
  const seenEdges = new Set<string>();
  let truncatedBy: 'max_nodes' | 'max_edges' | null = null;
  let frontier = [rootRef];
  walk: for (let level = 1; level <= query.depth && frontier.length > 0; level++) {
    const next: string[] = [];
    for (const nodeRef of frontier) {
      const links = store
        .relationships(nodeRef, { direction: query.direction, ...(query.predicates === undefined ? {} : { predicates: query.predicates }) })
        .filter((link) => validOn(link.valid_from, link.valid_to, asOfDay))
        .sort((a, b) => PREDICATE_ORDER.indexOf(a.predicate) - PREDICATE_ORDER.indexOf(b.predicate) || (a.relationship_ref < b.relationship_ref ? -1 : 1));
      for (const link of links) {
        if (seenEdges.has(link.relationship_ref)) continue;
        if (edges.length >= query.max_edges) {
          truncatedBy = 'max_edges';
          break walk;
        }
        const otherRef = link.subject_ref === nodeRef ? link.object_ref : link.subject_ref;
        if (!nodes.has(otherRef)) {
          if (nodes.size >= query.max_nodes) {
            truncatedBy ??= 'max_nodes';
            continue;
          }
          const node = nodeFor(store, otherRef, level);
          if (!node) continue;
          nodes.set(otherRef, node);
          if (node.node_type === 'entity') next.push(otherRef);
        }
        seenEdges.add(link.relationship_ref);
        edges.push({ ...link, generation_id: generation.generationId, via_ref: nodeRef, depth: level });
      }
    }
    frontier = next;
  }
  if (truncatedBy !== null) {
    warnings.push(`Traversal stopped at ${truncatedBy === 'max_nodes' ? `max_nodes ${query.max_nodes}` : `max_edges ${query.max_edges}`}; some links are not listed.`);
  }

  const provenance = new ProvenanceCollector(store);
  const pageEdges = edges.slice(offset, offset + query.page_size).map((edge) => ({ ...edge, source_refs: provenance.records(edge.source_refs) }));
  const pageNodeRefs = new Set<string>(offset === 0 ? [rootRef] : []);
  for (const edge of pageEdges) {
    pageNodeRefs.add(edge.subject_ref);
    pageNodeRefs.add(edge.object_ref);
  }
  const pageNodes = [...nodes.values()]
    .filter((node) => pageNodeRefs.has(node.id))
    .map((node) => ({ ...node, source_refs: provenance.records(node.source_refs) }));
  const nextOffset = offset + query.page_size;
  return {
    data: {
      root_ref: rootRef,
      depth: query.depth,
      direction: query.direction,
      as_of: asOfDay,
      nodes: pageNodes,
      edges: pageEdges,
      max_nodes: query.max_nodes,
      max_edges: query.max_edges,
      node_count: nodes.size,
      edge_count: edges.length,
    },
    meta: {
      ...generationMeta(store),
      truncated: truncatedBy !== null,
      ...(nextOffset < edges.length ? { next_cursor: encodeCursor('relationships', fingerprint, [nextOffset]) } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    },
    provenance: provenance.build(),
    charge: chargeFor(priceRuleFor('v2.traverseRelationships'), { hasResults: true }),
  } satisfies OperationResult;
});

/** The v2 operations, for the registry in ./index.ts. */
export const v2Operations: LocalOperation[] = [searchProperties, resolveEntities, getCatalog, getEntity, traverseRelationships];
