// Pieces shared by the three service generations: the envelope's parts, entity ids, v2 entity kinds and predicates, the
// wire forms of query parameters, Idempotency-Key, request-issue reporting, and the price rules (the
// operation table that applies them is operations.ts).
import { z } from 'zod';
import type { MicroUsd } from '../money.ts';

// ---------------------------------------------------------------------------------------------
// Timestamps

/** An ISO 8601 date-time with a zone (Z or an offset), as the service writes timestamps. */
export const DateTimeSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a zone' });

// YYYY-MM-DD, optionally Thh:mm[:ss[.fff]] and Z or ±hh:mm. The form alone would take 2015-13-45 and
// 2015-02-30, which a date index rolls over or matches nothing with, and the call is still charged.
const ISO_DATE_FORM = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))?)?$/;

/**
 * The one check for dates a caller sends: an ISO date whose day exists on the calendar (and, with
 * `time: 'allowed'`, an optional time that exists on the clock). Every request schema and the
 * service's own filter parsing use it, so the client refuses what the service would.
 */
export function isIsoDate(text: string, options: { time: 'allowed' | 'forbidden' } = { time: 'forbidden' }): boolean {
  const match = ISO_DATE_FORM.exec(text);
  if (!match) return false;
  if (match[4] !== undefined && options.time === 'forbidden') return false;
  const part = (index: number) => Number(match[index] ?? 0);
  const [year, month, day] = [part(1), part(2), part(3)];
  // setUTCFullYear, not Date.UTC, which reads years 0..99 as 1900..1999. A day that does not exist
  // rolls over into the next month, so reading the parts back tells.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const dayExists = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  const timeExists = part(4) <= 23 && part(5) <= 59 && part(6) <= 59 && part(7) <= 23 && part(8) <= 59;
  return dayExists && timeExists;
}

// ---------------------------------------------------------------------------------------------
// Envelopes: every generation answers with its envelope fields, a `status`, `data` and `error`.

/** The error of a v3 or v4 answer (v2's adds a retry delay and details). */
export const ServiceErrorSchema = z.looseObject({ code: z.string(), message: z.string(), retryable: z.boolean() });

/** The envelope fields of v3 and v4 answers: the contract version, the request id and the operation. */
export function envelopeBase<Version extends string, Meta extends z.ZodType>(contractVersion: Version, meta: Meta) {
  return { contract_version: z.literal(contractVersion), request_id: z.string(), operation: z.string(), meta };
}

/** A generation's failed answer: its envelope fields, `status` error, `data` null and the error. */
export function errorEnvelope<Base extends z.core.$ZodLooseShape, Error extends z.ZodType>(base: Base, error: Error) {
  return z.looseObject({ ...base, status: z.literal('error'), data: z.null(), error });
}

// ---------------------------------------------------------------------------------------------
// v4 entity ids: `<prefix>_<uuid>`, uuid lowercase hex in 8-4-4-4-12 groups.

export const entityIdPrefixes = ['addr', 'parc', 'acct', 'unit', 'prop', 'loan'] as const;
export type EntityIdPrefix = (typeof entityIdPrefixes)[number];
/** The prefixes the connected operation accepts (its first form; Plat does not use the second). */
export const connectedEntityIdPrefixes = ['addr', 'parc', 'acct', 'unit'] as const;
export type ConnectedEntityIdPrefix = (typeof connectedEntityIdPrefixes)[number];

/** The entity kind behind each prefix, as a snake_case id (matching v2's `tax_account`). */
export const entityKindByPrefix = {
  addr: 'address',
  parc: 'parcel',
  acct: 'tax_account',
  unit: 'unit',
  prop: 'property',
  loan: 'loan',
} as const satisfies Record<EntityIdPrefix, string>;
export type EntityIdKind = (typeof entityKindByPrefix)[EntityIdPrefix];

/** The same kinds in words, for people: the ids with spaces ("tax account"). */
export const entityKindLabelByPrefix = Object.fromEntries(
  entityIdPrefixes.map((prefix) => [prefix, entityKindByPrefix[prefix].replaceAll('_', ' ')]),
) as Record<EntityIdPrefix, string>;

