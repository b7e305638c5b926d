import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './design/tokens.css';
import './design/base.css';
import { App, createQueryClient } from './app/App.tsx';
import { installPlat } from './platform/plat.ts';
import { readPrintRoute } from '../shared/print-route.ts';
import { preloadPrintReport } from './features/report/PrintSession.tsx';

installPlat();
const printRoute = readPrintRoute(window.location.search);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
// On the print route the report's code is asked for now, while React renders.
if (printRoute) void preloadPrintReport();
createRoot(root).render(
  <StrictMode>
    <App queryClient={createQueryClient()} route={printRoute ? { kind: 'print-report', ...printRoute } : { kind: 'app' }} />
  </StrictMode>,
);
