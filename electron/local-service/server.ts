// The local Property Records Service over HTTP: routing, envelopes, auth, billing, idempotent
// replays, rate limits and injected faults around the operations (see ./operation.ts).
//
// Ordering matters and is the same for every call:
//   route (404/405) -> read body -> auth (401/403) -> rate limit (429) -> Idempotency-Key check (400)
//   -> fault roll (503) -> body JSON (400) -> replay or conflict (409) -> credit check (402)
//   -> operation -> size check (422) -> charge + store replay (402 if it cannot be paid) -> answer or drop.
// Everything after the body has been read runs synchronously, so no other request can slip in
// between the replay lookup and the charge that stores the replay.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import type { LocalOperation, OperationResult } from './operation.ts';
import type { SampleStore } from './sample-store.ts';
import { errorEnvelope, generationOfPath, internalError, serviceErrorFrom, successEnvelope } from './envelopes.ts';
import type { ServiceError } from './envelopes.ts';
import { ServiceState } from './service-state.ts';
import { jsonDataProblem, MAX_JSON_DEPTH } from '../../shared/json-data.ts';
import type { DemoKeys } from './service-state.ts';
import { claimedCharge, contractBreakingBody, echoAuthorization, EveryNth, ON_FAILURE_CLAIMED_MICRO_USD } from './misreport.ts';
import type { ChargeHeaderMode } from './misreport.ts';
import { useCursorSecret } from './operations/cursor-seal.ts';

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 120;
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 256;
/**
 * Deepest nesting of arrays and objects a body may have. The deepest request any operation takes is
 * four levels (a resolution item's identifiers); the bound keeps everything that walks a body
 * recursively (the idempotency fingerprint, validation) within the stack, whatever is sent. Plat's
 * core refuses deeper payloads at its own door with the same bound.
 */
export const MAX_REQUEST_BODY_DEPTH = MAX_JSON_DEPTH;
const RATE_WINDOW_MS = 60_000;

export interface LocalServiceOptions {
  /** The operations to serve (the registry in ./operations/index.ts in the app). */
  operations: readonly LocalOperation[];
  /** The sample data the operations answer from; required when there is at least one operation. */
  store?: SampleStore;
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** State database (accounts, keys, charges, replays). Default ':memory:'. */
  dbPath?: string;
  rateLimitPerMinute?: number;
  /** Share of authenticated calls that fail (0..1): half with 503 before any work, half dropped after charging. */
  faultRate?: number;
  /** Responses whose serialized body exceeds this answer 422 `response_too_large`. */
  maxResponseBytes?: number;
  clock?: () => Date;
  /** Uniform in [0, 1); pass `seededRandom(n)` for reproducible faults. */
  random?: () => number;
  /** One entry per request, for logs. Carries no headers, no key and no query string. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Exceptions that became 500 `internal_error`, so they can be logged without reaching the caller. */
  onInternalError?: (error: unknown, where: { method: string; path: string }) => void;
  /** Money tests only: what the charge header claims (./misreport.ts). Default 'honest'. */
  chargeHeader?: ChargeHeaderMode;
  /** Money tests only: every Nth charged call answers a body that breaks the contract; its replay is correct. */
  invalidBodyEvery?: number;
  /** Secrets tests only: every answer quotes the request's Authorization header (./misreport.ts). */
  echoAuthorization?: boolean;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** HTTP status sent, or 'dropped' when a fault closed the connection without an answer. */
  status: number | 'dropped';
  ms: number;
  chargedMicroUsd: number;
}

export interface LocalService {
  url: string;
  keys: DemoKeys;
  server: Server;
  /** The state database, for tests and tools that need to inspect balances, charges and top-ups. */
  state: ServiceState;
  close(): Promise<void>;
}

