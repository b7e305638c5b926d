// Reconciliation: charges no answer reported, top-ups, and windows whose answers came out of order.
import { describe, expect, it } from 'vitest';
import type { CallAnswer } from './spend-entries.ts';
import { adjustmentRows, harness, harnessAtBalance, ok, observe, rows, SUMMARY, TOP_UP } from './ledger-test-kit.ts';

describe('reconciliation', () => {
  it('attributes a charge whose answer was lost to the call whose retry came back replayed', () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    // Attempt 1 was charged but its answer lost; attempt 2 is a free replay with the current balance.
    h.ledger.recordAnswer(callId, ok(0, 24_900_000, { replayed: true, attempts: 2 }));
    expect(h.ledger.get(callId)).toMatchObject({ chargedMicroUsd: 0, unreportedChargeMicroUsd: SUMMARY, totalChargeMicroUsd: SUMMARY });
    expect(adjustmentRows(h.ledger)).toEqual([]);
    expect(h.ledger.totals({ sessionId: 'sess_1' })).toMatchObject({ allTimeMicroUsd: SUMMARY, lastKnownBalanceMicroUsd: 24_900_000 });
  });

  it('does not attribute anything to a replay of a charge it already saw', () => {
    const h = harnessAtBalance(25_000_000);
    const first = h.begin({ idempotencyKey: 'same' });
    h.ledger.recordAnswer(first, ok(SUMMARY, 24_900_000));
    const again = h.begin({ idempotencyKey: 'same' });
    h.ledger.recordAnswer(again, ok(0, 24_900_000, { replayed: true }));
    expect(h.ledger.get(again)?.totalChargeMicroUsd).toBe(0);
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(SUMMARY);
  });

  it('attributes a lost charge to a call that got no answer at all', () => {
    const h = harnessAtBalance(25_000_000);
    const silent = h.begin();
    h.ledger.recordAnswer(silent, { ...ok(0, 0), httpStatus: null, chargedMicroUsd: null, balanceAfterMicroUsd: null, attempts: 4 });
    // The next call sees the balance the silent one left behind.
    const next = h.begin();
    h.ledger.recordAnswer(next, ok(SUMMARY, 24_800_000));
    expect(h.ledger.get(silent)).toMatchObject({ status: 'pending', unreportedChargeMicroUsd: SUMMARY });
    // Recovering it later replays a charge the ledger has now seen: nothing more is added.
    h.ledger.recordRecovery(silent, ok(0, 24_800_000, { replayed: true }));
    expect(h.ledger.get(silent)).toMatchObject({ status: 'recovered', totalChargeMicroUsd: SUMMARY });
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(2 * SUMMARY);
    expect(adjustmentRows(h.ledger)).toEqual([]);
  });

  it('books a gap it cannot attribute as a reconciliation entry', () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin({ sessionId: 'sess_2' });
    // Reported 0.10, yet the balance fell by 0.35 (another client on the account, say).
    h.ledger.recordAnswer(callId, ok(SUMMARY, 24_650_000));
    expect(h.ledger.get(callId)?.unreportedChargeMicroUsd).toBe(0);
    const adjustments = adjustmentRows(h.ledger);
    expect(adjustments).toMatchObject([
      { kind: 'reconciliation', status: 'recorded', unreportedChargeMicroUsd: 250_000, creditMicroUsd: 0, projectId: null, sessionId: 'sess_2', balanceAfterMicroUsd: 24_650_000 },
    ]);
    expect(h.ledger.totals({ sessionId: 'sess_2' }).sessionMicroUsd).toBe(350_000);
  });

  it('attributes the expected price and books the excess separately when the gap exceeds it', () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, ok(0, 24_850_000, { replayed: true, attempts: 2 }));
    expect(h.ledger.get(callId)?.unreportedChargeMicroUsd).toBe(SUMMARY);
    expect(rows(h.ledger).filter((entry) => entry.kind === 'reconciliation').map((entry) => entry.unreportedChargeMicroUsd)).toEqual([50_000]);
  });

  it('records a top-up as a credit, never as a negative charge', () => {
    const h = harnessAtBalance(100_000);
    const callId = h.begin({ expectedCostMicroUsd: 150_000 });
    // 0.15 charged against 0.10 of credit: the service tops up 25.00 first.
    h.ledger.recordAnswer(callId, ok(150_000, 100_000 + TOP_UP - 150_000));
    expect(h.ledger.get(callId)).toMatchObject({ totalChargeMicroUsd: 150_000, unreportedChargeMicroUsd: 0 });
    const adjustments = adjustmentRows(h.ledger);
    expect(adjustments).toMatchObject([{ kind: 'credit', creditMicroUsd: TOP_UP, unreportedChargeMicroUsd: 0, totalChargeMicroUsd: 0 }]);
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(150_000);
  });

  it('separates a top-up from a lost charge that caused it', () => {
    const h = harnessAtBalance(100_000);
    const callId = h.begin({ expectedCostMicroUsd: 150_000 });
    h.ledger.recordAnswer(callId, ok(0, 100_000 + TOP_UP - 150_000, { replayed: true, attempts: 2 }));
    expect(h.ledger.get(callId)?.unreportedChargeMicroUsd).toBe(150_000);
    expect(rows(h.ledger).filter((entry) => entry.kind === 'credit').map((entry) => entry.creditMicroUsd)).toEqual([TOP_UP]);
  });

  it('takes the first balance as the baseline without reconciling', () => {
    const h = harness();
    expect(h.ledger.balanceBaseline()).toBeNull();
    const callId = h.begin();
    h.ledger.recordAnswer(callId, ok(SUMMARY, 24_900_000));
    expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(24_900_000);
    expect(adjustmentRows(h.ledger)).toEqual([]);
  });

  it('keeps the baseline when a window brings no balance, and carries the rows forward', () => {
    const h = harnessAtBalance(25_000_000);
    const failed = h.begin();
    h.ledger.recordAnswer(failed, { ...ok(0, 0), httpStatus: 503, chargedMicroUsd: null, balanceAfterMicroUsd: null, errorCode: 'service_unavailable' });
    expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(25_000_000);
    const next = h.begin();
    h.ledger.recordAnswer(next, ok(SUMMARY, 24_900_000));
    expect(adjustmentRows(h.ledger)).toEqual([]);
  });

  it('forgets the baseline when the account changes', () => {
    const h = harnessAtBalance(25_000_000);
    h.ledger.resetBalanceBaseline();
    observe(h, 3_000_000); // another key, another account: not a 22.00 charge
    expect(adjustmentRows(h.ledger)).toEqual([]);
    expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(3_000_000);
  });

  describe('out-of-order answers', () => {
    it('ignores a free call whose stale balance arrives after a charged call', () => {
      const h = harnessAtBalance(25_000_000);
      const charged = h.begin();
      const free = h.free();
      h.ledger.recordAnswer(charged, ok(SUMMARY, 24_900_000));
      // Served before the charge, answered after it: its balance is the old one.
      h.ledger.recordAnswer(free, ok(0, 25_000_000));
      expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(24_900_000);
      // A naive "latest header wins" would now book a 0.10 credit here, then a 0.10 gap on the next call.
      const next = h.begin();
      h.ledger.recordAnswer(next, ok(SUMMARY, 24_800_000));
      expect(adjustmentRows(h.ledger)).toEqual([]);
      expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(2 * SUMMARY);
    });

    it('reconciles a window only once nothing is in flight', () => {
      const h = harnessAtBalance(25_000_000);
      const free = h.free();
      const charged = h.begin();
      h.ledger.recordAnswer(free, ok(0, 24_900_000)); // served after the charge
      expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(25_000_000); // window still open
      h.ledger.recordAnswer(charged, ok(SUMMARY, 24_900_000));
      expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(24_900_000);
      expect(adjustmentRows(h.ledger)).toEqual([]);
    });

    it('orders overlapping charged calls by their balances when they are consistent', () => {
      const h = harnessAtBalance(1_000_000);
      const a = h.begin();
      const b = h.begin();
      h.ledger.recordAnswer(b, ok(SUMMARY, 800_000)); // served second, answered first
      h.ledger.recordAnswer(a, ok(SUMMARY, 900_000));
      expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(800_000);
      expect(adjustmentRows(h.ledger)).toEqual([]);
    });

    it('books an ambiguous window unattributed, and the net still matches the balance', () => {
      const h = harnessAtBalance(1_000_000);
      const a = h.begin();
      const b = h.begin();
      // a was charged (900k) and its answer lost; b charged (800k); a's retry replays at 800k.
      h.ledger.recordAnswer(b, ok(SUMMARY, 800_000));
      h.ledger.recordAnswer(a, ok(0, 800_000, { replayed: true, attempts: 2 }));
      expect(h.ledger.get(a)?.unreportedChargeMicroUsd).toBe(0);
      const adjustments = adjustmentRows(h.ledger);
      expect(adjustments).toMatchObject([{ kind: 'reconciliation', unreportedChargeMicroUsd: SUMMARY }]);
      expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(1_000_000 - 800_000);
    });
  });
});

