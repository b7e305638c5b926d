// Kill the browser host (the whole core: gateway, ledger, its service child) with SIGKILL while
// charged calls are in flight, start it again on the same data folder, and check the books: every
// charge the service made is in the ledger against its call, or was recovered by replaying its key.
import { afterAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openSampleStore } from '../local-service/sample-store.ts';
import { openAppDatabase } from '../core/app-db.ts';
import { SpendLedger } from '../core/ledger/spend-ledger.ts';
import { spawnBrowserHost, type SpawnedHost } from './spawn-host.ts';
import { connectBridge } from './bridge-client.ts';
import type { BridgeClient } from '../../shared/bridge-protocol.ts';

const children: ChildProcess[] = [];

async function startHost(dataDir: string): Promise<SpawnedHost> {
  const host = await spawnBrowserHost({ dataDir });
  children.push(host.child);
  return host;
}

const clients: BridgeClient[] = [];
function bridge(host: { origin: string; token: string }) {
  const client = connectBridge(host);
  clients.push(client);
  return client.api;
}

afterAll(() => {
  for (const client of clients) client.close();
  for (const child of children) child.kill('SIGKILL');
});

describe('a host killed mid-run', () => {
  it('loses no charge: every one is in the ledger or recovered by replaying its key', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-crash-'));
    const store = openSampleStore();
    const properties = store.searchProperties({ areaUid: 'area_us_dc', limit: 100 }).items.map((p) => p.entity_id);
    store.close();

    const first = await startHost(dataDir);
    const firstBridge = bridge(first);
    // Summaries cost $0.10 and need confirmation; four user actions at a time, each its own key.
    let sent = 0;
    let answered = 0;
    const inFlight = new Set<Promise<unknown>>();
    const fire = () => {
      const index = sent++;
      const call = firstBridge.getEntitySummary({
        request: { path: { q_id: properties[index % properties.length] ?? '' } },
        actionId: `crash-run-${index.toString().padStart(4, '0')}`,
        confirmed: true,
        refresh: true,
      })
        .then(() => answered++)
        .catch(() => undefined)
        .finally(() => inFlight.delete(call));
      inFlight.add(call);
    };
    while (answered < 25) {
      while (inFlight.size < 4) fire();
      await Promise.race(inFlight);
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    // Its service child notices the launcher is gone and exits; give it a moment to close its file.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    // Start again on the same folder: the core replays whatever was left pending before answering.
    const second = await startHost(dataDir);
    const info = await bridge(second).getAppInfo({});
    expect(info.ok).toBe(true);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const serviceDb = new DatabaseSync(path.join(dataDir, 'local-service.db'), { readOnly: true });
    const charges = serviceDb
      .prepare(`SELECT request_id, amount_micro_usd FROM charges WHERE request_id LIKE 'plat-crash-run-%'`)
      .all() as Array<{ request_id: string; amount_micro_usd: number }>;
    serviceDb.close();
    const ledgerDb = openAppDatabase(path.join(dataDir, 'plat.db'));
    const ledger = new SpendLedger(ledgerDb);
    const rows = ledger.list({ limit: 10_000 });
    ledgerDb.close();

    expect(charges.length).toBeGreaterThanOrEqual(25);
    const byKey = new Map(rows.filter((row) => row.idempotencyKey).map((row) => [row.idempotencyKey, row]));
    for (const charge of charges) {
      const row = byKey.get(charge.request_id);
      expect(row, `ledger row for ${charge.request_id}`).toBeDefined();
      expect(row?.totalChargeMicroUsd, charge.request_id).toBe(charge.amount_micro_usd);
      expect(row?.status, charge.request_id).not.toBe('pending');
    }
    // Nothing the ledger books was not charged by the service.
    const serviceTotal = charges.reduce((sum, c) => sum + c.amount_micro_usd, 0);
    const ledgerTotal = rows.filter((r) => r.idempotencyKey?.startsWith('plat-crash-run-')).reduce((sum, r) => sum + r.totalChargeMicroUsd, 0);
    expect(ledgerTotal).toBe(serviceTotal);
    console.log(`crash run: ${sent} sent, ${answered} answered before the kill, ${charges.length} charged, ${rows.filter((r) => r.status === 'recovered').length} recovered after restart`);
  });
});