export type EntityId = `${EntityIdPrefix}_${string}`;
export type ConnectedEntityId = `${ConnectedEntityIdPrefix}_${string}`;
/** Ids the summary operation accepts: every prefix. */
export type SummaryEntityId = EntityId;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The prefix of a well-formed entity id, or undefined when the id is not one. */
export function entityPrefix(id: string): EntityIdPrefix | undefined {
  const separator = id.indexOf('_');
  const prefix = id.slice(0, separator);
  if (separator < 0 || !(entityIdPrefixes as readonly string[]).includes(prefix)) return undefined;
  return UUID.test(id.slice(separator + 1)) ? (prefix as EntityIdPrefix) : undefined;
}

function entityIdSchema<P extends EntityIdPrefix>(prefixes: readonly P[]) {
  const allowed = prefixes.join(', ');
  return z
    .string()
    .superRefine((id, ctx) => {
      const separator = id.indexOf('_');
      const prefix = separator < 0 ? '' : id.slice(0, separator);
      if (!(prefixes as readonly string[]).includes(prefix)) {
        ctx.addIssue({ code: 'custom', message: `must be an entity id starting with one of ${allowed} and an underscore` });
      } else if (!UUID.test(id.slice(separator + 1))) {
        ctx.addIssue({ code: 'custom', message: 'must end in a lowercase uuid (8-4-4-4-12 hex digits)' });
      }
    })
    .transform((id) => id as `${P}_${string}`);
}

export const EntityIdSchema = entityIdSchema(entityIdPrefixes);
export const ConnectedEntityIdSchema = entityIdSchema(connectedEntityIdPrefixes);
export const SummaryEntityIdSchema = EntityIdSchema;

// ---------------------------------------------------------------------------------------------
// v2 entity kinds and relationship predicates

export const entityKinds = ['property', 'tax_account', 'parcel', 'address', 'building', 'unit', 'land_interest'] as const;
export type EntityKind = (typeof entityKinds)[number];
export const EntityKindSchema = z.enum(entityKinds, { error: `must be one of ${entityKinds.join(', ')}` });

export const relationshipPredicates = ['located_in', 'taxed_in', 'assessed_in', 'served_by', 'permitted_by'] as const;
export type RelationshipPredicate = (typeof relationshipPredicates)[number];
export const RelationshipPredicateSchema = z.enum(relationshipPredicates, {
  error: `must be one of ${relationshipPredicates.join(', ')}`,
});

// ---------------------------------------------------------------------------------------------
// Wire forms. Query parameters arrive as strings; the same schemas also take already-typed values
// so a client can validate what it is about to send.

