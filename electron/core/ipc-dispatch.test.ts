import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createIpcDispatcher, type IpcHandlers, type IpcSender } from './ipc-dispatch.ts';
import { PlatFailure } from './failure.ts';
import { ipcOperationNames } from '../../shared/ipc.ts';

const appInfo = {
  appName: 'Plat',
  appVersion: '0.1.0',
  runtime: 'browser-host' as const,
  service: { mode: 'local-sample' as const, baseUrl: 'http://127.0.0.1:1', label: 'Local sample service', state: 'ready' as const, detail: null, checkedAt: null },
};
const trusted: IpcSender = { runtime: 'electron', url: 'app://plat/index.html', isMainFrame: true };
const isTrusted = (sender: IpcSender) => sender.isMainFrame && sender.url.startsWith('app://plat/');

function dispatcherWith(overrides: Partial<IpcHandlers> = {}) {
  // Only getAppInfo is exercised here; the full handler set is tested through the app core.
  const handlers = { getAppInfo: async () => appInfo, ...overrides } as unknown as IpcHandlers;
  return createIpcDispatcher(handlers, isTrusted);
}

describe('IPC dispatcher', () => {
  it('answers a valid call from the app frame', async () => {
    expect(await dispatcherWith()('getAppInfo', {}, trusted)).toEqual({ ok: true, value: appInfo });
  });

  it('checks the sender before anything else', async () => {
    for (const sender of [
      { ...trusted, url: 'https://evil.example/' },
      { ...trusted, isMainFrame: false },
    ]) {
      const result = await dispatcherWith()('getAppInfo', {}, sender);
      expect(result).toMatchObject({ ok: false, error: { code: 'forbidden_sender', retryable: false } });
    }
  });

  it('rejects unknown operations and payloads that break the contract', async () => {
    const dispatch = dispatcherWith();
    expect(await dispatch('invoke', {}, trusted)).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(await dispatch('__proto__', {}, trusted)).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(await dispatch('getAppInfo', { extra: 1 }, trusted)).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
  });

  it('refuses payloads that are not plain JSON data before any schema or handler sees them', async () => {
    let reached = 0;
    const dispatch = dispatcherWith({ createProject: async () => ((reached += 1), Promise.reject(new Error('reached'))) } as Partial<IpcHandlers>);
    let deep: unknown = 'x';
    for (let level = 0; level < 5000; level += 1) deep = [deep];
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const name of [deep, cyclic, Number.NaN, 10n, '\uD800', new Date(0), new Map()]) {
      const result = await dispatch('createProject', { name, capMicroUsd: null }, trusted);
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    }
    expect(await dispatch('getAppInfo', new Map(), trusted)).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(reached).toBe(0);
    expect(await dispatch('getAppInfo', undefined, trusted)).toMatchObject({ ok: true });
  });

  it('passes a PlatFailure through and hides any other error', async () => {
    const failing = dispatcherWith({ getAppInfo: async () => Promise.reject(new PlatFailure('budget_exceeded')) });
    expect(await failing('getAppInfo', {}, trusted)).toMatchObject({ ok: false, error: { code: 'budget_exceeded' } });
    const crashing = dispatcherWith({ getAppInfo: async () => Promise.reject(new Error('secret stack detail')) });
    const result = await crashing('getAppInfo', {}, trusted);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(result)).not.toContain('secret stack detail');
  });

  it('refuses its own invalid response', async () => {
    const broken = dispatcherWith({ getAppInfo: async () => ({ ...appInfo, runtime: 'toaster' }) as never });
    expect(await broken('getAppInfo', {}, trusted)).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('survives random operation names and payloads (fuzz)', async () => {
    const dispatch = dispatcherWith();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...ipcOperationNames, 'constructor', 'toString', 'hasOwnProperty'), fc.string()),
        fc.anything({ withObjectString: true, withNullPrototype: true, withMap: true, withSet: true, withBigInt: true }),
        async (operation, payload) => {
          const result = await dispatch(operation, payload, trusted);
          expect(typeof result.ok).toBe('boolean');
          if (!result.ok) expect(Object.keys(result.error).sort()).toEqual(['code', 'message', 'retryable']);
        },
      ),
      { numRuns: 500 },
    );
  });
});
