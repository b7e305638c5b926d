// The print route's session: one report after another in the same page. The printer shows the next
// assignment's report through `window.platPrintNext` (shared/print-route.ts) instead of loading the app
// again; every report is fetched afresh (the query cache is emptied), and the readiness marks are
// removed before the call returns, so the printer waits for the new report, never the last one's.
import { useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { PRINT_MARKS, PRINT_NEXT_FUNCTION, type PrintNext } from '../../../shared/print-route.ts';
import { PrintReport } from './PrintReport.tsx';

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
      const root = document.documentElement;
      for (const mark of PRINT_MARKS) delete root.dataset[mark];
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

  return <PrintReport key={shown.sequence} assignmentId={shown.assignmentId} dialog={first.dialog} />;
}
