// v4: search, catalog, connected, summary (spec, "Response envelope, v4" and "Endpoints / v4").
// Responses tolerate fields the spec does not list (the live service may add some), except the
// search record, which the spec declares closed.
import { z } from 'zod';
import { JurisdictionCodeSchema } from '../jurisdictions.ts';
import {
  ConnectedEntityIdSchema,
  DateTimeSchema,
  EntityIdSchema,
  envelopeBase,
  errorEnvelope,
  ServiceErrorSchema,
  SummaryEntityIdSchema,
  wireInteger,
} from './common.ts';

// ---------------------------------------------------------------------------------------------
// Envelope

export const V4ErrorSchema = ServiceErrorSchema;
export type V4Error = z.infer<typeof V4ErrorSchema>;

export const V4MetaSchema = z.looseObject({
  served_at: DateTimeSchema,
  next_cursor: z.string().nullable(),
  /** Present on catalog and summary responses. */
  truncated: z.boolean().optional(),
});
export type V4Meta = z.infer<typeof V4MetaSchema>;

// request_id is the caller's Idempotency-Key when one was sent, otherwise a generated id.
const v4EnvelopeBase = envelopeBase('svc-v4', V4MetaSchema);

export const V4ErrorEnvelopeSchema = errorEnvelope(v4EnvelopeBase, V4ErrorSchema);
export type V4ErrorEnvelope = z.infer<typeof V4ErrorEnvelopeSchema>;

/** A v4 response: success (`data` filled, `error` null) or failure (`data` null, `error` filled). */
export function v4Envelope<Data extends z.ZodType>(data: Data) {
  return z.discriminatedUnion('status', [
    z.looseObject({ ...v4EnvelopeBase, status: z.literal('ok'), data, error: z.null() }),
    V4ErrorEnvelopeSchema,
  ]);
}

/** A page of a v4 list (catalog, connected): its items and the next page's cursor (absent or null on the last). */
function v4ListPage<Item extends z.ZodType>(item: Item) {
  return z.looseObject({ items: z.array(item), next_cursor: z.string().nullable().optional() });
}

// ---------------------------------------------------------------------------------------------
// Search

/** Publisher, dataset and publication date of a record; the service may add more. */
export const CitationSchema = z.looseObject({
  source: z.string().nullable(),
  dataset: z.string().nullable(),
  as_of: z.string().nullable(),
});
export type Citation = z.infer<typeof CitationSchema>;

/** One search hit. The spec declares it closed: all fields required, no others. */
export const V4SearchRecordSchema = z.strictObject({
  record_ref: z.string(),
  kind: z.string(),
  source_id: z.string(),
  jurisdiction: z.string().nullable(),
  published_at: DateTimeSchema,
  citation: CitationSchema,
  /** The full source row, field names as the publisher wrote them. */
  data: z.unknown(),
  /** Entities the record is about (shape not shown by the spec). */
  q_ids: z.unknown(),
});
export type V4SearchRecord = z.infer<typeof V4SearchRecordSchema>;

export const V4SearchDataSchema = z.looseObject({
  items: z.array(V4SearchRecordSchema),
  /** Present only when more results exist; passed back as `cursor`. */
  next_cursor: z.string().optional(),
});
export type V4SearchData = z.infer<typeof V4SearchDataSchema>;
export const V4SearchResponseSchema = v4Envelope(V4SearchDataSchema);
export type V4SearchResponse = z.infer<typeof V4SearchResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Catalog

export const V4CatalogItemSchema = z.looseObject({
  state: z.string(),
  source_id: z.string(),
  source: z.string(),
  dataset: z.string(),
  kind: z.string(),
  records: z.int().min(0),
  as_of: DateTimeSchema,
  /** Present when the list is narrowed by jurisdiction or source_id; structure not shown. */
  fields: z.unknown().optional(),
});
export type V4CatalogItem = z.infer<typeof V4CatalogItemSchema>;

export const V4CatalogDataSchema = v4ListPage(V4CatalogItemSchema);
export type V4CatalogData = z.infer<typeof V4CatalogDataSchema>;
export const V4CatalogResponseSchema = v4Envelope(V4CatalogDataSchema);
export type V4CatalogResponse = z.infer<typeof V4CatalogResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Connected

