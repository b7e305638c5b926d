// The connection the core reports is what was last checked: checking → ready | unreachable | failed,
// from a free catalog call made on every activation, kept current by later calls and by re-checks.
// Also: setConnection refuses an unusable address before saving it, a stored setting that cannot be
// used falls back to the local sample with the reason, and the balance is known right after a switch.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IpcEventPayload, ServiceConnection } from '../../shared/ipc.ts';
import { createLocalService, type LocalService } from '../local-service/server.ts';
import { v4Catalog, v4Summary } from '../local-service/operations/v4.ts';
import { openSampleStore, type SampleStore } from '../local-service/sample-store.ts';
import type { AppCore } from './app-core.ts';
import { openAppDatabase } from './app-db.ts';
import { SettingsStore } from './settings-store.ts';
import { createTestCore, testSender as sender } from './core-test-kit.ts';

let store: SampleStore;
const services: LocalService[] = [];
const cores: AppCore[] = [];

beforeAll(() => {
  store = openSampleStore();
});
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const service of services.splice(0)) await service.close();
});
afterAll(() => store.close());

/** A service that answers the free catalog (the connection check) and summaries ($0.10), on a state file so it can be restarted with the same keys. */
async function startService(options: { port?: number; dbPath?: string } = {}): Promise<LocalService> {
  const service = await createLocalService({
    operations: [v4Catalog, v4Summary],
    store,
    port: options.port ?? 0,
    dbPath: options.dbPath ?? path.join(mkdtempSync(path.join(tmpdir(), 'plat-svc-')), 'state.db'),
  });
  services.push(service);
  return service;
}

interface Started {
  core: AppCore;
  dataDir: string;
  states: ServiceConnection[];
  spendEvents: Array<IpcEventPayload<'spendUpdated'>>;
  local: LocalService;
}

function start(options: { dataDir?: string; recheckDelaysMs?: number[] } = {}): Started {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'plat-conn-'));
  let local: LocalService | null = null;
  const core = createTestCore({
    dataDir,
    launchLocalService: async () => {
      local = await startService();
      const service = local;
      return { url: service.url, keys: service.keys, stop: async () => {} };
    },
    timeoutMs: 2_000,
    ...(options.recheckDelaysMs ? { recheckDelaysMs: options.recheckDelaysMs } : {}),
  });
  cores.push(core);
  const states: ServiceConnection[] = [];
  const spendEvents: Array<IpcEventPayload<'spendUpdated'>> = [];
  core.events.subscribe((event, payload) => {
    if (event === 'serviceConnectionChanged') states.push(payload as ServiceConnection);
    if (event === 'spendUpdated') spendEvents.push(payload as IpcEventPayload<'spendUpdated'>);
  });
  return {
    core,
    dataDir,
    states,
    spendEvents,
    get local() {
      if (!local) throw new Error('the local service has not started');
      return local;
    },
  };
}

/** Resolves with the first connection state (from now on) that `accept` takes. */
function nextState(core: AppCore, accept: (c: ServiceConnection) => boolean): Promise<ServiceConnection> {
  return new Promise((resolve) => {
    const unsubscribe = core.events.subscribe((event, payload) => {
      if (event === 'serviceConnectionChanged' && accept(payload as ServiceConnection)) {
        unsubscribe();
        resolve(payload as ServiceConnection);
      }
    });
  });
}

/** A port nothing listens on (a refused connection). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function goLive(core: AppCore, baseUrl: string, key: string): Promise<void> {
  expect(await core.dispatch('setApiKey', { key }, sender)).toMatchObject({ ok: true });
  expect(await core.dispatch('setConnection', { mode: 'live', baseUrl }, sender)).toMatchObject({ ok: true, value: { state: 'checking' } });
}

/** Goes live at `baseUrl` with `key` and resolves with the state the live check settles on. */
async function liveCheck(core: AppCore, baseUrl: string, key: string): Promise<ServiceConnection> {
  const settled = nextState(core, (c) => c.mode === 'live' && c.state !== 'checking');
  await goLive(core, baseUrl, key);
  return settled;
}

