// The sales behind the market conditions and the time trend, one row each, for a spreadsheet: the
// period it falls in, whether the trend's window holds it, its price and published area, its
// citations; then the sales left out with why. Every cell goes through shared/csv.ts.
import { citationText } from '../cited/citation.ts';
import { csvField } from '../csv.ts';
import type { MarketAnalysis } from './analysis.ts';

type Cell = string | number | null;
const line = (cells: readonly Cell[]) => cells.map(csvField).join(',');

export function marketSalesCsv(market: MarketAnalysis): string {
  const numbers = new Map(market.citations.map((citation, index) => [citation.id, index + 1]));
  const sources = (ids: readonly string[]) => ids.map((id) => numbers.get(id)).filter((n) => n !== undefined).map((n) => `[${n}]`).join(' ');
  const inTrend = new Set(market.trend.price.sales.map((sale) => sale.id));
  const rows: string[] = [line(['Market sales', market.source.words]), line(['Effective date', market.conditions.effectiveDate]), ''];
  rows.push(line(['Sale id', 'Address', 'Sale date', 'Months before the effective date', 'Period', `In the ${market.trend.windowMonths}-month trend`, 'Sale price (dollars)', 'Published building area (sq ft)', 'Sources']));
  const listed = market.conditions.periods.flatMap((period) => period.sales.map((sale) => ({ sale, period: period.label })));
  const inPeriods = new Set(listed.map(({ sale }) => sale.id));
  // A 36-month trend window reaches past the table's 24 months: those sales are listed too.
  for (const sale of market.trend.price.sales) if (!inPeriods.has(sale.id)) listed.push({ sale, period: 'Before the table’s 24 months' });
  for (const { sale, period } of listed) {
    rows.push(line([sale.id, sale.address, sale.saleDate, Math.round((sale.daysBefore / (365.25 / 12)) * 100) / 100, period, inTrend.has(sale.id) ? 'yes' : 'no', sale.priceDollars, sale.areaSqft, sources(sale.citationIds)]));
  }
  rows.push('', line(['Sales left out', 'Address', 'Why', 'Sources']));
  for (const entry of market.conditions.leftOut) rows.push(line([entry.id, entry.address, entry.why, sources(entry.citationIds)]));
  rows.push('', line(['Source', 'Citation']));
  for (const citation of market.citations) rows.push(line([`[${numbers.get(citation.id)}]`, citationText(citation)]));
  return `${rows.join('\r\n')}\r\n`;
}
