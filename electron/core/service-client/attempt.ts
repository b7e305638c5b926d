// One HTTP attempt of a call: the request with its headers, the answer's billing headers, the body
// checked against the operation's envelope, and a failure said in catalogue terms.
import type { z } from 'zod';
import { toPlatError, type PlatError } from '../../../shared/errors.ts';
import type { HttpTransport } from '../http-transport.ts';
import type { Scrubber } from '../secret-scrub.ts';
import { readServiceHeaders, RequestIdSchema, ServiceErrorBodySchema } from './headers.ts';
import { networkErrorCode, NEVER_SENT_CODES, parseRetryAfterMs } from './retry.ts';
import { cancelledError } from './call-error.ts';
import type { ServiceHttpInfo } from './types.ts';

export type AttemptResult =
  | { ok: true; envelope: unknown; http: ServiceHttpInfo }
  | {
      ok: false;
      error: PlatError;
      http?: ServiceHttpInfo;
      /** A server hint for when to retry. */
      retryAfterMs?: number;
      /** The request may have reached the service and been charged without the answer arriving. */
      answerLost: boolean;
      cancelled: boolean;
    };


/** How an attempt is sent: the client's transport, timeout and clock. */
export interface AttemptVia {
transport: HttpTransport;
timeoutMs: number;
now: () => number;
}

/** The key sent with an attempt, and the scrub of every answer (that key and the others in use). */
export interface AttemptKey {
  apiKey: string;
  scrubber: Scrubber;
}

/**
 * One HTTP attempt: sends the request with the key, reads the billing headers and the body, and
 * says what came back (a checked success envelope, or the failure and whether the answer was lost).
 * Everything the service said that Plat keeps (the body, every string in it, the charge header's
 * text) is scrubbed here, before it is read, so no part of Plat downstream can keep a key.
 */
export async function sendAttempt(
  via: AttemptVia,
  url: URL,
  method: 'GET' | 'POST',
  body: string | undefined,
  { apiKey, scrubber }: AttemptKey,
  idempotencyKey: string | null,
  responseSchema: z.ZodType,
  callerSignal: AbortSignal | undefined,
): Promise<AttemptResult> {
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' };
  if (idempotencyKey !== null) headers['Idempotency-Key'] = idempotencyKey;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  const timeout = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    timeout.abort();
  }, via.timeoutMs);
  const signal = callerSignal === undefined ? timeout.signal : AbortSignal.any([callerSignal, timeout.signal]);
  let http: ServiceHttpInfo | undefined;
  let retryAfterMs: number | undefined;
  let text: string;
  let status: number;
  try {
    // A redirect is not followed: it would carry the key somewhere the caller did not choose.
    const response = await via.transport(url, { method, headers, signal, redirect: 'manual', ...(body === undefined ? {} : { body }) });
    status = response.status;
    ({ http } = readServiceHeaders(status, response.headers));
    if (http.chargedHeader !== undefined) http = { ...http, chargedHeader: scrubber.text(http.chargedHeader) };
    retryAfterMs = parseRetryAfterMs(response.headers.get('Retry-After'), via.now());
    text = await response.text();
  } catch (error) {
    const cancelled = callerSignal?.aborted === true;
    let platError: PlatError;
    if (cancelled) platError = cancelledError();
    else if (timedOut) platError = toPlatError('timeout');
    else {
      const code = networkErrorCode(error);
      platError = toPlatError('network_error', code === undefined ? undefined : { message: `The service could not be reached (${code})` });
      if (code !== undefined && NEVER_SENT_CODES.has(code)) {
        return { ok: false, error: platError, ...(http === undefined ? {} : { http }), answerLost: false, cancelled };
      }
    }
    return { ok: false, error: platError, ...(http === undefined ? {} : { http }), answerLost: true, cancelled };
  } finally {
    clearTimeout(timer);
  }

  let parsed: unknown;
  let isJson = true;
  try {
    parsed = scrubber.jsonInPlace(JSON.parse(text) as unknown);
  } catch {
    isJson = false;
  }
  const requestId = isJson ? RequestIdSchema.safeParse(parsed) : undefined;
  if (requestId?.success) http = { ...http, requestId: requestId.data.request_id };

  if (status < 200 || status > 299) {
    // The status decides the catalogue code; the service's own message (scrubbed above) says what went wrong.
    const errorBody = isJson ? ServiceErrorBodySchema.safeParse(parsed) : undefined;
    const serviceError = errorBody?.success
      ? {
          ...(errorBody.data.error.code === undefined ? {} : { code: errorBody.data.error.code }),
          ...(errorBody.data.error.message === undefined ? {} : { message: errorBody.data.error.message }),
        }
      : undefined;
    const hintSeconds = errorBody?.success ? errorBody.data.error.retry_after_seconds : undefined;
    const hint = retryAfterMs ?? (typeof hintSeconds === 'number' && hintSeconds > 0 ? hintSeconds * 1000 : undefined);
    return {
      ok: false,
      error: toPlatError(status, serviceError),
      http,
      ...(hint === undefined ? {} : { retryAfterMs: hint }),
      answerLost: false,
      cancelled: false,
    };
  }

  // The service answered 2xx (and may have charged) but Plat cannot use the answer: say what is wrong
  // with it in words (a malformed_response the gateway books as a charged answer it could not read).
  const malformed = (what: string): AttemptResult => ({
    ok: false,
    error: toPlatError('malformed_response', { message: `The service's answer could not be read: ${what}` }),
    http,
    answerLost: false,
    cancelled: false,
  });
  if (!isJson) return malformed('it is not JSON');
  const envelope = responseSchema.safeParse(parsed);
  if (!envelope.success) return malformed(scrubber.text(firstIssue(envelope.error)));
  const value = envelope.data as { status: string; request_id: string; contract_version: string };
  // A 2xx must carry a success envelope; and v4 echoes the key, so another request's answer shows.
  if (value.status === 'error') return malformed('it is an error envelope on a success status');
  if (value.contract_version === 'svc-v4' && idempotencyKey !== null && value.request_id !== idempotencyKey) {
    return malformed('its request_id is not this request\'s Idempotency-Key (another request\'s answer)');
  }
  return { ok: true, envelope: envelope.data, http };
}

/** The first thing wrong with an answer, as `data.items[0].entity_id: expected string` (bounded: it is shown). */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not match the contract';
  const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '');
  const text = `${path === '' ? 'the answer' : path}: ${issue.message}`;
  return text.length <= 200 ? text : `${text.slice(0, 199)}…`;
}
