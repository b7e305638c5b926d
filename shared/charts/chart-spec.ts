// A chart as pure data: what the screen and the printed report both draw (renderer/components/charts/),
// so they cannot differ. Points carry their citations (hover shows the chip), and every chart carries
// its table (the same numbers, for the keyboard, screen readers and the page) and its alt text. A zod
// schema, because the report document that holds it crosses the IPC door.
import { z } from 'zod';

const XSchema = z.union([z.string(), z.number()]);

export const ChartPointSchema = z.object({
  id: z.string(),
  /** ISO date (a time axis) or a number. */
  x: XSchema,
  y: z.number(),
  /** Drawn apart (a chosen comp, the subject). */
  highlight: z.boolean(),
  /** The hover's heading and lines (address; price, date…). */
  label: z.string(),
  details: z.array(z.string()),
  citationIds: z.array(z.string()),
});
export type ChartPoint = z.infer<typeof ChartPointSchema>;

export const ChartAxisSchema = z.object({
  label: z.string(),
  /** 'time' reads x as ISO dates. */
  type: z.enum(['time', 'linear', 'log']),
  /** How ticks read. */
  format: z.enum(['dollars', 'dollarsPerSqft', 'sqft', 'date', 'count']),
});
export type ChartAxis = z.infer<typeof ChartAxisSchema>;

export const ChartTableSchema = z.object({
  caption: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.object({ id: z.string(), cells: z.array(z.string()), citationIds: z.array(z.string()) })),
});
export type ChartTable = z.infer<typeof ChartTableSchema>;

export const ChartSpecSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** What the marks mean, in a sentence (the legend). */
  subtitle: z.string(),
  x: ChartAxisSchema,
  y: ChartAxisSchema,
  points: z.array(ChartPointSchema),
  /** The fitted line, with its 95 % band where there is one. */
  fit: z
    .object({
      label: z.string(),
      line: z.array(z.object({ x: XSchema, y: z.number() })),
      band: z.array(z.object({ x: XSchema, low: z.number(), high: z.number() })).nullable(),
    })
    .nullable(),
  /** A second line for comparison (the quarterly medians), drawn as steps. */
  steps: z.object({ label: z.string(), points: z.array(z.object({ x: XSchema, y: z.number() })) }).nullable(),
  /** Reference lines (an indicated value). */
  rules: z.array(z.object({ axis: z.enum(['x', 'y']), value: z.number(), label: z.string() })),
  /** Describes the chart in words: the image's alt text and the screen reader's summary. */
  altText: z.string(),
  table: ChartTableSchema,
  /** Said under the chart when there is nothing to draw, or a caveat. */
  note: z.string().nullable(),
});
export type ChartSpec = z.infer<typeof ChartSpecSchema>;
