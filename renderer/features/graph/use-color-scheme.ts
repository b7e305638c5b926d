// The app's theme follows the system's light or dark scheme (renderer/design/tokens.css); the graph,
// drawn on a canvas, is told the same scheme and follows it when it changes.
import { useSyncExternalStore } from 'react';
import type { GraphTheme } from '../../components/graph/graph-types.ts';

const QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

const current = (): GraphTheme => (typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches ? 'dark' : 'light');

export function useColorScheme(): GraphTheme {
  return useSyncExternalStore(subscribe, current, () => 'light');
}
