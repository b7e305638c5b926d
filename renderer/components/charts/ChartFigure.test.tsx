import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ChartSpec } from '../../../shared/charts/chart-spec.ts';
import type { Citation } from '../../../shared/cited/value.ts';
import { ChartFigure } from './ChartFigure.tsx';
import { chartPalette } from './chart-palette.ts';

afterEach(cleanup);

const CITATION: Citation = {
  id: 'c1',
  publisher: 'DC Office of Tax and Revenue',
  dataset: 'Real Property Tax Database',
  asOf: '2017-02-05T00:00:00Z',
  sourceId: 'dc_otr_sale',
  recordRef: null,
  releaseId: 20170205,
  sha256: null,
  officialUrl: null,
  synthetic: false,
  note: null,
};

const SPEC: ChartSpec = {
  id: 'market-price-trend',
  title: 'Sale prices over the 12 months before 2017-01-01',
  subtitle: 'Points: sales.',
  x: { label: 'Sale date', type: 'time', format: 'date' },
  y: { label: 'Sale price', type: 'log', format: 'dollars' },
  points: [
    { id: 's1', x: '2016-03-01', y: 800_000, highlight: false, label: '1 A St NW', details: ['$800,000'], citationIds: ['c1'] },
    { id: 's2', x: '2016-09-01', y: 900_000, highlight: false, label: '2 B St NW', details: ['$900,000'], citationIds: ['c1'] },
  ],
  fit: {
    label: 'Fitted',
    line: [
      { x: '2016-01-01', y: 780_000 },
      { x: '2017-01-01', y: 920_000 },
    ],
    band: [
      { x: '2016-01-01', low: 700_000, high: 860_000 },
      { x: '2017-01-01', low: 850_000, high: 990_000 },
    ],
  },
  steps: null,
  rules: [],
  altText: 'Two sales rising.',
  table: { caption: 'The sales drawn', columns: ['Address', 'Sale price'], rows: [{ id: 's1', cells: ['1 A St NW', '$800,000'], citationIds: ['c1'] }] },
  note: null,
};

describe('ChartFigure', () => {
  it('draws the spec as an SVG named by its title and described by its alt text, with its table and cited rows', () => {
    render(<ChartFigure spec={SPEC} citations={new Map([['c1', { citation: CITATION, number: 3 }]])} scheme="dark" />);
    const figure = screen.getByTestId('chart-market-price-trend');
    const svg = figure.querySelector('svg')!;
    expect(svg.getAttribute('aria-label')).toBe(SPEC.title);
    expect(svg.getAttribute('aria-description')).toBe('Two sales rising.');
    // Plot's inline <style> is taken out: Plat's CSP (style-src 'self') would refuse it on every draw.
    expect(svg.querySelector('style')).toBeNull();
    // No shape carries a name without a role (axe: aria-prohibited-attr); the frame's <rect> did.
    expect(svg.querySelectorAll('rect[aria-label], path[aria-label], line[aria-label], circle[aria-label]')).toHaveLength(0);
    expect(svg.querySelectorAll('circle').length).toBeGreaterThanOrEqual(2);
    const table = within(figure).getByRole('table', { name: 'The sales drawn' });
    expect(within(table).getByRole('rowheader', { name: '1 A St NW' })).toBeTruthy();
    expect(within(table).getByRole('button', { name: /^3: source DC Office of Tax and Revenue/ })).toBeTruthy();
    expect(screen.getByTestId('chart-hover').textContent).toBe('Point at a sale to see it and its source.');
  });

  it('prints without the hover, the table open, sources as endnote numbers', () => {
    render(<ChartFigure spec={SPEC} citations={new Map([['c1', { citation: CITATION, number: 3 }]])} scheme="dark" print />);
    expect(screen.queryByTestId('chart-hover')).toBeNull();
    expect(screen.getByTestId('chart-market-price-trend').querySelector('details')!.open).toBe(true);
    expect(screen.getByRole('table', { name: 'The sales drawn' }).textContent).toContain('3');
  });

  it('paints with the design tokens of each theme', () => {
    expect(chartPalette('light').background).toBe('#ffffff');
    expect(chartPalette('dark').background).toBe('#17191d');
  });
});