/** A small deterministic PRNG (mulberry32) for reproducible fault runs. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// Routing

interface Route {
  operation: LocalOperation;
  pattern: RegExp;
  paramNames: string[];
  literalSegments: number;
}

type RouteMatch =
  | { kind: 'found'; operation: LocalOperation; params: Record<string, string> }
  | { kind: 'bad_param'; operation: LocalOperation; param: string }
  | { kind: 'method_not_allowed'; operation: LocalOperation; allowed: string[] }
  | { kind: 'not_found' };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileRoute(operation: LocalOperation): Route {
  if (!operation.path.startsWith('/')) throw new Error(`operation ${operation.name}: path must start with '/'`);
  const segments = operation.path.split('/');
  const paramNames: string[] = [];
  const parts = segments.map((segment) => {
    if (segment.startsWith(':')) {
      paramNames.push(segment.slice(1));
      return '([^/]+)';
    }
    return escapeRegExp(segment);
  });
  return {
    operation,
    pattern: new RegExp(`^${parts.join('/')}$`),
    paramNames,
    literalSegments: segments.length - paramNames.length,
  };
}

function buildRouter(operations: readonly LocalOperation[]): (method: string, pathname: string) => RouteMatch {
  const seen = new Set<string>();
  for (const operation of operations) {
    const id = `${operation.method} ${operation.path.replace(/:[^/]+/g, ':')}`;
    if (seen.has(id)) throw new Error(`two operations answer ${operation.method} ${operation.path}`);
    seen.add(id);
  }
  // Literal segments win over parameters, so /x/special beats /x/:id.
  const routes = operations.map(compileRoute).sort((a, b) => b.literalSegments - a.literalSegments);
  return (method, pathname) => {
    const pathMatches = routes
      .map((route) => ({ route, groups: route.pattern.exec(pathname) }))
      .filter((candidate): candidate is { route: Route; groups: RegExpExecArray } => candidate.groups !== null);
    const first = pathMatches[0];
    if (!first) return { kind: 'not_found' };
    const hit = pathMatches.find((candidate) => candidate.route.operation.method === method);
    if (!hit) {
      const allowed = [...new Set(pathMatches.map((candidate) => candidate.route.operation.method))];
      return { kind: 'method_not_allowed', operation: first.route.operation, allowed };
    }
    const params: Record<string, string> = {};
    for (const [index, name] of hit.route.paramNames.entries()) {
      const raw = hit.groups[index + 1] ?? '';
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        return { kind: 'bad_param', operation: hit.route.operation, param: name };
      }
    }
    return { kind: 'found', operation: hit.route.operation, params };
  };
}

// ---------------------------------------------------------------------------------------------
// Rate limit: fixed one-minute windows per key, on the service clock.

class FixedWindowRateLimiter {
  readonly #limit: number;
  readonly #windows = new Map<string, { windowStart: number; count: number }>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  hit(keyId: string, nowMs: number): { allowed: boolean; remaining: number; retryAfterSeconds: number } {
    const windowStart = Math.floor(nowMs / RATE_WINDOW_MS) * RATE_WINDOW_MS;
    let window = this.#windows.get(keyId);
    if (!window || window.windowStart !== windowStart) {
      window = { windowStart, count: 0 };
      this.#windows.set(keyId, window);
    }
    window.count += 1;
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + RATE_WINDOW_MS - nowMs) / 1000));
    return { allowed: window.count <= this.#limit, remaining: Math.max(0, this.#limit - window.count), retryAfterSeconds };
  }
}

// ---------------------------------------------------------------------------------------------
// Request fingerprint for idempotency: method + path + canonical query + canonical JSON body.

// The body as sent, before validation, so by JSON's own rules (a number too large for a double is
// Infinity and writes as null): shared/canonical-json.ts refuses such values, right for cache keys
// of validated requests, but here it would turn a bad body into a 500 instead of its 400. It
// recurses: parseJsonBody has already refused a body nested deeper than MAX_REQUEST_BODY_DEPTH.
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function canonicalQuery(query: URLSearchParams): string {
  const pairs = [...query.entries()].sort(([ka, va], [kb, vb]) =>
    ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0,
  );
  return new URLSearchParams(pairs).toString();
}

function requestFingerprint(method: string, pathname: string, query: URLSearchParams, body: unknown): string {
  const canonicalBody = body === undefined ? '' : canonicalJson(body);
  return createHash('sha256').update(`${method}\n${pathname}\n${canonicalQuery(query)}\n${canonicalBody}`).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Request body

type BodyRead = { kind: 'complete'; bytes: Buffer } | { kind: 'too_large' } | { kind: 'aborted' };

function readBody(req: IncomingMessage): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (read: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(read);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return; // past the limit: keep draining, keep nothing
      size += chunk.length;
      if (size > MAX_REQUEST_BODY_BYTES) {
        chunks.length = 0;
        settle({ kind: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle({ kind: 'complete', bytes: Buffer.concat(chunks) }));
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}

type ParsedBody = { ok: true; value: unknown } | { ok: false; error: ServiceError };

// The body must be JSON whatever Content-Type says: fetch labels a string body text/plain unless told
// otherwise, and refusing on the label alone would fail callers whose JSON is fine.
function parseJsonBody(read: BodyRead): ParsedBody {
  const invalid = (message: string, code = 'invalid_body'): ParsedBody => ({
    ok: false,
    error: { status: 400, code, message, retryable: false },
  });
  if (read.kind === 'too_large') return invalid(`The request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes.`, 'body_too_large');
  if (read.kind === 'aborted') return invalid('The request body was not received.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    return invalid('The request body is not valid UTF-8.');
  }
  if (text.trim() === '') return invalid('The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return invalid('The request body is not valid JSON.');
  }
  const problem = jsonDataProblem(value, MAX_REQUEST_BODY_DEPTH);
  if (problem !== null) return invalid(`The request body is not usable JSON data: ${problem} ($ is the body).`);
  return { ok: true, value };
}

// ---------------------------------------------------------------------------------------------
// The service

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
  chargedMicroUsd: number;
  /** A fault: close the connection without answering. */
  drop: boolean;
}

