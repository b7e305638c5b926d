// Where a view stands while its code loads (lazy-view.tsx): nothing at first, so a quick
// load does not flash, then one quiet line in the view's place. The view's heading above it stays,
// and so does the focus. A load that fails (or a view that cannot render) says so in the view's place,
// with "Try again", instead of taking the whole window down.
import { Component, Suspense, type ReactNode } from 'react';
import { PlatCallError } from '../platform/plat.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import './view-loading.css';

export function ViewLoading({ label }: { label: string }) {
  return (
    <p className="muted view-loading" role="status">
      Opening {label}…
    </p>
  );
}

/** Shows `children` once their code is in, ViewLoading until then, and a failure as an error notice. */
export function ViewLoadBoundary({ label, onRetry, children }: { label: string; onRetry: () => void; children: ReactNode }) {
  return (
    <LoadFailure label={label} onRetry={onRetry}>
      <Suspense fallback={<ViewLoading label={label} />}>{children}</Suspense>
    </LoadFailure>
  );
}

class LoadFailure extends Component<{ label: string; onRetry: () => void; children: ReactNode }, { failure: unknown }> {
  override state: { failure: unknown } = { failure: null };

  static getDerivedStateFromError(error: unknown): { failure: unknown } {
    return { failure: error };
  }

  override render() {
    if (this.state.failure === null) return this.props.children;
    const reason = this.state.failure instanceof Error ? this.state.failure.message : String(this.state.failure);
    const failure = new PlatCallError({ code: 'internal', message: `${this.props.label} could not be shown: ${reason}`, retryable: true });
    const retry = () => {
      this.props.onRetry();
      this.setState({ failure: null });
    };
    return <ErrorNotice error={failure} onRetry={retry} />;
  }
}
