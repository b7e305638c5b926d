// The operation table: every operation Plat calls, in one place. Each entry says where it goes (method,
// path), whether it takes an Idempotency-Key, what it costs, which schemas check its request parts and
// its answer, how the client encodes a typed parameter (filters, field and predicate lists), and the
// IPC operation the renderer asks for it by. The client, the gateway, the IPC contract and its
// handlers, and the local service all read this table; adding an operation is one entry here
// (docs/adding-a-service-operation.md).
import type { z } from 'zod';
import {
  RequestHeadersSchema,
  v3PricedVariant,
  type FlatPriceRule,
  type Generation,
  type HttpMethod,
  type PriceRule,
  type RelationshipPredicate,
} from './common.ts';
import * as v2 from './v2.ts';
import * as v3 from './v3.ts';
import * as v4 from './v4.ts';

export interface OperationSchemas {
  /** Path parameters (`q_id`, `entity_ref`). */
  path?: z.ZodType;
  /** Query parameters as strings: pass `queryObject(url.searchParams)`. */
  query?: z.ZodType;
  /** JSON body of POST operations. */
  body?: z.ZodType;
  /** Headers Plat validates (Idempotency-Key), lower-case keys; only where the operation takes them. */
  headers?: z.ZodType;
  /** The success-or-error envelope. v3 answers are checked item by item per mode (see v3.ts). */
  response: z.ZodType;
}

export interface ServiceOperation {
  /** Plat's name for the operation, used as cache key and in the ledger: `v4.search`. */
  name: string;
  generation: Generation;
  /** The envelope's `operation` field as Plat's local service writes it. */
  envelopeOperation: string;
  method: HttpMethod;
  /** Path with `:name` parameters; fill with {@link fillPath}. */
  path: string;
  /** Whether the operation takes an Idempotency-Key header (replays within seven days are free). */
  idempotencyKey: boolean;
  /** Plat's price table: the embedded service's prices, known for that service only. */
  price: PriceRule;
  /**
   * The price the spec itself states, known for any faithful service (v4 summary, catalog,
   * connected). Absent: the spec shows none, so on another service it is learnt from its charges.
   */
  specPrice?: FlatPriceRule;
  /** The IPC operation the renderer asks for this call by (shared/ipc.ts derives it from here). */
  ipc: string;
  /** How a sentence names one call ("This summary costs $0.10"). */
  noun: string;
  /**
   * Which schemas validate the request parts and the answer. A request's issues all have a path
   * starting with the parameter's name, so a 400 (or a refusal before spending) can name it.
   */
  schemas: OperationSchemas;
  /** The body Plat itself sends, when it is held to more than the service accepts. */
  sendBody?: z.ZodType;
  /** When the answer's shape follows the request's `mode`: the envelope schema per mode. */
  responseByMode?: Readonly<Record<string, z.ZodType>>;
  /** Typed query values the client turns into wire text (a parsed filter, a list); others pass as they are. */
  encode?: Readonly<Record<string, (value: never) => unknown>>;
}

const FREE = { kind: 'free' } as const;

/** A parsed filter as its JSON text; text passes unchanged for the schema to check. */
const filterParam = (value: v4.SearchFilter | string): unknown => (typeof value === 'object' && value !== null ? v4.encodeSearchFilter(value) : value);
/** A list as the comma-separated text the service reads. */
const listParam = <T extends string>(value: readonly T[] | string): unknown => (Array.isArray(value) ? value.join(',') : value);

/**
 * Every operation Plat calls. `price` is Plat's embedded service's table (v4 as the spec states, except
 * the v4 search amount, which the spec leaves open; v2 and v3 its own, the spec shows none);
 * `specPrice` is what the spec states, the only price known for another service before it charges.
 */
