import { expect, it } from 'vitest';
import { benchMarket, benchMarketConditions, syntheticMarketSales } from './market.bench.ts';

it('times the market computation over synthetic sales', async () => {
  const sales = syntheticMarketSales(5_000);
  expect(sales.filter((sale) => sale.priceDollars === 0)).toHaveLength(625);
  expect(benchMarketConditions(5_000, sales)).toBeGreaterThan(0);
  const [row] = await benchMarket({ smoke: true } as Parameters<typeof benchMarket>[0]);
  console.log('MARKET BENCH', row!.p50Ms.toFixed(1), row!.p99Ms.toFixed(1));
  expect(row!.requests).toBe(3);
});
