// v2: property searches, resolutions, catalog, entity, relationships (spec, "Response envelope, v2",
// "v2 resources" and "Endpoints / v2"). As in v3, the spec does not say which listed fields are
// always present: ids, kinds and envelope fields are required, the rest type-checked when present,
// and unknown extra fields kept.
import { z } from 'zod';
import {
  boundedString,
  EntityKindSchema,
  errorEnvelope,
  isIsoDate,
  RelationshipPredicateSchema,
  relationshipPredicates,
  ServiceErrorSchema,
  wireInteger,
} from './common.ts';
import type { RelationshipPredicate } from './common.ts';
import { canonicalIdentifier, identifierProblem } from './identifiers.ts';

const StringList = z.array(z.string());
const OpenObject = z.looseObject({});

// ---------------------------------------------------------------------------------------------
// Envelope

export const v2Statuses = ['ok', 'partial', 'error'] as const;

export const V2ErrorSchema = ServiceErrorSchema.extend({
  retry_after_seconds: z.int().min(0).nullable().optional(),
  /** Type unspecified by the spec. */
  details: z.unknown().optional(),
});
export type V2Error = z.infer<typeof V2ErrorSchema>;

export const V2MetaSchema = z.looseObject({
  served_at: z.string(),
  truncated: z.boolean().optional(),
  publication_id: z.string().optional(),
  generation_ids: StringList.optional(),
  /** Absent (or null) when there is no further page. */
  next_cursor: z.string().nullable().optional(),
  warnings: StringList.optional(),
  usage_units: z.int().optional(),
});
export type V2Meta = z.infer<typeof V2MetaSchema>;

export const V2ProvenanceSourceSchema = z.looseObject({
  source_ref: z.string(),
  source_kind: z.string().optional(),
  publisher: z.string().optional(),
  release_id: z.string().optional(),
  captured_at: z.string().optional(),
  official_url: z.string().optional(),
});
export type V2ProvenanceSource = z.infer<typeof V2ProvenanceSourceSchema>;

export const V2ProvenanceSchema = z.looseObject({
  source_refs: StringList,
  sources: z.array(V2ProvenanceSourceSchema),
});
export type V2Provenance = z.infer<typeof V2ProvenanceSchema>;

const v2EnvelopeBase = {
  contract_version: z.literal('svc-v2'),
  request_id: boundedString(1, 512),
  operation: boundedString(1, 256),
  meta: V2MetaSchema,
  provenance: V2ProvenanceSchema.optional(),
};

export const V2ErrorEnvelopeSchema = errorEnvelope(v2EnvelopeBase, V2ErrorSchema);
export type V2ErrorEnvelope = z.infer<typeof V2ErrorEnvelopeSchema>;

/** A v2 response: `ok`, `partial` (some batch items failed; data present) or `error` (data null). */
export function v2Envelope<Data extends z.ZodType>(data: Data) {
  return z.discriminatedUnion('status', [
    z.looseObject({ ...v2EnvelopeBase, status: z.literal('ok'), data, error: V2ErrorSchema.nullable().optional() }),
    z.looseObject({ ...v2EnvelopeBase, status: z.literal('partial'), data, error: V2ErrorSchema.nullable().optional() }),
    V2ErrorEnvelopeSchema,
  ]);
}

// ---------------------------------------------------------------------------------------------
// Resources

/** The fields a search result item and a resolution candidate both open with: which entity it is. */
const v2EntityIdentity = {
  entity_ref: z.string(),
  entity_kind: z.string(),
  status: z.string().optional(),
  area_uid: z.string().optional(),
  canonical_identity: OpenObject.optional(),
};

/** Search result item (`identity_summary` projection). */
export const V2EntitySummarySchema = z.looseObject({ ...v2EntityIdentity, property_ref: z.string().optional() });
export type V2EntitySummary = z.infer<typeof V2EntitySummarySchema>;

