// v4 operations of the local Property Records Service: search, catalog, connected, summary
// (spec "Endpoints / v4"; Plat's parameter choices in docs/service-contract.md, the local answers'
// choices in docs/service-notes.md, "v4 and v3 operations"). Each is a pure, synchronous function of
// the request and the sample store. Requests are parsed with the shared contract's schemas, so a
// ZodError propagates and the server answers 400 `invalid_<parameter>`.
import { jurisdictionName } from '../../../shared/jurisdictions.ts';
import type { JurisdictionCode } from '../../../shared/jurisdictions.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import {
  chargeFor,
  priceRuleFor,
  queryObject,
  serviceOperations,
  summaryCanonicalFields,
  V4CatalogQuerySchema,
  V4ConnectedPathSchema,
  V4ConnectedQuerySchema,
  V4SearchQuerySchema,
  V4SummaryPathSchema,
  V4SummaryQuerySchema,
} from '../../../shared/service/index.ts';
import type { SearchCondition, ServiceOperationName, SummaryCanonicalField } from '../../../shared/service/index.ts';
import type { LocalOperation, OperationRequest, OperationContext, OperationResult } from '../operation.ts';
import { ServiceFailure } from '../operation.ts';
import { equalityKey } from '../sample-keys.ts';
import { SampleStoreError } from '../sample-store.ts';
import type { CellValue, EntityFacts, Fact, FactField, FieldFilter, FieldType, SampleRecord, SampleStore } from '../sample-store.ts';
import { preferredFact, v4Citation } from './citations.ts';
import type { V4Citation } from './citations.ts';
import { decodeOffsetCursor, encodeOffsetCursor } from './offset-cursor.ts';

/** Builds a local operation from the shared operation table, so names, paths and idempotency cannot drift. */
export function contractOperation(
  name: ServiceOperationName,
  handle: (request: OperationRequest, context: OperationContext) => OperationResult,
): LocalOperation {
  const contract = serviceOperations[name];
  return {
    name: contract.name,
    envelopeOperation: contract.envelopeOperation,
    generation: contract.generation,
    method: contract.method,
    path: contract.path,
    idempotent: contract.idempotencyKey,
    handle,
  };
}

/** The store refuses a few things only it can check (cursors it issued, filter types): say which parameter. */
export function storeFailure(error: unknown, parameter: string): never {
  if (error instanceof SampleStoreError) {
    const code = error.code === 'invalid_cursor' ? 'invalid_cursor' : `invalid_${parameter}`;
    throw new ServiceFailure(400, code, `${error.code === 'invalid_cursor' ? 'cursor' : parameter}: ${error.message}`);
  }
  throw error;
}

/** Not found, saying why when the sample knows (an id a placeholder SSL would have keyed). */
function entityNotFound(store: SampleStore, qId: string): ServiceFailure {
  const why = store.missingEntityNote(qId);
  return new ServiceFailure(404, 'not_found', `No entity ${qId} in the sample.${why ? ` ${why}` : ''}`);
}

function placeName(code: string): string {
  return `${jurisdictionName(code as JurisdictionCode)} (${code})`;
}

// ---------------------------------------------------------------------------------------------
// GET /api/v4/search

/**
 * `{gte: <number>}` on a date field: the spec's operator takes a number, so Plat reads a 4-digit
 * number as a year (2015 → on or after 2015-01-01) and an 8-digit one as YYYYMMDD.
 */
function dateBound(field: string, value: number): string {
  const text = String(value);
  if (/^\d{4}$/.test(text)) return `${text}-01-01`;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  throw new ServiceFailure(400, 'invalid_filter', `filter.${field}: ${field} is a date; gte takes a year (2015) or a date as YYYYMMDD (20150601)`);
}

/**
 * A search record. Its `data` is the row as stored; columns the publisher did not print (OTR's
 * `square_lat`/`square_lon` are DC GIS square centroids, canonical SSLs, Alexandria parcels' matched
 * address point) are named in `citation.derived_fields`, each with what it came from and its own
 * citation, so no reader takes them for the publisher's.
 */
function searchRecordOf(record: SampleRecord, store: SampleStore) {
  const derived = store.derivedColumns(record.record_ref);
  const derivedFields = Object.fromEntries(
    Object.entries(derived).map(([column, made]) => [
      column,
      { status: made.status, method: made.method, derived_from: made.derived_from, note: made.note, citation: v4Citation(made.citation) },
    ]),
  );
  return {
    record_ref: record.record_ref,
    kind: record.kind,
    source_id: record.source_id,
    jurisdiction: record.jurisdiction,
    published_at: record.published_at,
    // The spec closes the record itself; its citation is open, so what the record cannot be trusted
    // for (a permit's placeholder SSL) is said there, beside the derived fields.
    citation: {
      ...v4Citation(record.citation),
      ...(Object.keys(derivedFields).length > 0 ? { derived_fields: derivedFields } : {}),
      ...(record.limitations.length > 0 ? { limitations: record.limitations } : {}),
    },
    data: record.data,
    q_ids: record.q_ids,
  };
}

