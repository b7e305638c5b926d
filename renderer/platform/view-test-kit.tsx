// Test support (not part of the app): what the view tests share. Fake timers and a clean page around
// every test, the <dialog> methods happy-dom lacks, a settle step that runs the timers and lets React
// and the answers land, and a render inside a fresh query client, as the app mounts its views.
import type { ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createQueryClient } from '../app/App.tsx';

/**
 * Registers the file's hooks: fake timers and the dialog methods before each test; after it, the page
 * unmounted, real timers back, then `afterCleanup` (stores reset, flags cleared) on the unmounted page.
 */
export function setUpViewTests(options: { afterCleanup?: () => void } = {}): void {
  beforeEach(() => {
    vi.useFakeTimers();
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.removeAttribute('open');
    };
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    options.afterCleanup?.();
  });
}

/** The flags the print route sets on <html> for the printers, cleared between tests. */
export function clearPrintFlags(): void {
  for (const key of ['printReady', 'printFooter', 'printHeader', 'printError']) delete document.documentElement.dataset[key];
}

/** Runs the fake timers `ms` ahead inside act, so what they start (answers, renders) lands. */
export async function settle(ms = 0): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Renders `node` in a query client as the app's, then settles `steps` times 50 ms. */
export async function renderWithQueries(node: ReactNode, steps: number, client: QueryClient = createQueryClient()): Promise<ReturnType<typeof render>> {
  const view = render(<QueryClientProvider client={client}>{node}</QueryClientProvider>);
  for (let step = 0; step < steps; step++) await settle(50);
  return view;
}
