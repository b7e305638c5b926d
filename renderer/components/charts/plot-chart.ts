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
  // A rule names itself at the frame's top (x) or right (y), written toward the middle so it is not cut at the edge.
  const spread = (values: number[]) => (values.length === 0 ? 0 : (Math.min(...values) + Math.max(...values)) / 2);
  const middleX = spread([...points.map((point) => Number(point.px)), ...spec.rules.filter((rule) => rule.axis === 'x').map((rule) => rule.value)]);
  for (const rule of spec.rules) {
    const line = { stroke: palette.highlight, strokeWidth: 1.5, strokeDasharray: '3 2' };
    if (rule.axis === 'y') {
      marks.push(Plot.ruleY([rule.value], line), Plot.text([rule], { y: 'value', text: 'label', frameAnchor: 'right', textAnchor: 'end', lineAnchor: 'bottom', dx: -4, dy: -3, fill: palette.text, stroke: palette.background, strokeWidth: 3, paintOrder: 'stroke' }));
    } else {
      const toLeft = rule.value > middleX;
      marks.push(Plot.ruleX([rule.value], line), Plot.text([rule], { x: 'value', text: 'label', frameAnchor: 'top', textAnchor: toLeft ? 'end' : 'start', lineAnchor: 'top', dx: toLeft ? -4 : 4, dy: 4, fill: palette.text, stroke: palette.background, strokeWidth: 3, paintOrder: 'stroke' }));
    }
  }
  // Two marks with fixed radii (a function `r` would go through Plot's sqrt scale and shrink both); the highlighted on top.
  marks.push(
    Plot.dot(
      points.filter((point) => !point.highlight),
      { x: 'px', y: 'y', r: 3, fill: palette.point, fillOpacity: 0.75, stroke: palette.background, strokeWidth: 0.5 },
    ),
    Plot.dot(
      points.filter((point) => point.highlight),
      { x: 'px', y: 'y', r: 5, fill: palette.highlight, fillOpacity: 0.9, stroke: palette.background, strokeWidth: 1 },
    ),
  );
  if (options.interactive) marks.push(Plot.dot(points, Plot.pointer({ x: 'px', y: 'y', r: 7, fill: 'none', stroke: palette.focus, strokeWidth: 2 })));
  marks.push(Plot.frame({ stroke: palette.grid }));
  const svg = Plot.plot({
    width: options.width,
    height: options.height,
    marginLeft: 72,
    marginBottom: 36,
    // Points at the ends of a scale (the cheapest comp, the largest sale) drawn whole, not cut by the frame.
    inset: 10,
    style: { background: 'transparent', color: palette.text, fontFamily: palette.fontFamily, fontSize: '11px' },
    ariaLabel: spec.title,
    ariaDescription: spec.altText,
    x: { type: spec.x.type === 'time' ? 'utc' : spec.x.type, label: spec.x.label, tickFormat: tickFormat(spec.x), ticks: 6 },
    // A count axis (comp numbers) ticks at its whole values only.
    y: { type: spec.y.type, label: spec.y.label, tickFormat: tickFormat(spec.y), ticks: spec.y.format === 'count' ? [...new Set(spec.points.map((point) => point.y))] : 5, grid: false },
    marks,
  }) as DrawnChart;
  // Plot adds an inline <style> (display, max-width, white-space of text); Plat's CSP (style-src 'self')
  // refuses it with an error on every draw, so it is taken out before the SVG enters the page: chart.css holds those rules.
  svg.querySelectorAll('style').forEach((style) => style.remove());
  // Plot names some single shapes ("frame" on the frame's <rect>): ARIA allows a name only on an element
  // with a role, so the shape's name goes (the chart is named as a whole and read as its table).
  svg.querySelectorAll('rect[aria-label], path[aria-label], line[aria-label], circle[aria-label], text[aria-label]').forEach((shape) => shape.removeAttribute('aria-label'));
  return svg;
}
