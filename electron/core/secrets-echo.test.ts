// A service that quotes the caller's key back (issue 20, item 4): the embedded service with
// --echo-authorization puts `Bearer <key>` into every request_id, error message and details, a meta
// warning and the free text of every answer. Through the whole core (IPC door, gateway, ledger,
// cache, assignments) on a live connection with a sentinel key, then a key change: after successes,
// errors, charged and unreadable answers, cache hits, the ledger's frames and CSV, an assignment's
// workfile and report, the key is nowhere: not in any file of the data folder (WAL and SHM included,
// as bytes, in plain text or base64), any IPC answer or event, or anything logged.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IpcOperationName } from '../../shared/ipc.ts';
import { createLocalService, type LocalService } from '../local-service/server.ts';
import { localOperations } from '../local-service/operations/index.ts';
import { openSampleStore, type SampleStore } from '../local-service/sample-store.ts';
import type { AppCore } from './app-core.ts';
import { createTestCore, testSender } from './core-test-kit.ts';
import { readEvidence } from './reports/pdf-evidence.ts';
import { smallPdf } from './reports/pdf-test-kit.ts';

// Not shaped like a credential, so only knowing it is the key in use can scrub it.
const SENTINEL = 'plat-Sentinel-4f9a2c7e1b88';
const NEXT_KEY = 'plat-Nextkey-91c4a0ffe27d';

let store: SampleStore;
let echo: LocalService;
let core: AppCore;
let coreClosed = false;
let dataDir: string;
const answers: string[] = [];
const events: string[] = [];
const logged: string[] = [];

/** Every form the test looks for: the keys in use (the sample's too), plain and base64 (both alphabets). */
function forbidden(): string[] {
  return [SENTINEL, NEXT_KEY, echo.keys.active].flatMap((key) => {
    const base64 = Buffer.from(key).toString('base64').replace(/=+$/, '');
    return [key, base64, base64.replace(/\+/g, '-').replace(/\//g, '_')];
  });
}

/** The forms of a key found in the text or bytes, with where. */
function leaks(where: string, content: string | Buffer): string[] {
  const text = typeof content === 'string' ? content : content.toString('latin1');
  return forbidden().filter((form) => text.includes(form)).map((form) => `${where}: ${form}`);
}

function dataFolderLeaks(): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) visit(file);
      else found.push(...leaks(file, readFileSync(file)));
    }
  };
  visit(dataDir);
  return found;
}

/** An IPC call as the page makes it; its whole answer is kept for the scan. */
async function ask(operation: IpcOperationName, payload: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const result = await core.dispatch(operation, payload, testSender);
  answers.push(`${operation} ${JSON.stringify(result)}`);
  return result as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
}

function propertyAt(address: string): string {
  const record = store.searchRecords({ kind: 'ownership', jurisdiction: '11001', filters: [{ field: 'address', op: 'eq', value: address }], limit: 1 }).items[0];
  const ref = record?.q_ids.find((id) => id.startsWith('prop_'));
  if (!ref) throw new Error(`no property at ${address} in the sample`);
  return ref;
}

