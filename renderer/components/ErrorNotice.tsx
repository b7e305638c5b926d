// Every failure, in words a person understands, with what to do next (the shared error catalogue).
// When the fix lives in Settings (the API key, a cap) the notice offers to go there.
import type { PlatError } from '../../shared/errors.ts';
import { PlatCallError } from '../platform/plat.ts';
import { useUiStore } from '../app/ui-store.ts';
import { presentError } from './error-presentation.ts';
import './error-notice.css';

export function platErrorOf(error: unknown): PlatError {
  if (error instanceof PlatCallError) return error.error;
  return { code: 'internal', message: error instanceof Error ? error.message : String(error), retryable: false };
}

export interface ErrorNoticeProps {
  error: unknown;
  /** Offered as "Try again" when the failure is retryable. */
  onRetry?: () => void;
  /** A smaller notice for inline use (inside a form, beside a button). */
  compact?: boolean;
}

export function ErrorNotice({ error, onRetry, compact }: ErrorNoticeProps) {
  const presented = presentError(platErrorOf(error));
  const activeView = useUiStore((state) => state.activeView);
  const openSettings = useUiStore((state) => state.openSettings);
  const offerSettings = presented.fixIn === 'settings' && activeView !== 'settings';
  const offerRetry = presented.retryable && onRetry !== undefined;
  return (
    <div
      className={`notice notice--error error-notice${compact ? ' error-notice--compact' : ''}`}
      role="alert"
      data-error-code={presented.code}
    >
      <p className="error-notice__title">
        <span className="error-notice__icon" aria-hidden="true">
          !
        </span>
        <strong>{presented.title}</strong>
      </p>
      <p className="error-notice__detail">{presented.detail}</p>
      {presented.nextStep && (
        <p className="error-notice__next">
          <span className="error-notice__label">Next step:</span> {presented.nextStep}
        </p>
      )}
      {(offerRetry || offerSettings) && (
        <p className="error-notice__actions">
          {offerRetry && (
            <button type="button" className="button button--small" onClick={onRetry}>
              Try again
            </button>
          )}
          {offerSettings && (
            <button
              type="button"
              className="button button--small"
              onClick={() => openSettings(presented.code === 'budget_exceeded' ? 'settings-budgets' : 'settings-api-key')}
            >
              {presented.code === 'budget_exceeded' ? 'Raise the cap in Settings' : 'Open Settings'}
            </button>
          )}
        </p>
      )}
    </div>
  );
}
