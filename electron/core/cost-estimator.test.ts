import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppDatabase } from './app-db.ts';
import { answerHasResults, CostEstimator, EMBEDDED_CONNECTION_ID } from './cost-estimator.ts';

/** A live service that is not Plat's own: only the spec's prices and what it charged are known. */
const LIVE = 'live:https://records.example.test';

// Each test on a fresh database.
let db: DatabaseSync;
let estimator: CostEstimator;

beforeEach(() => {
  db = openAppDatabase(':memory:');
  estimator = new CostEstimator(db);
});
afterEach(() => db.close());

describe('CostEstimator on the embedded sample service (Plat runs it: its price table is known)', () => {

  it('prices a summary from the price table', () => {
    expect(estimator.estimate({ operation: 'v4.summary', cached: false, connectionId: EMBEDDED_CONNECTION_ID })).toEqual({
      expectedCostMicroUsd: 100_000,
      basis: 'price_table',
      largestSeenMicroUsd: null,
      note: '$0.10 per call.',
    });
  });

  it('prices free operations at zero', () => {
    for (const operation of ['v4.catalog', 'v4.connected', 'v2.getCatalog', 'v2.traverseRelationships', 'v2.getEntity'] as const) {
      expect(estimator.estimate({ operation, cached: false })).toMatchObject({ expectedCostMicroUsd: 0, basis: 'price_table' });
    }
  });

  it('prices a cached answer at zero, whatever the operation or connection', () => {
    expect(estimator.estimate({ operation: 'v4.summary', cached: true })).toMatchObject({ expectedCostMicroUsd: 0, basis: 'cached' });
    expect(estimator.estimate({ operation: 'v2.traverseRelationships', cached: true, connectionId: LIVE })).toMatchObject({ expectedCostMicroUsd: 0, basis: 'cached' });
  });

  it('prices a search from the table until a charge is observed, then from the last observed charge, keeping the largest', () => {
    expect(estimator.estimate({ operation: 'v4.search', cached: false })).toMatchObject({ expectedCostMicroUsd: 20_000, basis: 'price_table' });
    expect(estimator.recordObservedCharge({ operation: 'v4.search', chargedMicroUsd: 35_000 })).toBe(true);
    expect(estimator.estimate({ operation: 'v4.search', cached: false })).toEqual({
      expectedCostMicroUsd: 35_000,
      basis: 'last_observed',
      largestSeenMicroUsd: 35_000,
      note: 'About $0.035, from your last call.',
    });
    // The latest observation wins, the largest is kept, and both survive a restart.
    estimator.recordObservedCharge({ operation: 'v4.search', chargedMicroUsd: 30_000 });
    expect(new CostEstimator(db).estimate({ operation: 'v4.search', cached: false })).toEqual({
      expectedCostMicroUsd: 30_000,
      basis: 'last_observed',
      largestSeenMicroUsd: 35_000,
      note: 'About $0.03, from your last call; the largest charge seen for it was $0.035.',
    });
    // Other search operations keep their own price.
    expect(estimator.estimate({ operation: 'v2.searchProperties', cached: false }).basis).toBe('price_table');
  });

  it('ignores zero charges (empty pages, replays); a per-call price stays the table’s, with the largest charge seen', () => {
    expect(estimator.recordObservedCharge({ operation: 'v4.search', chargedMicroUsd: 0 })).toBe(false);
    expect(estimator.estimate({ operation: 'v4.search', cached: false }).basis).toBe('price_table');
    expect(estimator.recordObservedCharge({ operation: 'v4.summary', chargedMicroUsd: 90_000 })).toBe(true);
    expect(estimator.estimate({ operation: 'v4.summary', cached: false })).toMatchObject({ expectedCostMicroUsd: 100_000, basis: 'price_table', largestSeenMicroUsd: 90_000 });
  });

  it('prices v3 queries by mode and projection, observing comparables pages on their own', () => {
    const comparables = { mode: 'report', projection: 'report_comparables_v1' } as const;
    expect(estimator.estimate({ operation: 'v3.recordQuery', cached: false, v3Request: { mode: 'catalog' } })).toMatchObject({ expectedCostMicroUsd: 0 });
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
      largestSeenMicroUsd: null,
      note: 'Up to $0.05: $0.005 for each of 10 items that resolves.',
    });
  });
});

