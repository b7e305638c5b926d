// The Property Records Service contract: one import for the local service and the client.
import type { z } from 'zod';
import type { ServiceOperationName } from './common.ts';
import { RequestHeadersSchema } from './common.ts';
import {
  V2CatalogQuerySchema,
  V2CatalogResponseSchema,
  V2EntityPathSchema,
  V2EntityResponseSchema,
  V2PropertySearchSchema,
  V2RelationshipsQuerySchema,
  V2ResolutionsRequestSchema,
  V2ResolutionsResponseSchema,
  V2SearchResponseSchema,
  V2TraversalResponseSchema,
} from './v2.ts';
import { V3RecordQuerySchema, V3ResponseSchema } from './v3.ts';
import {
  V4CatalogQuerySchema,
  V4CatalogResponseSchema,
  V4ConnectedPathSchema,
  V4ConnectedQuerySchema,
  V4ConnectedResponseSchema,
  V4SearchQuerySchema,
  V4SearchResponseSchema,
  V4SummaryPathSchema,
  V4SummaryQuerySchema,
  V4SummaryResponseSchema,
} from './v4.ts';

export * from './common.ts';
export * from './v4.ts';
export * from './v3.ts';
export * from './v2.ts';

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

/**
 * Which schemas validate each operation's request parts and response. A request's issues all have
 * a path starting with the parameter's name, so a 400 (or a refusal before spending) can name it.
 */
export const operationSchemas = {
  'v4.search': { query: V4SearchQuerySchema, headers: RequestHeadersSchema, response: V4SearchResponseSchema },
  'v4.catalog': { query: V4CatalogQuerySchema, headers: RequestHeadersSchema, response: V4CatalogResponseSchema },
  'v4.connected': {
    path: V4ConnectedPathSchema,
    query: V4ConnectedQuerySchema,
    headers: RequestHeadersSchema,
    response: V4ConnectedResponseSchema,
  },
  'v4.summary': {
    path: V4SummaryPathSchema,
    query: V4SummaryQuerySchema,
    headers: RequestHeadersSchema,
    response: V4SummaryResponseSchema,
  },
  'v3.recordQuery': { body: V3RecordQuerySchema, headers: RequestHeadersSchema, response: V3ResponseSchema },
  'v2.searchProperties': { body: V2PropertySearchSchema, headers: RequestHeadersSchema, response: V2SearchResponseSchema },
  'v2.resolveEntities': { body: V2ResolutionsRequestSchema, headers: RequestHeadersSchema, response: V2ResolutionsResponseSchema },
  'v2.getCatalog': { query: V2CatalogQuerySchema, response: V2CatalogResponseSchema },
  'v2.getEntity': { path: V2EntityPathSchema, response: V2EntityResponseSchema },
  'v2.traverseRelationships': { path: V2EntityPathSchema, query: V2RelationshipsQuerySchema, response: V2TraversalResponseSchema },
} as const satisfies Record<ServiceOperationName, OperationSchemas>;
