// The print route (`/?route=print-report&assignment=<id>`): the page Plat's printers load, the report
// alone. The app reads its address at start, here, apart from the report's code (loaded only on it).
// The page is kept warm between exports: the printer asks the page already showing one
// report to show the next one through this function on `window`, rather than loading the app again
// (a fresh page costs its JavaScript, the map's library and worker, and the basemap's tiles each time).
// The page resets its readiness marks before it returns, so the printer never reads the last report's.

export const PRINT_NEXT_FUNCTION = 'platPrintNext';

/** What the print route puts on `window`: show this assignment's report next; true once the marks are reset. */
export type PrintNext = (assignmentId: string) => boolean;

/** The marks the print route sets on <html> for the printer (readiness, error, running header and footer). */
export const PRINT_MARKS = ['printReady', 'printError', 'printHeader', 'printFooter'] as const;

export const PRINT_ROUTE = 'print-report';

/**
 * The print route's address for an assignment, relative to the page's origin: what every printer
 * loads (the browser host adds #token=<launch token>). `dialog`: the browser's own print dialog opens
 * once the report is ready (the fallback when no printer is found).
 */
export function printRoutePath(assignmentId: string, dialog = false): string {
  return `/?route=${PRINT_ROUTE}&assignment=${encodeURIComponent(assignmentId)}${dialog ? '&dialog=1' : ''}`;
}

/** The print route's parameters, or null when the page is the app. `dialog`: open the browser's own print dialog once ready. */
export function readPrintRoute(search: string): { assignmentId: string; dialog: boolean } | null {
  const params = new URLSearchParams(search);
  if (params.get('route') !== PRINT_ROUTE) return null;
  const assignmentId = params.get('assignment') ?? '';
  return { assignmentId, dialog: params.get('dialog') === '1' };
}
