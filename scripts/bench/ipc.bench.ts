// The IPC path without the service: dispatcher alone, and a browser-host bridge round trip.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createIpcDispatcher, type IpcHandlers } from '../../electron/core/ipc-dispatch.ts';
import { EventHub } from '../../electron/core/events.ts';
import { startBrowserHost } from '../../electron/host/browser-host.ts';
import { measureLatency, type LatencyFigures } from './measure.ts';

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
  const headers = { 'Content-Type': 'application/json', Origin: host.origin, 'X-Plat-Token': host.token };
  try {
    return [
      await measureLatency('ipc dispatch (validate in and out)', () => dispatch('getAppInfo', {}, sender), { requests: 20_000, concurrency: 1 }),
      await measureLatency(
        'browser-host bridge round trip',
        async () => (await fetch(`${host.origin}/bridge/op/getAppInfo`, { method: 'POST', headers, body: '{}' })).json(),
        { requests: 2_000, concurrency: 1 },
      ),
    ];
  } finally {
    await host.close();
  }
}
