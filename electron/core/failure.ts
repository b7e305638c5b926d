// A failure the core raises on purpose, carrying a catalogue code; anything else that escapes a
// handler is an internal error, reported without its stack or details.
import { errorFor, toPlatError, type PlatError, type PlatErrorCode } from '../../shared/errors.ts';

export class PlatFailure extends Error {
  readonly platError: PlatError;
  constructor(code: PlatErrorCode, message?: string) {
    const entry = errorFor(code);
    super(message ?? entry.message);
    this.name = 'PlatFailure';
    this.platError = { code: entry.code, message: message ? `${message} — ${entry.nextStep}` : entry.message, retryable: entry.retryable };
  }
  static from(error: PlatError): PlatFailure {
    const failure = new PlatFailure('internal');
    Object.assign(failure, { platError: error, message: error.message });
    return failure;
  }
}

/** What crosses the IPC boundary for any thrown value: only {code, message, retryable}. */
export function toIpcError(error: unknown): PlatError {
  if (error instanceof PlatFailure) return error.platError;
  return toPlatError('internal');
}
