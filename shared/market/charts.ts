// The price-trend chart of the market: the window's sales as points, the fitted log-price line with
// its 95 % band, and the quarterly medians for comparison, with its table and alt text. Built from the
// market analysis only, so the screen and the report draw the same chart.
import type { ChartSpec } from '../charts/chart-spec.ts';
import { formatDay } from '../format-date.ts';
import { formatDollars } from '../money.ts';
import { formatCount } from '../format/number.ts';
import type { MarketAnalysis } from './analysis.ts';
import { periodDates, daysBetween } from './conditions.ts';
import { DAYS_PER_MONTH, lineAt } from './simple-regression.ts';

export function priceTrendChart(market: MarketAnalysis): ChartSpec {
  const { trend } = market;
  const eff = trend.effectiveDate;
  const sales = trend.price.sales;
  const fit = trend.price.fit;
  const months = Array.from({ length: trend.windowMonths + 1 }, (_, index) => trend.windowMonths - index);
  const line =
    fit === null
      ? null
      : months.map((m) => {
          const date = periodDates(eff, 0, m).fromDate;
          const at = lineAt(fit, daysBetween(date, eff) / DAYS_PER_MONTH);
          return { x: date, y: Math.exp(at.y), low: Math.exp(at.low), high: Math.exp(at.high) };
        });
  const quarters = trend.quarters.filter((quarter) => quarter.medianPrice !== null).reverse();
  const title = `Sale prices over the ${trend.windowMonths} months before ${formatDay(eff)}`;
  const rateWords = trend.price.rate.status === 'derived' ? `The fitted trend is ${trend.price.rate.display} (95 % interval ${trend.price.interval.display}).` : 'No trend could be fitted.';
  const altText =
    sales.length === 0
      ? `${title}: no screened sale of the market area in the window.`
      : `${title}: ${formatCount(sales.length)} screened sales of the market area, from ${formatDollars(Math.min(...sales.map((s) => s.priceDollars)))} to ${formatDollars(Math.max(...sales.map((s) => s.priceDollars)))}. ${rateWords} ${trend.conclusion}`;
  return {
    id: 'market-price-trend',
    title,
    subtitle: 'Points: sales (screened, of the area and type). Line: log-price trend fitted by least squares, with its 95 % band. Steps: median price by quarter.',
    x: { label: 'Sale date', type: 'time', format: 'date' },
    y: { label: 'Sale price', type: 'log', format: 'dollars' },
    points: sales.map((sale) => ({
      id: sale.id,
      x: sale.saleDate,
      y: sale.priceDollars,
      highlight: false,
      label: sale.address,
      details: [formatDollars(sale.priceDollars), `Sold ${formatDay(sale.saleDate)}`],
      citationIds: sale.citationIds,
    })),
    fit: line === null ? null : { label: `Fitted trend, ${trend.price.rate.display}`, line: line.map(({ x, y }) => ({ x, y })), band: line.map(({ x, low, high }) => ({ x, low, high })) },
    steps: quarters.length === 0 ? null : { label: 'Median price by quarter', points: quarters.flatMap((q) => [{ x: q.fromDate, y: q.medianPrice! }, { x: q.toDate, y: q.medianPrice! }]) },
    rules: [],
    altText,
    table: {
      caption: `${title}: the sales drawn, newest first`,
      columns: ['Address', 'Sale date', 'Sale price', 'Quarter before the effective date'],
      rows: sales.map((sale) => ({
        id: sale.id,
        cells: [sale.address, formatDay(sale.saleDate), formatDollars(sale.priceDollars), String(trend.quarters.find((q) => sale.saleDate >= q.fromDate && sale.saleDate <= q.toDate)?.quarter ?? '—')],
        citationIds: sale.citationIds,
      })),
    },
    note: sales.length === 0 ? 'No screened sale in the window: nothing to draw.' : null,
  };
}
