// What a chart paints with, read from the design tokens (renderer/design/tokens.css) for the light or
// dark theme, so the charts never drift from the rest of the app. The printed report uses light.
import { designTokens, type DesignTokens } from '../graph/graph-style.ts';
import type { ColorScheme } from '../../platform/use-color-scheme.ts';

const paletteTokens = {
  background: '--color-bg',
  text: '--color-text',
  muted: '--color-text-muted',
  grid: '--color-border',
  point: '--color-text-muted',
  highlight: '--color-accent',
  fit: '--color-accent',
  band: '--color-bg-selected',
  steps: '--color-warning',
  focus: '--color-focus',
  fontFamily: '--font-ui',
} as const;

export type ChartPalette = Record<keyof typeof paletteTokens, string>;

export function chartPalette(scheme: ColorScheme, tokens: DesignTokens = designTokens): ChartPalette {
  const values = tokens[scheme];
  return Object.fromEntries(
    Object.entries(paletteTokens).map(([key, token]) => {
      const value = values[token];
      if (!value) throw new Error(`The design tokens (renderer/design/tokens.css) have no ${token} for the ${scheme} theme; the charts need it.`);
      return [key, value];
    }),
  ) as ChartPalette;
}
