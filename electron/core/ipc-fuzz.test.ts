// Malformed payloads through the real core (every operation of the local service behind it): a
// request the contract or a downstream validator refuses is `invalid_payload` (or `invalid_request`
// where the service's request rules refuse it), never `internal`. Payloads are valid ones with one
// part replaced by something hostile, so they get past the first checks and reach the handlers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ipcOperationNames, ipcOperations, type IpcOperationName } from '../../shared/ipc.ts';
import { createLocalService, type LocalService } from '../local-service/server.ts';
import { localOperations } from '../local-service/operations/index.ts';
import { openSampleStore, type SampleStore } from '../local-service/sample-store.ts';
import type { AppCore } from './app-core.ts';
import { startBrowserHost } from '../host/browser-host.ts';
import { openBridgeSocket } from '../host/bridge-client.ts';
import { createTestCore, testSender as sender } from './core-test-kit.ts';
import { smallPdf } from './reports/pdf-test-kit.ts';

const Q_ID = 'prop_00000000-0000-4000-8000-000000000000';

/** The assignment the seeds below work on (made in beforeAll), and its exported workfile and comparables. */
const made = { assignmentId: '', workfile: '', comparables: null as unknown };

/**
 * A valid payload for every operation of the contract (shared/ipc.ts `ipcOperations`): the type makes
 * a new operation fail the typecheck until it has one, and the first test below fails for any
 * operation whose seed the contract refuses, so every operation is fuzzed from the day it is added.
 */
const seeds = (): Record<IpcOperationName, unknown> => ({
  getAppInfo: {},
  // The sample connection: a random live URL would only slow the run.
  setConnection: { mode: 'local-sample' },
  searchRecords: { request: { query: { jurisdiction: '11001', kind: 'ownership', filter: '{"owner":"SMITH"}', limit: '5' } }, confirmed: true },
  getSourceCatalog: { request: { query: { jurisdiction: '11' } } },
  getConnectedEntities: { request: { path: { q_id: 'parc_00000000-0000-4000-8000-000000000000' }, query: { depth: '2' } }, confirmed: true },
  getEntitySummary: { request: { path: { q_id: Q_ID }, query: { fields: 'address,owner_name' } }, actionId: 'fuzz-action-0001', confirmed: true },
  queryRecords: { request: { body: { mode: 'catalog', dataset: 'sales', filters: { sale: [{ field: 'from_date', value: '2015-01-01' }] } } } },
  searchProperties: {
    request: { body: { area_uid: 'area_us_dc', filters: [{ field: 'last_sale_date', op: 'gte', value: '2015-01-01' }], limit: 2 } },
    confirmed: true,
  },
  resolveEntities: {
    request: { body: { items: [{ client_id: 'a', subject_kind: 'address', identifiers: [{ scheme: 'address', value: '1716 21st st nw' }] }], candidate_limit: 2 } },
    confirmed: true,
  },
  getCatalogFacet: { request: { query: { facet: 'jurisdictions' } } },
  getEntity: { request: { path: { entity_ref: 'prop_x' } } },
  traverseRelationships: { request: { path: { entity_ref: 'prop_x' }, query: { as_of: '2016-01-01', depth: '1' } } },
  previewCost: { operation: 'v2.resolveEntities', request: { body: { items: [{ client_id: 'a' }] } } },
  getSpend: {},
  listLedger: { filter: { projectId: null, from: '2020-01-01T00:00:00.000Z', to: '2030-01-01' }, limit: 10, offset: 0 },
  exportLedgerCsv: { filter: { from: '2020-01-01T00:00:00.000Z' } },
  listProjects: {},
  createProject: { name: 'Fuzz project', capMicroUsd: null },
  updateProject: { id: 'no-such-project', name: 'Renamed', capMicroUsd: 5, archived: false },
  createAssignment: { name: 'Fuzz assignment', capMicroUsd: 1_000_000, details: { subjectRef: Q_ID, subjectLabel: '1708 21ST ST NW', effectiveDate: '2016-03-02' } },
  updateAssignment: { id: made.assignmentId, details: { client: 'First Bank', notes: 'fuzzed' } },
  getAssignment: { id: made.assignmentId },
  getAssignmentAnswer: { id: made.assignmentId, answerId: 'no-such-answer' },
  setValueChoice: { assignmentId: made.assignmentId, field: 'ownership.owner_name', choice: { alternativeKey: 'a', reason: 'the deed says so' } },
  getComparables: { assignmentId: made.assignmentId },
  saveComparables: { assignmentId: made.assignmentId, workfile: made.comparables },
  getGraphDecisions: { assignmentId: made.assignmentId },
  setGraphDecision: { assignmentId: made.assignmentId, edgeKey: 'prop_x|owned_by|acct_y', decision: { decision: 'confirmed', note: 'same deed' } },
  exportAssignment: { id: made.assignmentId },
  importAssignment: { json: made.workfile, fileName: 'fuzz.plat-workfile.json' },
  recheckImportedAnswers: { assignmentId: made.assignmentId, confirmed: false },
  getSubjectReport: { assignmentId: made.assignmentId },
  exportReportPdf: { assignmentId: made.assignmentId },
  verifyReport: { pdfBase64: Buffer.from('%PDF-1.7\n%%EOF\n').toString('base64') },
  setActiveProject: { id: null },
  getBudgets: {},
  setBudgets: { sessionCapMicroUsd: null, confirmationThresholdMicroUsd: 100_000 },
  getCacheStatus: {},
  setCachePolicy: { ttlSeconds: 3600, maxEntries: 100, maxBytes: 10 * 1024 * 1024 },
  clearCache: {},
  getKeyStatus: {},
  setApiKey: { key: 'svc_live_fuzz' },
  testApiKey: {},
  deleteApiKey: {},
});

