// For test authors: the local service in-process on a random port with a throwaway state database,
// and a `call` helper that speaks its headers. Example:
//   const svc = await startTestService({ operations, store });
//   const res = await svc.call('/api/v4/entities/parc_.../summary', { idempotencyKey: 'k1' });
//   expect(res.charged).toBe(100000);
//   await stopTestService(svc);
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalOperation } from './operation.ts';
import type { SampleStore } from './sample-store.ts';
import { createLocalService } from './server.ts';
import type { LocalService, LocalServiceOptions } from './server.ts';
import type { DemoKeyRole, DemoKeys } from './service-state.ts';

export interface TestServiceOptions extends Omit<LocalServiceOptions, 'operations' | 'dbPath' | 'port'> {
  operations: readonly LocalOperation[];
  store?: SampleStore;
  /** 'memory' (default) or 'file': a WAL database in a temp directory removed by stopTestService. */
  stateDb?: 'memory' | 'file';
}

export interface TestCallInit {
  method?: string;
  /** Which seeded key to send (default 'active'); 'none' sends no Authorization header. */
  as?: DemoKeyRole | 'none';
  /** A raw key to send instead of a seeded one. */
  apiKey?: string;
  idempotencyKey?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent verbatim (for malformed bodies). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestCallResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
  /** X-Svc-Charged-Micro-USD, or null when absent. */
  charged: number | null;
  /** X-Svc-Balance-Micro-USD, or null when absent. */
  balance: number | null;
  /** X-Svc-Replayed as a boolean, or null when absent. */
  replayed: boolean | null;
  /** X-RateLimit-Remaining, or null when absent. */
  rateLimitRemaining: number | null;
}

export interface TestService {
  url: string;
  keys: DemoKeys;
  service: LocalService;
  call(path: string, init?: TestCallInit): Promise<TestCallResult>;
  /** Current balance of the account behind a seeded key, straight from the state db. */
  balance(as?: DemoKeyRole): number;
}

const tempDirs = new WeakMap<TestService, string>();

function numberHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  return value === null ? null : Number(value);
}

export async function startTestService(options: TestServiceOptions): Promise<TestService> {
  const { stateDb = 'memory', ...serviceOptions } = options;
  const dir = stateDb === 'file' ? mkdtempSync(join(tmpdir(), 'plat-svc-')) : undefined;
  let service: LocalService;
  try {
    service = await createLocalService({ ...serviceOptions, port: 0, dbPath: dir ? join(dir, 'state.db') : ':memory:' });
  } catch (error) {
    if (dir) rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const testService: TestService = {
    url: service.url,
    keys: service.keys,
    service,
    async call(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      const role = init.as ?? 'active';
      const key = init.apiKey ?? (role === 'none' ? undefined : service.keys[role]);
      if (key !== undefined) headers['Authorization'] = `Bearer ${key}`;
      if (init.idempotencyKey !== undefined) headers['Idempotency-Key'] = init.idempotencyKey;
      let body: string | undefined;
      if (init.rawBody !== undefined) body = init.rawBody;
      else if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers['Content-Type'] ??= 'application/json';
      }
      const method = init.method ?? (body === undefined ? 'GET' : 'POST');
      const response = await fetch(new URL(path, service.url), { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        parsed = undefined;
      }
      const replayed = response.headers.get('X-Svc-Replayed');
      return {
        status: response.status,
        headers: response.headers,
        text,
        body: parsed,
        charged: numberHeader(response.headers, 'X-Svc-Charged-Micro-USD'),
        balance: numberHeader(response.headers, 'X-Svc-Balance-Micro-USD'),
        replayed: replayed === null ? null : replayed === 'true',
        rateLimitRemaining: numberHeader(response.headers, 'X-RateLimit-Remaining'),
      };
    },
    balance(as = 'active') {
      const account = service.state.accountOfKey(service.keys[as]);
      if (!account) throw new Error(`no account for the ${as} key`);
      return account.balanceMicroUsd;
    },
  };
  if (dir) tempDirs.set(testService, dir);
  return testService;
}

export async function stopTestService(testService: TestService): Promise<void> {
  await testService.service.close();
  const dir = tempDirs.get(testService);
  if (dir) rmSync(dir, { recursive: true, force: true });
}
