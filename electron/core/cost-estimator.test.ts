import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppDatabase } from './app-db.ts';
import { CostEstimator } from './cost-estimator.ts';

describe('CostEstimator', () => {
  let db: DatabaseSync;
  let estimator: CostEstimator;

  beforeEach(() => {
    db = openAppDatabase(':memory:');
    estimator = new CostEstimator(db);
  });
  afterEach(() => db.close());

  it('prices a summary from the price table', () => {
    expect(estimator.estimate({ operation: 'v4.summary', cached: false })).toEqual({
      expectedCostMicroUsd: 100_000,
      basis: 'price_table',
      note: '$0.10 per call.',
    });
  });

  it('prices free operations at zero', () => {
    for (const operation of ['v4.catalog', 'v4.connected', 'v2.getCatalog'] as const) {
      expect(estimator.estimate({ operation, cached: false })).toMatchObject({ expectedCostMicroUsd: 0, basis: 'free' });
    }
  });

  it('prices a cached answer at zero, whatever the operation', () => {
    expect(estimator.estimate({ operation: 'v4.summary', cached: true })).toMatchObject({ expectedCostMicroUsd: 0, basis: 'cached' });
  });

  it('prices a search from the table until a charge is observed, then from the last observed charge', () => {
    expect(estimator.estimate({ operation: 'v4.search', cached: false })).toMatchObject({ expectedCostMicroUsd: 20_000, basis: 'price_table' });
    expect(estimator.recordObservedCharge({ operation: 'v4.search', chargedMicroUsd: 35_000 })).toBe(true);
    expect(estimator.estimate({ operation: 'v4.search', cached: false })).toEqual({
      expectedCostMicroUsd: 35_000,
      basis: 'last_observed',
      note: 'About $0.035 per page with results, as last charged; an empty page is free.',
    });
    // The latest observation wins, and it survives a restart.
    estimator.recordObservedCharge({ operation: 'v4.search', chargedMicroUsd: 30_000 });
    expect(new CostEstimator(db).estimate({ operation: 'v4.search', cached: false }).expectedCostMicroUsd).toBe(30_000);
    // Other search operations keep their own price.
    expect(estimator.estimate({ operation: 'v2.searchProperties', cached: false }).basis).toBe('price_table');
  });

  it('ignores zero charges (empty pages, replays) and non-search operations', () => {
    expect(estimator.recordObservedCharge({ operation: 'v4.search', chargedMicroUsd: 0 })).toBe(false);
    expect(estimator.recordObservedCharge({ operation: 'v4.summary', chargedMicroUsd: 90_000 })).toBe(false);
    expect(estimator.estimate({ operation: 'v4.search', cached: false }).basis).toBe('price_table');
    expect(estimator.estimate({ operation: 'v4.summary', cached: false }).expectedCostMicroUsd).toBe(100_000);
  });

  it('keeps observations per connection', () => {
    estimator.recordObservedCharge({ operation: 'v4.search', chargedMicroUsd: 50_000, connectionId: 'live' });
    expect(estimator.estimate({ operation: 'v4.search', cached: false, connectionId: 'live' }).expectedCostMicroUsd).toBe(50_000);
    expect(estimator.estimate({ operation: 'v4.search', cached: false, connectionId: 'local' }).expectedCostMicroUsd).toBe(20_000);
  });

  it('prices v3 queries by mode and projection, observing comparables pages on their own', () => {
    const comparables = { mode: 'report', projection: 'report_comparables_v1' } as const;
    expect(estimator.estimate({ operation: 'v3.recordQuery', cached: false, v3Request: { mode: 'catalog' } }).basis).toBe('free');
    expect(
      estimator.estimate({ operation: 'v3.recordQuery', cached: false, v3Request: { mode: 'report', projection: 'report_subject_v1' } }),
    ).toMatchObject({ expectedCostMicroUsd: 250_000, basis: 'price_table' });
    estimator.recordObservedCharge({ operation: 'v3.recordQuery', chargedMicroUsd: 140_000, v3Request: comparables });
    expect(estimator.estimate({ operation: 'v3.recordQuery', cached: false, v3Request: comparables })).toMatchObject({
      expectedCostMicroUsd: 140_000,
      basis: 'last_observed',
    });
    expect(() => estimator.estimate({ operation: 'v3.recordQuery', cached: false })).toThrow(RangeError);
  });

  it('prices a resolution batch at its most: every item resolving', () => {
    expect(estimator.estimate({ operation: 'v2.resolveEntities', cached: false, items: 10 })).toEqual({
      expectedCostMicroUsd: 50_000,
      basis: 'price_table',
      note: 'Up to $0.05: $0.005 for each of 10 items that resolves.',
    });
  });
});
