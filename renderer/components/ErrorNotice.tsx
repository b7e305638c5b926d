// Every failure, in words a person understands, with what to do next (the shared error catalogue).
import { errorFor, type PlatError } from '../../shared/errors.ts';
import { PlatCallError } from '../platform/plat.ts';

export function platErrorOf(error: unknown): PlatError {
  if (error instanceof PlatCallError) return error.error;
  return { code: 'internal', message: error instanceof Error ? error.message : String(error), retryable: false };
}

export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const platError = platErrorOf(error);
  const entry = errorFor(platError.code);
  return (
    <div className="notice notice--error" role="alert" data-error-code={platError.code}>
      <strong>{entry.title}.</strong> {platError.message}
      {platError.retryable && onRetry && (
        <>
          {' '}
          <button type="button" className="button button--small" onClick={onRetry}>
            Try again
          </button>
        </>
      )}
    </div>
  );
}
