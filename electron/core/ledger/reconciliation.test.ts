// Reconciliation: charges no answer reported, top-ups, and windows whose answers came out of order.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
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
    // Only a free call in the window, yet the balance fell by 0.25 (another client on the account, say).
    h.ledger.recordAnswer(h.free({ sessionId: 'sess_2' }), ok(0, 24_750_000));
    const adjustments = adjustmentRows(h.ledger);
    expect(adjustments).toMatchObject([
      { kind: 'reconciliation', status: 'recorded', unreportedChargeMicroUsd: 250_000, creditMicroUsd: 0, projectId: null, sessionId: 'sess_2', balanceAfterMicroUsd: 24_750_000 },
    ]);
    expect(h.ledger.totals({ sessionId: 'sess_2' }).sessionMicroUsd).toBe(250_000);
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

describe('a service that misreports its charges: the balance drop is the truth', () => {
  const fromTo = (h: ReturnType<typeof harness>) => h.ledger.totals({ sessionId: 'sess_1' });

  it('books what the balance fell by when the header is inflated, keeps what it said, and marks the row', () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    const closed = h.ledger.recordAnswer(callId, ok(500_000, 24_900_000));
    expect(closed).toMatchObject({ totalChargeMicroUsd: SUMMARY, chargeCheck: 'disagrees' });
    expect(h.ledger.get(callId)).toMatchObject({
      chargedMicroUsd: 500_000,
      overstatedChargeMicroUsd: 400_000,
      totalChargeMicroUsd: SUMMARY,
      chargeCheck: 'disagrees',
    });
    // Not a 0.40 "credit": the balance never rose.
    expect(adjustmentRows(h.ledger)).toEqual([]);
    expect(fromTo(h)).toMatchObject({ allTimeMicroUsd: SUMMARY, sessionMicroUsd: SUMMARY, allTimeNetMicroUsd: SUMMARY, byProject: [{ projectId: 'proj_a', microUsd: SUMMARY }] });
  });

  it('books the drop on the call when the header says less than the balance fell', () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, ok(50_000, 24_900_000));
    expect(h.ledger.get(callId)).toMatchObject({ chargedMicroUsd: 50_000, unreportedChargeMicroUsd: 50_000, totalChargeMicroUsd: SUMMARY, chargeCheck: 'disagrees' });
    expect(adjustmentRows(h.ledger)).toEqual([]);
  });

  it.each([
    ['negative', '-100000'],
    ['garbage', 'ten cents'],
  ])('books the drop when the header is %s, keeping the header as sent', (_label, header) => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, ok(0, 24_900_000, { chargedMicroUsd: null, chargeHeader: header }));
    expect(h.ledger.get(callId)).toMatchObject({ chargedMicroUsd: null, chargeHeader: header, totalChargeMicroUsd: SUMMARY, chargeCheck: 'unreadable' });
    expect(adjustmentRows(h.ledger)).toEqual([]);
    expect(fromTo(h)).toMatchObject({ allTimeMicroUsd: SUMMARY, allTimeNetMicroUsd: SUMMARY });
  });

  it('books nothing for a failed call whose header claims a charge the balance does not show', () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, ok(SUMMARY, 25_000_000, { httpStatus: 400, errorCode: 'invalid_request' }));
    expect(h.ledger.get(callId)).toMatchObject({ status: 'failed', chargedMicroUsd: SUMMARY, overstatedChargeMicroUsd: SUMMARY, totalChargeMicroUsd: 0, chargeCheck: 'failed_call' });
    expect(adjustmentRows(h.ledger)).toEqual([]);
    expect(fromTo(h)).toMatchObject({ allTimeMicroUsd: 0, allTimeCreditMicroUsd: 0, allTimeNetMicroUsd: 0 });
  });

  it('takes back a failed call\'s header in the next window when the failure carried no balance', () => {
    const h = harnessAtBalance(25_000_000);
    const failed = h.begin();
    h.ledger.recordAnswer(failed, ok(SUMMARY, 0, { httpStatus: 404, errorCode: 'not_found', balanceAfterMicroUsd: null }));
    const next = h.begin();
    h.ledger.recordAnswer(next, ok(SUMMARY, 24_900_000));
    expect(h.ledger.get(failed)).toMatchObject({ totalChargeMicroUsd: 0, chargeCheck: 'failed_call' });
    expect(h.ledger.get(next)).toMatchObject({ totalChargeMicroUsd: SUMMARY, chargeCheck: null });
    expect(fromTo(h).allTimeMicroUsd).toBe(SUMMARY);
  });

  it('books a charge on a failed call that the balance shows, marked', () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, ok(SUMMARY, 24_900_000, { httpStatus: 422, errorCode: 'response_too_large' }));
    expect(h.ledger.get(callId)).toMatchObject({ totalChargeMicroUsd: SUMMARY, chargeCheck: 'failed_call' });
  });

  it('keeps a header the balance bears out through a top-up, with the top-up as a credit that counts in the net', () => {
    const h = harnessAtBalance(100_000);
    const callId = h.begin({ expectedCostMicroUsd: 150_000 });
    h.ledger.recordAnswer(callId, ok(150_000, 100_000 + TOP_UP - 150_000));
    expect(h.ledger.get(callId)).toMatchObject({ totalChargeMicroUsd: 150_000, chargeCheck: null });
    expect(fromTo(h)).toMatchObject({ allTimeMicroUsd: 150_000, allTimeCreditMicroUsd: TOP_UP, allTimeNetMicroUsd: 150_000 - TOP_UP });
  });

  it('keeps the net equal to the balance drop through every kind of misreport, to the micro-dollar', () => {
    const start = 25_000_000;
    const h = harnessAtBalance(start);
    let balance = start;
    const charge = (header: Partial<CallAnswer>, cost: number, extra: Partial<CallAnswer> = {}) => {
      balance -= cost;
      h.ledger.recordAnswer(h.begin(), ok(0, balance, { ...header, ...extra }));
    };
    charge({ chargedMicroUsd: 777_777 }, 123_457); // inflated
    charge({ chargedMicroUsd: null, chargeHeader: '-5' }, 30_001); // negative
    charge({ chargedMicroUsd: null, chargeHeader: '1e5' }, 100_000); // garbage
    charge({ chargedMicroUsd: SUMMARY }, 0, { httpStatus: 503, errorCode: 'service_unavailable' }); // on a failure
    charge({ chargedMicroUsd: 1 }, 99_999); // understated
    charge({ chargedMicroUsd: null }, 20_000); // missing
    balance += TOP_UP; // a top-up, seen by a free call
    observe(h, balance);
    charge({ chargedMicroUsd: SUMMARY }, SUMMARY); // honest
    const totals = fromTo(h);
    expect(totals.allTimeNetMicroUsd).toBe(start - balance);
    expect(totals.allTimeMicroUsd).toBe(123_457 + 30_001 + 100_000 + 99_999 + 20_000 + SUMMARY);
    expect(totals.allTimeCreditMicroUsd).toBe(TOP_UP);
    expect(rows(h.ledger).map((entry) => entry.chargeCheck).filter(Boolean)).toEqual(['disagrees', 'unreadable', 'unreadable', 'failed_call', 'disagrees', 'missing']);
    expect(adjustmentRows(h.ledger).map((entry) => entry.kind)).toEqual(['credit']);
  });

  it('does not let a plain failure without a balance stand in the way of the next call\'s correction', () => {
    const h = harnessAtBalance(25_000_000);
    // A 404 the service did not charge, answered without a balance: its window stays open.
    h.ledger.recordAnswer(h.begin(), ok(0, 0, { httpStatus: 404, errorCode: 'not_found', chargedMicroUsd: null, balanceAfterMicroUsd: null }));
    const next = h.begin();
    h.ledger.recordAnswer(next, ok(300_000, 24_900_000));
    expect(h.ledger.get(next)).toMatchObject({ totalChargeMicroUsd: SUMMARY, chargeCheck: 'disagrees' });
    expect(adjustmentRows(h.ledger)).toEqual([]);
  });

  it('writes the mark in the CSV: what the service said, what the balance fell by, what Plat booked', () => {
    const h = harnessAtBalance(25_000_000);
    h.ledger.recordAnswer(h.begin(), ok(500_000, 24_900_000));
    h.ledger.recordAnswer(h.begin(), ok(0, 24_800_000, { chargedMicroUsd: null, chargeHeader: 'ten cents' }));
    const records = (parse(h.ledger.exportCsv(), { columns: true }) as Array<Record<string, string>>).filter((record) => record['operation'] === 'v4.summary');
    expect(records.map((record) => [record['charge_check'], record['total_charge_usd'], record['charge_note']])).toEqual([
      ['unreadable', '$0.10', 'The service reported “ten cents” (not an amount); its balance fell by $0.10: Plat booked $0.10'],
      ['disagrees', '$0.10', 'The service reported $0.50; its balance fell by $0.10: Plat booked $0.10'],
    ]);
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

describe('a call whose answer carried no readable balance', () => {
  it('is measured by the free call after it, and the drop is booked on it, not as an unattributed row', () => {
    const h = harnessAtBalance(25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, ok(0, 0, { chargedMicroUsd: null, chargeHeader: 'NaN', balanceAfterMicroUsd: null }));
    expect(h.ledger.get(callId)).toMatchObject({ reconciled: false, chargeCheck: 'unreadable' });
    observe(h, 24_900_000);
    expect(h.ledger.get(callId)).toMatchObject({ reconciled: true, totalChargeMicroUsd: SUMMARY, chargeCheck: 'unreadable' });
    expect(adjustmentRows(h.ledger)).toEqual([]);
  });
});
