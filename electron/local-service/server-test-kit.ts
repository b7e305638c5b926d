// What the HTTP layer's tests share: fake operations (the layer never looks inside the store or the
// operations), a service over them with a settable clock, its request log and internal errors.
import { afterEach } from 'vitest';
import { z } from 'zod';
import type { LocalOperation } from './operation.ts';
import { ServiceFailure } from './operation.ts';
import type { SampleStore } from './sample-store.ts';
import type { RequestLogEntry } from './server.ts';
import { startTestService, stopTestService } from './test-harness.ts';
import type { TestService, TestServiceOptions } from './test-harness.ts';

// The HTTP layer never looks inside the store; the fake operations below do not either.
export const fakeStore = {} as unknown as SampleStore;
export const SUMMARY_PRICE = 100_000;

export interface Fakes {
  operations: LocalOperation[];
  runs: { summary: number; search: number };
}

/** A fake v4 GET that takes an Idempotency-Key, as most of the fakes are. */
function v4Get(name: string, envelopeOperation: string, path: string, handle: LocalOperation['handle']): LocalOperation {
  return { name, envelopeOperation, generation: 'v4', method: 'GET', path, idempotent: true, handle };
}

export function fakeOperations(): Fakes {
  const runs = { summary: 0, search: 0 };
  const operations: LocalOperation[] = [
    v4Get('test.catalog', 'catalog', '/api/v4/catalog', () => ({ data: { items: [{ source_id: 'dc_otr' }] }, meta: { truncated: false }, charge: 0 })),
    v4Get('test.summary', 'summary', '/api/v4/entities/:q_id/summary', (request) => {
      runs.summary += 1;
      return { data: { q_id: request.params['q_id'], run: runs.summary, view: request.query.get('view') }, charge: SUMMARY_PRICE };
    }),
    v4Get('test.priced', 'priced', '/api/v4/priced', (request) => ({ data: { ok: true }, charge: Number(request.query.get('micro_usd')) })),
    v4Get('test.big', 'big', '/api/v4/big', () => ({ data: { blob: 'x'.repeat(5000) }, charge: SUMMARY_PRICE })),
    v4Get('test.search', 'search', '/api/v4/search', (request) => {
      const parsed = z.object({ limit: z.coerce.number().int().min(1).max(100) }).parse({ limit: request.query.get('limit') ?? 50 });
      return { data: { items: [], limit: parsed.limit }, charge: 0 };
    }),
    {
      name: 'test.missing',
      envelopeOperation: 'get_entity',
      generation: 'v2',
      method: 'GET',
      path: '/api/v2/entities/:entity_ref',
      idempotent: false,
      handle: (request) => {
        throw new ServiceFailure(404, 'not_found', `No entity ${request.params['entity_ref']}.`);
      },
    },
    {
      name: 'test.property_searches',
      envelopeOperation: 'search_properties',
      generation: 'v2',
      method: 'POST',
      path: '/api/v2/property-searches',
      idempotent: true,
      handle: (request) => {
        runs.search += 1;
        const body = z
          .object({ area_uid: z.string().min(1).max(128), limit: z.number().int().min(1).max(100).default(20) })
          .parse(request.body);
        return {
          data: { items: [{ entity_ref: 'prop_1', area_uid: body.area_uid }], projection: 'identity_summary' },
          status: 'partial',
          meta: { warnings: ['one filter ignored'] },
          provenance: {
            source_refs: ['src_otr'],
            sources: [{ source_ref: 'src_otr', source_kind: 'tax_roll', publisher: 'DC OTR', release_id: '1', captured_at: '2017-02-05', official_url: 'https://otr.cfo.dc.gov/' }],
          },
          charge: 20_000,
        };
      },
    },
    {
      name: 'test.broken',
      envelopeOperation: 'record_queries',
      generation: 'v3',
      method: 'POST',
      path: '/api/v3/record-queries',
      idempotent: true,
      handle: () => {
        throw new TypeError('secret internals at /home/someone/file.ts:12');
      },
    },
  ];
  return { operations, runs };
}

export const T0 = Date.parse('2025-03-03T12:00:10.000Z');

export interface Setup {
  svc: TestService;
  runs: Fakes['runs'];
  setNow(ms: number): void;
  log: RequestLogEntry[];
  internalErrors: unknown[];
}

const running: TestService[] = [];

/** Stops every service `setup` started, after each test of the calling file. */
export function stopServicesAfterEach(): void {
  afterEach(async () => {
    await Promise.all(running.splice(0).map((svc) => stopTestService(svc)));
  });
}

export async function setup(options: Partial<TestServiceOptions> = {}): Promise<Setup> {
  const fakes = fakeOperations();
  let now = T0;
  const log: RequestLogEntry[] = [];
  const internalErrors: unknown[] = [];
  const svc = await startTestService({
    operations: fakes.operations,
    store: fakeStore,
    clock: () => new Date(now),
    onRequest: (entry) => log.push(entry),
    onInternalError: (error) => internalErrors.push(error),
    ...options,
  });
  running.push(svc);
  return { svc, runs: fakes.runs, setNow: (ms) => (now = ms), log, internalErrors };
}

export type Envelope = {
  contract_version: string;
  request_id: string;
  operation: string;
  status: string;
  data: unknown;
  error: { code: string; message: string; retryable: boolean; retry_after_seconds?: number; details?: unknown } | null;
  meta: Record<string, unknown>;
  provenance?: unknown;
};
export const envelope = (body: unknown) => body as Envelope;