export const V4ConnectedItemSchema = z.looseObject({
  // Any prefix: the operation's second form links properties and loans too.
  q_id: EntityIdSchema,
  type: z.string(),
  relation: z.string(),
  via: z.string(),
  /** Number of links from the starting entity. */
  depth: z.int().min(0),
});
export type V4ConnectedItem = z.infer<typeof V4ConnectedItemSchema>;

export const V4ConnectedDataSchema = v4ListPage(V4ConnectedItemSchema);
export type V4ConnectedData = z.infer<typeof V4ConnectedDataSchema>;
export const V4ConnectedResponseSchema = v4Envelope(V4ConnectedDataSchema);
export type V4ConnectedResponse = z.infer<typeof V4ConnectedResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Summary

/**
 * The summary `data`: one entry per canonical field. The spec does not show the entries, so the
 * contract checks only that it is an object; {@link V4SummaryFieldSchema} is the entry shape Plat's
 * local service writes, which a client may try before falling back to showing the raw value.
 */
export const V4SummaryDataSchema = z.record(z.string(), z.unknown());
export type V4SummaryData = z.infer<typeof V4SummaryDataSchema>;
export const V4SummaryResponseSchema = v4Envelope(V4SummaryDataSchema);
export type V4SummaryResponse = z.infer<typeof V4SummaryResponseSchema>;

const SummaryValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Plat's local-service shape of one summary entry: the best value, its citation, the alternatives. */
export const V4SummaryFieldSchema = z.looseObject({
  value: SummaryValueSchema,
  citation: CitationSchema,
  alternatives: z.array(z.looseObject({ value: SummaryValueSchema, citation: CitationSchema })),
});
export type V4SummaryField = z.infer<typeof V4SummaryFieldSchema>;

/** The canonical field names Plat's local service summarises (and accepts in `fields`). */
export const summaryCanonicalFields = [
  'address',
  'owner_name',
  'use_code',
  'year_built',
  'bedrooms',
  'full_bathrooms',
  'half_bathrooms',
  'living_area_sqft',
  'gross_area_sqft',
  'land_area_sqft',
  'assessed_value_dollars',
  'last_sale_price_dollars',
  'last_sale_date',
] as const;
export type SummaryCanonicalField = (typeof summaryCanonicalFields)[number];

// ---------------------------------------------------------------------------------------------
// Requests. Query schemas take the wire form (strings) and yield typed values; every issue's path
// starts with the parameter's name.

const KIND = /^[a-z_]{1,40}$/;
const SOURCE_ID = /^[a-z0-9_]{1,100}$/;
export const SourceIdSchema = z.string().regex(SOURCE_ID, { error: 'must be 1 to 100 of a-z, 0-9 and _' });

export const MAX_FILTER_LENGTH = 2000;
export const MAX_FILTER_FIELDS = 5;
export const SOURCE_ID_FILTER_KEY = '$source_id';

export type SearchFilterScalar = string | number | boolean | null;
export type SearchCondition =
  | { field: string; op: 'eq'; value: SearchFilterScalar }
  | { field: string; op: 'gte'; value: number };

/** A parsed `filter`: conditions on source fields (all must hold) and an optional source restriction. */
export interface SearchFilter {
  conditions: SearchCondition[];
  sourceId?: string;
}

/**
 * The `filter` parameter: URL-decoded JSON text, at most 2000 characters, an object whose keys are
 * source field names. A value is a bare scalar (equality) or `{"gte": <number>}`. `$source_id`
 * restricts the search to one source; it is not a source field, so it does not count toward the
 * five. Other `$` keys and other operators are refused: the spec shows none.
 */
