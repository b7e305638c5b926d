// The whole core (IPC door, gateway, ledger, cache, stores) on a fresh data folder against the real
// embedded service over the bundled sample: for tests that go through the core as the renderer does.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { IpcOperationName, IpcResponse } from '../../shared/ipc.ts';
import { createLocalService, type LocalService } from '../local-service/server.ts';
import { localOperations } from '../local-service/operations/index.ts';
import { openSampleStore, type SampleStore } from '../local-service/sample-store.ts';
import { createAppCore, type AppCore, type AppCoreOptions } from './app-core.ts';
import { MemoryKeyVault } from './key-vault.ts';
import type { IpcSender } from './ipc-dispatch.ts';

export const testSender: IpcSender = { runtime: 'browser-host', url: 'http://127.0.0.1', isMainFrame: true };

export interface OpenedCore {
  core: AppCore;
  /** Stops the embedded service under the core (what the core then reads must be local). */
  stopService: () => Promise<void>;
}

/**
 * A core as the tests start it: the browser host's runtime and trust, keys in memory, and one
 * attempt per service call within `timeoutMs`; the data folder and the service are the test's.
 */
export function createTestCore({ timeoutMs, ...options }: Pick<AppCoreOptions, 'dataDir' | 'launchLocalService'> & Partial<AppCoreOptions> & { timeoutMs: number }): AppCore {
  return createAppCore({
    runtime: 'browser-host',
    appVersion: 'test',
    keyVault: new MemoryKeyVault(),
    isTrustedSender: (s) => s.runtime === 'browser-host',
    clientOptions: { maxAttempts: 1, timeoutMs },
    ...options,
  });
}

/** A ready core on a new data folder (`prefix` names it in the temp folder); the caller closes it. */
export async function openTestCore(store: SampleStore, prefix: string): Promise<OpenedCore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  let service: LocalService | null = null;
  const stopService = async () => {
    const running = service;
    service = null;
    await running?.close();
  };
  const core = createTestCore({
    dataDir,
    launchLocalService: async ({ stateDbPath }) => {
      service = await createLocalService({ operations: localOperations, store, dbPath: stateDbPath });
      return { url: service.url, keys: service.keys, stop: stopService };
    },
    timeoutMs: 2_000,
  });
  await core.ready;
  return { core, stopService };
}

/**
 * The cores of one test file: the sample opens before the file's tests, and every core opened here
 * closes after them, before the sample does.
 */
export function testCores(prefix: string): { store: () => SampleStore; openCore: () => Promise<OpenedCore> } {
  let store: SampleStore | null = null;
  const opened: OpenedCore[] = [];
  const sample = (): SampleStore => {
    if (!store) throw new Error('the sample opens before the tests');
    return store;
  };
  beforeAll(() => {
    store = openSampleStore();
  });
  afterAll(async () => {
    for (const { core } of opened.splice(0)) await core.close();
    store?.close();
  });
  return {
    store: sample,
    openCore: async () => {
      const handle = await openTestCore(sample(), prefix);
      opened.push(handle);
      return handle;
    },
  };
}

/** The operation's answer, failing the test with the refusal's message otherwise. */
export async function call<N extends IpcOperationName>(core: AppCore, operation: N, payload: unknown): Promise<IpcResponse<N>> {
  const result = await core.dispatch(operation, payload, testSender);
  if (!result.ok) throw new Error(`${operation} refused: ${result.error.code}: ${result.error.message}`);
  return result.value as IpcResponse<N>;
}

/** The refusal's error, failing the test when the operation was answered. */
export async function refusal(core: AppCore, operation: IpcOperationName, payload: unknown) {
  const result = await core.dispatch(operation, payload, testSender);
  if (result.ok) throw new Error(`${operation} was expected to be refused`);
  return result.error;
}
