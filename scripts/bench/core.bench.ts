// The core's cost on top of the service: a call through the browser-host bridge (page → host →
// gateway (budget, ledger, cache) → local service) against the same call fetched straight from the
// local service, measured twice: from a Node page thread (both calls over Node's HTTP and WebSocket
// clients), and from real pages in headless Chromium (Plat's page over its bridge socket, and a page
// on the service's own origin fetching it directly). And a cache hit answered inside the host.
// Targets: proxied p50 overhead ≤ 1 ms or ≤ 10 %; cache hit p50 ≤ 1 ms inside the host.
import { existsSync, mkdtempSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAppCore } from '../../electron/core/app-core.ts';
import { MemoryKeyVault } from '../../electron/core/key-vault.ts';
import { launchLocalService } from '../../electron/local-service/launch.ts';
import { startBrowserHost } from '../../electron/host/browser-host.ts';
import { atMostMs, latencyFigures, measureLatency, type BenchOptions, type LatencyFigures, type Verdict } from './measure.ts';
import { measureFromPage } from './page.ts';
import { launchChromium } from './chromium.ts';

const rendererDir = fileURLToPath(new URL('../../dist/renderer', import.meta.url));
const BLOCK = 100;

/**
 * The same pair from real pages: Plat's page calling through `window.plat` (its bridge socket), and
 * a page on the service's origin fetching the same URL, taking turns in blocks of BLOCK calls.
 */
async function measureInChromium(input: { appUrl: string; serviceUrl: string; serviceKey: string; query: Record<string, string>; requests: number }): Promise<LatencyFigures[]> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const app = await context.newPage();
    await app.goto(input.appUrl);
    await app.waitForFunction(() => 'plat' in window);
    const servicePage = await context.newPage();
    await servicePage.goto(`${input.serviceUrl}/api/v4/catalog`); // an error page, but on the service's origin
    const url = `${input.serviceUrl}/api/v4/catalog?${new URLSearchParams(input.query)}`;
    const direct: number[] = [];
    const proxied: number[] = [];
    for (let done = -BLOCK; done < input.requests; done += BLOCK) {
      const directBlock = await servicePage.evaluate(
        async ([target, key, count]) => {
          const times: number[] = [];
          for (let i = 0; i < count; i++) {
            const started = performance.now();
            await (await fetch(target, { headers: { Authorization: `Bearer ${key}` } })).json();
            times.push(performance.now() - started);
          }
          return times;
        },
        [url, input.serviceKey, BLOCK] as const,
      );
      const proxiedBlock = await app.evaluate(
        async ([query, count]) => {
          const plat = (window as unknown as { plat: Record<string, (request: unknown) => Promise<{ ok: boolean }>> }).plat;
          const times: number[] = [];
          for (let i = 0; i < count; i++) {
            const started = performance.now();
            const result = await plat['getSourceCatalog']!({ request: { query }, refresh: true });
            if (!result.ok) throw new Error('the bridged call failed');
            times.push(performance.now() - started);
          }
          return times;
        },
        [input.query, BLOCK] as const,
      );
      if (done < 0) continue; // the first block of each warms up
      direct.push(...directBlock);
      proxied.push(...proxiedBlock);
    }
    const plain = latencyFigures('Chromium: a page fetching the service directly', direct);
    return [plain, latencyFigures('Chromium: Plat’s page → host → service', proxied, { target: overheadTarget(plain) })];
  } finally {
    await browser.close();
  }
}

/** The proxied call's p50 at most 1 ms or 10 % above the direct call's. */
function overheadTarget(direct: LatencyFigures) {
  return (row: Omit<LatencyFigures, 'target'>): Verdict => {
    const overhead = row.p50Ms - direct.p50Ms;
    return { text: 'overhead ≤ 1 ms or ≤ 10 %', met: overhead <= 1 || overhead <= direct.p50Ms * 0.1 };
  };
}

export async function benchCore({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-bench-core-'));
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
    const [direct, untargeted] = await measureFromPage({
      host: { origin: host.origin, token: host.token },
      cases: [
        {
          name: 'direct fetch to the local service (v4 catalog)',
          kind: 'fetch',
          url: `${serviceUrl}/api/v4/catalog?${new URLSearchParams(query)}`,
          headers: { Authorization: `Bearer ${serviceKey}` },
        },
        {
          name: 'page → host → service (same call, cache bypassed)',
          kind: 'bridge',
          operation: 'getSourceCatalog',
          payload: { request: { query }, refresh: true },
        },
      ],
      requests: smoke ? 100 : 3000,
      ...(smoke ? { warmup: 10 } : {}),
    });
    if (!direct || !untargeted) throw new Error('the page worker returned no figures');
    const proxied = { ...untargeted, target: overheadTarget(direct)(untargeted) };
    await core.dispatch('getSourceCatalog', { request: { query } }, sender);
    const cacheHit = await measureLatency(
      'cache hit inside the host (dispatch → gateway → cache)',
      async () => {
        const result = await core.dispatch('getSourceCatalog', { request: { query } }, sender);
        if (!result.ok) throw new Error('cache hit failed');
      },
      { requests: smoke ? 100 : 2000, concurrency: 1, warmup: smoke ? 10 : 100, target: atMostMs(1) },
    );
    const overhead = (pair: LatencyFigures[]) => {
      const [plain, through] = pair;
      if (!plain || !through) return 'n/a';
      const ms = through.p50Ms - plain.p50Ms;
      return `${ms.toFixed(3)} ms (${((ms / plain.p50Ms) * 100).toFixed(1)} % of the direct call)`;
    };
    console.log(`proxied p50 overhead, Node page thread: ${overhead([direct, proxied])}`);
    const inChromium = existsSync(path.join(rendererDir, 'index.html'))
      ? await measureInChromium({ appUrl: host.url, serviceUrl, serviceKey, query, requests: smoke ? 100 : 2000 })
      : [];
    if (inChromium.length > 0) console.log(`proxied p50 overhead, Chromium pages: ${overhead(inChromium)}`);
    else console.log('(no renderer build in dist/renderer: the Chromium measurement was skipped)');
    return [direct, proxied, ...inChromium, cacheHit];
  } finally {
    await host.close();
    await core.close();
  }
}