beforeAll(async () => {
  store = openSampleStore();
  echo = await createLocalService({
    operations: localOperations,
    store,
    dbPath: path.join(mkdtempSync(path.join(tmpdir(), 'plat-echo-svc-')), 'state.db'),
    rateLimitPerMinute: 100_000,
    echoAuthorization: true,
  });
  const account = echo.state.accountOfKey(echo.keys.active);
  if (!account) throw new Error('no sample account');
  echo.state.createKey(account.id, SENTINEL);
  echo.state.createKey(account.id, NEXT_KEY);

  // Everything the process logs, whoever logs it.
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...parts: unknown[]) => {
      logged.push(parts.map((part) => (part instanceof Error ? `${part.message} ${part.stack ?? ''}` : typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    vi.spyOn(stream, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
      logged.push(String(chunk));
      return write(chunk, ...rest);
    });
  }

  dataDir = mkdtempSync(path.join(tmpdir(), 'plat-echo-'));
  core = createTestCore({
    dataDir,
    // The embedded service of this core is the echoing one too: its own key is scrubbed as well.
    launchLocalService: async () => ({ url: echo.url, keys: echo.keys, stop: async () => {} }),
    timeoutMs: 5_000,
    // The printed pages are a stand-in; the evidence Plat attaches to them is its own.
    printer: () => ({ description: 'a test printer', printReport: () => smallPdf(2) }),
  });
  core.events.subscribe((event, payload) => events.push(`${event} ${JSON.stringify(payload)}`));
  await core.ready;
});

afterAll(async () => {
  if (!coreClosed) await core?.close();
  await echo?.close();
  store?.close();
  vi.restoreAllMocks();
});

describe('a service that echoes the Authorization header', () => {
  it('leaves the key nowhere Plat keeps, shows, exports or logs', async () => {
    expect(await ask('setApiKey', { key: SENTINEL })).toMatchObject({ ok: true });
    expect(await ask('setConnection', { mode: 'live', baseUrl: echo.url })).toMatchObject({ ok: true });
    // The connection check (a free catalog call) answered with the echo in it.
    await vi.waitFor(() => expect(core.connection().state).not.toBe('checking'));

    const subject = propertyAt('1708 21ST ST NW');
    const created = await ask('createAssignment', {
      name: 'Echo appraisal',
      capMicroUsd: null,
      details: { subjectRef: subject, subjectLabel: '1708 21ST ST NW', client: 'First Bank' },
      activate: true,
    });
    expect(created).toMatchObject({ ok: true });
    const assignmentId = (created.value as { id: string }).id;

    // A charged success with echoed free text, then the same question again: a cache hit.
    const report = { request: { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: subject } }, confirmed: true };
    const bought = await ask('queryRecords', report);
    expect(bought).toMatchObject({ ok: true, value: { billing: { cacheHit: false } } });
    // The service's words arrived, scrubbed: the echo is there, the key is not.
    expect(JSON.stringify(bought)).toContain('JOEL KUIPERS [redacted]');
    expect(await ask('queryRecords', report)).toMatchObject({ ok: true, value: { billing: { cacheHit: true } } });

    // v2 success, and a v2 error (404) whose message and details quote the key.
    expect(await ask('searchProperties', { request: { body: { area_uid: 'area_us_dc', limit: 5 } }, confirmed: true })).toMatchObject({ ok: true });
    expect(await ask('getEntity', { request: { path: { entity_ref: 'prop_00000000-0000-4000-8000-000000000000' } }, confirmed: true })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringContaining('(request authorized with [redacted])') },
    });
    // v4 charged calls: `req_Bearer <key>` is not the request's Idempotency-Key, so the answer is
    // unreadable and charged (its request id kept by the ledger), the attack of the issue.
    const summary = await ask('getEntitySummary', { request: { path: { q_id: subject } }, confirmed: true });
    expect(summary.ok).toBe(false);
    await ask('searchRecords', { request: { query: { jurisdiction: '11001', kind: 'ownership', limit: 2 } }, confirmed: true });

    // A key change: the next calls quote the new key; the old one is still scrubbed for the session.
    expect(await ask('setApiKey', { key: NEXT_KEY })).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(core.connection().state).not.toBe('checking'));
    await ask('searchProperties', { request: { body: { area_uid: 'area_us_dc', limit: 3 } }, confirmed: true });
    await ask('testApiKey', {});

    // What the page is shown and what leaves Plat: ledger frames, the CSV, the workfile, the report.
    const ledger = await ask('listLedger', { filter: {}, limit: 500, offset: 0 });
    const rows = (ledger.value as { rows: Array<{ requestId: string | null }> }).rows;
    expect(rows.some((row) => row.requestId === 'req_[redacted]')).toBe(true);
    expect(await ask('exportLedgerCsv', { filter: {} })).toMatchObject({ ok: true });
    expect(await ask('getAssignment', { id: assignmentId })).toMatchObject({ ok: true });
    const workfile = await ask('exportAssignment', { id: assignmentId });
    expect((workfile.value as { json: string }).json).toContain('JOEL KUIPERS [redacted]');
    await ask('getSubjectReport', { assignmentId });
    const pdf = await ask('exportReportPdf', { assignmentId });
    expect(pdf).toMatchObject({ ok: true });
    const pdfBytes = Buffer.from((pdf.value as { pdfBase64: string }).pdfBase64, 'base64');
    const evidence = await readEvidence(pdfBytes);
    if (evidence.kind !== 'evidence') throw new Error(`the PDF carries no evidence: ${evidence.kind}`);
    const attached = [...evidence.attachments.values()].map((bytes) => Buffer.from(bytes).toString('utf8'));
    expect(attached.join('\n')).toContain('[redacted]');
    expect([...leaks('PDF', pdfBytes), ...attached.flatMap((text) => leaks('PDF attachment', text))]).toEqual([]);
    await ask('getComparables', { assignmentId });
    await ask('getSpend', {});

    // The key was sent all along (the service saw it), and it is nowhere Plat put anything.
    expect(answers.join('\n')).toContain('(request authorized with [redacted])');
    expect([...answers.flatMap((text, index) => leaks(`IPC answer ${index}`, text)), ...events.flatMap((text) => leaks('event', text))]).toEqual([]);
    expect(logged.flatMap((text) => leaks('log', text))).toEqual([]);
    // Open, with the WAL not yet checkpointed, then closed.
    expect(readdirSync(dataDir).some((name) => name.endsWith('-wal'))).toBe(true);
    expect(dataFolderLeaks()).toEqual([]);
    await core.close();
    coreClosed = true;
    expect(dataFolderLeaks()).toEqual([]);
  });
});