function parseBearer(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

function checkOption(name: string, value: number, valid: boolean): number {
  if (!valid) throw new RangeError(`createLocalService: invalid ${name}: ${value}`);
  return value;
}

export async function createLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const port = options.port ?? 0;
  checkOption('port', port, Number.isInteger(port) && port >= 0 && port <= 65535);
  const rateLimit = options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  checkOption('rateLimitPerMinute', rateLimit, Number.isSafeInteger(rateLimit) && rateLimit >= 1);
  const faultRate = options.faultRate ?? 0;
  checkOption('faultRate', faultRate, Number.isFinite(faultRate) && faultRate >= 0 && faultRate <= 1);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  checkOption('maxResponseBytes', maxResponseBytes, Number.isSafeInteger(maxResponseBytes) && maxResponseBytes >= 1);
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? Math.random;
  const store = options.store;
  if (store === undefined && options.operations.length > 0) {
    throw new Error('createLocalService: operations need a sample store (options.store)');
  }

  const chargeHeader = options.chargeHeader ?? 'honest';
  const breakEvery = options.invalidBodyEvery === undefined ? undefined : new EveryNth(options.invalidBodyEvery);
  const route = buildRouter(options.operations);
  const limiter = new FixedWindowRateLimiter(rateLimit);
  const state = new ServiceState(options.dbPath ?? ':memory:', clock);
  // A service with a state file (the app's) seals its cursors under the secret kept there, so they
  // outlive a restart; in-memory services (tests, several to a process) keep the process's own.
  if (options.dbPath !== undefined && options.dbPath !== ':memory:' && options.dbPath !== '') useCursorSecret(state.cursorSecret());

  function answer(method: string, pathname: string, query: URLSearchParams, headers: IncomingHttpHeaders, read: BodyRead): Reply {
    const now = clock();
    const servedAt = now.toISOString();
    const json = (status: number, payload: unknown, extra: Record<string, string> = {}): Reply => ({
      status,
      headers: extra,
      body: JSON.stringify(payload),
      chargedMicroUsd: 0,
      drop: false,
    });

    if (pathname === '/health') {
      return method === 'GET' ? json(200, { ok: true }) : json(405, { ok: false, error: 'method_not_allowed' }, { Allow: 'GET' });
    }

    let generation = generationOfPath(pathname);
    let operationName = 'unknown';
    let requestId = `req_${randomUUID()}`;
    let rateHeaders: Record<string, string> = {};
    // Filled once the key is known; read by `fail` for the `on-failure` balance header.
    const caller: { accountId?: string } = {};
    // `on-failure` misreport: a failed call claims a charge; the balance header (once the caller is known) stays true.
    const failureClaim = (): Record<string, string> =>
      chargeHeader !== 'on-failure'
        ? {}
        : {
            'X-Svc-Charged-Micro-USD': String(ON_FAILURE_CLAIMED_MICRO_USD),
            ...(caller.accountId === undefined ? {} : { 'X-Svc-Balance-Micro-USD': String(state.account(caller.accountId).balanceMicroUsd) }),
          };
    const fail = (error: ServiceError, extra: Record<string, string> = {}): Reply => {
      const retryHeaders: Record<string, string> = error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
      const envelope = errorEnvelope(generation, { requestId, operation: operationName, servedAt }, error);
      return json(error.status, envelope, { ...rateHeaders, ...retryHeaders, ...failureClaim(), ...extra });
    };

    const match = route(method, pathname);
    if (match.kind === 'not_found') {
      return fail({ status: 404, code: 'not_found', message: `No operation answers ${method} ${pathname}.`, retryable: false });
    }
    const operation = match.operation;
    generation = operation.generation;
    operationName = operation.envelopeOperation;
    if (match.kind === 'method_not_allowed') {
      return fail(
        { status: 405, code: 'method_not_allowed', message: `${pathname} answers ${match.allowed.join(', ')}, not ${method}.`, retryable: false },
        { Allow: match.allowed.join(', ') },
      );
    }
    if (match.kind === 'bad_param') {
      return fail({ status: 400, code: `invalid_${match.param}`, message: `${match.param}: malformed percent-encoding.`, retryable: false });
    }

    // Authentication. Missing, unknown and revoked keys look the same to the caller.
    const apiKey = parseBearer(headers.authorization);
    const auth = apiKey === undefined ? undefined : state.authenticate(apiKey);
    if (!auth || (!auth.ok && auth.reason !== 'account_suspended')) {
      return fail(
        { status: 401, code: 'unauthorized', message: 'Missing or revoked API key.', retryable: false },
        { 'WWW-Authenticate': 'Bearer' },
      );
    }
    if (!auth.ok) {
      return fail({ status: 403, code: 'account_suspended', message: 'The account is suspended.', retryable: false });
    }
    const { keyId, account } = auth;
    caller.accountId = account.id;

    // Every authenticated call counts, replays included: a replay still costs the service a request.
    const rate = limiter.hit(keyId, now.getTime());
    rateHeaders = { 'X-RateLimit-Remaining': String(rate.remaining) };
    if (!rate.allowed) {
      return fail({
        status: 429,
        code: 'rate_limited',
        message: `Rate limit of ${rateLimit} calls per minute reached.`,
        retryable: true,
        retryAfterSeconds: rate.retryAfterSeconds,
      });
    }

    let idempotencyKey: string | undefined;
    if (operation.idempotent) {
      const raw = headers['idempotency-key'];
      // Node folds a repeated header into one comma-joined string; an array is not expected but is folded the same way.
      const header = Array.isArray(raw) ? raw.join(', ') : raw;
      if (header !== undefined) {
        if (header.length < 1 || header.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
          return fail({
            status: 400,
            code: 'invalid_idempotency_key',
            message: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`,
            retryable: false,
          });
        }
        idempotencyKey = header;
        requestId = header;
      }
    }

    // Faults: one draw per call. The lower half of the faulty share answers 503 at once; the upper
    // half does everything, charges and stores, then loses the answer as a network would.
    const draw = faultRate > 0 ? random() : 1;
    if (draw < faultRate / 2) {
      return fail({ status: 503, code: 'service_unavailable', message: 'The service is temporarily unavailable; retry.', retryable: true, retryAfterSeconds: 1 });
    }
    const drop = draw < faultRate;
    const dropIfFaulty = (reply: Reply): Reply => (drop ? { ...reply, drop: true } : reply);

    let body: unknown = undefined;
    if (operation.method === 'POST') {
      const parsed = parseJsonBody(read);
      if (!parsed.ok) return dropIfFaulty(fail(parsed.error));
      body = parsed.value;
    }

    const fingerprint = idempotencyKey === undefined ? undefined : requestFingerprint(method, pathname, query, body);
    if (idempotencyKey !== undefined && fingerprint !== undefined) {
      const stored = state.findReplay(account.id, idempotencyKey);
      if (stored && stored.fingerprint !== fingerprint) {
        return dropIfFaulty(
          fail({ status: 409, code: 'idempotency_conflict', message: 'This Idempotency-Key was used for a different request.', retryable: false }),
        );
      }
      if (stored) {
        return dropIfFaulty({
          status: stored.status,
          headers: {
            ...rateHeaders,
            'X-Svc-Charged-Micro-USD': '0',
            'X-Svc-Balance-Micro-USD': String(state.account(account.id).balanceMicroUsd),
            'X-Svc-Replayed': 'true',
          },
          body: stored.body,
          chargedMicroUsd: 0,
          drop: false,
        });
      }
    }

    const paymentRequired: ServiceError = {
      status: 402,
      code: 'payment_required',
      message: 'Credit is used up and no payment method is on file.',
      retryable: false,
    };
    if (!account.hasPaymentMethod && account.balanceMicroUsd <= 0) return dropIfFaulty(fail(paymentRequired));

    let result: OperationResult;
    let envelopeText: string;
    try {
      if (store === undefined) throw new Error('no sample store');
      result = operation.handle({ params: match.params, query, body }, { store, now });
      if (!Number.isSafeInteger(result.charge) || result.charge < 0) {
        throw new Error(`operation ${operation.name} returned an invalid charge: ${String(result.charge)}`);
      }
      envelopeText = JSON.stringify(successEnvelope(generation, { requestId, operation: operationName, servedAt }, result));
    } catch (error) {
      const mapped = serviceErrorFrom(error);
      if (mapped.status === 500) options.onInternalError?.(error, { method, path: pathname });
      return dropIfFaulty(fail(mapped));
    }

    const size = Buffer.byteLength(envelopeText, 'utf8');
    if (size > maxResponseBytes) {
      return dropIfFaulty(
        fail({
          status: 422,
          code: 'response_too_large',
          message: `The response would be ${size} bytes, over the ${maxResponseBytes}-byte limit; narrow the request or page through it.`,
          retryable: false,
        }),
      );
    }

    const committed = state.commitSuccess({
      accountId: account.id,
      keyId,
      requestId,
      operation: operation.name,
      chargeMicroUsd: result.charge,
      now,
      ...(idempotencyKey !== undefined && fingerprint !== undefined
        ? { replay: { idempotencyKey, fingerprint, status: 200, body: envelopeText } }
        : {}),
    });
    if (!committed.ok) return dropIfFaulty(fail(paymentRequired));
    // The replay stored above is the correct answer; only this one is broken.
    const sent = result.charge > 0 && breakEvery?.hit() === true ? contractBreakingBody(envelopeText) : envelopeText;

    return dropIfFaulty({
      status: 200,
      headers: {
        ...rateHeaders,
        'X-Svc-Charged-Micro-USD': claimedCharge(chargeHeader, result.charge),
        'X-Svc-Balance-Micro-USD': String(committed.balanceAfterMicroUsd),
        'X-Svc-Replayed': 'false',
      },
      body: sent,
      chargedMicroUsd: result.charge,
      drop: false,
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    // Prefixing the origin keeps a target like `//host/x` a path instead of a host.
    const url = new URL(`http://127.0.0.1${target.startsWith('/') ? '' : '/'}${target}`);
    const read = await readBody(req);
    if (read.kind === 'aborted' && (req.destroyed || res.destroyed)) return;

    let reply: Reply;
    try {
      reply = answer(method, url.pathname, url.searchParams, req.headers, read);
    } catch (error) {
      options.onInternalError?.(error, { method, path: url.pathname });
      const envelope = errorEnvelope(
        generationOfPath(url.pathname),
        { requestId: `req_${randomUUID()}`, operation: 'unknown', servedAt: new Date().toISOString() },
        internalError(),
      );
      reply = { status: 500, headers: {}, body: JSON.stringify(envelope), chargedMicroUsd: 0, drop: false };
    }

    const authorization = req.headers.authorization;
    if (options.echoAuthorization === true && authorization !== undefined && url.pathname !== '/health') {
      reply = { ...reply, body: echoAuthorization(reply.body, authorization) };
    }
    if (reply.drop) {
      req.socket.destroy();
    } else {
      res.writeHead(reply.status, {
        ...reply.headers,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(reply.body, 'utf8')),
        'Cache-Control': 'no-store',
        ...(read.kind === 'too_large' ? { Connection: 'close' } : {}),
      });
      res.end(reply.body);
    }
    options.onRequest?.({
      method,
      path: url.pathname,
      status: reply.drop ? 'dropped' : reply.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      chargedMicroUsd: reply.chargedMicroUsd,
    });
  }

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    state.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${address.port}`,
    keys: state.demoKeys(),
    server,
    state,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => {
          state.close();
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