describe('connection state is what was last checked', () => {
  it('starts on the local sample: checking, then ready with the time of the check', async () => {
    const { core, states } = start();
    await core.ready;
    expect(states.map((s) => s.state)).toEqual(['checking', 'ready']);
    expect(states[1]?.checkedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(core.connection()).toMatchObject({ mode: 'local-sample', state: 'ready' });
  });

  it('a refused port is unreachable, never ready, and says it will check again', async () => {
    const { core, states } = start();
    await core.ready;
    const port = await freePort();
    const settled = nextState(core, (c) => c.state !== 'checking');
    await goLive(core, `http://127.0.0.1:${port}`, 'svc_live_0123456789abcdef0123456789abcdef');
    const after = await settled;
    expect(after).toMatchObject({ mode: 'live', state: 'unreachable' });
    expect(after.detail).toMatch(/could not be reached.*check again in 5 s/);
    expect(after.checkedAt).not.toBeNull();
    expect(states.filter((s) => s.mode === 'live').map((s) => s.state)).not.toContain('ready');
  });

  it('a revoked key fails the check, and the failed key test says so and keeps it failed', async () => {
    const { core } = start();
    await core.ready;
    const live = await startService();
    expect(await liveCheck(core, live.url, live.keys.revoked)).toMatchObject({ state: 'failed', detail: expect.stringMatching(/refused the API key/) });

    const tested = await core.dispatch('testApiKey', {}, sender);
    expect(tested).toMatchObject({ ok: true, value: { ok: false } });
    expect(core.connection()).toMatchObject({ mode: 'live', state: 'failed' });

    const suspended = nextState(core, (c) => c.mode === 'live' && c.state !== 'checking');
    await core.dispatch('setApiKey', { key: live.keys.suspended }, sender);
    expect(await suspended).toMatchObject({ state: 'failed', detail: expect.stringMatching(/suspended/) });

    // A working key: the key test proves it, and the state follows.
    const ready = nextState(core, (c) => c.mode === 'live' && c.state === 'ready');
    await core.dispatch('setApiKey', { key: live.keys.active }, sender);
    await ready;
    expect(await core.dispatch('testApiKey', {}, sender)).toMatchObject({ ok: true, value: { ok: true, balanceMicroUsd: 25_000_000 } });
  });

  it('a call that gets no answer makes it unreachable; the re-check finds it again and says ready', async () => {
    const { core } = start({ recheckDelaysMs: [20] });
    await core.ready;
    const stateDir = mkdtempSync(path.join(tmpdir(), 'plat-svc-'));
    const live = await startService({ dbPath: path.join(stateDir, 'state.db') });
    const port = Number(new URL(live.url).port);
    const keys = live.keys;
    const ready = nextState(core, (c) => c.mode === 'live' && c.state === 'ready');
    await goLive(core, live.url, keys.active);
    await ready;

    await live.close();
    services.splice(services.indexOf(live), 1);
    const unreachable = nextState(core, (c) => c.state === 'unreachable');
    const call = await core.dispatch('getSourceCatalog', { request: {}, refresh: true }, sender);
    expect(call).toMatchObject({ ok: false, error: { code: 'network_error' } });
    expect(await unreachable).toMatchObject({ mode: 'live', state: 'unreachable' });

    // The same service comes back on the same port: the re-check (a free probe, then the check) finds it.
    const back = nextState(core, (c) => c.state === 'ready');
    await startService({ port, dbPath: path.join(stateDir, 'state.db') });
    expect(await back).toMatchObject({ mode: 'live', state: 'ready', detail: null });
  });

  it('knows the balance right after switching back to the local sample, and pushes it', async () => {
    const { core, spendEvents } = start();
    await core.ready;
    // Spend $0.10 on the local sample, so its balance differs from the live account's.
    const property = store.searchProperties({ areaUid: 'area_us_dc', limit: 1 }).items[0]?.entity_id ?? '';
    const bought = await core.dispatch('getEntitySummary', { request: { path: { q_id: property } }, confirmed: true }, sender);
    expect(bought).toMatchObject({ ok: true, value: { billing: { chargedMicroUsd: 100_000 } } });
    expect(await core.dispatch('getSpend', {}, sender)).toMatchObject({ ok: true, value: { lastKnownBalanceMicroUsd: 24_900_000 } });

    const live = await startService();
    const liveReady = nextState(core, (c) => c.mode === 'live' && c.state === 'ready');
    await goLive(core, live.url, live.keys.active);
    await liveReady;
    expect(await core.dispatch('getSpend', {}, sender)).toMatchObject({ ok: true, value: { lastKnownBalanceMicroUsd: 25_000_000 } });

    const back = nextState(core, (c) => c.mode === 'local-sample' && c.state === 'ready');
    const pushed = new Promise<IpcEventPayload<'spendUpdated'>>((resolve) => {
      const unsubscribe = core.events.subscribe((event, payload) => {
        if (event === 'spendUpdated' && (payload as IpcEventPayload<'spendUpdated'>).lastKnownBalanceMicroUsd === 24_900_000) {
          unsubscribe();
          resolve(payload as IpcEventPayload<'spendUpdated'>);
        }
      });
    });
    const eventsBefore = spendEvents.length;
    await core.dispatch('setConnection', { mode: 'local-sample' }, sender);
    await back;
    // Right after the switch (the check is done; no paid call since): the local sample's balance.
    expect(await core.dispatch('getSpend', {}, sender)).toMatchObject({ ok: true, value: { lastKnownBalanceMicroUsd: 24_900_000 } });
    expect((await pushed).lastKnownBalanceMicroUsd).toBe(24_900_000);
    expect(spendEvents.length).toBeGreaterThan(eventsBefore);
  });

  it('an exhausted account is reachable: ready, saying it is out of credit', async () => {
    const { core } = start();
    await core.ready;
    const live = await startService();
    expect(await liveCheck(core, live.url, live.keys.exhausted)).toMatchObject({ state: 'ready', detail: expect.stringMatching(/[Cc]redit/) });
  });
});

describe('setConnection refuses an unusable address and saves nothing', () => {
  const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
    ['credentials', { baseUrl: 'http://user:pass@127.0.0.1:9/' }, /user name or password/],
    ['a query string', { baseUrl: 'https://records.example.com/?key=abc' }, /query string/],
    ['a bare question mark', { baseUrl: 'https://records.example.com/?' }, /query string/],
    ['a fragment', { baseUrl: 'https://records.example.com/#top' }, /fragment/],
    ['another scheme', { baseUrl: 'ftp://records.example.com/' }, /must start with https:\/\//],
    ['javascript:', { baseUrl: 'javascript:alert(1)' }, /must start with https:\/\//],
    ['unparsable text', { baseUrl: 'records example com' }, /not a web address/],
    ['empty', { baseUrl: '' }, /Enter the service/],
    ['plain http to another computer', { baseUrl: 'http://records.example.com' }, /unencrypted/],
    ['plain http to a LAN address', { baseUrl: 'http://192.168.1.20:8080' }, /unencrypted/],
    ['allowInsecure other than true', { baseUrl: 'http://records.example.com', allowInsecure: false }, /allowInsecure/],
  ];

  it.each(refusals)('refuses %s with invalid_payload naming the problem', async (_kind, fields, message) => {
    const { core, dataDir } = start();
    await core.ready;
    const result = await core.dispatch('setConnection', { mode: 'live', ...fields }, sender);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_payload', message } });
    expect(core.connection()).toMatchObject({ mode: 'local-sample', state: 'ready' });
    await core.close();
    cores.splice(cores.indexOf(core), 1);
    const db = openAppDatabase(path.join(dataDir, 'plat.db'));
    expect(new SettingsStore(db).get('connection')).toBeUndefined();
    db.close();
  });

  it('accepts loopback http, and other http only with allowInsecure', async () => {
    const { core } = start();
    await core.ready;
    for (const baseUrl of ['http://127.0.0.1:9', 'http://127.8.9.10:9/api/', 'http://localhost:9', 'http://[::1]:9']) {
      expect(await core.dispatch('setConnection', { mode: 'live', baseUrl }, sender), baseUrl).toMatchObject({ ok: true, value: { mode: 'live' } });
    }
    expect(await core.dispatch('setConnection', { mode: 'live', baseUrl: 'http://records.example.com/', allowInsecure: true }, sender)).toMatchObject({
      ok: true,
      value: { mode: 'live', baseUrl: 'http://records.example.com' },
    });
  });
});

describe('a stored connection that cannot be used', () => {
  const stored: Array<[string, unknown, RegExp]> = [
    ['credentials in the address', { mode: 'live', baseUrl: 'http://user:pass@127.0.0.1:9/' }, /user name or password/],
    ['plain http to another computer', { mode: 'live', baseUrl: 'http://records.example.com' }, /unencrypted/],
    ['no address', { mode: 'live' }, /not one this Plat understands/],
    ['an unknown mode', { mode: 'carrier-pigeon' }, /not one this Plat understands/],
  ];

  it.each(stored)('with %s starts on the local sample and says why', async (_kind, value, reason) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-conn-'));
    const db = openAppDatabase(path.join(dataDir, 'plat.db'));
    new SettingsStore(db).set('connection', value);
    db.close();

    const { core } = start({ dataDir });
    await core.ready;
    const connection = core.connection();
    expect(connection).toMatchObject({ mode: 'local-sample', state: 'ready' });
    expect(connection.detail).toMatch(reason);
    expect(connection.detail).toMatch(/using the local sample/);
    // Calls work on the local sample.
    expect(await core.dispatch('getSourceCatalog', { request: {} }, sender)).toMatchObject({ ok: true });
  });
});
