// The IPC path without the service: dispatcher alone, and a browser-host bridge round trip.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createIpcDispatcher, type IpcHandlers } from '../../electron/core/ipc-dispatch.ts';
import { EventHub } from '../../electron/core/events.ts';
import { startBrowserHost } from '../../electron/host/browser-host.ts';
import { measureLatency, type LatencyFigures } from './measure.ts';
import { measureFromPage } from './page.ts';

export async function benchIpc(): Promise<LatencyFigures[]> {
  const appInfo = {
    appName: 'Plat',
    appVersion: 'bench',
    runtime: 'browser-host' as const,
    service: { mode: 'local-sample' as const, baseUrl: 'http://127.0.0.1:1', label: 'Local sample service', state: 'ready' as const, detail: null },
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
      requests: 5_000,
    });
    if (!roundTrip) throw new Error('the page worker returned no figures');
    return [await measureLatency('ipc dispatch (validate in and out)', () => dispatch('getAppInfo', {}, sender), { requests: 20_000, concurrency: 1 }), roundTrip];
  } finally {
    await host.close();
  }
}
