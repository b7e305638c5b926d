// The gateway and the ledger when things go wrong around a paid call: a request larger than a
// summary, a request that holds text like a credential (or the key itself), a charge whose answer
// was lost before plain failures, and a disk that refuses writes. Real gateway, client, ledger and
// cache against the local service; fetch-shaped transports script what the service never does.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { SpendSnapshot } from '../../shared/ipc.ts';
import type { EventHub } from './events.ts';
import { ServiceClient, type AttemptEvent } from './service-client/index.ts';
import { buildTestGateway, failureOf, fillDisk, freeSpace, useLocalService } from './gateway-test-kit.ts';
import { adjustmentRows } from './ledger/ledger-test-kit.ts';

const local = useLocalService();
const dirs: string[] = [];
const cleanups: Array<() => void> = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plat-gateway-ledger-'));
  dirs.push(dir);
  return join(dir, 'plat.db');
}

interface BuildOptions {
  dbPath?: string;
  transport?: typeof fetch;
  onAttempt?: (event: AttemptEvent) => void;
}

function build(options: BuildOptions = {}) {
  const client = new ServiceClient({
    baseUrl: local.service.url,
    getApiKey: () => local.service.keys.active,
    // Waits between attempts take no time: what is under test is what happens, not when.
    sleep: async () => {},
    random: () => 0,
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
  });
  const { db, ledger, gateway, events, close } = buildTestGateway({
    dbPath: options.dbPath,
    client,
    sessionId: 'gateway-ledger',
    ledger: { secrets: () => [local.service.keys.active] },
  });
  cleanups.push(close);
  return { db, ledger, gateway, events };
}

const { chargesFor: serviceCharges, property } = local;

/** 100 resolution items, the first an address on Bearer Ct: far over the 8 KiB a summary keeps. */
function hundredItems() {
  const refs = local.store.searchProperties({ areaUid: 'area_us_dc', limit: 99, offset: 200 }).items.map((item) => item.entity_id);
  return [
    { client_id: 'bearer-ct', subject_kind: 'address', identifiers: [{ scheme: 'address', value: '12 Bearer Ct' }] },
    ...refs.map((ref, index) => ({ client_id: `property-${index}`, subject_kind: 'identifier', identifiers: [{ scheme: 'entity_ref', value: ref }] })),
  ];
}

describe('large requests and what a summary keeps', () => {
  it('resolves 100 items as the preview priced them, with a bounded summary that keeps "12 Bearer Ct"', async () => {
    const { ledger, gateway } = build();
    const parts = { body: { items: hundredItems() } };
    expect(JSON.stringify(parts).length).toBeGreaterThan(8192);
    const preview = gateway.preview('v2.resolveEntities', parts);
    expect(preview.expectedCostMicroUsd).toBeGreaterThan(0);

    const answer = await gateway.call({ operation: 'v2.resolveEntities', parts, actionId: 'resolve-100' });
    const charged = serviceCharges('plat-resolve-100');
    expect(charged).toHaveLength(1);
    expect(answer.billing.chargedMicroUsd).toBe(charged[0]);
    const [row] = ledger.list({ limit: 1 });
    expect(row).toMatchObject({ operation: 'v2.resolveEntities', status: 'succeeded', totalChargeMicroUsd: charged[0] });
    const summary = JSON.stringify(row?.requestSummary);
    expect(summary.length).toBeLessThanOrEqual(8192);
    expect(summary).toContain('12 Bearer Ct');
    expect(summary).not.toContain('[redacted]');
  });

  it('replays a 100-item resolve left pending by a crash with the identical request: free, and booked on its row', async () => {
    const path = tempDbPath();
    const parts = { body: { items: hundredItems() } };
    let charged!: () => void;
    const wasCharged = new Promise<void>((resolve) => (charged = resolve));
    // The service does the call and charges it, then the app dies before reading the answer.
    const crashing: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).includes('/api/v2/resolutions')) return response;
      await response.text();
      charged();
      return new Promise<Response>(() => {});
    };
    const before = build({ dbPath: path, transport: crashing });
    void before.gateway.call({ operation: 'v2.resolveEntities', parts, actionId: 'resolve-crash' });
    await wasCharged;
    before.gateway.dispose();
    before.db.close();
    const charges = serviceCharges('plat-resolve-crash');
    expect(charges).toHaveLength(1);

    const after = build({ dbPath: path });
    const [pending] = after.ledger.pendingAttempts();
    expect(pending?.idempotencyKey).toBe('plat-resolve-crash');
    expect(JSON.stringify(pending?.request)).toBe(JSON.stringify(parts));
    expect(await after.gateway.recoverPending()).toEqual({ recovered: 1, unresolved: 0 });
    // Not a 409 (a different request under the key) and not a second charge: a replay.
    expect(serviceCharges('plat-resolve-crash')).toEqual(charges);
    expect(after.ledger.get(pending?.id ?? 0)).toMatchObject({ status: 'recovered', httpStatus: 200, replayed: true, totalChargeMicroUsd: charges[0] });
    expect(adjustmentRows(after.ledger)).toEqual([]);
  });

  it('never writes the API key, even when a request holds it, in any row, column or CSV', async () => {
    const key = local.service.keys.active;
    const dumps: string[] = [];
    const opened: { db?: DatabaseSync } = {};
    const dump = () => dumps.push(JSON.stringify(opened.db?.prepare('SELECT * FROM spend_ledger').all()));
    const built = build({ onAttempt: (event) => event.phase === 'sending' && dump() });
    opened.db = built.db;
    const parts = { body: { items: [{ client_id: 'pasted', subject_kind: 'address', identifiers: [{ scheme: 'address', value: `Owner ${key}` }] }] } };
    await built.gateway.call({ operation: 'v2.resolveEntities', parts, actionId: 'pasted-key' });
    dump();
    expect(dumps.length).toBeGreaterThanOrEqual(2);
    for (const text of dumps) expect(text).not.toContain(key);
    expect(built.ledger.exportCsv()).not.toContain(key);
    expect(JSON.stringify(built.ledger.list({ limit: 1 })[0]?.requestSummary)).toContain('Owner [redacted]');
  });
});

