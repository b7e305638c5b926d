// When the gateway writes a call to the ledger: ahead of sending when it can charge, once with its
// answer when it cannot. Real gateway, client, ledger and cache against the local service.
import { describe, expect, it } from 'vitest';
import type { SpendEntry } from './ledger/spend-entries.ts';
import type { ResponseCache } from './cache.ts';
import { ServiceClient } from './service-client/index.ts';
import type { ServiceGateway } from './service-gateway.ts';
import { buildTestGateway, useLocalService } from './gateway-test-kit.ts';

const local = useLocalService();

const caches = new WeakMap<ServiceGateway, ResponseCache>();
const cacheOf = (gateway: ServiceGateway) => caches.get(gateway)!;

function buildGateway(options: { failingCache?: boolean } = {}) {
  /** The ledger's rows at the moment each request leaves. */
  const atSending: Array<{ operation: string; rows: SpendEntry[] }> = [];
  const { ledger, cache, gateway } = buildTestGateway({
    client: ({ ledger }) =>
      new ServiceClient({
        baseUrl: local.service.url,
        getApiKey: () => local.service.keys.active,
        onAttempt: (event) => {
          if (event.phase === 'sending') atSending.push({ operation: event.operation, rows: ledger.list({ limit: 100 }) });
        },
      }),
    sessionId: 'gateway-test',
  });
  if (options.failingCache) {
    cache.put = () => {
      throw new Error('disk full');
    };
  }
  caches.set(gateway, cache);
  return { ledger, gateway, atSending };
}

describe('the gateway and the ledger', () => {
  it('writes a call that can charge ahead of sending it, and a free call once, with its answer', async () => {
    const { ledger, gateway, atSending } = buildGateway();
    const property = local.store.searchProperties({ areaUid: 'area_us_dc', limit: 1 }).items[0]!;

    const catalog = await gateway.call({ operation: 'v4.catalog', parts: { query: { jurisdiction: '11001' } } });
    expect(catalog.billing).toMatchObject({ chargedMicroUsd: 0, cacheHit: false });
    expect(atSending).toEqual([{ operation: 'v4.catalog', rows: [] }]);
    // Free, so sent without an Idempotency-Key: there is nothing to replay.
    expect(ledger.list({ limit: 10 }).map((row) => [row.operation, row.status, row.expectedCostMicroUsd, row.idempotencyKey])).toEqual([['v4.catalog', 'succeeded', 0, null]]);

    const summary = await gateway.call({ operation: 'v4.summary', parts: { path: { q_id: property.entity_id } }, actionId: 'open-summary-1' });
    expect(summary.billing).toMatchObject({ chargedMicroUsd: 100_000, replayed: false });
    const sending = atSending.at(-1);
    expect(sending?.operation).toBe('v4.summary');
    expect(sending?.rows[0]).toMatchObject({ operation: 'v4.summary', status: 'pending', idempotencyKey: 'plat-open-summary-1', expectedCostMicroUsd: 100_000 });
    expect(ledger.list({ limit: 1 })[0]).toMatchObject({ operation: 'v4.summary', status: 'succeeded', totalChargeMicroUsd: 100_000 });
  });

  it('books and returns an answer even when keeping a copy of it fails', async () => {
    const { ledger, gateway } = buildGateway({ failingCache: true });
    const property = local.store.searchProperties({ areaUid: 'area_us_dc', limit: 1 }).items[0]!;
    const parts = { path: { q_id: property.entity_id } };
    const answer = await gateway.call({ operation: 'v4.summary', parts, actionId: 'summary-disk-full' });
    expect(answer.billing).toMatchObject({ chargedMicroUsd: 100_000, cacheHit: false });
    // The ledger and the cache commit together; when the cache's part fails, the ledger's goes in alone.
    expect(ledger.list({ limit: 10 }).map((row) => [row.operation, row.status, row.totalChargeMicroUsd])).toEqual([
      ['v4.summary', 'succeeded', 100_000],
      ['v4.catalog', 'succeeded', 0],
    ]);
    expect(ledger.pendingAttempts()).toEqual([]);
    expect(gateway.preview('v4.summary', parts).cached).toBe(false);
  });

  it("keeps a free answer's copy just after the answer goes back, unless the cache was cleared meanwhile", async () => {
    const { gateway } = buildGateway();
    const catalog = { query: { jurisdiction: '11001' } };
    await gateway.call({ operation: 'v4.catalog', parts: catalog });
    await new Promise((resolve) => setImmediate(resolve));
    expect(gateway.preview('v4.catalog', catalog).cached).toBe(true);
    expect((await gateway.call({ operation: 'v4.catalog', parts: catalog })).billing.cacheHit).toBe(true);

    const other = { query: { jurisdiction: '51510' } };
    const answered = await gateway.call({ operation: 'v4.catalog', parts: other });
    expect(answered.billing.cacheHit).toBe(false);
    cacheOf(gateway).clear();
    await new Promise((resolve) => setImmediate(resolve));
    expect(gateway.preview('v4.catalog', other).cached).toBe(false);
  });
});