export const serviceOperations = {
  'v4.search': {
    name: 'v4.search',
    generation: 'v4',
    envelopeOperation: 'search',
    method: 'GET',
    path: '/api/v4/search',
    idempotencyKey: true,
    price: { kind: 'per_page_with_results', microUsd: 20_000 },
    ipc: 'searchRecords',
    noun: 'search page',
    schemas: { query: v4.V4SearchQuerySchema, headers: RequestHeadersSchema, response: v4.V4SearchResponseSchema },
    encode: { filter: filterParam },
  },
  'v4.catalog': {
    name: 'v4.catalog',
    generation: 'v4',
    envelopeOperation: 'catalog',
    method: 'GET',
    path: '/api/v4/catalog',
    idempotencyKey: true,
    price: FREE,
    specPrice: FREE,
    ipc: 'getSourceCatalog',
    noun: 'catalog request',
    schemas: { query: v4.V4CatalogQuerySchema, headers: RequestHeadersSchema, response: v4.V4CatalogResponseSchema },
  },
  'v4.connected': {
    name: 'v4.connected',
    generation: 'v4',
    envelopeOperation: 'connected',
    method: 'GET',
    path: '/api/v4/entities/:q_id/connected',
    idempotencyKey: true,
    price: FREE,
    specPrice: FREE,
    ipc: 'getConnectedEntities',
    noun: 'connected-entity lookup',
    schemas: { path: v4.V4ConnectedPathSchema, query: v4.V4ConnectedQuerySchema, headers: RequestHeadersSchema, response: v4.V4ConnectedResponseSchema },
  },
  'v4.summary': {
    name: 'v4.summary',
    generation: 'v4',
    envelopeOperation: 'summary',
    method: 'GET',
    path: '/api/v4/entities/:q_id/summary',
    idempotencyKey: true,
    price: { kind: 'per_call', microUsd: 100_000 },
    specPrice: { kind: 'per_call', microUsd: 100_000 },
    ipc: 'getEntitySummary',
    noun: 'summary',
    schemas: { path: v4.V4SummaryPathSchema, query: v4.V4SummaryQuerySchema, headers: RequestHeadersSchema, response: v4.V4SummaryResponseSchema },
    encode: { fields: listParam<string> },
  },
  'v3.recordQuery': {
    name: 'v3.recordQuery',
    generation: 'v3',
    envelopeOperation: 'record_query',
    method: 'POST',
    path: '/api/v3/record-queries',
    // The spec names no header for v3; Plat sends one because report queries are charged, and the
    // local service honours it like v2's.
    idempotencyKey: true,
    price: {
      kind: 'by_v3_variant',
      variants: {
        catalog: FREE,
        aggregate: { kind: 'per_call', microUsd: 50_000 },
        report_subject_v1: { kind: 'per_call', microUsd: 250_000 },
        report_comparables_v1: { kind: 'per_page_with_results', microUsd: 150_000 },
      },
    },
    ipc: 'queryRecords',
    noun: 'record query',
    schemas: { body: v3.V3RecordQuerySchema, headers: RequestHeadersSchema, response: v3.V3ResponseSchema },
    responseByMode: v3.v3ResponseByMode,
  },
  'v2.searchProperties': {
    name: 'v2.searchProperties',
    generation: 'v2',
    envelopeOperation: 'search_properties',
    method: 'POST',
    path: '/api/v2/property-searches',
    idempotencyKey: true,
    price: { kind: 'per_page_with_results', microUsd: 20_000 },
    ipc: 'searchProperties',
    noun: 'property search page',
    schemas: { body: v2.V2PropertySearchSchema, headers: RequestHeadersSchema, response: v2.V2SearchResponseSchema },
  },
  'v2.resolveEntities': {
    name: 'v2.resolveEntities',
    generation: 'v2',
    envelopeOperation: 'resolve_entities',
    method: 'POST',
    path: '/api/v2/resolutions',
    idempotencyKey: true,
    price: { kind: 'per_resolved_item', microUsd: 5_000 },
    ipc: 'resolveEntities',
    noun: 'identifier resolution',
    schemas: { body: v2.V2ResolutionsRequestSchema, headers: RequestHeadersSchema, response: v2.V2ResolutionsResponseSchema },
    sendBody: v2.V2ResolutionsSendSchema,
  },
  'v2.getCatalog': {
    name: 'v2.getCatalog',
    generation: 'v2',
    envelopeOperation: 'get_catalog',
    method: 'GET',
    path: '/api/v2/catalog',
    idempotencyKey: false,
    price: FREE,
    ipc: 'getCatalogFacet',
    noun: 'catalog request',
    schemas: { query: v2.V2CatalogQuerySchema, response: v2.V2CatalogResponseSchema },
  },
  'v2.getEntity': {
    name: 'v2.getEntity',
    generation: 'v2',
    envelopeOperation: 'get_entity',
    method: 'GET',
    path: '/api/v2/entities/:entity_ref',
    // The spec offers the header on v2 POSTs only, so a retry of a GET could not be replayed: Plat's
    // local service makes the two v2 GETs free, so no retry can ever charge twice.
    idempotencyKey: false,
    price: FREE,
    ipc: 'getEntity',
    noun: 'entity lookup',
    schemas: { path: v2.V2EntityPathSchema, response: v2.V2EntityResponseSchema },
  },
  'v2.traverseRelationships': {
    name: 'v2.traverseRelationships',
    generation: 'v2',
    envelopeOperation: 'traverse_relationships',
    method: 'GET',
    path: '/api/v2/entities/:entity_ref/relationships',
    idempotencyKey: false,
    price: FREE,
    ipc: 'traverseRelationships',
    noun: 'relationship lookup',
    schemas: { path: v2.V2EntityPathSchema, query: v2.V2RelationshipsQuerySchema, response: v2.V2TraversalResponseSchema },
    encode: { predicates: listParam<RelationshipPredicate> },
  },
} as const satisfies Record<string, ServiceOperation>;

export type ServiceOperationName = keyof typeof serviceOperations;
export const serviceOperationNames = Object.keys(serviceOperations) as ServiceOperationName[];

export function isServiceOperationName(name: string): name is ServiceOperationName {
  return Object.hasOwn(serviceOperations, name);
}

/** Each operation's schemas, by name (the local service and the IPC contract validate with these). */
export const operationSchemas = Object.fromEntries(serviceOperationNames.map((name) => [name, serviceOperations[name].schemas])) as {
  readonly [N in ServiceOperationName]: (typeof serviceOperations)[N]['schemas'];
};

/** The price the spec states for `operation`, or null when it shows none. */
export function specPriceRuleFor(operation: ServiceOperationName): FlatPriceRule | null {
  const entry: ServiceOperation = serviceOperations[operation];
  return entry.specPrice ?? null;
}

/**
 * The flat price rule of one call. For `v3.recordQuery` pass the (parsed) request, whose mode and
 * projection choose the rule.
 */
export function priceRuleFor(
  operation: ServiceOperationName,
  v3Request?: { mode: 'catalog' | 'report' | 'aggregate'; projection?: string | undefined },
): FlatPriceRule {
  const price: PriceRule = serviceOperations[operation].price;
  if (price.kind !== 'by_v3_variant') return price;
  if (!v3Request) throw new RangeError(`${operation} is priced by its request; pass it`);
  return price.variants[v3PricedVariant(v3Request)];
}