export const v4Search = contractOperation('v4.search', (request, { store }) => {
  const query = V4SearchQuerySchema.parse(queryObject(request.query));
  const { kind, jurisdiction } = query;
  const knownKinds = store.kinds();
  if (!knownKinds.includes(kind)) {
    throw new ServiceFailure(400, 'invalid_kind', `kind: no source publishes "${kind}" records; the catalog lists ${knownKinds.join(', ')}`);
  }
  const filter = query.filter ?? { conditions: [] };
  // The store pages after a record number; the cursor carries it sealed with what was searched
  // (checked before anything is read or charged), so another search cannot continue from it.
  const scope = `search|${kind}|${jurisdiction}|${canonicalJson({ sourceId: filter.sourceId, conditions: filter.conditions })}`;
  const after = query.cursor === undefined ? null : decodeOffsetCursor(query.cursor, scope);
  let sources = store.listSources({ jurisdiction, kind });
  if (filter.sourceId !== undefined) {
    const source = store.getSource(filter.sourceId);
    if (source === null) {
      throw new ServiceFailure(400, 'invalid_filter', `filter.$source_id: no source "${filter.sourceId}"; the catalog lists the source ids`);
    }
    if (source.kind !== kind) {
      throw new ServiceFailure(400, 'invalid_filter', `filter.$source_id: ${source.source_id} publishes ${source.kind} records, not ${kind}`);
    }
    sources = sources.filter((s) => s.source_id === filter.sourceId);
  }
  if (sources.length === 0) {
    const from = filter.sourceId === undefined ? '' : ` from ${filter.sourceId}`;
    throw new ServiceFailure(404, 'not_found', `No search matches: the sample has no ${kind} records${from} in ${placeName(jurisdiction)}.`);
  }

  const fieldTypes = new Map<string, FieldType>();
  for (const source of sources) for (const field of source.fields) if (!fieldTypes.has(field.name)) fieldTypes.set(field.name, field.type);
  const filters = filter.conditions.map((condition: SearchCondition): FieldFilter => {
    const type = fieldTypes.get(condition.field);
    if (type === undefined) {
      throw new ServiceFailure(
        400,
        'invalid_filter',
        `filter.${condition.field}: ${kind} records in ${placeName(jurisdiction)} have no field "${condition.field}"; their fields are ${[...fieldTypes.keys()].join(', ')}`,
      );
    }
    if (condition.op === 'eq') return { field: condition.field, op: 'eq', value: condition.value };
    if (type === 'number') return { field: condition.field, op: 'gte', value: condition.value };
    if (type === 'date') return { field: condition.field, op: 'gte', value: dateBound(condition.field, condition.value) };
    throw new ServiceFailure(400, 'invalid_filter', `filter.${condition.field}: gte compares numbers and dates; ${condition.field} is ${type === 'string' ? 'text' : type}`);
  });

  let page;
  try {
    page = store.searchRecords({
      kind,
      jurisdiction,
      ...(filter.sourceId === undefined ? {} : { sourceId: filter.sourceId }),
      filters,
      ...(after === null ? {} : { cursor: `r${after.toString(36)}` }),
      limit: query.limit,
    });
  } catch (error) {
    storeFailure(error, 'filter');
  }
  const nextCursor = page.nextCursor === null ? null : encodeOffsetCursor(parseInt(page.nextCursor.slice(1), 36), scope);
  if (page.items.length === 0) {
    throw new ServiceFailure(404, 'not_found', `No search matches: no ${kind} record in ${placeName(jurisdiction)} meets the filter.`);
  }
  return {
    data: {
      items: page.items.map((record) => searchRecordOf(record, store)),
      total: page.total,
      ...(nextCursor === null ? {} : { next_cursor: nextCursor }),
    },
    meta: { next_cursor: nextCursor },
    charge: chargeFor(priceRuleFor('v4.search'), { hasResults: page.items.length > 0 }),
  };
});

// ---------------------------------------------------------------------------------------------
// GET /api/v4/catalog

