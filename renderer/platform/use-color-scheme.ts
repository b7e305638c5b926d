// The app's theme follows the system's light or dark scheme (renderer/design/tokens.css); what is
// drawn on a canvas (the map, the graph) is told the same scheme and follows it when it changes.
import { useSyncExternalStore } from 'react';
/** What a drawing (map, graph) is drawn in. */
export type ColorScheme = 'light' | 'dark';

const QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

const current = (): ColorScheme => (typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches ? 'dark' : 'light');

export function useColorScheme(): ColorScheme {
  return useSyncExternalStore(subscribe, current, () => 'light');
}