describe('CostEstimator on another service (a live connection id)', () => {

  const estimate = (operation: Parameters<CostEstimator['estimate']>[0]['operation'], extra: { items?: number; v3Request?: { mode: 'catalog' | 'report' | 'aggregate'; projection?: string } } = {}) =>
    estimator.estimate({ operation, cached: false, connectionId: LIVE, ...extra });

  it("knows only the spec's prices before any charge: the summary, the catalog and connected", () => {
    expect(estimate('v4.summary')).toEqual({ expectedCostMicroUsd: 100_000, basis: 'spec', largestSeenMicroUsd: null, note: "$0.10 per call (the spec's price)." });
    expect(estimate('v4.catalog')).toMatchObject({ expectedCostMicroUsd: 0, basis: 'spec' });
    expect(estimate('v4.connected')).toMatchObject({ expectedCostMicroUsd: 0, basis: 'spec' });
  });

  it("does not quote Plat's own table for any other price: not known until this service charges for it", () => {
    // Plat's table says $0.02, $0.25, $0.005 and free; this service may charge anything.
    for (const [operation, extra] of [
      ['v4.search', {}],
      ['v3.recordQuery', { v3Request: { mode: 'report', projection: 'report_subject_v1' } }],
      ['v3.recordQuery', { v3Request: { mode: 'catalog' } }],
      ['v2.resolveEntities', { items: 1 }],
      ['v2.searchProperties', {}],
      ['v2.getCatalog', {}],
      ['v2.getEntity', {}],
      ['v2.traverseRelationships', {}],
    ] as const) {
      expect(estimate(operation, extra)).toMatchObject({ expectedCostMicroUsd: null, basis: 'unknown', largestSeenMicroUsd: null });
    }
    expect(estimate('v2.traverseRelationships').note).toBe('Price not known: no charge for a relationship lookup seen yet on this service.');
  });

  it('learns each price from the charges observed on this connection only: the last wins, the largest is kept', () => {
    estimator.recordObservedCharge({ operation: 'v4.search', chargedMicroUsd: 25_000, connectionId: LIVE });
    estimator.recordObservedCharge({ operation: 'v2.resolveEntities', chargedMicroUsd: 10_000, connectionId: LIVE });
    estimator.recordObservedCharge({ operation: 'v2.traverseRelationships', chargedMicroUsd: 5_000, connectionId: LIVE });
    estimator.recordObservedCharge({ operation: 'v2.traverseRelationships', chargedMicroUsd: 4_000, connectionId: LIVE });
    expect(estimate('v4.search')).toEqual({ expectedCostMicroUsd: 25_000, basis: 'last_observed', largestSeenMicroUsd: 25_000, note: 'About $0.025, from your last call.' });
    expect(estimate('v2.resolveEntities', { items: 3 })).toMatchObject({ expectedCostMicroUsd: 10_000, basis: 'last_observed' });
    expect(estimate('v2.traverseRelationships')).toMatchObject({ expectedCostMicroUsd: 4_000, basis: 'last_observed', largestSeenMicroUsd: 5_000 });
    // Another live service and the embedded one learn nothing from it.
    expect(estimator.estimate({ operation: 'v4.search', cached: false, connectionId: 'live:https://other.example.test' })).toMatchObject({ basis: 'unknown' });
    expect(estimator.estimate({ operation: 'v4.search', cached: false, connectionId: EMBEDDED_CONNECTION_ID })).toMatchObject({ expectedCostMicroUsd: 20_000, basis: 'price_table' });
    // A summary charged otherwise than the spec says is quoted at what was charged.
    estimator.recordObservedCharge({ operation: 'v4.summary', chargedMicroUsd: 120_000, connectionId: LIVE });
    expect(estimate('v4.summary')).toMatchObject({ expectedCostMicroUsd: 120_000, basis: 'last_observed' });
  });

  it('learns a price of zero only from a call answered with results: a free operation of another service then runs by itself', () => {
    // A zero from an empty page or a replay says nothing.
    expect(estimator.recordObservedCharge({ operation: 'v2.getCatalog', chargedMicroUsd: 0, connectionId: LIVE })).toBe(false);
    expect(estimate('v2.getCatalog')).toMatchObject({ expectedCostMicroUsd: null, basis: 'unknown' });
    expect(estimator.recordObservedCharge({ operation: 'v2.getCatalog', chargedMicroUsd: 0, connectionId: LIVE, answeredWithResults: true })).toBe(true);
    expect(estimate('v2.getCatalog')).toEqual({ expectedCostMicroUsd: 0, basis: 'last_observed', largestSeenMicroUsd: 0, note: 'Free: your last call was answered at no charge.' });
    // Charged later: the last charge wins, the largest is kept.
    estimator.recordObservedCharge({ operation: 'v2.getCatalog', chargedMicroUsd: 1_000, connectionId: LIVE });
    estimator.recordObservedCharge({ operation: 'v2.getCatalog', chargedMicroUsd: 0, connectionId: LIVE, answeredWithResults: true });
    expect(estimate('v2.getCatalog')).toMatchObject({ expectedCostMicroUsd: 0, largestSeenMicroUsd: 1_000 });
  });

  it('tells an answer with results from an empty page or a resolution that found nothing', () => {
    expect(answerHasResults({ status: 'ok', data: { items: [{ record_ref: 'r' }] } })).toBe(true);
    expect(answerHasResults({ status: 'ok', data: { items: [] } })).toBe(false);
    expect(answerHasResults({ status: 'ok', data: { items: [{ client_id: 'a', candidates: [] }] } })).toBe(false);
    expect(answerHasResults({ status: 'ok', data: { items: [{ client_id: 'a', candidates: [{ entity_ref: 'prop_1' }] }] } })).toBe(true);
    expect(answerHasResults({ status: 'ok', data: { facet: 'coverage', rows: [] } })).toBe(true);
    expect(answerHasResults({ status: 'error', data: null })).toBe(false);
  });

  it('keeps the observations of v3 variants apart', () => {
    estimator.recordObservedCharge({ operation: 'v3.recordQuery', chargedMicroUsd: 300_000, connectionId: LIVE, v3Request: { mode: 'report', projection: 'report_subject_v1' } });
    expect(estimate('v3.recordQuery', { v3Request: { mode: 'report', projection: 'report_subject_v1' } })).toMatchObject({ expectedCostMicroUsd: 300_000 });
    expect(estimate('v3.recordQuery', { v3Request: { mode: 'aggregate' } })).toMatchObject({ basis: 'unknown' });
  });
});