export const SearchFilterParamSchema = z
  .string({ error: 'must be a JSON object' })
  .max(MAX_FILTER_LENGTH, { error: `must be at most ${MAX_FILTER_LENGTH} characters` })
  .transform((text, ctx): SearchFilter => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
      return z.NEVER;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
    const filter: SearchFilter = { conditions: [] };
    for (const [field, value] of Object.entries(parsed)) {
      if (field === SOURCE_ID_FILTER_KEY) {
        if (typeof value === 'string' && SOURCE_ID.test(value)) filter.sourceId = value;
        else ctx.addIssue({ code: 'custom', path: [field], message: 'must be a source id (1 to 100 of a-z, 0-9 and _)' });
      } else if (field === '' || field.startsWith('$')) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'must be a source field name' });
      } else if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
        filter.conditions.push({ field, op: 'eq', value: value as SearchFilterScalar });
      } else if (isGteOperator(value)) {
        filter.conditions.push({ field, op: 'gte', value: value.gte });
      } else {
        ctx.addIssue({ code: 'custom', path: [field], message: 'must be a bare value or {"gte": <number>}' });
      }
    }
    if (filter.conditions.length > MAX_FILTER_FIELDS) {
      ctx.addIssue({ code: 'custom', message: `must name at most ${MAX_FILTER_FIELDS} source fields` });
    }
    return filter;
  });

function isGteOperator(value: unknown): value is { gte: number } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const gte = (value as { gte?: unknown }).gte;
  return keys.length === 1 && keys[0] === 'gte' && typeof gte === 'number' && Number.isFinite(gte);
}

/** The wire text of a filter, for a client building a search (inverse of SearchFilterParamSchema). */
export function encodeSearchFilter(filter: SearchFilter): string {
  const object: Record<string, SearchFilterScalar | { gte: number }> = {};
  for (const condition of filter.conditions) {
    object[condition.field] = condition.op === 'gte' ? { gte: condition.value } : condition.value;
  }
  if (filter.sourceId !== undefined) object[SOURCE_ID_FILTER_KEY] = filter.sourceId;
  return JSON.stringify(object);
}

const V4CursorSchema = z.string({ error: 'must be a string' }).max(512, { error: 'must be at most 512 characters' });

export const V4SearchQuerySchema = z.object({
  jurisdiction: JurisdictionCodeSchema,
  kind: z.string({ error: 'is required' }).regex(KIND, { error: 'must be 1 to 40 of a-z and _' }),
  filter: SearchFilterParamSchema.optional(),
  cursor: V4CursorSchema.optional(),
  limit: wireInteger(1, 100).default(50),
});
export type V4SearchQuery = z.output<typeof V4SearchQuerySchema>;
export type V4SearchQueryInput = z.input<typeof V4SearchQuerySchema>;

export const V4CatalogQuerySchema = z.object({
  jurisdiction: z
    .string({ error: 'must be a string' })
    .regex(/^\d{2}(\d{3})?$/, { error: 'must be a 2-digit state or 5-digit county code' })
    .pipe(JurisdictionCodeSchema)
    .optional(),
  source_id: SourceIdSchema.optional(),
});
export type V4CatalogQuery = z.output<typeof V4CatalogQuerySchema>;

export const V4ConnectedPathSchema = z.object({ q_id: ConnectedEntityIdSchema });
export type V4ConnectedPath = z.output<typeof V4ConnectedPathSchema>;

/** Plat's names for the parameters the spec leaves unnamed: `depth`, `cursor`, `limit`. */
export const V4ConnectedQuerySchema = z.object({
  depth: wireInteger(1, 3).default(2),
  cursor: V4CursorSchema.optional(),
  limit: wireInteger(1, 100).default(50),
});
export type V4ConnectedQuery = z.output<typeof V4ConnectedQuerySchema>;

export const V4SummaryPathSchema = z.object({ q_id: SummaryEntityIdSchema });
export type V4SummaryPath = z.output<typeof V4SummaryPathSchema>;

const CANONICAL_FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * `fields` (Plat's name for the summary's one unnamed parameter): a comma-separated list of
 * canonical field names to include, at most 1000 characters. Empty or absent means all fields,
 * which the output gives as undefined. Names are checked for form only; unknown names are ignored
 * by the service, so a newer field list does not break an older client.
 */
export const V4SummaryQuerySchema = z.object({
  fields: z
    .string({ error: 'must be a string' })
    .max(1000, { error: 'must be at most 1000 characters' })
    .transform((text, ctx): string[] | undefined => {
      if (text.trim() === '') return undefined;
      const names = text.split(',').map((name) => name.trim());
      const bad = names.find((name) => !CANONICAL_FIELD_NAME.test(name));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `"${bad}" is not a field name (lowercase letters, digits and _)` });
        return z.NEVER;
      }
      return names;
    })
    .optional(),
});
export type V4SummaryQuery = z.output<typeof V4SummaryQuerySchema>;
