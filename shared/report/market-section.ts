// The market conditions as the report prints them, inside the comparables section: the 1004MC-shaped
// table, the trend by its rule, what the records cannot say, the sales left out, the time adjustment's
// support with the appraiser's act, and the price-trend chart with its table. Built from the one
// market analysis (shared/market/analysis.ts); its shape is market-document.ts.
import { citationOrder } from '../cited/citation-order.ts';
import type { CitedValue } from '../cited/value.ts';
import type { ComparablesWorkfile } from '../comparables/model.ts';
import type { MarketAnalysis } from '../market/analysis.ts';
import { priceTrendChart } from '../market/charts.ts';
import { timeRateSupportText } from '../market/decision.ts';
import { MIN_FIT_SALES } from '../market/trend.ts';
import type { MarketReport } from './market-document.ts';


export function marketReport(market: MarketAnalysis, workfile: ComparablesWorkfile): MarketReport {
  const { conditions, trend } = market;
  return {
    title: 'Market conditions',
    salesRead: market.source.words,
    marketArea: conditions.marketArea,
    propertyType: conditions.propertyType,
    areaMeasure: conditions.areaMeasure,
    periods: conditions.periods.map((period) => ({
      key: period.key,
      label: period.label,
      fromDate: period.fromDate,
      toDate: period.toDate,
      covered: period.covered,
      count: period.count,
      medianPrice: period.medianPrice,
      medianPricePerSqft: period.medianPricePerSqft,
      withoutPublishedArea: period.withoutPublishedArea,
    })),
    trend: conditions.trend,
    notAvailable: conditions.notAvailable,
    leftOutCounts: conditions.leftOutCounts,
    notes: [...conditions.notes, ...market.problems],
    time: {
      windowMonths: trend.windowMonths,
      method: trend.method,
      minimumSales: MIN_FIT_SALES,
      salesCount: trend.price.sales.length,
      rate: trend.price.rate,
      interval: trend.price.interval,
      perSqftRate: trend.pricePerSqft.rate,
      perSqftInterval: trend.pricePerSqft.interval,
      supported: trend.offer !== null,
      conclusion: trend.conclusion,
      decision: timeRateSupportText(workfile, trend),
    },
    chart: priceTrendChart(market),
  };
}

/** Every cited value the market part prints, in print order (the citation appendix and citations.csv list them). */
export function marketValues(report: MarketReport): CitedValue[] {
  return [
    ...report.periods.flatMap((period) => [period.count, period.medianPrice, period.medianPricePerSqft]),
    report.trend.count,
    report.trend.price,
    report.trend.pricePerSqft,
    report.time.rate,
    report.time.interval,
    report.time.perSqftRate,
    report.time.perSqftInterval,
  ];
}

/** The citation ids the market part prints, in print order: the table, the trend, the time support, the chart's table. */
export function marketCitationOrder(report: MarketReport): string[] {
  const { ids, use, visit } = citationOrder();
  for (const period of report.periods) [period.count, period.medianPrice, period.medianPricePerSqft].forEach(visit);
  [report.trend.price, report.trend.count, report.trend.pricePerSqft, report.time.rate, report.time.interval, report.time.perSqftRate, report.time.perSqftInterval].forEach(visit);
  for (const row of report.chart.table.rows) use(row.citationIds);
  return ids;
}
