// The market conditions and the time trend as a separate section of the UAD-shaped JSON
// (docs/uad-sales-comparison.md maps each key to the 1004MC and URAR fields). Every figure keeps its
// status, citations and the rule Verify recomputes it with.
import type { CitedValue } from '../cited/value.ts';
import type { ComparablesWorkfile } from '../comparables/model.ts';
import type { MarketAnalysis } from './analysis.ts';
import { AREA_MEASURE } from './conditions.ts';
import { MIN_FIT_SALES, type TrendFit } from './trend.ts';

const figure = (value: CitedValue) => ({
  value: value.raw,
  display: value.display,
  status: value.status,
  citationIds: value.citationIds,
  derivedFrom: value.derivedFrom,
  limitation: value.limitation,
  derivation: value.derivation ?? null,
});

const fitJson = (fit: TrendFit) => ({
  measure: fit.measure,
  salesCount: fit.sales.length,
  saleIds: fit.sales.map((sale) => sale.id),
  ratePctPerMonth: figure(fit.rate),
  interval95PctPerMonth: { low: fit.pctLow, high: fit.pctHigh, ...figure(fit.interval) },
  logFit: fit.fit,
  supported: fit.supported,
  notSupportedBecause: fit.reasons,
});

export function marketConditionsUad(market: MarketAnalysis, workfile: Pick<ComparablesWorkfile, 'rates' | 'rateSource' | 'marketTrend'>): Record<string, unknown> {
  const { conditions, trend } = market;
  return {
    shapedAfter: 'Fannie Mae Form 1004MC (Market Conditions Addendum); URAR “Adjusted for market conditions” support',
    salesRead: market.source.words,
    marketArea: conditions.marketArea,
    propertyType: conditions.propertyType,
    effectiveDate: conditions.effectiveDate,
    areaMeasure: AREA_MEASURE,
    periods: conditions.periods.map((period) => ({
      key: period.key,
      label: period.label,
      fromDate: period.fromDate,
      toDate: period.toDate,
      coveredBySalesRead: period.covered,
      comparableSalesCount: figure(period.count),
      medianSalePriceDollars: figure(period.medianPrice),
      medianSalePricePerSqft: figure(period.medianPricePerSqft),
      salesWithoutPublishedArea: period.withoutPublishedArea,
      saleIds: period.sales.map((sale) => sale.id),
    })),
    trend: { rule: conditions.trend.rule, medianSalePrice: figure(conditions.trend.price), comparableSalesCount: figure(conditions.trend.count), medianSalePricePerSqft: figure(conditions.trend.pricePerSqft) },
    notAvailable: conditions.notAvailable,
    salesLeftOut: { counts: conditions.leftOutCounts, sales: conditions.leftOut },
    notes: [...conditions.notes, ...market.problems],
    timeAdjustmentSupport: {
      method: trend.method,
      windowMonths: trend.windowMonths,
      minimumSales: MIN_FIT_SALES,
      salePrice: fitJson(trend.price),
      salePricePerSqft: fitJson(trend.pricePerSqft),
      quarterlyMedians: trend.quarters,
      offeredPctPerMonth: trend.offer,
      conclusion: trend.conclusion,
      appraiserDecision: workfile.marketTrend?.decision ?? null,
      timeRateUsedPctPerMonth: workfile.rates.timePctPerMonth,
      timeRateSetBy: workfile.rateSource.timePctPerMonth ?? null,
    },
    citations: market.citations,
  };
}
