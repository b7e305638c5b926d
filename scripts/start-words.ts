// What `npm start` says when it does not open Electron: one line whatever the cause, as the README
// promises. A fetch attempt writes its notice first and finishes the same line with how it ended.

export const FETCH_NOTICE = 'Electron’s binary is not installed; fetching it (up to 30 s)… ';

const INSTEAD = 'so Plat starts in the browser host instead.';

/** Finishes FETCH_NOTICE's line: `failure` is why the fetch failed (null: it fetched the binary). */
export function fetchEnding(failure: string | null, canOpenWindow: boolean): string {
  if (failure !== null) return `failed (${failure}), ${INSTEAD}`;
  return canOpenWindow ? 'fetched.' : `fetched, but there is no display to open a window on, ${INSTEAD}`;
}

/** The line when no fetch was tried: the browser host was asked for, or there is no display. */
export function fallbackLine(cause: 'asked' | 'no-display'): string {
  return cause === 'asked' ? 'Starting the browser host (asked for with --browser).' : `Electron cannot open a window: there is no display, ${INSTEAD}`;
}
