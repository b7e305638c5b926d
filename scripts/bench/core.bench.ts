// The core's cost on top of the service: a call through the browser-host bridge (page → host →
// gateway (budget, ledger, cache) → local service) against the same call fetched straight from the
// local service, both from a page thread; and a cache hit answered inside the host.
// Targets: proxied p50 overhead ≤ 1 ms or ≤ 10 %; cache hit p50 ≤ 1 ms inside the host.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAppCore } from '../../electron/core/app-core.ts';
import { MemoryKeyVault } from '../../electron/core/key-vault.ts';
import { launchLocalService } from '../../electron/local-service/launch.ts';
import { startBrowserHost } from '../../electron/host/browser-host.ts';
import { measureLatency, type LatencyFigures } from './measure.ts';
import { measureFromPage } from './page.ts';

export async function benchCore(): Promise<LatencyFigures[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-bench-core-'));
  const rendererDir = mkdtempSync(path.join(tmpdir(), 'plat-bench-renderer-'));
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html>');
  let serviceUrl = '';
  let serviceKey = '';
  const core = createAppCore({
    runtime: 'browser-host',
    appVersion: 'bench',
    dataDir,
    keyVault: new MemoryKeyVault(),
    launchLocalService: async ({ stateDbPath }) => {
      const service = await launchLocalService({ dbPath: stateDbPath, rateLimitPerMinute: 1_000_000 });
      serviceUrl = service.url;
      serviceKey = service.keys.active;
      return service;
    },
    isTrustedSender: () => true,
  });
  await core.ready;
  const host = await startBrowserHost({ dispatch: core.dispatch, events: core.events, rendererDir });
  const sender = { runtime: 'browser-host' as const, url: host.origin, isMainFrame: true };
  // A small free answer, so the comparison is about the path, not the payload.
  const query = { jurisdiction: '11001', source_id: 'dc_dcra_new_building_permits' };
  try {
    // Both measured from the page's thread: a fetch straight to the service, and the same call as
    // the page makes it (bridge socket → host → gateway → service).
    const [direct, proxied] = await measureFromPage({
      host: { origin: host.origin, token: host.token },
      cases: [
        {
          name: 'direct fetch to the local service (v4 catalog)',
          kind: 'fetch',
          url: `${serviceUrl}/api/v4/catalog?${new URLSearchParams(query)}`,
          headers: { Authorization: `Bearer ${serviceKey}` },
          requests: 2000,
        },
        {
          name: 'page → host → service (same call, cache bypassed)',
          kind: 'bridge',
          operation: 'getSourceCatalog',
          payload: { request: { query }, refresh: true },
          requests: 2000,
          target: 'overhead ≤ 1 ms or ≤ 10 %',
        },
      ],
    });
    if (!direct || !proxied) throw new Error('the page worker returned no figures');
    await core.dispatch('getSourceCatalog', { request: { query } }, sender);
    const cacheHit = await measureLatency(
      'cache hit inside the host (dispatch → gateway → cache)',
      async () => {
        const result = await core.dispatch('getSourceCatalog', { request: { query } }, sender);
        if (!result.ok) throw new Error('cache hit failed');
      },
      { requests: 2000, concurrency: 1, warmup: 100, target: 'p50 ≤ 1 ms' },
    );
    const overhead = proxied.p50Ms - direct.p50Ms;
    console.log(`proxied p50 overhead: ${overhead.toFixed(3)} ms (${((overhead / direct.p50Ms) * 100).toFixed(1)} % of the direct call)`);
    return [direct, proxied, cacheHit];
  } finally {
    await host.close();
    await core.close();
  }
}