describe('a charge whose answer was lost, then plain failures', () => {
  const unavailable = () =>
    new Response(JSON.stringify({ error: { code: 'service_unavailable', message: 'Temporarily unavailable; retry.', retryable: true } }), {
      status: 503,
      headers: { 'Content-Type': 'application/json' },
    });

  /** The first summary attempt is done and charged but its answer is lost; the next three get 503s. */
  function lostThenUnavailable(options: { catalogDownAfterLoss: boolean }) {
    let summaryAttempts = 0;
    let catalogDown = false;
    const state = {
      restore: () => {
        catalogDown = false;
      },
      transport: (async (input, init) => {
        const url = String(input);
        if (url.includes('/catalog') && catalogDown) return unavailable();
        if (!url.includes('/summary')) return fetch(input, init);
        summaryAttempts++;
        if (summaryAttempts === 1) {
          await (await fetch(input, init)).text();
          catalogDown = options.catalogDownAfterLoss;
          throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
        }
        if (summaryAttempts <= 4) return unavailable();
        return fetch(input, init);
      }) as typeof fetch,
    };
    return state;
  }

  /** A gateway whose service answers as `lostThenUnavailable` says, and the failure of its first summary of property `offset`. */
  async function lostSummary(options: { catalogDownAfterLoss: boolean }, offset: number, actionId: string) {
    const script = lostThenUnavailable(options);
    const { ledger, gateway } = build({ transport: script.transport });
    const parts = { path: { q_id: property(offset) } };
    const failure = await failureOf(gateway.call({ operation: 'v4.summary', parts, actionId }));
    return { script, ledger, gateway, parts, failure };
  }

  it('reports charged_answer_lost, books the charge on the call, and the retry is a free replay', async () => {
    const { ledger, gateway, parts, failure } = await lostSummary({ catalogDownAfterLoss: false }, 11, 'lost-then-503');
    expect(failure.platError).toMatchObject({ code: 'charged_answer_lost', retryable: true });
    expect(failure.platError.message).toContain('$0.10');
    expect(serviceCharges('plat-lost-then-503')).toEqual([100_000]);
    const row = ledger.list({ limit: 100 }).find((entry) => entry.idempotencyKey === 'plat-lost-then-503');
    expect(row).toMatchObject({ status: 'pending', httpStatus: 503, totalChargeMicroUsd: 100_000 });
    expect(adjustmentRows(ledger)).toEqual([]);

    const retry = await gateway.call({ operation: 'v4.summary', parts, actionId: 'lost-then-503' });
    expect(retry.billing).toMatchObject({ chargedMicroUsd: 0, replayed: true });
    expect(serviceCharges('plat-lost-then-503')).toEqual([100_000]);
    expect(ledger.totals({ sessionId: 'gateway-ledger' }).allTimeMicroUsd).toBe(100_000);
    expect(adjustmentRows(ledger)).toEqual([]);
  });

  it('asked again from another action or tab, the same request is replayed free with the lost call\'s key', async () => {
    const { ledger, gateway, parts, failure } = await lostSummary({ catalogDownAfterLoss: false }, 13, 'lost-first-tab');
    expect(failure.platError.code).toBe('charged_answer_lost');
    const other = await gateway.call({ operation: 'v4.summary', parts, actionId: 'second-tab' });
    expect(other.billing).toMatchObject({ chargedMicroUsd: 0, replayed: true });
    expect(serviceCharges('plat-lost-first-tab')).toEqual([100_000]);
    expect(serviceCharges('plat-second-tab')).toEqual([]);
    expect(ledger.totals({ sessionId: 'gateway-ledger' }).allTimeMicroUsd).toBe(100_000);
    // Delivered: a later purchase of the same request is a new one (here, served from the cache).
    expect((await gateway.call({ operation: 'v4.summary', parts, actionId: 'third' })).billing.cacheHit).toBe(true);
  });

  it('says it may have been charged when the balance cannot be read yet, and books it on the call once it can', async () => {
    const { script, ledger, gateway, parts, failure } = await lostSummary({ catalogDownAfterLoss: true }, 12, 'lost-unknown');
    expect(failure.platError.code).toBe('service_unavailable');
    expect(failure.platError.retryable).toBe(true);
    expect(failure.platError.message).toMatch(/may have charged.*replayed free/);
    const first = ledger.list({ limit: 100 }).find((entry) => entry.idempotencyKey === 'plat-lost-unknown');
    expect(first).toMatchObject({ status: 'pending', reconciled: false });

    script.restore();
    const retry = await gateway.call({ operation: 'v4.summary', parts, actionId: 'lost-unknown' });
    expect(retry.billing).toMatchObject({ chargedMicroUsd: 0, replayed: true });
    expect(serviceCharges('plat-lost-unknown')).toEqual([100_000]);
    // One charge, on the try that caused it; the replay is free; nothing unattributed.
    expect(ledger.get(first?.id ?? 0)).toMatchObject({ totalChargeMicroUsd: 100_000 });
    expect(ledger.totals({ sessionId: 'gateway-ledger' }).allTimeMicroUsd).toBe(100_000);
    expect(adjustmentRows(ledger)).toEqual([]);
  });
});

