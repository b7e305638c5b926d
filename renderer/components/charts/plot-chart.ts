// A ChartSpec (shared/charts/chart-spec.ts) drawn by Observable Plot as an SVG element: the same
// function draws the screen's chart and the printed one (vector SVG in the PDF). No React here.
import * as Plot from '@observablehq/plot';
import type { ChartAxis, ChartPoint, ChartSpec } from '../../../shared/charts/chart-spec.ts';
import { formatDollars } from '../../../shared/money.ts';
import { formatDollarsAndCents } from '../../../shared/format/dollars.ts';
import { formatCount } from '../../../shared/format/number.ts';
import type { ChartPalette } from './chart-palette.ts';

const xValue = (axis: ChartAxis, x: string | number): Date | number => (axis.type === 'time' && typeof x === 'string' ? new Date(`${x}T00:00:00Z`) : Number(x));

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function tickFormat(axis: ChartAxis): (value: unknown) => string {
  switch (axis.format) {
    case 'dollars':
      return (value) => formatDollars(Number(value));
    case 'dollarsPerSqft':
      return (value) => formatDollarsAndCents(Number(value));
    case 'sqft':
    case 'count':
      return (value) => formatCount(Number(value));
    case 'date':
      return (value) => (value instanceof Date ? `${MONTHS[value.getUTCMonth()]} ${value.getUTCFullYear()}` : String(value));
  }
}

export interface DrawOptions {
  width: number;
  height: number;
  palette: ChartPalette;
  /** Hover on screen (the pointer picks the nearest sale); none in print. */
  interactive: boolean;
}

export type DrawnChart = (SVGSVGElement | HTMLElement) & { value?: ChartPoint | null };

export function drawChart(spec: ChartSpec, options: DrawOptions): DrawnChart {
  const { palette } = options;
  const points = spec.points.map((point) => ({ ...point, px: xValue(spec.x, point.x) }));
  const marks: Plot.Markish[] = [Plot.gridY({ stroke: palette.grid, strokeOpacity: 1 })];
  if (spec.fit?.band) {
    marks.push(Plot.areaY(spec.fit.band, { x: (d: { x: string | number }) => xValue(spec.x, d.x), y1: 'low', y2: 'high', fill: palette.band, fillOpacity: 0.9 }));
  }
  if (spec.steps) {
    marks.push(Plot.line(spec.steps.points, { x: (d: { x: string | number }) => xValue(spec.x, d.x), y: 'y', stroke: palette.steps, strokeWidth: 1.5, strokeDasharray: '4 3', z: null }));
  }
  if (spec.fit) marks.push(Plot.line(spec.fit.line, { x: (d: { x: string | number }) => xValue(spec.x, d.x), y: 'y', stroke: palette.fit, strokeWidth: 2 }));
  for (const rule of spec.rules) {
    marks.push(rule.axis === 'y' ? Plot.ruleY([rule.value], { stroke: palette.highlight, strokeDasharray: '2 2' }) : Plot.ruleX([rule.value], { stroke: palette.highlight, strokeDasharray: '2 2' }));
  }
  marks.push(
    Plot.dot(points, {
      x: 'px',
      y: 'y',
      r: (d: ChartPoint) => (d.highlight ? 4.5 : 3),
      fill: (d: ChartPoint) => (d.highlight ? palette.highlight : palette.point),
      fillOpacity: 0.75,
      stroke: palette.background,
      strokeWidth: 0.5,
    }),
  );
  if (options.interactive) marks.push(Plot.dot(points, Plot.pointer({ x: 'px', y: 'y', r: 7, fill: 'none', stroke: palette.focus, strokeWidth: 2 })));
  marks.push(Plot.frame({ stroke: palette.grid }));
  return Plot.plot({
    width: options.width,
    height: options.height,
    marginLeft: 72,
    marginBottom: 36,
    style: { background: 'transparent', color: palette.text, fontFamily: palette.fontFamily, fontSize: '11px' },
    ariaLabel: spec.title,
    ariaDescription: spec.altText,
    x: { type: spec.x.type === 'time' ? 'utc' : spec.x.type, label: spec.x.label, tickFormat: tickFormat(spec.x), ticks: 6 },
    // A count axis (comp numbers) ticks at its whole values only.
    y: { type: spec.y.type, label: spec.y.label, tickFormat: tickFormat(spec.y), ticks: spec.y.format === 'count' ? [...new Set(spec.points.map((point) => point.y))] : 5, grid: false },
    marks,
  }) as DrawnChart;
}