let deepArray: unknown = 'bottom';
for (let level = 0; level < 5000; level += 1) deepArray = [deepArray];
const cyclic: Record<string, unknown> = { area_uid: 'area_us_dc' };
cyclic['self'] = cyclic;

/** Values that pass a loose check and break what is behind it, if anything behind it is fragile. */
const hostile = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    [],
    {},
    '',
    '\uD800',
    'a\uDC00b',
    'x'.repeat(100_000),
    '2015-02-30',
    '2015-13-45',
    '../../etc/passwd',
    '%',
    '%E0%A4%A',
    -0,
    -1,
    1e308,
    2 ** 53,
    Number.MAX_VALUE,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    10n,
    new Date(Number.NaN),
    new Map([[1, 2]]),
    deepArray,
    cyclic,
    Object.create(null) as unknown,
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}}') as unknown,
  ),
  fc.anything({ maxDepth: 3, withNullPrototype: true, withBigInt: true, withDate: true, withSparseArray: true, withUnicodeString: true }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.double(),
  fc.integer(),
);

/** Every place in a value where something could be swapped in: each path to an existing part. */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const paths: (string | number)[][] = [at];
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) paths.push(...pathsOf(child, [...at, Array.isArray(value) ? Number(key) : key]));
  }
  return paths;
}

function replaced(value: unknown, at: readonly (string | number)[], replacement: unknown, extraKey: string | null): unknown {
  if (at.length === 0) {
    if (extraKey !== null && replacement !== null && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return Object.defineProperty({ ...value }, extraKey, { value: replacement, enumerable: true, configurable: true, writable: true });
    }
    return replacement;
  }
  const [head, ...rest] = at as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replaced(item, rest, replacement, extraKey) : item));
  const record = value as Record<string, unknown>;
  return { ...record, [head]: replaced(record[head], rest, replacement, extraKey) };
}

let service: LocalService;
let core: AppCore;
let store: SampleStore;

beforeAll(async () => {
  store = openSampleStore();
  core = createTestCore({
    dataDir: mkdtempSync(path.join(tmpdir(), 'plat-fuzz-')),
    launchLocalService: async () => {
      service = await createLocalService({ operations: localOperations, store, rateLimitPerMinute: 1_000_000 });
      return { url: service.url, keys: service.keys, stop: () => service.close() };
    },
    // A printer that prints three blank pages: the export path past the printer is fuzzed too.
    printer: () => ({ description: 'a test printer', printReport: () => smallPdf(3) }),
    timeoutMs: 5_000,
  });
  await core.ready;
  const assignment = await core.dispatch('createAssignment', { ...(seeds().createAssignment as object), name: 'Fuzz subject' }, sender);
  if (!assignment.ok) throw new Error(assignment.error.message);
  made.assignmentId = (assignment.value as { id: string }).id;
  const exported = await core.dispatch('exportAssignment', { id: made.assignmentId }, sender);
  const comparables = await core.dispatch('getComparables', { assignmentId: made.assignmentId }, sender);
  if (!exported.ok || !comparables.ok) throw new Error('the seed assignment could not be exported');
  made.workfile = (exported.value as { json: string }).json;
  made.comparables = (comparables.value as { workfile: unknown }).workfile;
}, 120_000);
afterAll(async () => {
  await core.close();
  store.close();
});

// The contract's list, not the seeds': an operation without a seed fails below instead of going unfuzzed.
const operations = ipcOperationNames;

