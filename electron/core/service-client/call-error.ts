// How a call fails: the catalogue error, with what the ledger and the UI need to know about it.
import { toPlatError, type PlatError, type PlatErrorCode } from '../../../shared/errors.ts';
import type { RequestIssue, ServiceOperationName } from '../../../shared/service/index.ts';
import type { ServiceHttpInfo } from './types.ts';

/** A failed call: the catalogue error plus what the caller needs for the ledger and the UI. */
export class ServiceCallError extends Error {
  readonly operation: ServiceOperationName;
  readonly platError: PlatError;
  /** HTTP status of the last attempt's answer; absent when that attempt got none. */
  readonly httpStatus?: number;
  /** HTTP attempts made (0 when refused before sending). */
  readonly attempts: number;
  readonly idempotencyKey: string | null;
  /** Billing headers of the last attempt's answer, when it got one. */
  readonly http?: ServiceHttpInfo;
  /**
   * The last attempt was sent and no answer came back (network failure, timeout, cancellation): the
   * service may have done and charged it. Reconcile by balance, or repeat with the same key to get a
   * free replay.
   */
  readonly outcomeUnknown: boolean;
  /**
   * Some attempt of this call (not necessarily the last) was sent and its answer lost: the service
   * may have done and charged the call, although the last attempt failed plainly (e.g. a 503 after a
   * lost answer). Never report such a call as a plain failure: keep it a candidate for the charge the
   * next balance shows, and repeat it with the same key (a free replay). Implied by outcomeUnknown.
   */
  readonly mayHaveCharged: boolean;
  /** For invalid_payload: the parameters at fault. */
  readonly issues?: RequestIssue[];
  /** The caller's signal aborted the call; the request may still have reached the service. */
  readonly cancelled: boolean;

  constructor(init: {
    operation: ServiceOperationName;
    platError: PlatError;
    attempts: number;
    idempotencyKey: string | null;
    http?: ServiceHttpInfo | undefined;
    issues?: RequestIssue[] | undefined;
    outcomeUnknown?: boolean;
    mayHaveCharged?: boolean;
    cancelled?: boolean;
  }) {
    super(init.platError.message);
    this.name = 'ServiceCallError';
    this.operation = init.operation;
    this.platError = init.platError;
    this.attempts = init.attempts;
    this.idempotencyKey = init.idempotencyKey;
    this.cancelled = init.cancelled ?? false;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.mayHaveCharged = this.outcomeUnknown || (init.mayHaveCharged ?? false);
    if (init.http !== undefined) {
      this.http = init.http;
      this.httpStatus = init.http.status;
    }
    if (init.issues !== undefined) this.issues = init.issues;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      platError: this.platError,
      httpStatus: this.httpStatus,
      attempts: this.attempts,
      idempotencyKey: this.idempotencyKey,
      http: this.http,
      issues: this.issues,
      outcomeUnknown: this.outcomeUnknown,
      mayHaveCharged: this.mayHaveCharged,
      cancelled: this.cancelled,
    };
  }
}

export function cancelledError(): PlatError {
  // The catalogue has no "cancelled" code: the caller asked for it and checks `cancelled` on the error.
  return toPlatError('network_error', { message: 'The call was cancelled before its answer arrived' });
}

/** Catalogue codes a call can fail with, for callers that switch on them. */
export type ServiceCallErrorCode = Extract<
  PlatErrorCode,
  | 'invalid_payload'
  | 'invalid_request'
  | 'unauthorized'
  | 'payment_required'
  | 'account_suspended'
  | 'not_found'
  | 'idempotency_conflict'
  | 'response_too_large'
  | 'rate_limited'
  | 'service_unavailable'
  | 'network_error'
  | 'timeout'
  | 'malformed_response'
  | 'key_not_configured'
  | 'internal'
>;
