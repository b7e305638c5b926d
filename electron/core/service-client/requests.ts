// How a call's parts become a request, as the operation table says: the caller's typed parts, each
// encoded and checked (path, then query, then body), the URL and body to send, and the schema its
// answer is checked with. The types read the table too, so a call's outcome is typed by operation.
import type { z } from 'zod';
import { toPlatError } from '../../../shared/errors.ts';
import { fillPath, invalidRequestDetails, serviceOperations } from '../../../shared/service/index.ts';
import type { ServiceOperation, ServiceOperationName } from '../../../shared/service/index.ts';
import { ServiceCallError } from './call-error.ts';
import type { ServiceCallOutcome } from './types.ts';

type Entry<N extends ServiceOperationName> = (typeof serviceOperations)[N];
type PartInput<N extends ServiceOperationName, P extends string> = Entry<N>['schemas'] extends Record<P, infer S extends z.ZodType> ? z.input<S> : never;
type Encoders<N extends ServiceOperationName> = Entry<N> extends { encode: infer E } ? E : Record<never, never>;
/** Query values as text or numbers, or what the table's encoder takes (a parsed filter, a list); the client checks them at run time. */
type QueryParams<N extends ServiceOperationName> = {
  [K in keyof PartInput<N, 'query'>]?: string | number | (K extends keyof Encoders<N> ? (Encoders<N>[K] extends (value: infer V) => unknown ? V : never) : never);
};
type BodyInput<N extends ServiceOperationName> = Entry<N> extends { sendBody: infer S extends z.ZodType } ? z.input<S> : PartInput<N, 'body'>;

/** The parts of a call in the caller's typed form; the client checks the rules at run time. */
export type ClientRequest<N extends ServiceOperationName> = ('path' extends keyof Entry<N>['schemas'] ? { path: PartInput<N, 'path'> } : unknown) &
  ('query' extends keyof Entry<N>['schemas'] ? { query?: QueryParams<N> } : unknown) &
  ('body' extends keyof Entry<N>['schemas'] ? { body: BodyInput<N> } : unknown);

type OkEnvelope<S extends z.ZodType> = Extract<Exclude<z.output<S>, { status: 'error' }>, { data: unknown; meta: unknown }>;
/** The outcome of a call whose answer the envelope schema S validates. */
export type OutcomeOf<S extends z.ZodType> = ServiceCallOutcome<OkEnvelope<S>['data'], OkEnvelope<S>>;
/** The answer's schema: the mode's, where the table checks answers by the request's mode. */
type ResponseSchemaOf<N extends ServiceOperationName, R> = Entry<N> extends { responseByMode: infer M }
  ? R extends { body: { mode: infer K extends keyof M } }
    ? M[K]
    : Entry<N>['schemas']['response']
  : Entry<N>['schemas']['response'];
/** The outcome of `call(operation, request)`. */
export type CallOutcome<N extends ServiceOperationName, R = ClientRequest<N>> = OutcomeOf<ResponseSchemaOf<N, R> & z.ZodType>;

export interface CallPlan {
  operation: ServiceOperationName;
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  response: z.ZodType;
}

type QueryInput = Record<string, unknown>;

/**
 * Wire form of typed query values: the parameters the schema names, each through the table's encoder
 * if it has one, numbers as decimal text; anything else left for the schema to refuse.
 */
function wireQuery(params: object, schema: z.ZodType, encode: ServiceOperation['encode'] = {}): QueryInput {
  const wire: QueryInput = {};
  const source = params as Record<string, unknown>;
  for (const name of Object.keys((schema as unknown as z.ZodObject).shape)) {
    const value = source[name];
    if (value === undefined) continue;
    const converted = (encode[name] as ((value: unknown) => unknown) | undefined)?.(value) ?? value;
    wire[name] = typeof converted === 'number' ? String(converted) : converted;
  }
  return wire;
}

function searchParamsOf(wire: QueryInput): URLSearchParams {
  const params = new URLSearchParams();
  // Validated by now: every value is a string.
  for (const [name, value] of Object.entries(wire)) params.set(name, String(value));
  return params;
}

/** Validates a request part; a failure refuses the call before anything is sent. */
export function checkPart<S extends z.ZodType>(operation: ServiceOperationName, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = invalidRequestDetails(parsed.error);
  throw new ServiceCallError({
    operation,
    platError: toPlatError('invalid_payload', { message: details.message }),
    attempts: 0,
    idempotencyKey: null,
    issues: details.issues,
  });
}

/** The request a call sends, its parts checked; throws ServiceCallError (invalid_payload) naming a bad one. */
export function planCall(operation: ServiceOperationName, request: { path?: Record<string, string>; query?: object; body?: unknown }): CallPlan {
  const entry: ServiceOperation = serviceOperations[operation];
  const { schemas } = entry;
  const plan: CallPlan = { operation, path: entry.path, response: schemas.response };
  if (schemas.path) {
    const params = request.path ?? {};
    checkPart(operation, schemas.path, params);
    plan.path = fillPath(entry.path, params);
  }
  if (schemas.query) {
    const wire = wireQuery(request.query ?? {}, schemas.query, entry.encode);
    checkPart(operation, schemas.query, wire);
    plan.query = searchParamsOf(wire);
  }
  if (schemas.body) {
    const body = checkPart(operation, entry.sendBody ?? schemas.body, request.body);
    plan.body = body;
    const mode = (body as { mode?: string }).mode;
    if (entry.responseByMode && mode !== undefined && entry.responseByMode[mode]) plan.response = entry.responseByMode[mode];
  }
  return plan;
}
