// Issue-level proof of "every cent known, never charged twice": 1,000 mixed calls through the real
// gateway, client, ledger and cache against the real local service (real operations over the sample)
// with injected faults (503s and answers dropped after charging) and a low rate limit. Time is
// virtual: the client's waits advance the service's clock, so a minute of rate limit costs nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalService, seededRandom, type LocalService } from '../local-service/server.ts';
import { localOperations } from '../local-service/operations/index.ts';
import { openSampleStore, type SampleStore } from '../local-service/sample-store.ts';
import { SEED_CREDIT_MICRO_USD } from '../local-service/service-state.ts';
import { encodeSearchFilter, type ServiceOperationName } from '../../shared/service/index.ts';
import { ServiceClient } from './service-client/index.ts';
import type { GatewayCall } from './service-gateway.ts';
import { buildTestGateway } from './gateway-test-kit.ts';

let virtualMs = Date.parse('2026-11-22T09:00:00Z');
const clock = () => new Date(virtualMs);
const sleep = async (ms: number) => {
  virtualMs += Math.max(0, Math.ceil(ms));
  await Promise.resolve();
};

let store: SampleStore;
let service: LocalService;

beforeAll(async () => {
  store = openSampleStore();
  service = await createLocalService({
    operations: localOperations,
    store,
    faultRate: 0.2,
    rateLimitPerMinute: 30,
    clock,
    random: seededRandom(20261122),
  });
});
afterAll(async () => {
  await service.close();
  store.close();
});

function buildGateway(dbPath: string) {
  const client = new ServiceClient({
    baseUrl: service.url,
    getApiKey: () => service.keys.active,
    sleep,
    now: () => virtualMs,
    random: seededRandom(99),
    maxAttempts: 6,
    timeoutMs: 10_000,
  });
  const { db, ledger, gateway } = buildTestGateway({ dbPath, client, sessionId: 'fault-run', ledger: { now: clock }, now: clock });
  return { db, ledger, gateway };
}

/** A varied diet of calls an appraiser and a title researcher would make, some charged, some free. */
function mixedCalls(count: number): GatewayCall[] {
  const properties = store.searchProperties({ areaUid: 'area_us_dc', limit: 100 }).items;
  const owners = properties.map((p) => String(p.attributes.owner_name ?? '')).filter(Boolean);
  const calls: GatewayCall[] = [];
  for (let i = 0; i < count; i++) {
    const property = properties[i % properties.length]!;
    const owner = owners[i % owners.length]!;
    const actionId = `fault-run-${i.toString().padStart(5, '0')}`;
    const pick = i % 10;
    const call = (operation: ServiceOperationName, parts: GatewayCall['parts']): GatewayCall => ({ operation, parts, actionId, refresh: true });
    if (pick === 0 || pick === 5) {
      calls.push(call('v4.search', { query: { jurisdiction: '11001', kind: 'ownership', filter: encodeSearchFilter({ conditions: [{ field: 'owner', op: 'eq', value: owner }] }), limit: 10 } }));
    } else if (pick === 1) {
      // No such owner: a 404, free.
      calls.push(call('v4.search', { query: { jurisdiction: '11001', kind: 'ownership', filter: encodeSearchFilter({ conditions: [{ field: 'owner', op: 'eq', value: `NOBODY ${i}` }] }) } }));
    } else if (pick === 2) {
      calls.push(call('v4.summary', { path: { q_id: property.entity_id } }));
    } else if (pick === 3) {
      calls.push(call('v4.catalog', { query: { jurisdiction: i % 20 === 3 ? '24031' : '11001' } }));
    } else if (pick === 4) {
      calls.push(call('v3.recordQuery', { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: property.entity_id } }));
    } else if (pick === 6) {
      // Charged and takes no Idempotency-Key: a lost answer is reconciled from the balance.
      calls.push(call('v2.getEntity', { path: { entity_ref: property.entity_id } }));
    } else if (pick === 7) {
      calls.push(call('v2.resolveEntities', { body: { items: [{ client_id: 'a', subject_kind: 'identifier', identifiers: [{ scheme: 'ssl', value: String(property.attributes.ssl ?? '0000    0000') }] }] } }));
    } else if (pick === 8) {
      calls.push(call('v2.searchProperties', { body: { area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value: owner.slice(0, 6) }], limit: 5, projection: 'identity_summary' } }));
    } else {
      calls.push(call('v3.recordQuery', { body: { mode: 'report', projection: 'report_comparables_v1', subject_property_ref: property.entity_id, radius_miles: 0.25, limit: 5 } }));
    }
  }
  return calls;
}

describe('1,000 mixed calls under faults and a low rate limit', () => {
  it('end with the ledger equal to the balance drop to the micro-dollar, and no request charged twice', { timeout: 240_000 }, async () => {
    const { ledger, gateway, db } = buildGateway(path.join(mkdtempSync(path.join(tmpdir(), 'plat-faults-')), 'plat.db'));
    const calls = mixedCalls(1000);
    let succeeded = 0;
    let failed = 0;
    // Four user actions at a time, as several views would ask at once; the gateway serialises them.
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < calls.length) {
          const call = calls[next++]!;
          await gateway.call(call).then(
            () => succeeded++,
            () => failed++,
          );
        }
      }),
    );
    // Answers lost on the last attempt are replayed free now, as at the next start.
    await gateway.recoverPending();
    // One more free call so the last window of calls is reconciled against a fresh balance.
    await gateway.call({ operation: 'v4.catalog', parts: { query: {} }, refresh: true }).catch(() => undefined);

    const account = service.state.accountOfKey(service.keys.active)!;
    const charges = service.state.charges(account.id);
    const topUps = service.state.topUps(account.id).reduce((sum, row) => sum + row.amountMicroUsd, 0);
    const serviceCharged = charges.reduce((sum, row) => sum + row.amountMicroUsd, 0);
    const balanceDrop = SEED_CREDIT_MICRO_USD + topUps - account.balanceMicroUsd;
    const totals = ledger.totals({ sessionId: 'fault-run', now: clock() });

    expect(succeeded).toBeGreaterThan(700);
    expect(serviceCharged).toBe(balanceDrop);
    expect(totals.allTimeMicroUsd).toBe(balanceDrop);
    expect(ledger.pendingAttempts().filter((entry) => entry.idempotencyKey !== null)).toEqual([]);
    // Serialised calls leave nothing unattributed: every unseen charge is booked on its own call.
    expect(ledger.list({ limit: 10_000 }).filter((row) => row.kind === 'reconciliation')).toEqual([]);

    // The service charged each request id (the Idempotency-Key when one was sent) at most once.
    const chargedIds = charges.map((row) => row.requestId);
    expect(new Set(chargedIds).size).toBe(chargedIds.length);
    // And every keyed charge is booked against the call that made it, not just in the total.
    const rows = ledger.list({ limit: 10_000 });
    const bookedByKey = new Map(rows.filter((row) => row.idempotencyKey).map((row) => [row.idempotencyKey, row.totalChargeMicroUsd]));
    for (const row of charges.filter((c) => c.requestId.startsWith('plat-'))) {
      expect(bookedByKey.get(row.requestId), row.requestId).toBe(row.amountMicroUsd);
    }
    console.log(
      `fault run: ${succeeded} succeeded, ${failed} failed, ${charges.length} charges, service ${serviceCharged} µUSD, ledger ${totals.allTimeMicroUsd} µUSD, ` +
        `top-ups ${topUps}, unattributed reconciliation rows ${rows.filter((r) => r.kind === 'reconciliation').length}`,
    );
    db.close();
  });
});