export const v4Catalog = contractOperation('v4.catalog', (request, { store }) => {
  const query = V4CatalogQuerySchema.parse(queryObject(request.query));
  if (query.source_id !== undefined && store.getSource(query.source_id) === null) {
    throw new ServiceFailure(404, 'not_found', `No source "${query.source_id}" in the catalog; list the catalog without source_id to see every source.`);
  }
  const narrowed = query.jurisdiction !== undefined || query.source_id !== undefined;
  const sources = store.listSources({
    ...(query.jurisdiction === undefined ? {} : { jurisdiction: query.jurisdiction }),
    ...(query.source_id === undefined ? {} : { sourceId: query.source_id }),
  });
  const items = sources.map((source) => ({
    state: source.state,
    source_id: source.source_id,
    source: source.publisher,
    dataset: source.dataset,
    kind: source.kind,
    records: source.records,
    as_of: source.as_of,
    jurisdiction: source.jurisdiction,
    description: source.description,
    official_url: source.official_url,
    release_id: source.release_id,
    synthetic: source.synthetic,
    location_precision: source.location_precision,
    ...(narrowed
      ? { fields: source.fields.map((field) => ({ name: field.name, type: field.type, description: field.description, example: field.example })) }
      : {}),
  }));
  const coverageNote =
    items.length === 0 && query.jurisdiction !== undefined
      ? `The sample holds no published sources for ${placeName(query.jurisdiction)}${query.source_id === undefined ? '' : ` from ${query.source_id}`}.`
      : undefined;
  return {
    data: { items, next_cursor: null, ...(coverageNote === undefined ? {} : { coverage_note: coverageNote }) },
    meta: { truncated: false },
    charge: chargeFor(priceRuleFor('v4.catalog'), { hasResults: items.length > 0 }),
  };
});

// ---------------------------------------------------------------------------------------------
// GET /api/v4/entities/{q_id}/connected

/** Beyond this many entities within the asked depth the answer is refused with 422, not truncated. */
export const MAX_CONNECTED_ENTITIES = 1000;

export const v4Connected = contractOperation('v4.connected', (request, { store }) => {
  const { q_id: qId } = V4ConnectedPathSchema.parse(request.params);
  const query = V4ConnectedQuerySchema.parse(queryObject(request.query));
  const offset = decodeOffsetCursor(query.cursor, `connected|${qId}|${query.depth}`);
  const result = store.connected(qId, { depth: query.depth, maxNodes: MAX_CONNECTED_ENTITIES });
  if (result === null) throw entityNotFound(store, qId);
  if (result.truncated) {
    throw new ServiceFailure(
      422,
      'response_too_large',
      `More than ${MAX_CONNECTED_ENTITIES} entities lie within ${query.depth} links of ${qId}; ask with a smaller depth.`,
    );
  }
  const page = result.items.slice(offset, offset + query.limit);
  const more = offset + query.limit < result.items.length;
  const nextCursor = more ? encodeOffsetCursor(offset + query.limit, `connected|${qId}|${query.depth}`) : null;

  // Each link is cited by the records that support it (one row naming both, an SSL, an owner name).
  const linksOf = new Map<string, Map<string, { source_refs: string[]; explanation: string; precision: string; basis: string | null }>>();
  const citationOf = new Map<string, V4Citation | null>();
  const link = (via: string, relationshipRef: string) => {
    let links = linksOf.get(via);
    if (!links) {
      links = new Map(store.relationships(via, { includeRecordObjects: false }).map((r) => [r.relationship_ref, r]));
      linksOf.set(via, links);
    }
    return links.get(relationshipRef);
  };
  const cite = (recordRef: string | undefined): V4Citation | null => {
    if (recordRef === undefined) return null;
    if (!citationOf.has(recordRef)) {
      const record = store.getRecord(recordRef);
      citationOf.set(recordRef, record ? v4Citation(record.citation) : null);
    }
    return citationOf.get(recordRef) ?? null;
  };
  const items = page.map((entity) => {
    const relationship = link(entity.via, entity.relationship_ref);
    return {
      q_id: entity.entity_id,
      type: entity.entity_kind,
      relation: entity.relation,
      via: entity.via,
      depth: entity.depth,
      direction: entity.direction,
      relationship_ref: entity.relationship_ref,
      confidence: entity.confidence,
      precision: relationship?.precision ?? null,
      basis: relationship?.basis ?? null,
      explanation: relationship?.explanation ?? null,
      source_refs: relationship?.source_refs ?? [],
      citation: cite(relationship?.source_refs[0]),
    };
  });
  return {
    data: { items, total: result.items.length, next_cursor: nextCursor },
    meta: { next_cursor: nextCursor },
    charge: chargeFor(priceRuleFor('v4.connected'), { hasResults: items.length > 0 }),
  };
});

