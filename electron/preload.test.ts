// The preload under a stand-in `electron` (test-electron-stub.ts): what it exposes to the page is one
// named function per IPC operation and one `on<Event>` per pushed event, frozen, and nothing else.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eventListenerName, ipcChannel, ipcEventNames, ipcOperationNames } from '../shared/ipc.ts';
import { installFakeElectron, type FakeElectron } from './test-electron-stub.ts';

vi.mock('electron', async () => (await import('./test-electron-stub.ts')).electronModule);

let electron: FakeElectron;
let api: Record<string, (...args: unknown[]) => unknown>;

beforeAll(async () => {
  electron = installFakeElectron({ userData: '/nonexistent' });
  await import(/* @vite-ignore */ `./preload.ts?run=${Date.now()}`);
  api = electron.exposedInMainWorld.get('plat') as typeof api;
});

describe('preload.ts', () => {
  it('exposes only `plat`: a frozen object of one function per operation and one listener per event', () => {
    expect([...electron.exposedInMainWorld.keys()]).toEqual(['plat']);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api).sort()).toEqual([...ipcOperationNames, ...ipcEventNames.map((event) => eventListenerName(event))].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    for (const generic of ['invoke', 'send', 'on', 'ipcRenderer']) expect(api[generic]).toBeUndefined();
  });

  it('sends each operation on its own channel with the page’s request as it is', async () => {
    for (const operation of ipcOperationNames) {
      const request = { for: operation };
      await api[operation]?.(request);
      expect(electron.callsOf('ipcRenderer.invoke').at(-1)).toEqual([ipcChannel(operation), request]);
    }
    expect(electron.callsOf('ipcRenderer.invoke')).toHaveLength(ipcOperationNames.length);
  });

  it('hands a listener the payload only (never the IPC event), and unsubscribes it', () => {
    for (const event of ipcEventNames) {
      const received: unknown[] = [];
      const unsubscribe = api[eventListenerName(event)]?.((payload: unknown) => received.push(payload)) as () => void;
      const listeners = electron.rendererListeners.get(ipcChannel(event));
      expect(listeners?.size).toBe(1);
      const sender = { senderFrame: 'the IPC event, with its sender' };
      for (const listener of listeners ?? []) (listener as (event: unknown, payload: unknown) => void)(sender, { total: 1 });
      expect(received).toEqual([{ total: 1 }]);
      unsubscribe();
      expect(electron.rendererListeners.get(ipcChannel(event))?.size).toBe(0);
    }
  });
});
