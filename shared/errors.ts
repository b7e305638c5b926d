// The error catalogue: every way a call can fail, as a stable code with a message a person
// understands and what to do next. Only a PlatError ({code, message, retryable}) crosses a process
// boundary; screens look the code up here for the rest (title, next step).
import { z } from 'zod';

/** What a failure looks like wherever it crosses a boundary (IPC, browser host, HTTP). */
export const PlatErrorSchema = z.object({
  code: z.string().min(1),
  message: z.string(),
  retryable: z.boolean(),
  /**
   * What the service charged for the failed call, as the ledger booked it from its charge header;
   * absent when no answer came (or nothing was sent), so no sentence about its cost is made up.
   */
  chargedMicroUsd: z.number().int().nonnegative().optional(),
});
export type PlatError = z.infer<typeof PlatErrorSchema>;

export interface ErrorCatalogueEntry {
  /** Stable machine-readable code; never reworded once shipped. */
  code: string;
  /** The HTTP status the service answers with for this failure; absent for failures with no response. */
  httpStatus?: number;
  /** Short label for a heading or a status chip. */
  title: string;
  /** What happened, in words a person understands. */
  summary: string;
  /** What the person can do about it. */
  nextStep: string;
  /** summary and next step in one sentence, the default message of a PlatError. */
  message: string;
  /** Whether trying the same call again may succeed. */
  retryable: boolean;
}

function entry(
  code: string,
  httpStatus: number | undefined,
  title: string,
  summary: string,
  nextStep: string,
  retryable: boolean,
): ErrorCatalogueEntry {
  const base = { code, title, summary, nextStep, message: `${summary} — ${nextStep}`, retryable };
  return httpStatus === undefined ? base : { ...base, httpStatus };
}

export const errorCatalogue = {
  // Failures the service reports with an HTTP status (spec, "Errors"). None of them is charged.
  invalid_request: entry('invalid_request', 400, 'Invalid request', 'The request was not valid', 'correct the highlighted value and try again', false),
  unauthorized: entry('unauthorized', 401, 'API key rejected', 'API key missing or revoked', 'update it in Settings', false),
  payment_required: entry('payment_required', 402, 'Out of credit', 'Your account is out of credit and has no payment method', 'add credit in the developer portal, then try again', false),
  account_suspended: entry('account_suspended', 403, 'Account suspended', 'The service account is suspended', 'contact the service provider to restore it', false),
  not_found: entry('not_found', 404, 'Not found', 'Nothing matched this request', 'check the identifier or widen the search', false),
  idempotency_conflict: entry('idempotency_conflict', 409, 'Request conflict', 'This action was already sent with different details', 'start the action again so it gets a new request key', false),
  response_too_large: entry('response_too_large', 422, 'Too many results', 'The answer would be too large to send', 'narrow the request (fewer fields, a smaller area or a smaller page)', false),
  rate_limited: entry('rate_limited', 429, 'Too many requests', 'The service rate limit was reached', 'wait a minute and try again', true),
  service_unavailable: entry('service_unavailable', 503, 'Service unavailable', 'The service timed out or is temporarily unavailable', 'try again in a moment', true),
  // Failures with no usable service answer.
  network_error: entry('network_error', undefined, 'Network problem', 'The service could not be reached', 'check the connection and try again', true),
  malformed_response: entry('malformed_response', undefined, 'Unexpected answer', 'The service answered in a form Plat does not understand', 'try again later; if it persists, report it', false),
  timeout: entry('timeout', undefined, 'Timed out', 'The service took too long to answer', 'try again; any charge for a lost answer is reconciled automatically', true),
  // Plat-side failures raised before or around a call.
  budget_exceeded: entry('budget_exceeded', undefined, 'Budget reached', 'This call would go over a spending cap', 'raise the cap or narrow the request', false),
  confirmation_required: entry('confirmation_required', undefined, 'Confirmation needed', 'This call costs money and was not confirmed', 'review the price and confirm to continue', false),
  invalid_payload: entry('invalid_payload', undefined, 'Invalid request', 'Plat refused a request with invalid values', 'correct the values and try again', false),
  forbidden_sender: entry('forbidden_sender', undefined, 'Request refused', 'The request did not come from the Plat window', 'use Plat from its own window', false),
  key_not_configured: entry('key_not_configured', undefined, 'No API key', 'No API key is set up', 'add one in Settings', false),
  internal: entry('internal', undefined, 'Something went wrong', 'Plat hit an unexpected problem', 'try again; if it persists, report it', false),
  // A call the service charged for but whose answer never arrived. Trying again sends the same
  // Idempotency-Key, so the service replays the answer free; the charge is already booked on the call.
  charged_answer_lost: entry('charged_answer_lost', undefined, 'Charged, answer not received', 'The service charged for this call, but its answer did not arrive', 'try again: the same request is replayed free', true),
  // A call the service answered with a success status and charged for, whose answer Plat could not
  // read (off the contract). Never a success; trying again sends the same Idempotency-Key, so the
  // service replays its stored answer free.
  charged_answer_unreadable: entry('charged_answer_unreadable', undefined, 'Charged, answer unreadable', 'The service charged for this call, but its answer could not be read', 'try again: the same request is replayed free', true),
  // Plat's data folder refused a write (no space left). A charge already made is kept in memory and
  // written as soon as space allows (at the latest on the next start).
  disk_full: entry('disk_full', undefined, 'Disk full', 'The disk holding Plat\'s data folder is full', 'free some space; charges already made are kept and will be saved', true),
  // The page that asked for the call has gone (closed or reloaded) before it ran.
  cancelled: entry('cancelled', undefined, 'Cancelled', 'The call was cancelled before it ran', 'nothing was sent or charged; ask again if you still need it', true),
  // PDF export needs a printer: Electron's own, or in the browser host a Chromium-family browser on the machine.
  printer_unavailable: entry('printer_unavailable', undefined, 'No PDF printer', 'Plat found no browser to print the PDF with', 'use Print on the Report view (your browser’s own print dialog can save a PDF), or set PLAT_CHROMIUM to a Chromium, Chrome or Edge executable', false),
} as const satisfies Record<string, ErrorCatalogueEntry>;

