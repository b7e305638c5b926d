// The IPC path without the service: dispatcher alone, and a browser-host bridge round trip.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createIpcDispatcher, type IpcHandlers } from '../../electron/core/ipc-dispatch.ts';
import { EventHub } from '../../electron/core/events.ts';
import { startBrowserHost } from '../../electron/host/browser-host.ts';
import { measureLatency, type BenchOptions, type LatencyFigures } from './measure.ts';
import { measureFromPage } from './page.ts';
import type { AppInfo } from '../../shared/ipc.ts';

export async function benchIpc({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  // Typed as the contract's AppInfo, so a field added to it fails the typecheck here, not the bench run.
  const appInfo: AppInfo = {
    appName: 'Plat',
    appVersion: 'bench',
    runtime: 'browser-host',
    service: { mode: 'local-sample', baseUrl: 'http://127.0.0.1:1', label: 'Local sample service', state: 'ready', detail: null, checkedAt: null },
  };
  const dispatch = createIpcDispatcher({ getAppInfo: async () => appInfo } as unknown as IpcHandlers, () => true);
  const sender = { runtime: 'browser-host' as const, url: '', isMainFrame: true };
  const rendererDir = mkdtempSync(path.join(tmpdir(), 'plat-bench-'));
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html>');
  const host = await startBrowserHost({ dispatch, events: new EventHub(), rendererDir });
  try {
    const [roundTrip] = await measureFromPage({
      host: { origin: host.origin, token: host.token },
      cases: [{ name: 'browser-host bridge round trip (page thread → host socket → dispatch)', kind: 'bridge', operation: 'getAppInfo', payload: {} }],
      requests: smoke ? 100 : 5_000,
      ...(smoke ? { warmup: 10 } : {}),
    });
    if (!roundTrip) throw new Error('the page worker returned no figures');
    return [await measureLatency('ipc dispatch (validate in and out)', () => dispatch('getAppInfo', {}, sender), { requests: smoke ? 200 : 20_000, concurrency: 1, ...(smoke ? { warmup: 10 } : {}) }), roundTrip];
  } finally {
    await host.close();
  }
}