// ---------------------------------------------------------------------------------------------
// GET /api/v4/entities/{q_id}/summary

/** Which store facts answer each canonical field, best first. An empty list: no source has it. */
const CANONICAL_FACTS: Record<SummaryCanonicalField, readonly FactField[]> = {
  address: ['address'],
  owner_name: ['owner_name'],
  use_code: ['use_code'],
  year_built: ['year_built'],
  bedrooms: ['bedrooms'],
  full_bathrooms: ['full_bathrooms'],
  half_bathrooms: ['half_bathrooms'],
  living_area_sqft: [],
  gross_area_sqft: ['gross_building_area_sqft'],
  land_area_sqft: ['land_area_sqft'],
  assessed_value_dollars: ['assessed_value_dollars'],
  last_sale_price_dollars: ['last_sale_price_dollars'],
  last_sale_date: ['last_sale_date'],
};

const NOT_PUBLISHED: Partial<Record<SummaryCanonicalField, string>> = {
  living_area_sqft: 'living_area_sqft: no source in the sample publishes living area (DC CAMA gives gross building area only).',
};

function factCitation(fact: Fact): V4Citation & Record<string, unknown> {
  return {
    ...v4Citation(fact.citation),
    source_field: fact.source_field,
    method: fact.method,
    ...(fact.derived_from === null ? {} : { derived_from: fact.derived_from }),
  };
}

function cited(fact: Fact) {
  return {
    value: fact.value,
    // `derived`: computed from published values (citation = the record it came from, `note` says how).
    status: fact.status,
    citation: factCitation(fact),
    ...(fact.note === null ? {} : { note: fact.note }),
  };
}

/** The best value of one canonical field (real before synthetic) and every other distinct value, each cited. */
export function summaryEntry(facts: EntityFacts, field: SummaryCanonicalField) {
  const wanted = CANONICAL_FACTS[field];
  const candidates = facts.facts.filter((fact) => wanted.includes(fact.field));
  const best = preferredFact(candidates);
  if (best === undefined) return null;
  const seen = new Set<string>([`${best.citation.source_id}|${equalityKey(best.value as CellValue)}`]);
  const alternatives = [];
  for (const fact of candidates) {
    const key = `${fact.citation.source_id}|${equalityKey(fact.value as CellValue)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    alternatives.push(cited(fact));
  }
  return { ...cited(best), alternatives };
}

const ACCOUNT_BUILDING =
  'Building characteristics attach to the property and its parcel or unit, not to the tax account: ask with the prop_ or parc_ id (v4 connected lists them).';

/**
 * The store's limitation sentences about an entity. For a tax account the store's building sentence
 * ("no CAMA record within 1 km") is about the lot, not the account, so it is replaced by where to look.
 */
export function entityLimitations(facts: EntityFacts): string[] {
  if (facts.entity_kind !== 'tax_account') return [...facts.limitations];
  return facts.limitations.map((line) => (line.includes('building characteristics') ? ACCOUNT_BUILDING : line));
}

const NO_LOANS =
  'The sample has no loans: no mortgage or loan records for DC, Maryland or Northern Virginia are in it, so no loan entity exists.';

export const v4Summary = contractOperation('v4.summary', (request, { store }) => {
  const { q_id: qId } = V4SummaryPathSchema.parse(request.params);
  const { fields } = V4SummaryQuerySchema.parse(queryObject(request.query));
  if (qId.startsWith('loan_')) throw new ServiceFailure(404, 'not_found', `No loan ${qId}. ${NO_LOANS}`);
  const facts = store.factsFor(qId);
  if (facts === null) throw entityNotFound(store, qId);

  const canonical = summaryCanonicalFields as readonly string[];
  const wanted = fields === undefined ? summaryCanonicalFields : summaryCanonicalFields.filter((name) => fields.includes(name));
  const ignored = fields === undefined ? [] : [...new Set(fields.filter((name) => !canonical.includes(name)))];
  const data: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const field of wanted) {
    const entry = summaryEntry(facts, field);
    if (entry === null) missing.push(NOT_PUBLISHED[field] ?? `${field}: not in the sample for this ${facts.entity_kind.replace('_', ' ')}.`);
    else data[field] = entry;
  }
  const limitations = [...missing, ...entityLimitations(facts)];
  if (ignored.length > 0) limitations.push(`Not canonical field names, ignored: ${ignored.join(', ')}.`);
  data['limitations'] = limitations;
  return {
    data,
    meta: { truncated: false },
    charge: chargeFor(priceRuleFor('v4.summary'), { hasResults: true }),
  };
});

export const v4Operations: readonly LocalOperation[] = [v4Search, v4Catalog, v4Connected, v4Summary];
