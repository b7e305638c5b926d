// Market conditions and the time trend over many sales: the 1004MC table (every figure a derived,
// cited value) and the log-price fit, as the Comparables view recomputes them when the window
// changes. Target (issue 23): ≤ 50 ms over 5,000 sales.
import { CitationBook } from '../../shared/cited/citation-book.ts';
import { comparableSale } from '../../shared/comparables/test-kit.ts';
import type { ComparableSale } from '../../shared/comparables/model.ts';
import { marketConditions, marketSales } from '../../shared/market/conditions.ts';
import { marketTrend } from '../../shared/market/trend.ts';
import { atMostMs, latencyFigures, type BenchOptions, type LatencyFigures } from './measure.ts';

const EFFECTIVE = '2017-01-01';

/** `count` dated sales over the 36 months before the effective date, about one in eight non-market (deterministic). */
export function syntheticMarketSales(count: number): ComparableSale[] {
  const effective = Date.parse(`${EFFECTIVE}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => {
    const daysBefore = (index * 7_919) % 1_096;
    const market = index % 8 !== 0;
    return comparableSale({
      id: `m${index + 1}`,
      address: `${1000 + index} Bench St NW`,
      saleDate: new Date(effective - daysBefore * 86_400_000).toISOString().slice(0, 10),
      priceDollars: market ? Math.round(900_000 * (1 + 0.004 * (1_096 - daysBefore) / 30.44) + ((index * 48_271) % 300_000)) : 0,
      gla: 1_400 + ((index * 137) % 1_600),
      synthetic: index % 3 === 0,
    });
  });
}

/** One market computation (the table and the 36-month trend) over `n` synthetic sales: its time in ms. */
export function benchMarketConditions(n: number, sales: readonly ComparableSale[] = syntheticMarketSales(n)): number {
  const started = performance.now();
  const cite = new CitationBook().cite;
  // As analyzeMarket does: the sales read and screened once, shared by the table and the trend.
  const read = marketSales(sales, EFFECTIVE);
  marketConditions({ sales, read, effectiveDate: EFFECTIVE, marketArea: 'Bench area', propertyType: '24', monthsRead: 36, cite });
  marketTrend({ sales, read, effectiveDate: EFFECTIVE, windowMonths: 36, monthsRead: 36, cite });
  return performance.now() - started;
}

export async function benchMarket({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  const sales = syntheticMarketSales(5_000);
  for (let warmup = 0; warmup < (smoke ? 1 : 5); warmup++) benchMarketConditions(5_000, sales);
  const samples = Array.from({ length: smoke ? 3 : 30 }, () => benchMarketConditions(5_000, sales));
  return [latencyFigures('market conditions + time trend (5,000 sales, 36 months)', samples, { target: atMostMs(50) })];
}
