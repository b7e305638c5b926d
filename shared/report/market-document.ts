// The market conditions part of the report's comparables section, as data (built by
// market-section.ts). Its own file: the report document's schema holds it without importing the
// market analysis.
import { z } from 'zod';
import { ChartSpecSchema } from '../charts/chart-spec.ts';
import { CitedValueSchema } from '../cited/value.ts';

export const MarketReportSchema = z.object({
  title: z.string(),
  salesRead: z.string(),
  marketArea: z.string(),
  propertyType: z.string().nullable(),
  areaMeasure: z.string(),
  periods: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      fromDate: z.string(),
      toDate: z.string(),
      covered: z.boolean(),
      count: CitedValueSchema,
      medianPrice: CitedValueSchema,
      medianPricePerSqft: CitedValueSchema,
      withoutPublishedArea: z.number().int(),
    }),
  ),
  trend: z.object({ rule: z.string(), price: CitedValueSchema, count: CitedValueSchema, pricePerSqft: CitedValueSchema }),
  notAvailable: z.array(z.object({ line: z.string(), why: z.string() })),
  leftOutCounts: z.array(z.object({ why: z.string(), count: z.number().int() })),
  notes: z.array(z.string()),
  time: z.object({
    windowMonths: z.number().int(),
    method: z.string(),
    minimumSales: z.number().int(),
    salesCount: z.number().int(),
    rate: CitedValueSchema,
    interval: CitedValueSchema,
    perSqftRate: CitedValueSchema,
    perSqftInterval: CitedValueSchema,
    supported: z.boolean(),
    conclusion: z.string(),
    /** The appraiser's act on the rate, printed with its support. */
    decision: z.string(),
  }),
  chart: ChartSpecSchema,
});
export type MarketReport = z.infer<typeof MarketReportSchema>;