/** A string of bounded length with messages that say the bound. */
export function boundedString(min: number, max: number) {
  return z
    .string({ error: 'must be a string' })
    .min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` })
    .max(max, { error: `must be at most ${max} characters` });
}

/** An integer in [min, max], given as a number or as a decimal string ("50"). */
export function wireInteger(min: number, max: number) {
  return z
    .union([z.number(), z.string()], { error: 'must be a whole number' })
    .transform((value, ctx) => {
      if (typeof value === 'number') return value;
      if (!/^[+-]?\d{1,15}$/.test(value)) {
        ctx.addIssue({ code: 'custom', message: 'must be a whole number' });
        return z.NEVER;
      }
      return Number(value);
    })
    .pipe(
      z
        .int({ error: 'must be a whole number' })
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );
}

/**
 * A query string as a plain object for the request schemas. A parameter given more than once
 * becomes an array, which every schema refuses with an issue naming it, rather than one value
 * silently winning.
 */
export function queryObject(query: URLSearchParams | string): Record<string, string | string[]> {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const existing = result[name];
    if (existing === undefined) result[name] = value;
    else result[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Idempotency-Key

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IdempotencyKeySchema = boundedString(1, 256);

/**
 * The request headers Plat validates, keyed in lower case as Node and fetch present them. An issue
 * here has path ['idempotency-key'].
 */
export const RequestHeadersSchema = z.object({ 'idempotency-key': IdempotencyKeySchema.optional() });

// ---------------------------------------------------------------------------------------------
// Reporting request issues (400 answers and refusals before spending)

export interface RequestIssue {
  /** The parameter or body field at fault: the first path element ("limit", "filters"). */
  parameter: string;
  /** Full location inside the request, dot-joined ("filters.2.op", "filter.SALEPRICE"). */
  location: string;
  message: string;
}

export interface InvalidRequestDetails {
  /** A stable code naming the first parameter at fault, e.g. `invalid_limit`, `invalid_idempotency_key`. */
  code: string;
  /** One line naming each problem, e.g. "limit: must be at most 100". */
  message: string;
  parameter: string;
  issues: RequestIssue[];
}

/** Flattens a request schema's ZodError into issues that name parameters. */
export function requestIssues(error: z.ZodError): RequestIssue[] {
  return error.issues.map((issue) => {
    // An unknown-key issue sits on the object itself; name the key instead.
    const path = issue.path.length === 0 && issue.code === 'unrecognized_keys' ? [issue.keys[0] ?? 'request'] : issue.path;
    const parameter = path.length === 0 ? 'request' : String(path[0]);
    return { parameter, location: path.length === 0 ? 'request' : path.map(String).join('.'), message: issue.message };
  });
}

/** What a service answers in a 400 (and what a client shows when it refuses before sending). */
export function invalidRequestDetails(error: z.ZodError): InvalidRequestDetails {
  const issues = requestIssues(error);
  const parameter = issues[0]?.parameter ?? 'request';
  return {
    code: `invalid_${parameter.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'request'}`,
    message: issues.map((issue) => `${issue.location}: ${issue.message}`).join('; '),
    parameter,
    issues,
  };
}

// ---------------------------------------------------------------------------------------------
// Prices

export type Generation = 'v2' | 'v3' | 'v4';
export type HttpMethod = 'GET' | 'POST';

/** A price that depends only on what one call returned. */
export type FlatPriceRule =
  | { kind: 'free' }
  | { kind: 'per_call'; microUsd: MicroUsd }
  /** Charged once when the page holds at least one result; an empty page is free. */
  | { kind: 'per_page_with_results'; microUsd: MicroUsd }
  /** Charged per batch item that resolved (at least one candidate); other items are free. */
  | { kind: 'per_resolved_item'; microUsd: MicroUsd };

/** v3 record queries are priced by what was asked: the mode, and in report mode the projection. */
export type V3PricedVariant = 'catalog' | 'aggregate' | 'report_subject_v1' | 'report_comparables_v1';

export type PriceRule = FlatPriceRule | { kind: 'by_v3_variant'; variants: Record<V3PricedVariant, FlatPriceRule> };

/** Which v3 price applies: report mode is priced by its projection, other modes by the mode. */
export function v3PricedVariant(request: { mode: 'catalog' | 'report' | 'aggregate'; projection?: string | undefined }): V3PricedVariant {
  if (request.mode !== 'report') return request.mode;
  if (request.projection === 'report_subject_v1' || request.projection === 'report_comparables_v1') return request.projection;
  throw new RangeError('a report record query needs a projection');
}

/** What a call returned, as far as pricing needs it. */
export interface CallUsage {
  /** Whether the page held at least one result. */
  hasResults: boolean;
  /** For per-item pricing: how many batch items resolved. */
  resolvedItems?: number;
}

/** The charge for a successful call. Failed calls and replays are never charged (spec, "Charging"). */
export function chargeFor(rule: FlatPriceRule, usage: CallUsage): MicroUsd {
  switch (rule.kind) {
    case 'free':
      return 0;
    case 'per_call':
      return rule.microUsd;
    case 'per_page_with_results':
      return usage.hasResults ? rule.microUsd : 0;
    case 'per_resolved_item':
      return rule.microUsd * (usage.resolvedItems ?? 0);
  }
}

/**
 * The most a call can cost, known before sending it: what a budget check and a price preview use.
 * `items` is the batch size for per-item pricing.
 */
export function maxChargeFor(rule: FlatPriceRule, request: { items?: number } = {}): MicroUsd {
  switch (rule.kind) {
    case 'free':
      return 0;
    case 'per_call':
    case 'per_page_with_results':
      return rule.microUsd;
    case 'per_resolved_item':
      return rule.microUsd * (request.items ?? 1);
  }
}

/** Fills a path template's `:name` parameters, URL-encoding each value. */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new RangeError(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}
