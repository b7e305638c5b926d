import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { errorFor, platErrorCodes, toPlatError } from '../../shared/errors.ts';
import { PlatCallError } from '../platform/plat.ts';
import { useUiStore } from '../app/ui-store.ts';
import { ErrorNotice } from './ErrorNotice.tsx';

afterEach(() => {
  cleanup();
  useUiStore.setState({ activeView: 'search', entityTrail: [] });
});

describe('ErrorNotice', () => {
  it('renders every code in the catalogue with its title and next step', () => {
    for (const code of platErrorCodes) {
      const entry = errorFor(code);
      const { unmount } = render(<ErrorNotice error={new PlatCallError(toPlatError(code))} />);
      const alert = screen.getByRole('alert');
      expect(alert.dataset.errorCode).toBe(code);
      expect(alert.textContent).toContain(entry.title);
      expect(alert.textContent?.toLowerCase()).toContain(entry.summary.toLowerCase());
      expect(alert.textContent).toContain('Next step:');
      expect(alert.textContent?.toLowerCase()).toContain(entry.nextStep.toLowerCase());
      unmount();
    }
  });

  it('offers Try again only for a retryable failure with a retry action', () => {
    const onRetry = vi.fn();
    const { rerender } = render(<ErrorNotice error={new PlatCallError(toPlatError('rate_limited'))} onRetry={onRetry} />);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    rerender(<ErrorNotice error={new PlatCallError(toPlatError('not_found'))} onRetry={onRetry} />);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('takes the person to Settings when the fix is there', () => {
    render(<ErrorNotice error={new PlatCallError(toPlatError('unauthorized'))} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open Settings' }));
    expect(useUiStore.getState().activeView).toBe('settings');
  });

  it('offers to raise the cap when a cap refused the call, opening Settings at the budgets', () => {
    render(<ErrorNotice error={new PlatCallError(toPlatError('budget_exceeded'))} />);
    fireEvent.click(screen.getByRole('button', { name: 'Raise the cap in Settings' }));
    expect(useUiStore.getState()).toMatchObject({ activeView: 'settings', settingsSection: 'settings-budgets' });
  });

  it('does not offer Settings while already in Settings', () => {
    useUiStore.setState({ activeView: 'settings' });
    render(<ErrorNotice error={new PlatCallError(toPlatError('key_not_configured'))} />);
    expect(screen.queryByRole('button', { name: 'Open Settings' })).toBeNull();
  });

  it('shows a thrown non-Plat error as an unexpected problem with its message', () => {
    render(<ErrorNotice error={new Error('boom')} />);
    const alert = screen.getByRole('alert');
    expect(alert.dataset.errorCode).toBe('internal');
    expect(alert.textContent).toContain('Boom.');
  });
});
