// Spend totals by session, local day, all time and project.
import { describe, expect, it } from 'vitest';
import { harness, ok, observe, SUMMARY, TOP_UP } from './ledger-test-kit.ts';

describe('totals', () => {
  it('sums reported and unreported charges by session, local day and project, credits on their own line', () => {
    const h = harness();
    h.setClock(new Date(2024, 4, 9, 23, 59, 0)); // yesterday, local time
    observe(h, 1_000_000);
    const yesterday = h.begin({ sessionId: 'sess_old', projectId: 'proj_b' });
    h.ledger.recordAnswer(yesterday, ok(SUMMARY, 900_000));

    h.setClock(new Date(2024, 4, 10, 0, 0, 0)); // midnight: today
    const lost = h.begin({ projectId: 'proj_a' });
    h.ledger.recordAnswer(lost, ok(0, 800_000, { replayed: true, attempts: 2 }));
    h.setClock(new Date(2024, 4, 10, 9, 30, 0));
    const withTopUp = h.begin({ projectId: null, expectedCostMicroUsd: 900_000 });
    h.ledger.recordAnswer(withTopUp, ok(900_000, 800_000 + TOP_UP - 900_000));
    h.ledger.recordCacheHit({
      operation: 'v4.summary',
      requestSummary: {},
      projectId: 'proj_a',
      sessionId: 'sess_1',
      originalRequestId: 'x',
      servedAt: new Date(2024, 4, 9),
    });

    const totals = h.ledger.totals({ sessionId: 'sess_1', now: new Date(2024, 4, 10, 18, 0, 0) });
    expect(totals).toEqual({
      sessionMicroUsd: SUMMARY + 900_000,
      todayMicroUsd: SUMMARY + 900_000,
      allTimeMicroUsd: 2 * SUMMARY + 900_000,
      sessionCreditMicroUsd: TOP_UP,
      todayCreditMicroUsd: TOP_UP,
      allTimeCreditMicroUsd: TOP_UP,
      // Net: what the balance fell by (it rose, with the top-up).
      sessionNetMicroUsd: SUMMARY + 900_000 - TOP_UP,
      todayNetMicroUsd: SUMMARY + 900_000 - TOP_UP,
      allTimeNetMicroUsd: 1_000_000 - (TOP_UP - 100_000),
      byProject: [
        { projectId: null, microUsd: 900_000 },
        { projectId: 'proj_a', microUsd: SUMMARY },
        { projectId: 'proj_b', microUsd: SUMMARY },
      ],
      lastKnownBalanceMicroUsd: TOP_UP - 100_000,
      lastChargeMicroUsd: 900_000,
      lastChargeAt: new Date(2024, 4, 10, 9, 30, 0).toISOString(),
    });
    expect(h.ledger.totals({ sessionId: 'sess_old', now: new Date(2024, 4, 11, 8, 0, 0) })).toMatchObject({
      sessionMicroUsd: SUMMARY,
      todayMicroUsd: 0,
    });
  });

  it('is all zeros and nulls on an empty ledger', () => {
    expect(harness().ledger.totals({ sessionId: 's' })).toEqual({
      sessionMicroUsd: 0,
      todayMicroUsd: 0,
      allTimeMicroUsd: 0,
      sessionCreditMicroUsd: 0,
      todayCreditMicroUsd: 0,
      allTimeCreditMicroUsd: 0,
      sessionNetMicroUsd: 0,
      todayNetMicroUsd: 0,
      allTimeNetMicroUsd: 0,
      byProject: [],
      lastKnownBalanceMicroUsd: null,
      lastChargeMicroUsd: null,
      lastChargeAt: null,
    });
  });
});