export type PlatErrorCode = keyof typeof errorCatalogue;
export const platErrorCodes = Object.keys(errorCatalogue) as PlatErrorCode[];

export function isPlatErrorCode(code: string): code is PlatErrorCode {
  return Object.hasOwn(errorCatalogue, code);
}

/** The catalogue entry for a code; an unknown code is treated as `internal`. */
export function errorFor(code: string): ErrorCatalogueEntry {
  return isPlatErrorCode(code) ? errorCatalogue[code] : errorCatalogue.internal;
}

const entryByStatus = new Map<number, ErrorCatalogueEntry>();
for (const catalogueEntry of Object.values(errorCatalogue) as ErrorCatalogueEntry[]) {
  if (catalogueEntry.httpStatus !== undefined) entryByStatus.set(catalogueEntry.httpStatus, catalogueEntry);
}

/** The service's own error object as far as Plat reads it (every generation has code and message). */
const ServiceErrorSchema = z.looseObject({ code: z.string().optional(), message: z.string().optional() });

/**
 * The catalogue entry for an HTTP failure. Statuses the spec does not list fall back by class:
 * other 4xx -> invalid_request, other 5xx -> service_unavailable (retryable: the spec tells callers
 * to retry 503 and gives no other 5xx meaning), anything else -> malformed_response.
 * `serviceError` refines only when the service's code is itself a catalogue code for the same status.
 */
export function errorForStatus(status: number, serviceError?: unknown): ErrorCatalogueEntry {
  const reported = ServiceErrorSchema.safeParse(serviceError);
  if (reported.success && reported.data.code !== undefined && isPlatErrorCode(reported.data.code)) {
    const named = errorCatalogue[reported.data.code] as ErrorCatalogueEntry;
    if (named.httpStatus === status) return named;
  }
  const exact = entryByStatus.get(status);
  if (exact) return exact;
  if (status >= 400 && status < 500) return errorCatalogue.invalid_request;
  if (status >= 500 && status < 600) return errorCatalogue.service_unavailable;
  return errorCatalogue.malformed_response;
}

// A service message is shown to the user, so keep it to a readable length.
const MAX_SERVICE_MESSAGE = 500;

/**
 * A PlatError for a failure: an HTTP status (with the service's error object when it sent one) or
 * a catalogue code. The code and retryable flag always come from the catalogue; the message is the
 * service's own when it gave one (it names the actual problem, e.g. the bad parameter), followed by
 * the catalogue's next step.
 */
export function toPlatError(failure: number | string, serviceError?: unknown): PlatError {
  const catalogueEntry = typeof failure === 'number' ? errorForStatus(failure, serviceError) : errorFor(failure);
  const reported = ServiceErrorSchema.safeParse(serviceError);
  const serviceMessage = reported.success ? reported.data.message?.trim() : undefined;
  const message = serviceMessage
    ? `${truncate(serviceMessage, MAX_SERVICE_MESSAGE)} — ${catalogueEntry.nextStep}`
    : catalogueEntry.message;
  return { code: catalogueEntry.code, message, retryable: catalogueEntry.retryable };
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
