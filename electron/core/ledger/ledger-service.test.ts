// The ledger against the real local service with injected faults: half of the faulty calls answer
// 503 before any work, half are charged and then lose their answer (the socket is destroyed), so the
// retry with the same Idempotency-Key is a free replay. The ledger must still account for every
// micro-dollar the service took, call by call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../local-service/server.ts';
import { SEED_CREDIT_MICRO_USD } from '../../local-service/service-state.ts';
import { startTestService, stopTestService } from '../../local-service/test-harness.ts';
import type { TestService } from '../../local-service/test-harness.ts';
import { fakeOperations, fakeStore } from '../../local-service/server-test-kit.ts';
import { openAppDatabase } from '../app-db.ts';
import { SpendLedger } from './spend-ledger.ts';
import type { CallAnswer } from './spend-entries.ts';

// The HTTP layer's fake operations: its auth, billing, replays and faults are what is under test here.
const { operations } = fakeOperations();

const CHARGED_CALLS = 200;
const MAX_ATTEMPTS = 8;

/** Sends with retries on 503 and lost answers, reusing the Idempotency-Key, as the gateway does. */
async function sendWithRetries(svc: TestService, path: string, idempotencyKey: string): Promise<CallAnswer> {
  let last: CallAnswer | undefined;
  for (let attempts = 1; attempts <= MAX_ATTEMPTS; attempts++) {
    try {
      const res = await svc.call(path, { idempotencyKey });
      const body = res.body as { request_id?: string; error?: { code?: string } | null } | undefined;
      last = {
        httpStatus: res.status,
        requestId: body?.request_id ?? null,
        chargedMicroUsd: res.charged,
        balanceAfterMicroUsd: res.balance,
        replayed: res.replayed ?? false,
        errorCode: body?.error?.code ?? null,
        attempts,
      };
      if (res.status !== 503) return last;
    } catch {
      // The connection was dropped: the service may have charged. Retry with the same key.
      last = { httpStatus: null, requestId: null, chargedMicroUsd: null, balanceAfterMicroUsd: null, replayed: false, errorCode: 'network_error', attempts };
    }
  }
  if (!last) throw new Error('no attempt was made');
  return last;
}

describe('spend ledger against the local service with faults', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ operations, store: fakeStore, faultRate: 0.3, random: seededRandom(20240510), rateLimitPerMinute: 100_000 });
  });
  afterAll(async () => {
    await stopTestService(svc);
  });

  it('accounts for every charge to the micro-dollar and never charges a key twice', async () => {
    const db = openAppDatabase(':memory:');
    let ledger = new SpendLedger(db);
    const sessionId = 'sess_integration';
    const expectedCost = (index: number): number => 40_000 + ((index * 7919) % 800_000);

    // Learn the balance with a free call first, so the very first charge can be reconciled.
    const baselineCall = ledger.beginAttempt({
      operation: 'v4.catalog',
      requestSummary: {},
      idempotencyKey: 'baseline',
      expectedCostMicroUsd: 0,
      projectId: null,
      sessionId,
    });
    ledger.recordAnswer(baselineCall, await sendWithRetries(svc, '/api/v4/catalog', 'baseline'));
    expect(ledger.balanceBaseline()?.balanceMicroUsd).toBe(SEED_CREDIT_MICRO_USD);

    // Charged calls one at a time (the gateway serialises them), each with a free call running
    // alongside, so answers within a window arrive in either order.
    for (let index = 0; index < CHARGED_CALLS; index++) {
      const price = expectedCost(index);
      const key = `action-${index}`;
      const freeKey = `browse-${index}`;
      const path = `/api/v4/priced?micro_usd=${price}`;
      const charged = ledger.beginAttempt({
        operation: 'test.priced',
        requestSummary: { path },
        idempotencyKey: key,
        expectedCostMicroUsd: price,
        projectId: `proj_${index % 3}`,
        sessionId,
      });
      const free = ledger.beginAttempt({ operation: 'v4.catalog', requestSummary: {}, idempotencyKey: freeKey, expectedCostMicroUsd: 0, projectId: null, sessionId });
      await Promise.all([
        sendWithRetries(svc, path, key).then((answer) => ledger.recordAnswer(charged, answer)),
        sendWithRetries(svc, '/api/v4/catalog', freeKey).then((answer) => ledger.recordAnswer(free, answer)),
      ]);
    }

    // A crash: the last action is written ahead and charged by the service, but the app dies before
    // the answer is recorded. The next start re-sends it with its key.
    const crashPrice = 123_456;
    const crashPath = `/api/v4/priced?micro_usd=${crashPrice}`;
    const crashed = ledger.beginAttempt({
      operation: 'test.priced',
      requestSummary: { path: crashPath },
      idempotencyKey: 'action-crashed',
      expectedCostMicroUsd: crashPrice,
      projectId: 'proj_0',
      sessionId,
    });
    await sendWithRetries(svc, crashPath, 'action-crashed');
    ledger = new SpendLedger(db); // restart: nothing in flight, one pending attempt on file
    const pending = ledger.pendingAttempts();
    expect(pending.map((entry) => entry.id)).toEqual([crashed]);
    ledger.recordRecovery(crashed, await sendWithRetries(svc, crashPath, 'action-crashed'));
    expect(ledger.pendingAttempts()).toEqual([]);

    const charges = svc.service.state.charges('acct_active');
    const topUps = svc.service.state.topUps('acct_active');
    const serviceCharged = charges.reduce((sum, charge) => sum + charge.amountMicroUsd, 0);
    const toppedUp = topUps.reduce((sum, topUp) => sum + topUp.amountMicroUsd, 0);
    const finalBalance = svc.balance('active');

    // No Idempotency-Key was charged twice.
    const keys = charges.map((charge) => charge.requestId);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(CHARGED_CALLS + 1);

    // Ledger charges == the balance drop plus top-ups, to the micro-dollar; credits == top-ups.
    const entries = ledger.list({ limit: 10_000 });
    const totals = ledger.totals({ sessionId });
    expect(totals.allTimeMicroUsd).toBe(serviceCharged);
    expect(totals.allTimeMicroUsd).toBe(SEED_CREDIT_MICRO_USD + toppedUp - finalBalance);
    expect(totals.sessionMicroUsd).toBe(serviceCharged);
    expect(totals.lastKnownBalanceMicroUsd).toBe(finalBalance);
    const credits = entries.filter((entry) => entry.kind === 'credit').reduce((sum, entry) => sum + entry.creditMicroUsd, 0);
    expect(credits).toBe(toppedUp);

    // And call by call: every charge sits on the row of the call it belongs to.
    expect(entries.filter((entry) => entry.kind === 'reconciliation')).toEqual([]);
    const serviceByKey = new Map(charges.map((charge) => [charge.requestId, charge.amountMicroUsd]));
    for (const entry of entries.filter((row) => row.kind === 'call')) {
      expect(entry.status === 'succeeded' || entry.status === 'recovered').toBe(true);
      expect([entry.idempotencyKey, entry.totalChargeMicroUsd]).toEqual([entry.idempotencyKey, serviceByKey.get(entry.idempotencyKey ?? '') ?? 0]);
    }

    // The run did exercise what it is meant to: lost answers, top-ups and a crash recovery.
    expect(topUps.length).toBeGreaterThanOrEqual(2);
    expect(entries.filter((entry) => entry.unreportedChargeMicroUsd > 0).length).toBeGreaterThanOrEqual(10);
    expect(ledger.get(crashed)).toMatchObject({ status: 'recovered', replayed: true, unreportedChargeMicroUsd: crashPrice });
    db.close();
  });
});