describe('a charge whose answer was lost before a plain failure', () => {
  const lostThen503 = (extra: Partial<CallAnswer> = {}): CallAnswer => ({
    ...ok(0, 0),
    httpStatus: 503,
    chargedMicroUsd: null,
    balanceAfterMicroUsd: null,
    errorCode: 'service_unavailable',
    attempts: 4,
    outcomeUnknown: true,
    ...extra,
  });

  it('keeps the call pending, a candidate, and books the charge the next balance shows against it', () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, lostThen503());
    expect(h.ledger.get(callId)).toMatchObject({ status: 'pending', httpStatus: 503, errorCode: 'service_unavailable', reconciled: false });
    observe(h, 24_900_000);
    expect(h.ledger.get(callId)).toMatchObject({ status: 'pending', unreportedChargeMicroUsd: SUMMARY, reconciled: true });
    expect(adjustmentRows(h.ledger)).toEqual([]);
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(SUMMARY);
  });

  it("measures it at once when the failure's answer carries the balance", () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, lostThen503({ balanceAfterMicroUsd: 24_900_000 }));
    expect(h.ledger.get(callId)).toMatchObject({ status: 'pending', unreportedChargeMicroUsd: SUMMARY, reconciled: true });
  });

  it('books it on the first try, not on the retry whose replay shows it (one charge, one candidate)', () => {
    const h = harnessAtBalance(25_000_000);
    const first = h.begin({ idempotencyKey: 'plat-action-1' });
    h.ledger.recordAnswer(first, lostThen503());
    // The person tries again: same action, same key, a free replay with the balance after the charge.
    const retry = h.begin({ idempotencyKey: 'plat-action-1' });
    h.ledger.recordAnswer(retry, ok(0, 24_900_000, { replayed: true }));
    expect(h.ledger.get(first)).toMatchObject({ unreportedChargeMicroUsd: SUMMARY });
    expect(h.ledger.get(retry)).toMatchObject({ status: 'succeeded', totalChargeMicroUsd: 0 });
    expect(adjustmentRows(h.ledger)).toEqual([]);
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(SUMMARY);
  });
});