export const V2EntitySchema = z.looseObject({
  entity_ref: z.string(),
  entity_kind: z.string(),
  area_uid: z.string().optional(),
  generation_id: z.string().optional(),
  status: z.string().optional(),
  identifiers: z.array(z.unknown()).optional(),
  attributes: OpenObject.optional(),
  source_refs: StringList.optional(),
  coverage_status: z.string().optional(),
  // Null accepted: an open-ended validity has no end date.
  valid_from: z.string().nullable().optional(),
  valid_to: z.string().nullable().optional(),
});
export type V2Entity = z.infer<typeof V2EntitySchema>;

export const V2CandidateSchema = z.looseObject({
  ...v2EntityIdentity,
  match_basis: z.string().optional(),
  property_ref: z.string().optional(),
  precision: z.string().optional(),
  method: z.string().optional(),
});
export type V2Candidate = z.infer<typeof V2CandidateSchema>;

export const V2ResolutionResultSchema = z.looseObject({
  /** Echo of the request item's client_id ("" when the item had none). */
  client_id: z.string(),
  outcome: z.string(),
  candidates: z.array(V2CandidateSchema),
  address_resolution: OpenObject.optional(),
});
export type V2ResolutionResult = z.infer<typeof V2ResolutionResultSchema>;

/** An item "resolved" (and is charged) when it found at least one candidate. */
export function isResolved(result: Pick<V2ResolutionResult, 'candidates'>): boolean {
  return result.candidates.length > 0;
}

export const V2RelationshipEdgeSchema = z.looseObject({
  relationship_ref: z.string(),
  subject_ref: z.string(),
  predicate: z.string(),
  object_ref: z.string(),
  direction: z.string().optional(),
  precision: z.string().optional(),
  method: z.string().optional(),
  confidence: z.number().optional(),
  status: z.string().optional(),
  generation_id: z.string().optional(),
  valid_from: z.string().nullable().optional(),
  valid_to: z.string().nullable().optional(),
  source_refs: StringList.optional(),
});
export type V2RelationshipEdge = z.infer<typeof V2RelationshipEdgeSchema>;

// ---------------------------------------------------------------------------------------------
// Response data per operation

export const v2Projections = ['identity_summary', 'fact_summary'] as const;
export type V2Projection = (typeof v2Projections)[number];

export const V2SearchDataSchema = z.looseObject({ items: z.array(V2EntitySummarySchema), projection: z.string() });
export type V2SearchData = z.infer<typeof V2SearchDataSchema>;
export const V2SearchResponseSchema = v2Envelope(V2SearchDataSchema);
export type V2SearchResponse = z.infer<typeof V2SearchResponseSchema>;

export const V2ResolutionsDataSchema = z.looseObject({ items: z.array(V2ResolutionResultSchema) });
export type V2ResolutionsData = z.infer<typeof V2ResolutionsDataSchema>;
export const V2ResolutionsResponseSchema = v2Envelope(V2ResolutionsDataSchema);
export type V2ResolutionsResponse = z.infer<typeof V2ResolutionsResponseSchema>;

export const V2EntityDataSchema = z.looseObject({ entity: V2EntitySchema });
export type V2EntityData = z.infer<typeof V2EntityDataSchema>;
export const V2EntityResponseSchema = v2Envelope(V2EntityDataSchema);
export type V2EntityResponse = z.infer<typeof V2EntityResponseSchema>;

export const V2TraversalDataSchema = z.looseObject({
  root_ref: z.string(),
  depth: z.int(),
  nodes: z.array(OpenObject),
  edges: z.array(V2RelationshipEdgeSchema),
  max_nodes: z.int(),
  max_edges: z.int(),
});
export type V2TraversalData = z.infer<typeof V2TraversalDataSchema>;
export const V2TraversalResponseSchema = v2Envelope(V2TraversalDataSchema);
export type V2TraversalResponse = z.infer<typeof V2TraversalResponseSchema>;

export const v2CatalogFacets = ['jurisdictions', 'authorities', 'coverage', 'dictionary', 'capabilities', 'sources'] as const;
export type V2CatalogFacet = (typeof v2CatalogFacets)[number];
const CatalogFacetSchema = z.enum(v2CatalogFacets, { error: `must be one of ${v2CatalogFacets.join(', ')}` });

