// The time adjustment's support: the trend of log(sale price), and of log(price per sq ft) where the
// records publish an area, against months before the effective date, fitted by ordinary least squares
// over a window the appraiser chooses (12 months by default, 24 or 36), with the slope's 95 % interval
// and, for comparison, the median price quarter by quarter. The slope is offered as the time rate only
// when it is supported: at least MIN_FIT_SALES sales and an interval that does not straddle zero.
// Otherwise the conclusion is "no time adjustment supported", with the reasons.
import type { Cite } from '../cited/citation-book.ts';
import { derive } from '../cited/derivation.ts';
import { derivedValue } from '../cited/derived.ts';
import type { CitedValue } from '../cited/value.ts';
import type { ComparableSale } from '../comparables/model.ts';
import { formatDay } from '../format-date.ts';
import { defaultScreenedOut, marketSales, periodDates, type LeftOut, type MarketSale, type MarketSalesRead, type ScreenedOut } from './conditions.ts';
import { perMonth } from './market-rules.ts';
import { DAYS_PER_MONTH, logTrendPctPerMonth, median, type SimpleFit } from './simple-regression.ts';
import { formatPercent } from '../format/percent.ts';

export const TREND_WINDOWS = [12, 24, 36] as const;
export type TrendWindow = (typeof TREND_WINDOWS)[number];
export const DEFAULT_TREND_WINDOW: TrendWindow = 12;
/** Fewer sales than this in the window: no rate is offered (a slope on a handful of sales is noise). */
export const MIN_FIT_SALES = 10;

export const TREND_METHOD =
  'Ordinary least squares of the natural log of the sale price on months before the effective date (days ÷ 30.44), by the closed-form simple-regression formulas; ' +
  'the 95 % interval of the slope from Student’s t (jStat) with n − 2 degrees of freedom. A slope b per month before the date is a change of exp(−b) − 1 per month toward it.';

export interface TrendFit {
  measure: 'price' | 'pricePerSqft';
  label: string;
  sales: MarketSale[];
  /** The fitted line in log space, months before the date as x; null when no fit could be made. */
  fit: SimpleFit | null;
  pctPerMonth: number | null;
  pctLow: number | null;
  pctHigh: number | null;
  rate: CitedValue;
  interval: CitedValue;
  supported: boolean;
  /** Why it is not supported (empty when it is). */
  reasons: string[];
}

export interface QuarterMedian {
  /** 1 = the 3 months up to the effective date, 2 = the 3 before, … */
  quarter: number;
  fromDate: string;
  toDate: string;
  /** The quarter's middle, in months before the effective date (where the chart puts it). */
  midMonths: number;
  count: number;
  medianPrice: number | null;
  saleIds: string[];
}

export interface MarketTrend {
  effectiveDate: string;
  windowMonths: TrendWindow;
  method: string;
  price: TrendFit;
  pricePerSqft: TrendFit;
  quarters: QuarterMedian[];
  /** The rate Plat offers as the time adjustment (% per month, to hundredths), or null: not supported. */
  offer: number | null;
  /** The conclusion in words, printed with the rate or with "no time adjustment supported". */
  conclusion: string;
  leftOut: LeftOut[];
}

export interface MarketTrendInput {
  sales: readonly ComparableSale[];
  effectiveDate: string;
  windowMonths?: TrendWindow;
  /** How far back the sales read reach (the search's window), or null. */
  monthsRead: number | null;
  screenedOut?: ScreenedOut;
  /** The sales already read by `marketSales` (shared with the table): read here when absent. */
  read?: MarketSalesRead;
  cite: Cite;
}

const unavailable = (field: string, label: string, why: string): CitedValue => ({ field, label, raw: null, display: '—', status: 'unavailable', citationIds: [], derivedFrom: null, limitation: why, alternatives: [], choice: null });

