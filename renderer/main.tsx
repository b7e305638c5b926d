import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './design/tokens.css';
import './design/base.css';
import { App, createQueryClient } from './app/App.tsx';
import { installPlat } from './platform/plat.ts';
import { readPrintRoute } from '../shared/print-route.ts';
import { prefetchSearchView } from './features/search/SearchView.tsx';
import { preloadPrintReport } from './features/report/PrintSession.tsx';

installPlat();
const printRoute = readPrintRoute(window.location.search);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
const queryClient = createQueryClient();
// What the first screen needs is asked for now, while React renders: the search form's answer from
// the host, or on the print route the report's code.
if (printRoute) void preloadPrintReport();
else prefetchSearchView(queryClient);
createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} route={printRoute ? { kind: 'print-report', ...printRoute } : { kind: 'app' }} />
  </StrictMode>,
);
