// A view whose code loads when it is shown: the quiet loading line until then, at once when its code
// was loaded ahead (no loading line at all), and a failed load said in words with a working retry.
// Real timers, and renders inside an awaited act: a view that suspends in a synchronous act stays
// suspended (React waits for an act it can await), and its retry runs on React's own scheduler.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { lazyView } from './lazy-view.tsx';
import { ViewLoadBoundary } from './ViewLoading.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const SpendScreen = ({ total }: { total: string }) => <p>Spent {total}</p>;

describe('a lazy view', () => {
  it('shows the loading line while its code loads, then the view', async () => {
    let deliver: (component: typeof SpendScreen) => void = () => undefined;
    const View = lazyView(() => new Promise<typeof SpendScreen>((resolve) => (deliver = resolve)));
    await act(async () => {
      render(
        <ViewLoadBoundary label="Spend" onRetry={() => undefined}>
          <View total="$3.10" />
        </ViewLoadBoundary>,
      );
    });
    expect(screen.getByRole('status').textContent).toBe('Opening Spend…');
    await act(async () => deliver(SpendScreen));
    expect((await screen.findByText('Spent $3.10')).tagName).toBe('P');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('renders at once, without the loading line, when its code was loaded ahead', async () => {
    const View = lazyView(() => Promise.resolve(SpendScreen));
    await View.preload();
    render(
      <ViewLoadBoundary label="Spend" onRetry={() => undefined}>
        <View total="$0.00" />
      </ViewLoadBoundary>,
    );
    expect(screen.getByText('Spent $0.00')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says so when its code does not load, and loads it again on Try again', async () => {
    // React reports the error it caught; the notice is what this test reads.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let attempts = 0;
    const View = lazyView(() => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('Failed to fetch dynamically imported module')) : Promise.resolve(SpendScreen);
    });
    await act(async () => {
      render(
        <ViewLoadBoundary label="Spend" onRetry={() => void View.preload()}>
          <View total="$1.00" />
        </ViewLoadBoundary>,
      );
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Spend could not be shown: Failed to fetch dynamically imported module');
    expect(attempts).toBe(1);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    });
    expect(await screen.findByText('Spent $1.00')).toBeTruthy();
    expect(attempts).toBe(2);
  });
});
