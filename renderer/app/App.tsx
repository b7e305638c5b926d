import { useEffect } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AppFrame } from './AppFrame.tsx';
import { PrintSession } from '../features/report/PrintSession.tsx';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Service calls can cost money: never refetch behind the user's back.
      queries: { refetchOnWindowFocus: false, refetchOnReconnect: false, retry: false, staleTime: Infinity },
      mutations: { retry: false },
    },
  });
}

/** The print route renders only the printable report (no app frame): what Plat's printers load. */
export type AppRoute = { kind: 'app' } | { kind: 'print-report'; assignmentId: string; dialog: boolean };

export function App({ queryClient, route = { kind: 'app' } }: { queryClient: QueryClient; route?: AppRoute }) {
  useEffect(() => {
    document.documentElement.dataset.ready = 'true';
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      {route.kind === 'print-report' ? <PrintSession first={route} queryClient={queryClient} /> : <AppFrame />}
    </QueryClientProvider>
  );
}