describe('IPC door under malformed payloads', () => {
  it('has a seed for every operation of the contract that its request schema accepts', () => {
    const seeded = seeds();
    for (const operation of operations) {
      expect(Object.hasOwn(seeded, operation), `no seed for ${operation}: add one above`).toBe(true);
      const parsed = ipcOperations[operation].request.safeParse(seeded[operation]);
      expect(parsed.success, `${operation}'s seed: ${parsed.error?.message ?? ''}`).toBe(true);
    }
  });

  it('accepts every seed payload (so the mutations below start from valid requests)', async () => {
    const refused: string[] = [];
    for (const operation of operations) {
      const result = await core.dispatch(operation, seeds()[operation], sender);
      if (!result.ok) refused.push(`${operation}: ${result.error.code} (${result.error.message})`);
    }
    // Refusals of the handlers themselves, past the contract: updateProject's seed names no project.
    const expected = /^\w+: (not_found|confirmation_required|budget_exceeded) |^updateProject: invalid_payload /;
    expect(refused.filter((line) => !expected.test(line))).toEqual([]);
  }, 120_000);

  it('never answers `internal` to a payload with one part replaced by something hostile (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.nat(),
        hostile,
        fc.option(fc.constantFrom('__proto__', 'constructor', 'toString', 'extra', ''), { nil: null }),
        async (operation, pick, replacement, extraKey) => {
          const seed = seeds()[operation];
          const paths = pathsOf(seed);
          const at = paths[pick % paths.length] ?? [];
          const payload = replaced(seed, at, replacement, extraKey);
          const result = await core.dispatch(operation, payload, sender);
          if (!result.ok) {
            expect(result.error.code, `${operation} at ${JSON.stringify(at)}: ${result.error.message}`).not.toBe('internal');
            // A failure the service answered also says what it was charged for it.
            expect(Object.keys(result.error).filter((key) => key !== 'chargedMicroUsd').sort()).toEqual(['code', 'message', 'retryable']);
          }
        },
      ),
      { numRuns: 1500, seed: 20_260_314 },
    );
    expect(await core.dispatch('getAppInfo', {}, sender)).toMatchObject({ ok: true });
  }, 300_000);

  it.each([
    ['a 5,000-level nested resolution item', 'resolveEntities', { request: { body: { items: [deepArray] } } }],
    ['a cycle in a resolution item', 'resolveEntities', { request: { body: { items: [cyclic] } } }],
    ['NaN in a resolution item', 'resolveEntities', { request: { body: { items: [{ client_id: Number.NaN }] } } }],
    ['a BigInt in a preview', 'previewCost', { operation: 'v2.resolveEntities', request: { body: { items: [10n] } } }],
    ['a lone surrogate in a path parameter', 'getEntity', { request: { path: { entity_ref: 'prop_\uD800' } } }],
    ['a lone surrogate in a query parameter', 'getCatalogFacet', { request: { query: { facet: 'jurisdictions', filter: '\uDFFF' } } }],
    ['an impossible ledger date', 'listLedger', { filter: { from: '2015-02-30' }, limit: 10, offset: 0 }],
    ['a ledger date that is not one', 'exportLedgerCsv', { filter: { to: 'tomorrow' } }],
    ['a preview with a non-object part', 'previewCost', { operation: 'v4.summary', request: { path: 'prop_x' } }],
    ['a Map as the payload', 'getSpend', new Map()],
  ] as const)('refuses %s as invalid_payload or invalid_request, not internal', async (_label, operation, payload) => {
    const result = await core.dispatch(operation, payload, sender);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(['invalid_payload', 'invalid_request']).toContain(result.error.code);
  });

  it('answers malformed frames on the browser bridge (escaped lone surrogates, 5,000 levels) with invalid_payload', async () => {
    const rendererDir = mkdtempSync(path.join(tmpdir(), 'plat-fuzz-renderer-'));
    writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Plat</title>');
    const host = await startBrowserHost({ dispatch: core.dispatch, events: core.events, rendererDir });
    const socket = openBridgeSocket(host);
    try {
      await new Promise((resolve) => socket.once('open', resolve));
      const answers = new Map<number, { ok: boolean; error?: { code: string } }>();
      const frames = [
        '{"id":1,"op":"getEntity","payload":{"request":{"path":{"entity_ref":"prop_\\ud800"}}}}',
        `{"id":2,"op":"resolveEntities","payload":{"request":{"body":{"items":[${'['.repeat(5000)}${']'.repeat(5000)}]}}}}`,
        '{"id":3,"op":"listLedger","payload":{"filter":{"from":"not a date"},"limit":1,"offset":0}}',
      ];
      const received = new Promise<void>((resolve) => {
        socket.on('message', (data: Buffer) => {
          const message = JSON.parse(data.toString()) as { id?: number; result?: { ok: boolean; error?: { code: string } } };
          if (message.id !== undefined && message.result) answers.set(message.id, message.result);
          if (answers.size === frames.length) resolve();
        });
      });
      for (const frame of frames) socket.send(frame);
      await received;
      expect([...answers.values()].map((answer) => answer.error?.code)).toEqual(['invalid_payload', 'invalid_payload', 'invalid_payload']);
    } finally {
      socket.close();
      await host.close();
    }
  });
});