describe('a full disk', () => {
  /** Resolves with the first spend event (already pushed or still to come) that matches. */
  function spendEvent(events: EventHub, seen: SpendSnapshot[], match: (snapshot: SpendSnapshot) => boolean): Promise<SpendSnapshot> {
    const found = seen.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const stop = events.subscribe((name, payload) => {
        if (name === 'spendUpdated' && match(payload as SpendSnapshot)) {
          stop();
          resolve(payload as SpendSnapshot);
        }
      });
    });
  }

  it('returns the answer paid for, counts the charge as unsaved with the reason, and writes it once there is room', async () => {
    const actionId = `full-disk-${'x'.repeat(190)}`;
    const key = `plat-${actionId}`;
    const opened: { db?: DatabaseSync } = {};
    const built = build({
      dbPath: tempDbPath(),
      // The disk fills while the call is on its way: its row was written ahead, its answer finds no room.
      onAttempt: (event) => {
        if (event.operation === 'v4.summary' && event.phase === 'sending' && event.idempotencyKey === key && opened.db) fillDisk(opened.db);
      },
    });
    opened.db = built.db;
    const { db, ledger, gateway, events } = built;
    const seen: SpendSnapshot[] = [];
    events.subscribe((name, payload) => name === 'spendUpdated' && seen.push(payload as SpendSnapshot));

    const answer = await gateway.call({ operation: 'v4.summary', parts: { path: { q_id: property(13) } }, actionId });
    expect(answer.billing.chargedMicroUsd).toBe(100_000);
    expect((answer.envelope as { status: string }).status).toBe('ok');
    expect(serviceCharges(key)).toEqual([100_000]);
    const during = gateway.spend();
    expect(during).toMatchObject({ unsavedMicroUsd: 100_000, sessionMicroUsd: 100_000, allTimeMicroUsd: 100_000 });
    expect(during.storageProblem).toMatch(/disk .* is full/);
    await spendEvent(events, seen, (snapshot) => snapshot.storageProblem !== null && snapshot.unsavedMicroUsd === 100_000);

    // A paid call cannot be written ahead now: refused, nothing sent, nothing charged.
    const refused = await failureOf(gateway.call({ operation: 'v4.summary', parts: { path: { q_id: property(14) } }, actionId: 'while-full' }));
    expect(refused.platError).toMatchObject({ code: 'disk_full', retryable: true });
    expect(serviceCharges('plat-while-full')).toEqual([]);

    freeSpace(db); // space freed
    await gateway.call({ operation: 'v4.catalog', parts: { query: { jurisdiction: '11001' } } });
    const row = ledger.list({ limit: 1000 }).find((entry) => entry.idempotencyKey === key);
    expect(row).toMatchObject({ status: 'succeeded', chargedMicroUsd: 100_000, totalChargeMicroUsd: 100_000, requestId: key });
    expect(gateway.spend()).toMatchObject({ unsavedMicroUsd: 0, storageProblem: null, sessionMicroUsd: 100_000 });
    await spendEvent(events, seen.slice(seen.findIndex((snapshot) => snapshot.storageProblem !== null)), (snapshot) => snapshot.storageProblem === null);
    expect(adjustmentRows(ledger)).toEqual([]);
  });
});