export const V2CatalogDataSchema = z.looseObject({
  facet: CatalogFacetSchema,
  items: z.array(OpenObject),
  capabilities: z.array(OpenObject).optional(),
});
export type V2CatalogData = z.infer<typeof V2CatalogDataSchema>;
export const V2CatalogResponseSchema = v2Envelope(V2CatalogDataSchema);
export type V2CatalogResponse = z.infer<typeof V2CatalogResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Requests. Bodies are JSON, so numbers must be numbers; query parameters are strings on the wire.

const wholeNumber = (min: number, max: number) =>
  z.int({ error: 'must be a whole number' }).min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` });

export const V2CursorSchema = boundedString(1, 4096);
export const AreaUidSchema = boundedString(1, 128);

export const v2FilterOperators = ['eq', 'gte', 'lte', 'contains'] as const;
export type V2FilterOperator = (typeof v2FilterOperators)[number];

/**
 * The property fields whose values are dates (the service's field dictionary says `date` for the
 * same ones): their filters take an ISO date that exists, compared by day.
 */
export const v2PropertyDateFields = ['last_sale_date'] as const;

/** The longest text a filter value may hold: longer than any name or address on a roll. */
export const MAX_FILTER_TEXT = 512;
/** Text fields the service matches in any case and spacing (docs/service-notes.md, "Text matching"). */
const FOLDED_TEXT_FIELDS = ['owner_name', 'address'] as const;

/**
 * One property-search filter. `contains` needs a string; `gte`/`lte` compare numbers or ISO dates
 * (strings); `eq` takes any scalar.
 */
export const V2SearchFilterSchema = z
  .object({
    field: boundedString(1, 128),
    op: z.enum(v2FilterOperators, { error: `must be one of ${v2FilterOperators.join(', ')}` }),
    value: z.union([z.string(), z.number(), z.boolean()], { error: 'must be a string, number or boolean' }),
  })
  .superRefine((filter, ctx) => {
    if (filter.op === 'contains' && typeof filter.value !== 'string') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be a string for contains' });
    }
    if (typeof filter.value === 'string' && filter.value.length > MAX_FILTER_TEXT) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `must be at most ${MAX_FILTER_TEXT} characters` });
    }
    if ((filter.op === 'gte' || filter.op === 'lte') && typeof filter.value === 'boolean') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `must be a number or a date for ${filter.op}` });
    }
    // A date field takes only dates; a comparison written as a date must be one on any field.
    const onDateField = (v2PropertyDateFields as readonly string[]).includes(filter.field) && filter.op !== 'contains';
    const writtenAsDate = (filter.op === 'gte' || filter.op === 'lte') && typeof filter.value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(filter.value);
    if ((onDateField || writtenAsDate) && !(typeof filter.value === 'string' && isIsoDate(filter.value, { time: 'allowed' }))) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `must be a date that exists, as YYYY-MM-DD, for ${filter.field}` });
    }
  })
  // Owner names and addresses match in any case and spacing, so they are sent in one form: a search
  // typed two ways is one request (one cache key, one charge).
  .transform((filter) =>
    typeof filter.value === 'string' && (FOLDED_TEXT_FIELDS as readonly string[]).includes(filter.field)
      ? { ...filter, value: filter.value.normalize('NFC').toUpperCase().replace(/\s+/g, ' ').trim() }
      : filter,
  );
export type V2SearchFilter = z.infer<typeof V2SearchFilterSchema>;

/**
 * POST /api/v2/property-searches. Plat's choices where the spec is silent: `area_uid` is required
 * (a search is always within an area); `sort` is optional with `direction` defaulting to asc;
 * `filters` at most 20; `entity_kinds` carries the entity-kind enumeration and `predicates` the
 * predicate enumeration (at most 100); `projection` defaults to identity_summary; `limit` default 20.
 */
export const V2PropertySearchSchema = z.object({
  area_uid: AreaUidSchema,
  sort: z
    .object({
      field: boundedString(1, 128),
      direction: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).default('asc'),
    })
    .optional(),
  filters: z.array(V2SearchFilterSchema).max(20, { error: 'must have at most 20 entries' }).default([]),
  entity_kinds: z.array(EntityKindSchema).optional(),
  predicates: z.array(RelationshipPredicateSchema).max(100, { error: 'must have at most 100 entries' }).optional(),
  projection: z.enum(v2Projections, { error: `must be one of ${v2Projections.join(', ')}` }).default('identity_summary'),
  limit: wholeNumber(1, 100).default(20),
  cursor: V2CursorSchema.optional(),
});
export type V2PropertySearch = z.output<typeof V2PropertySearchSchema>;
export type V2PropertySearchInput = z.input<typeof V2PropertySearchSchema>;

export const v2SubjectKinds = ['address', 'identifier'] as const;
export const v2IdentifierSchemes = ['address', 'ssl', 'account_no', 'mar_id', 'entity_ref'] as const;
export type V2IdentifierScheme = (typeof v2IdentifierSchemes)[number];

/**
 * One identifier, its value in canonical form (shared/service/identifiers.ts): `1708 21st st nw` and
 * `1708 21ST ST NW` parse to one value, so they are one cache key, one Idempotency fingerprint and
 * one wire request. A value that cannot name a record (no Latin spelling, punctuation only, a
 * placeholder SSL such as `0000 0000`) is refused with the reason.
 */
export const V2IdentifierSchema = z
  .object({
    scheme: z.enum(v2IdentifierSchemes, { error: `must be one of ${v2IdentifierSchemes.join(', ')}` }),
    value: boundedString(1, 512),
  })
  .superRefine((identifier, ctx) => {
    const problem = identifierProblem(identifier.scheme, identifier.value);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  })
  .transform((identifier) => ({ scheme: identifier.scheme, value: canonicalIdentifier(identifier.scheme, identifier.value) }));
export type V2Identifier = z.infer<typeof V2IdentifierSchema>;

/**
 * One resolution item, applied item by item by the service: an item that fails it gets outcome
 * `invalid_input` in the response instead of failing the whole request with a 400.
 */
export const V2ResolutionItemSchema = z.object({
  client_id: boundedString(1, 128),
  subject_kind: z.enum(v2SubjectKinds, { error: 'must be address or identifier' }),
  entity_kind: EntityKindSchema.optional(),
  area_uid: AreaUidSchema.optional(),
  identifiers: z
    .array(V2IdentifierSchema)
    .min(1, { error: 'must have at least 1 entry' })
    .max(10, { error: 'must have at most 10 entries' }),
  include_retired_identifiers: z.boolean({ error: 'must be true or false' }).default(false),
});
export type V2ResolutionItem = z.output<typeof V2ResolutionItemSchema>;
export type V2ResolutionItemInput = z.input<typeof V2ResolutionItemSchema>;

/**
 * A valid item in its parsed, canonical form (so equal items make equal requests); an invalid one as
 * sent, for the service to answer with `invalid_input` and its reasons.
 */
function canonicalResolutionItem(item: unknown): unknown {
  const parsed = V2ResolutionItemSchema.safeParse(item);
  return parsed.success ? parsed.data : item;
}

/** POST /api/v2/resolutions, the outer rules only: items are checked one by one afterwards. */
export const V2ResolutionsRequestSchema = z.object({
  items: z
    .array(z.unknown().transform(canonicalResolutionItem), { error: 'must be an array' })
    .min(1, { error: 'must have at least 1 entry' })
    .max(100, { error: 'must have at most 100 entries' }),
  candidate_limit: wholeNumber(1, 50).default(10),
  /** Per item, keyed by client_id: the cursor for its further candidates. */
  candidate_cursors: z.record(z.string(), V2CursorSchema).optional(),
});
export type V2ResolutionsRequest = z.output<typeof V2ResolutionsRequestSchema>;

// What Plat itself sends: its items checked too. The service would answer a bad item with outcome
// `invalid_input`, but Plat builds these items, so a bad one is refused before sending.
export const V2ResolutionsSendSchema = V2ResolutionsRequestSchema.extend({
  items: z
    .array(V2ResolutionItemSchema, { error: 'must be an array' })
    .min(1, { error: 'must have at least 1 entry' })
    .max(100, { error: 'must have at most 100 entries' }),
});

/** The client_id to echo for an item, even an invalid one ("" when it has no usable one). */
export function resolutionClientId(item: unknown): string {
  if (typeof item !== 'object' || item === null) return '';
  const clientId = (item as { client_id?: unknown }).client_id;
  return typeof clientId === 'string' && clientId.length <= 128 ? clientId : '';
}

/**
 * GET /api/v2/catalog query. Plat's names: `facet` (required), `filter` (jurisdictions and coverage
 * facets only), `domain_key`/`entity_name`, `property_class`/`data_type`, `field_key` (meaningful to
 * the coverage or dictionary facet as the spec pairs them; ignored by other facets),
 * `page_size` (default 50), `cursor`.
 */
export const V2CatalogQuerySchema = z
  .object({
    facet: CatalogFacetSchema,
    filter: boundedString(1, 128).optional(),
    domain_key: boundedString(1, 256).optional(),
    entity_name: boundedString(1, 256).optional(),
    property_class: boundedString(1, 256).optional(),
    data_type: boundedString(1, 256).optional(),
    field_key: boundedString(1, 256).optional(),
    page_size: wireInteger(1, 100).default(50),
    cursor: V2CursorSchema.optional(),
  })
  .superRefine((query, ctx) => {
    if (query.filter !== undefined && query.facet !== 'jurisdictions' && query.facet !== 'coverage') {
      ctx.addIssue({ code: 'custom', path: ['filter'], message: 'is supported only on the jurisdictions and coverage facets' });
    }
  });
export type V2CatalogQuery = z.output<typeof V2CatalogQuerySchema>;

export const EntityRefSchema = boundedString(1, 512);

/** Path of GET /api/v2/entities/{entity_ref} and of its relationships. */
export const V2EntityPathSchema = z.object({ entity_ref: EntityRefSchema });
export type V2EntityPath = z.output<typeof V2EntityPathSchema>;

/**
 * GET /api/v2/entities/{entity_ref}/relationships query, Plat's names: `direction` (default both),
 * `predicates` (comma-separated, at most 50; absent means all), `as_of` (ISO date or date-time,
 * 1..256: edges valid on that date), `depth` (default 1), `max_nodes` (default 100), `max_edges`
 * (default 200), `page_size` (default 50), `cursor`.
 */
export const V2RelationshipsQuerySchema = z.object({
  direction: z.enum(['out', 'in', 'both'], { error: 'must be out, in or both' }).default('both'),
  predicates: z
    .string({ error: 'must be a comma-separated list' })
    .transform((text, ctx): RelationshipPredicate[] => {
      const names = text.split(',').map((name) => name.trim());
      if (names.length > 50) {
        ctx.addIssue({ code: 'custom', message: 'must list at most 50 predicates' });
        return z.NEVER;
      }
      const unknown = names.find((name) => !(relationshipPredicates as readonly string[]).includes(name));
      if (unknown !== undefined) {
        ctx.addIssue({ code: 'custom', message: `"${unknown}" is not one of ${relationshipPredicates.join(', ')}` });
        return z.NEVER;
      }
      return names as RelationshipPredicate[];
    })
    .optional(),
  as_of: boundedString(1, 256)
    .refine((text) => isIsoDate(text, { time: 'allowed' }), { error: 'must be an ISO date (YYYY-MM-DD) or date-time that exists' })
    .optional(),
  depth: wireInteger(1, 3).default(1),
  max_nodes: wireInteger(1, 200).default(100),
  max_edges: wireInteger(1, 200).default(200),
  page_size: wireInteger(1, 100).default(50),
  cursor: V2CursorSchema.optional(),
});
export type V2RelationshipsQuery = z.output<typeof V2RelationshipsQuerySchema>;
