// The whole core behind the IPC door: real app database, real gateway, an in-process local service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ipcOperationNames } from '../../shared/ipc.ts';
import { createLocalService, type LocalService } from '../local-service/server.ts';
import { v4Catalog } from '../local-service/operations/v4.ts';
import { openSampleStore, type SampleStore } from '../local-service/sample-store.ts';
import type { AppCore } from './app-core.ts';
import { createTestCore, testSender as sender } from './core-test-kit.ts';

let service: LocalService;
let core: AppCore;
let store: SampleStore;

beforeAll(async () => {
  store = openSampleStore();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'plat-core-'));
  core = createTestCore({
    dataDir,
    launchLocalService: async () => {
      // Only the free catalog (the connection check): these tests are about the IPC door and the
      // core's own state, not the data.
      service = await createLocalService({ operations: [v4Catalog], store });
      return { url: service.url, keys: service.keys, stop: () => service.close() };
    },
    timeoutMs: 500,
  });
  await core.ready;
});
afterAll(async () => {
  await core.close();
  store.close();
});

describe('app core', () => {
  it('starts on the local sample service and reports it', async () => {
    const result = await core.dispatch('getAppInfo', {}, sender);
    expect(result).toMatchObject({ ok: true, value: { service: { mode: 'local-sample', state: 'ready', baseUrl: service.url } } });
  });

  it('keeps projects, budgets and the active project', async () => {
    const created = await core.dispatch('createProject', { name: '1415 Q St NW appraisal', capMicroUsd: 2_000_000 }, sender);
    expect(created).toMatchObject({ ok: true, value: { name: '1415 Q St NW appraisal', capMicroUsd: 2_000_000, archived: false } });
    const id = created.ok ? (created.value as { id: string }).id : '';
    expect(await core.dispatch('setActiveProject', { id }, sender)).toEqual({ ok: true, value: { activeProjectId: id } });
    expect(await core.dispatch('setBudgets', { sessionCapMicroUsd: 5_000_000, confirmationThresholdMicroUsd: 100_000 }, sender)).toMatchObject({
      ok: true,
      value: { sessionCapMicroUsd: 5_000_000 },
    });
    const duplicate = await core.dispatch('createProject', { name: '1415 q st nw appraisal', capMicroUsd: null }, sender);
    expect(duplicate).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
  });

  it('prices a summary before buying it and asks for confirmation at the threshold', async () => {
    const preview = await core.dispatch(
      'previewCost',
      { operation: 'v4.summary', request: { path: { q_id: 'prop_00000000-0000-4000-8000-000000000000' } } },
      sender,
    );
    expect(preview).toMatchObject({ ok: true, value: { expectedCostMicroUsd: 100_000, needsConfirmation: true, cached: false, blockedBy: null } });
    const unconfirmed = await core.dispatch('getEntitySummary', { request: { path: { q_id: 'prop_00000000-0000-4000-8000-000000000000' } } }, sender);
    expect(unconfirmed).toMatchObject({ ok: false, error: { code: 'confirmation_required' } });
  });

  it('refuses a request that breaks a service rule before sending it', async () => {
    const result = await core.dispatch('searchRecords', { request: { query: { jurisdiction: '99999', kind: 'ownership' } } }, sender);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(JSON.stringify(result)).toContain('jurisdiction');
  });

  it('tells the renderer only the key status, never the key', async () => {
    const sentinel = 'svc_live_SENTINEL0123456789abcdef';
    const set = await core.dispatch('setApiKey', { key: sentinel }, sender);
    expect(set).toEqual({ ok: true, value: { configured: true, backend: 'memory', persisted: false } });
    for (const operation of ipcOperationNames.filter((name) => !/^(set|create|update|clear|delete)/.test(name))) {
      const result = await core.dispatch(operation, {}, sender);
      expect(JSON.stringify(result)).not.toContain('SENTINEL');
    }
    expect(await core.dispatch('deleteApiKey', {}, sender)).toMatchObject({ ok: true, value: { configured: false } });
  });

  it('answers random operations and payloads with a clean result and never throws (fuzz)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...ipcOperationNames), fc.string({ maxLength: 20 })),
        fc.oneof(
          fc.anything({ maxDepth: 3, withNullPrototype: true, withBigInt: true, withDate: true }),
          fc.record({ request: fc.anything({ maxDepth: 3 }) }),
          fc.record({ request: fc.record({ query: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())) }) }),
        ),
        async (operation, payload) => {
          // Never switch the fuzzed core to some random live URL: it would only slow the run.
          if (operation === 'setConnection') return;
          const result = await core.dispatch(operation, payload, sender);
          expect(typeof result.ok).toBe('boolean');
          if (!result.ok) {
            expect(Object.keys(result.error).sort()).toEqual(['code', 'message', 'retryable']);
            expect(result.error.message).not.toMatch(/\n\s+at /);
          }
        },
      ),
      { numRuns: 400 },
    );
    // Still serving after the storm.
    expect(await core.dispatch('getAppInfo', {}, sender)).toMatchObject({ ok: true });
  });
});
