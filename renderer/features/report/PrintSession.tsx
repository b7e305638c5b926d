// The print route's session: one report after another in the same page. The printer shows the next
// assignment's report through `window.platPrintNext` (shared/print-route.ts) instead of loading the app
// again; every report is fetched afresh (the query cache is emptied), and the readiness marks are
// removed before the call returns, so the printer waits for the new report, never the last one's.
// The report's code (the document view, its charts' and pictures' loaders, its styles) is loaded here
// rather than with the app, whose first screen is usable sooner without it. Only PrintReport says the
// page is ready, so a printer never reads a page whose report's code has not come in.
import { useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { PRINT_MARKS, PRINT_NEXT_FUNCTION, type PrintNext } from '../../../shared/print-route.ts';
import { lazyView } from '../../components/lazy-view.tsx';
import { ViewLoadBoundary } from '../../components/ViewLoading.tsx';

const clearPrintMarks = () => {
  const root = document.documentElement;
  for (const mark of PRINT_MARKS) delete root.dataset[mark];
};

const PrintReport = lazyView(() =>
  import('./PrintReport.tsx').then(
    (module) => module.PrintReport,
    (error: unknown) => {
      // The printer waits for a mark: told now, it fails with the reason instead of timing out.
      const root = document.documentElement;
      root.dataset.printError = `The report's code did not load (${error instanceof Error ? error.message : String(error)}).`;
      root.dataset.printReady = 'error';
      throw error;
    },
  ),
);

/** Starts loading the report's code (the print route does at once, before anything renders); settles when it is in. */
export const preloadPrintReport = (): Promise<void> => PrintReport.preload();

interface Shown {
  assignmentId: string;
  /** Counts the reports shown, so the same assignment printed again mounts (and fetches) afresh. */
  sequence: number;
}

export function PrintSession({ first, queryClient }: { first: { assignmentId: string; dialog: boolean }; queryClient: QueryClient }) {
  const [shown, setShown] = useState<Shown>({ assignmentId: first.assignmentId, sequence: 0 });

  useEffect(() => {
    // The browser's own print dialog is one report for a person, not a printer's session.
    if (first.dialog) return;
    const next: PrintNext = (assignmentId) => {
      clearPrintMarks();
      queryClient.clear();
      setShown((current) => ({ assignmentId, sequence: current.sequence + 1 }));
      return true;
    };
    const target = window as unknown as Record<string, unknown>;
    target[PRINT_NEXT_FUNCTION] = next;
    return () => {
      if (target[PRINT_NEXT_FUNCTION] === next) delete target[PRINT_NEXT_FUNCTION];
    };
  }, [first.dialog, queryClient]);

  const retry = () => {
    clearPrintMarks();
    void PrintReport.preload();
  };
  return (
    <ViewLoadBoundary label="the report" onRetry={retry}>
      <PrintReport key={shown.sequence} assignmentId={shown.assignmentId} dialog={first.dialog} />
    </ViewLoadBoundary>
  );
}