function fitOf(measure: TrendFit['measure'], sales: readonly MarketSale[], windowMonths: number, shortRead: string | null, cite: Cite): TrendFit {
  const label = measure === 'price' ? 'Sale price trend' : 'Sale price per sq ft trend';
  const amount = (sale: MarketSale) => (measure === 'price' ? sale.priceDollars : sale.priceDollars / sale.areaSqft!);
  const inputs = sales.flatMap((sale) => [sale.daysBefore, amount(sale)]);
  const trend = logTrendPctPerMonth(sales.map((sale) => sale.daysBefore), sales.map(amount));
  const reasons: string[] = [];
  if (sales.length < MIN_FIT_SALES) {
    reasons.push(
      measure === 'pricePerSqft' && sales.length === 0
        ? 'No sale in the window has a published building area (copied areas are left out).'
        : `${sales.length} sale${sales.length === 1 ? '' : 's'} in the ${windowMonths}-month window: at least ${MIN_FIT_SALES} are needed.`,
    );
  }
  if (shortRead !== null) reasons.push(shortRead);
  if (trend === null && sales.length >= MIN_FIT_SALES) reasons.push('Every sale falls on the same day: no slope can be fitted.');
  if (trend !== null && trend.low <= 0 && trend.high >= 0) {
    reasons.push(`The 95 % interval (${formatPercent(trend.low, 2, { signed: true })} to ${perMonth(trend.high)}) includes zero: the sales do not show a change with time.`);
  }
  const field = `market.trend.${measure}`;
  const saleInputs = sales.map((sale) => ({ name: `the sale of ${sale.address} on ${sale.saleDate}`, citationIds: sale.citationIds }));
  const rateDerivation = { rule: 'log-price-trend-pct-per-month', inputs };
  const intervalDerivation = { rule: 'log-price-trend-ci95', inputs };
  const what = measure === 'price' ? 'sale price' : 'sale price ÷ published building area (GBA)';
  const rate =
    trend === null
      ? unavailable(`${field}.rate`, `${label}: rate`, reasons.join(' ') || 'No fit could be made.')
      : derivedValue(
          { field: `${field}.rate`, label: `${label}: rate`, raw: trend.pct, display: derive(rateDerivation), rule: `Log-linear trend of ${what} on months before the effective date over ${sales.length} sales, by Plat`, inputs: saleInputs, derivation: rateDerivation },
          cite,
        );
  const interval =
    trend === null
      ? unavailable(`${field}.interval`, `${label}: 95 % interval`, reasons.join(' ') || 'No fit could be made.')
      : derivedValue(
          { field: `${field}.interval`, label: `${label}: 95 % interval`, raw: `${trend.low} ${trend.high}`, display: derive(intervalDerivation), rule: `The slope’s 95 % interval (Student’s t, ${trend.fit.df} degrees of freedom), by Plat`, inputs: saleInputs, derivation: intervalDerivation },
          cite,
        );
  return {
    measure,
    label,
    sales: [...sales],
    fit: trend?.fit ?? null,
    pctPerMonth: trend?.pct ?? null,
    pctLow: trend?.low ?? null,
    pctHigh: trend?.high ?? null,
    rate,
    interval,
    supported: trend !== null && reasons.length === 0,
    reasons,
  };
}

/** The window's sales, quarter by quarter back from the effective date, with their median price. */
function quarterMedians(sales: readonly MarketSale[], effectiveDate: string, windowMonths: number): QuarterMedian[] {
  const quarters: QuarterMedian[] = [];
  for (let quarter = 1; quarter * 3 <= windowMonths; quarter++) {
    const { fromDate, toDate } = periodDates(effectiveDate, (quarter - 1) * 3, quarter * 3);
    const inQuarter = sales.filter((sale) => sale.saleDate >= fromDate && sale.saleDate <= toDate);
    quarters.push({ quarter, fromDate, toDate, midMonths: quarter * 3 - 1.5, count: inQuarter.length, medianPrice: median(inQuarter.map((sale) => sale.priceDollars)), saleIds: inQuarter.map((sale) => sale.id) });
  }
  return quarters;
}

export function marketTrend(input: MarketTrendInput): MarketTrend {
  const windowMonths = input.windowMonths ?? DEFAULT_TREND_WINDOW;
  const { used, leftOut } = input.read ?? marketSales(input.sales, input.effectiveDate, input.screenedOut ?? defaultScreenedOut);
  const { fromDate } = periodDates(input.effectiveDate, 0, windowMonths);
  const inWindow = used.filter((sale) => sale.saleDate >= fromDate);
  const shortRead =
    input.monthsRead !== null && input.monthsRead < windowMonths
      ? `The sales read reach back ${input.monthsRead} months only: widen the search’s period to ${windowMonths} months for this window.`
      : null;
  const price = fitOf('price', inWindow, windowMonths, shortRead, input.cite);
  const pricePerSqft = fitOf('pricePerSqft', inWindow.filter((sale) => sale.areaSqft !== null), windowMonths, shortRead, input.cite);
  const offer = price.supported && price.pctPerMonth !== null ? Math.round(price.pctPerMonth * 100) / 100 : null;
  const conclusion =
    offer !== null
      ? `Supported: ${perMonth(price.pctPerMonth!)} (95 % interval ${price.interval.display}) from ${price.sales.length} sales over the ${windowMonths} months before ${formatDay(input.effectiveDate)}.`
      : `No time adjustment supported over ${windowMonths} months: ${price.reasons.join(' ')}`;
  return { effectiveDate: input.effectiveDate, windowMonths, method: TREND_METHOD, price, pricePerSqft, quarters: quarterMedians(inWindow, input.effectiveDate, windowMonths), offer, conclusion, leftOut };
}

/** Months before the effective date of a sale (the chart's x), from its days. */
export const monthsBefore = (sale: Pick<MarketSale, 'daysBefore'>): number => sale.daysBefore / DAYS_PER_MONTH;
