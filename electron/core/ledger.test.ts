import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { parse } from 'csv-parse/sync';
import { openAppDatabase } from './app-db.ts';
import { SpendLedger, summaryJson } from './ledger.ts';
import type { BeginAttemptInput, CallAnswer, SpendChange } from './ledger.ts';
import { fillDisk, freeSpace } from './gateway-test-kit.ts';

const dirs: string[] = [];
const openDbs: DatabaseSync[] = [];
function tempDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plat-ledger-'));
  dirs.push(dir);
  return join(dir, 'app.db');
}
function open(path = ':memory:'): DatabaseSync {
  const db = openAppDatabase(path);
  openDbs.push(db);
  return db;
}
afterEach(() => {
  for (const db of openDbs.splice(0)) if (db.isOpen) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SUMMARY = 100_000;
const TOP_UP = 25_000_000;

function harness(path = ':memory:') {
  let clock = new Date(2024, 4, 10, 12, 0, 0); // local time, so "today" tests hold in any time zone
  const db = open(path);
  const ledger = new SpendLedger(db, { now: () => clock });
  let keyCounter = 0;
  const begin = (overrides: Partial<BeginAttemptInput> = {}): number =>
    ledger.beginAttempt({
      operation: 'v4.summary',
      requestSummary: { q_id: 'parc_1' },
      idempotencyKey: `key-${++keyCounter}`,
      expectedCostMicroUsd: SUMMARY,
      projectId: 'proj_a',
      sessionId: 'sess_1',
      ...overrides,
    });
  const free = (overrides: Partial<BeginAttemptInput> = {}): number =>
    begin({ operation: 'v4.catalog', requestSummary: {}, expectedCostMicroUsd: 0, ...overrides });
  return {
    db,
    ledger,
    begin,
    free,
    setClock(date: Date) {
      clock = date;
    },
  };
}

function ok(charged: number, balance: number, extra: Partial<CallAnswer> = {}): CallAnswer {
  return {
    httpStatus: 200,
    requestId: 'req',
    chargedMicroUsd: charged,
    balanceAfterMicroUsd: balance,
    replayed: false,
    errorCode: null,
    attempts: 1,
    ...extra,
  };
}

/** A free call answered at `balance`: the way the gateway learns the balance before charging. */
function observe(h: ReturnType<typeof harness>, balance: number): void {
  h.ledger.recordAnswer(h.free(), ok(0, balance));
}

function rows(ledger: SpendLedger) {
  return ledger.list({ limit: 1000 }).reverse();
}

describe('write-ahead and answers', () => {
  it('commits the pending row before the request is sent, visible to another connection', () => {
    const path = tempDbPath();
    const h = harness(path);
    const callId = h.begin({ requestSummary: { q_id: 'parc_9' } });
    // "Sending" happens now: the row must already be on disk for any other reader.
    const reader = new DatabaseSync(path, { readOnly: true });
    const seen = reader.prepare('SELECT status, idempotency_key, expected_cost_micro_usd FROM spend_ledger WHERE id = ?').get(callId);
    reader.close();
    expect(seen).toEqual({ status: 'pending', idempotency_key: 'key-1', expected_cost_micro_usd: SUMMARY });
  });

  it('closes a call with its answer', () => {
    const h = harness();
    const callId = h.begin();
    h.setClock(new Date(2024, 4, 10, 12, 0, 1));
    h.ledger.recordAnswer(callId, ok(SUMMARY, 24_900_000, { requestId: 'key-1' }));
    expect(h.ledger.get(callId)).toMatchObject({
      status: 'succeeded',
      httpStatus: 200,
      requestId: 'key-1',
      chargedMicroUsd: SUMMARY,
      totalChargeMicroUsd: SUMMARY,
      balanceAfterMicroUsd: 24_900_000,
      finishedAt: new Date(2024, 4, 10, 12, 0, 1).toISOString(),
    });
    expect(() => h.ledger.recordAnswer(callId, ok(0, 1))).toThrow(/already succeeded/);
  });

  it('marks error answers failed, uncharged', () => {
    const h = harness();
    const callId = h.begin();
    h.ledger.recordAnswer(callId, { ...ok(0, 0), httpStatus: 404, chargedMicroUsd: null, balanceAfterMicroUsd: null, errorCode: 'not_found' });
    expect(h.ledger.get(callId)).toMatchObject({ status: 'failed', errorCode: 'not_found', totalChargeMicroUsd: 0 });
  });

  it('records a call that cannot charge in one commit, after its answer, and measures its balance', () => {
    const h = harness();
    const changes: SpendChange[] = [];
    h.ledger.onChange((change) => changes.push(change));
    const closed = h.ledger.recordUnchargedCall(
      { operation: 'v4.catalog', requestSummary: {}, idempotencyKey: null, expectedCostMicroUsd: 0, projectId: null, sessionId: 'sess_1' },
      ok(0, 2_000_000),
    );
    expect(closed.totalChargeMicroUsd).toBe(0);
    expect(h.ledger.get(closed.callId)).toMatchObject({ status: 'succeeded', operation: 'v4.catalog', idempotencyKey: null, totalChargeMicroUsd: 0 });
    expect(changes.map((change) => [change.reason, change.ids])).toEqual([['answered', [closed.callId]]]);
    expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(2_000_000);
    expect(h.ledger.pendingAttempts()).toEqual([]);
  });

  it('writes a free answer that changes nothing as one finished row, and reconciles one that does', () => {
    const h = harness();
    const free = { operation: 'v4.catalog', requestSummary: {}, idempotencyKey: null, expectedCostMicroUsd: 0, projectId: null, sessionId: 'sess_1' };
    observe(h, 2_000_000);
    const quiet = h.ledger.recordUnchargedCall(free, ok(0, 2_000_000));
    expect(h.ledger.get(quiet.callId)).toMatchObject({ kind: 'call', status: 'succeeded', httpStatus: 200, balanceAfterMicroUsd: 2_000_000, totalChargeMicroUsd: 0 });
    expect(h.ledger.totals({ sessionId: 'sess_1' }).sessionMicroUsd).toBe(0);
    // A charged call after it is reconciled against the same baseline.
    h.ledger.recordAnswer(h.begin(), ok(SUMMARY, 2_000_000 - SUMMARY));
    expect(h.ledger.totals({ sessionId: 'sess_1' })).toMatchObject({ sessionMicroUsd: SUMMARY, lastKnownBalanceMicroUsd: 2_000_000 - SUMMARY });
    // A free answer showing a higher balance (a top-up) is reconciled: the rise becomes a credit row.
    h.ledger.recordUnchargedCall(free, ok(0, 2_000_000 - SUMMARY + TOP_UP));
    expect(rows(h.ledger).filter((row) => row.kind === 'credit').map((row) => row.creditMicroUsd)).toEqual([TOP_UP]);
    expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(2_000_000 - SUMMARY + TOP_UP);
    expect(h.ledger.pendingAttempts()).toEqual([]);
  });

  it('refuses to record a priced call without writing it ahead', () => {
    const h = harness();
    const input = { operation: 'v4.summary', requestSummary: {}, idempotencyKey: null, expectedCostMicroUsd: 0, projectId: null, sessionId: 's' };
    expect(() => h.ledger.recordUnchargedCall({ ...input, expectedCostMicroUsd: SUMMARY }, ok(0, 1))).toThrow(/only a free call/);
    expect(rows(h.ledger)).toEqual([]);
  });

  it("returns a call's whole charge when it closes, an unseen charge booked against it included", () => {
    const h = harness();
    observe(h, 1_000_000);
    const callId = h.begin();
    // Replayed for free: the first attempt's charge never reached Plat, only the balance shows it.
    const closed = h.ledger.recordAnswer(callId, ok(0, 1_000_000 - SUMMARY, { replayed: true }));
    expect(closed).toEqual({ callId, totalChargeMicroUsd: SUMMARY });
    expect(h.ledger.get(callId)?.totalChargeMicroUsd).toBe(SUMMARY);
  });

  it('keeps a call with no answer at all pending, for recovery', () => {
    const h = harness();
    const callId = h.begin();
    expect(h.ledger.pendingAttempts()).toEqual([]); // in flight here, not for recovery
    h.ledger.recordAnswer(callId, { ...ok(0, 0), httpStatus: null, chargedMicroUsd: null, balanceAfterMicroUsd: null, attempts: 3 });
    expect(h.ledger.pendingAttempts().map((entry) => [entry.id, entry.status, entry.attempts])).toEqual([[callId, 'pending', 3]]);
  });

  it('records a cache hit as a free row', () => {
    const h = harness();
    const id = h.ledger.recordCacheHit({
      operation: 'v4.summary',
      requestSummary: { q_id: 'parc_1' },
      projectId: 'proj_a',
      sessionId: 'sess_1',
      originalRequestId: 'key-0',
      servedAt: '2024-05-01T10:00:00.000Z',
    });
    expect(h.ledger.get(id)).toMatchObject({
      kind: 'call',
      status: 'succeeded',
      cacheHit: true,
      chargedMicroUsd: 0,
      totalChargeMicroUsd: 0,
      requestId: 'key-0',
      cacheServedAt: '2024-05-01T10:00:00.000Z',
    });
  });
});

describe('request summaries', () => {
  it('strips credentials by key name and redacts credential-looking values', () => {
    const stored = JSON.parse(
      summaryJson({
        q_id: 'parc_1',
        Authorization: 'Bearer svc_live_0123456789abcdef0123456789abcdef',
        apiKey: 'x',
        api_key: 'x',
        key: 'x',
        headers: { authorization: 'x', 'X-Api-Key': 'x', accept: 'application/json' },
        note: 'sent with Bearer eyJhbGciOiJIUzI1NiJ9.abc123def456',
        pasted: 'svc_live_0123456789abcdef0123456789abcdef',
        street: '12 Bearer Ct',
        words: 'sent with Bearer abc',
        idempotencyKey: 'kept',
        field_key: 'kept too',
        filters: [{ owner: 'SMITH, JOHN' }],
        when: new Date('2024-05-10T00:00:00Z'),
        skipped: undefined,
      }),
    ) as unknown;
    expect(stored).toEqual({
      q_id: 'parc_1',
      headers: { accept: 'application/json' },
      note: 'sent with [redacted]',
      pasted: '[redacted]',
      // Redaction is for credentials, not words: an address on Bearer Ct is an address.
      street: '12 Bearer Ct',
      words: 'sent with Bearer abc',
      idempotencyKey: 'kept',
      field_key: 'kept too',
      filters: [{ owner: 'SMITH, JOHN' }],
      when: '2024-05-10T00:00:00.000Z',
    });
  });

  it('scrubs the API keys in use wherever they appear, whatever they look like', () => {
    const key = 'k3y-Live-0123-abcd';
    const stored = summaryJson({ q: `owner ${key} x`, [key]: 1, nested: [{ v: key }] }, [key, null, 'short']);
    expect(stored).not.toContain(key);
    expect(JSON.parse(stored)).toEqual({ q: 'owner [redacted] x', '[redacted]': 1, nested: [{ v: '[redacted]' }] });
    // A key too short to scrub safely would redact ordinary words; real keys are far longer.
    expect(summaryJson({ q: 'short words' }, ['short'])).toBe('{"q":"short words"}');
  });

  it('refuses what is not JSON, and shortens a summary too long to keep, never refusing it', () => {
    expect(() => summaryJson({ n: 1n })).toThrow(TypeError);
    expect(() => summaryJson({ at: new Map() })).toThrow(TypeError);
    expect(() => summaryJson({ n: Number.NaN })).toThrow(TypeError);
    const long = summaryJson({ text: 'x'.repeat(9000) });
    expect(long.length).toBeLessThanOrEqual(8192);
    expect(JSON.parse(long)).toEqual({ text: `${'x'.repeat(200)}…` });

    const items = Array.from({ length: 100 }, (_, index) => ({
      client_id: `item-${index}`,
      subject_kind: 'address',
      identifiers: [{ scheme: 'address', value: `${index} Long Street Name Northwest, Washington, DC 20009 ${'y'.repeat(80)}` }],
    }));
    const resolve = summaryJson({ body: { items } });
    expect(resolve.length).toBeLessThanOrEqual(8192);
    const shown = JSON.parse(resolve) as { body: { items: unknown[] } };
    expect(shown.body.items).toHaveLength(11);
    expect(shown.body.items.at(-1)).toBe('… 90 more');
    expect(JSON.stringify(shown.body.items[0])).toContain('item-0');

    const deep = summaryJson(JSON.parse(`${'{"a":'.repeat(30)}1${'}'.repeat(30)}`));
    expect(deep.length).toBeLessThan(200);
  });
});

describe('replay copies', () => {
  const items = Array.from({ length: 100 }, (_, index) => ({
    client_id: `item-${index}`,
    subject_kind: 'address',
    identifiers: [{ scheme: 'address', value: index === 7 ? '12 Bearer Ct' : `${index} Long Street Name Northwest, Washington, DC 20009` }],
  }));
  const request = { body: { items, candidate_limit: 10 } };

  it('writes a call with a request far over the summary size ahead, and keeps its exact request until it closes', () => {
    const h = harness();
    const callId = h.begin({ operation: 'v2.resolveEntities', requestSummary: request, expectedCostMicroUsd: 500_000 });
    // As the next start sees it (a ledger lists only calls it does not have in flight itself).
    const [pending] = new SpendLedger(h.db).pendingAttempts();
    expect(pending?.id).toBe(callId);
    // The replay is byte for byte the request (the service answers 409 to anything else under the key).
    expect(JSON.stringify(pending?.request)).toBe(JSON.stringify(request));
    expect(JSON.stringify(pending?.requestSummary).length).toBeLessThanOrEqual(8192);

    h.ledger.recordAnswer(callId, ok(500_000, 24_500_000));
    const raw = h.db.prepare('SELECT replay_request FROM spend_ledger WHERE id = ?').get(callId);
    expect(raw?.['replay_request']).toBeNull();
  });

  it('keeps the exact request of a call that got no answer, for its replay', () => {
    const h = harness();
    const callId = h.begin({ operation: 'v2.resolveEntities', requestSummary: request, expectedCostMicroUsd: 500_000 });
    h.ledger.recordAnswer(callId, { ...ok(0, 0), httpStatus: null, chargedMicroUsd: null, balanceAfterMicroUsd: null, attempts: 4 });
    expect(JSON.stringify(h.ledger.pendingAttempts()[0]?.request)).toBe(JSON.stringify(request));
  });

  it('never writes the API key: a request holding it keeps no replay copy, and no column or CSV shows it', () => {
    const key = 'svc_demo_active_0123456789abcdef';
    let clock = new Date(2024, 4, 10, 12);
    const db = open();
    const ledger = new SpendLedger(db, { now: () => clock, secrets: () => [key] });
    const callId = ledger.beginAttempt({
      operation: 'v4.search',
      requestSummary: { query: { jurisdiction: '11001', kind: 'sale', filter: `{"owner":"${key}"}` } },
      idempotencyKey: 'plat-pasted-key',
      expectedCostMicroUsd: 50_000,
      projectId: null,
      sessionId: 'sess_1',
    });
    expect(new SpendLedger(db).pendingAttempts()[0]?.request).toBeNull();
    clock = new Date(2024, 4, 10, 12, 1);
    ledger.recordAnswer(callId, { ...ok(0, 0), httpStatus: null, chargedMicroUsd: null, balanceAfterMicroUsd: null, errorCode: key.slice(0, 20) });
    ledger.recordCacheHit({ operation: 'v4.search', requestSummary: { note: key }, projectId: null, sessionId: 'sess_1', originalRequestId: null, servedAt: clock });
    for (const row of db.prepare('SELECT * FROM spend_ledger').all()) {
      for (const value of Object.values(row)) expect(String(value)).not.toContain(key);
    }
    expect(ledger.exportCsv()).not.toContain(key);
  });
});

describe('crash recovery', () => {
  it('finds attempts begun but never answered after the ledger was closed without answering', () => {
    const path = tempDbPath();
    const first = harness(path);
    observe(first, 25_000_000);
    const answered = first.begin();
    first.ledger.recordAnswer(answered, ok(SUMMARY, 24_900_000));
    const lost = first.begin({ idempotencyKey: 'lost-key' });
    first.db.close(); // the app dies here; the service had charged `lost`

    const db = open(path);
    const ledger = new SpendLedger(db);
    const pending = ledger.pendingAttempts();
    expect(pending.map((entry) => [entry.id, entry.idempotencyKey, entry.status])).toEqual([[lost, 'lost-key', 'pending']]);

    // The gateway re-sends it with its key: a free replay whose balance shows the unseen charge.
    ledger.recordRecovery(lost, ok(0, 24_800_000, { replayed: true }));
    expect(ledger.get(lost)).toMatchObject({ status: 'recovered', chargedMicroUsd: 0, unreportedChargeMicroUsd: SUMMARY, totalChargeMicroUsd: SUMMARY });
    expect(ledger.pendingAttempts()).toEqual([]);
    expect(ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(2 * SUMMARY);
    expect(rows(ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
  });

  it('survives SIGKILL of the process that wrote ahead', async () => {
    const path = tempDbPath();
    open(path).close(); // create the file (and its migrations) up front
    const fixture = fileURLToPath(new URL('./ledger-crash-fixture.ts', import.meta.url));
    const child = spawn(process.execPath, [fixture, path, '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const report = await new Promise<{ ids: number[]; answered: number }>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(JSON.parse(out) as { ids: number[]; answered: number });
      });
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('exit', (code) => reject(new Error(`fixture exited ${code}: ${err}`)));
    });
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const ledger = new SpendLedger(open(path));
    const pending = ledger.pendingAttempts();
    expect(pending.map((entry) => entry.id)).toEqual(report.ids.filter((id) => id !== report.answered));
    expect(pending.every((entry) => entry.status === 'pending' && entry.sessionId === 'sess_crash')).toBe(true);
    expect(ledger.get(report.answered)).toMatchObject({ status: 'succeeded', chargedMicroUsd: SUMMARY });
  });
});

describe('reconciliation', () => {
  it('attributes a charge whose answer was lost to the call whose retry came back replayed', () => {
    const h = harness();
    observe(h, 25_000_000);
    const callId = h.begin();
    // Attempt 1 was charged but its answer lost; attempt 2 is a free replay with the current balance.
    h.ledger.recordAnswer(callId, ok(0, 24_900_000, { replayed: true, attempts: 2 }));
    expect(h.ledger.get(callId)).toMatchObject({ chargedMicroUsd: 0, unreportedChargeMicroUsd: SUMMARY, totalChargeMicroUsd: SUMMARY });
    expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
    expect(h.ledger.totals({ sessionId: 'sess_1' })).toMatchObject({ allTimeMicroUsd: SUMMARY, lastKnownBalanceMicroUsd: 24_900_000 });
  });

  it('does not attribute anything to a replay of a charge it already saw', () => {
    const h = harness();
    observe(h, 25_000_000);
    const first = h.begin({ idempotencyKey: 'same' });
    h.ledger.recordAnswer(first, ok(SUMMARY, 24_900_000));
    const again = h.begin({ idempotencyKey: 'same' });
    h.ledger.recordAnswer(again, ok(0, 24_900_000, { replayed: true }));
    expect(h.ledger.get(again)?.totalChargeMicroUsd).toBe(0);
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(SUMMARY);
  });

  it('attributes a lost charge to a call that got no answer at all', () => {
    const h = harness();
    observe(h, 25_000_000);
    const silent = h.begin();
    h.ledger.recordAnswer(silent, { ...ok(0, 0), httpStatus: null, chargedMicroUsd: null, balanceAfterMicroUsd: null, attempts: 4 });
    // The next call sees the balance the silent one left behind.
    const next = h.begin();
    h.ledger.recordAnswer(next, ok(SUMMARY, 24_800_000));
    expect(h.ledger.get(silent)).toMatchObject({ status: 'pending', unreportedChargeMicroUsd: SUMMARY });
    // Recovering it later replays a charge the ledger has now seen: nothing more is added.
    h.ledger.recordRecovery(silent, ok(0, 24_800_000, { replayed: true }));
    expect(h.ledger.get(silent)).toMatchObject({ status: 'recovered', totalChargeMicroUsd: SUMMARY });
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(2 * SUMMARY);
    expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
  });

  it('books a gap it cannot attribute as a reconciliation entry', () => {
    const h = harness();
    observe(h, 25_000_000);
    const callId = h.begin({ sessionId: 'sess_2' });
    // Reported 0.10, yet the balance fell by 0.35 (another client on the account, say).
    h.ledger.recordAnswer(callId, ok(SUMMARY, 24_650_000));
    expect(h.ledger.get(callId)?.unreportedChargeMicroUsd).toBe(0);
    const adjustments = rows(h.ledger).filter((entry) => entry.kind !== 'call');
    expect(adjustments).toMatchObject([
      { kind: 'reconciliation', status: 'recorded', unreportedChargeMicroUsd: 250_000, creditMicroUsd: 0, projectId: null, sessionId: 'sess_2', balanceAfterMicroUsd: 24_650_000 },
    ]);
    expect(h.ledger.totals({ sessionId: 'sess_2' }).sessionMicroUsd).toBe(350_000);
  });

  it('attributes the expected price and books the excess separately when the gap exceeds it', () => {
    const h = harness();
    observe(h, 25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, ok(0, 24_850_000, { replayed: true, attempts: 2 }));
    expect(h.ledger.get(callId)?.unreportedChargeMicroUsd).toBe(SUMMARY);
    expect(rows(h.ledger).filter((entry) => entry.kind === 'reconciliation').map((entry) => entry.unreportedChargeMicroUsd)).toEqual([50_000]);
  });

  it('records a top-up as a credit, never as a negative charge', () => {
    const h = harness();
    observe(h, 100_000);
    const callId = h.begin({ expectedCostMicroUsd: 150_000 });
    // 0.15 charged against 0.10 of credit: the service tops up 25.00 first.
    h.ledger.recordAnswer(callId, ok(150_000, 100_000 + TOP_UP - 150_000));
    expect(h.ledger.get(callId)).toMatchObject({ totalChargeMicroUsd: 150_000, unreportedChargeMicroUsd: 0 });
    const adjustments = rows(h.ledger).filter((entry) => entry.kind !== 'call');
    expect(adjustments).toMatchObject([{ kind: 'credit', creditMicroUsd: TOP_UP, unreportedChargeMicroUsd: 0, totalChargeMicroUsd: 0 }]);
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(150_000);
  });

  it('separates a top-up from a lost charge that caused it', () => {
    const h = harness();
    observe(h, 100_000);
    const callId = h.begin({ expectedCostMicroUsd: 150_000 });
    h.ledger.recordAnswer(callId, ok(0, 100_000 + TOP_UP - 150_000, { replayed: true, attempts: 2 }));
    expect(h.ledger.get(callId)?.unreportedChargeMicroUsd).toBe(150_000);
    expect(rows(h.ledger).filter((entry) => entry.kind === 'credit').map((entry) => entry.creditMicroUsd)).toEqual([TOP_UP]);
  });

  it('takes the first balance as the baseline without reconciling', () => {
    const h = harness();
    expect(h.ledger.balanceBaseline()).toBeNull();
    const callId = h.begin();
    h.ledger.recordAnswer(callId, ok(SUMMARY, 24_900_000));
    expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(24_900_000);
    expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
  });

  it('keeps the baseline when a window brings no balance, and carries the rows forward', () => {
    const h = harness();
    observe(h, 25_000_000);
    const failed = h.begin();
    h.ledger.recordAnswer(failed, { ...ok(0, 0), httpStatus: 503, chargedMicroUsd: null, balanceAfterMicroUsd: null, errorCode: 'service_unavailable' });
    expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(25_000_000);
    const next = h.begin();
    h.ledger.recordAnswer(next, ok(SUMMARY, 24_900_000));
    expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
  });

  it('forgets the baseline when the account changes', () => {
    const h = harness();
    observe(h, 25_000_000);
    h.ledger.resetBalanceBaseline();
    observe(h, 3_000_000); // another key, another account: not a 22.00 charge
    expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
    expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(3_000_000);
  });

  describe('out-of-order answers', () => {
    it('ignores a free call whose stale balance arrives after a charged call', () => {
      const h = harness();
      observe(h, 25_000_000);
      const charged = h.begin();
      const free = h.free();
      h.ledger.recordAnswer(charged, ok(SUMMARY, 24_900_000));
      // Served before the charge, answered after it: its balance is the old one.
      h.ledger.recordAnswer(free, ok(0, 25_000_000));
      expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(24_900_000);
      // A naive "latest header wins" would now book a 0.10 credit here, then a 0.10 gap on the next call.
      const next = h.begin();
      h.ledger.recordAnswer(next, ok(SUMMARY, 24_800_000));
      expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
      expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(2 * SUMMARY);
    });

    it('reconciles a window only once nothing is in flight', () => {
      const h = harness();
      observe(h, 25_000_000);
      const free = h.free();
      const charged = h.begin();
      h.ledger.recordAnswer(free, ok(0, 24_900_000)); // served after the charge
      expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(25_000_000); // window still open
      h.ledger.recordAnswer(charged, ok(SUMMARY, 24_900_000));
      expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(24_900_000);
      expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
    });

    it('orders overlapping charged calls by their balances when they are consistent', () => {
      const h = harness();
      observe(h, 1_000_000);
      const a = h.begin();
      const b = h.begin();
      h.ledger.recordAnswer(b, ok(SUMMARY, 800_000)); // served second, answered first
      h.ledger.recordAnswer(a, ok(SUMMARY, 900_000));
      expect(h.ledger.balanceBaseline()?.balanceMicroUsd).toBe(800_000);
      expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
    });

    it('books an ambiguous window unattributed, and the net still matches the balance', () => {
      const h = harness();
      observe(h, 1_000_000);
      const a = h.begin();
      const b = h.begin();
      // a was charged (900k) and its answer lost; b charged (800k); a's retry replays at 800k.
      h.ledger.recordAnswer(b, ok(SUMMARY, 800_000));
      h.ledger.recordAnswer(a, ok(0, 800_000, { replayed: true, attempts: 2 }));
      expect(h.ledger.get(a)?.unreportedChargeMicroUsd).toBe(0);
      const adjustments = rows(h.ledger).filter((entry) => entry.kind !== 'call');
      expect(adjustments).toMatchObject([{ kind: 'reconciliation', unreportedChargeMicroUsd: SUMMARY }]);
      expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(1_000_000 - 800_000);
    });
  });
});

describe('totals', () => {
  it('sums reported and unreported charges by session, local day and project, excluding credits', () => {
    const h = harness();
    h.setClock(new Date(2024, 4, 9, 23, 59, 0)); // yesterday, local time
    observe(h, 1_000_000);
    const yesterday = h.begin({ sessionId: 'sess_old', projectId: 'proj_b' });
    h.ledger.recordAnswer(yesterday, ok(SUMMARY, 900_000));

    h.setClock(new Date(2024, 4, 10, 0, 0, 0)); // midnight: today
    const lost = h.begin({ projectId: 'proj_a' });
    h.ledger.recordAnswer(lost, ok(0, 800_000, { replayed: true, attempts: 2 }));
    h.setClock(new Date(2024, 4, 10, 9, 30, 0));
    const withTopUp = h.begin({ projectId: null, expectedCostMicroUsd: 900_000 });
    h.ledger.recordAnswer(withTopUp, ok(900_000, 800_000 + TOP_UP - 900_000));
    h.ledger.recordCacheHit({
      operation: 'v4.summary',
      requestSummary: {},
      projectId: 'proj_a',
      sessionId: 'sess_1',
      originalRequestId: 'x',
      servedAt: new Date(2024, 4, 9),
    });

    const totals = h.ledger.totals({ sessionId: 'sess_1', now: new Date(2024, 4, 10, 18, 0, 0) });
    expect(totals).toEqual({
      sessionMicroUsd: SUMMARY + 900_000,
      todayMicroUsd: SUMMARY + 900_000,
      allTimeMicroUsd: 2 * SUMMARY + 900_000,
      byProject: [
        { projectId: null, microUsd: 900_000 },
        { projectId: 'proj_a', microUsd: SUMMARY },
        { projectId: 'proj_b', microUsd: SUMMARY },
      ],
      lastKnownBalanceMicroUsd: TOP_UP - 100_000,
      lastChargeMicroUsd: 900_000,
      lastChargeAt: new Date(2024, 4, 10, 9, 30, 0).toISOString(),
    });
    expect(h.ledger.totals({ sessionId: 'sess_old', now: new Date(2024, 4, 11, 8, 0, 0) })).toMatchObject({
      sessionMicroUsd: SUMMARY,
      todayMicroUsd: 0,
    });
  });

  it('is all zeros and nulls on an empty ledger', () => {
    expect(harness().ledger.totals({ sessionId: 's' })).toEqual({
      sessionMicroUsd: 0,
      todayMicroUsd: 0,
      allTimeMicroUsd: 0,
      byProject: [],
      lastKnownBalanceMicroUsd: null,
      lastChargeMicroUsd: null,
      lastChargeAt: null,
    });
  });
});

describe('list and CSV export', () => {
  function threeCalls() {
    const h = harness();
    const ids: number[] = [];
    for (const [hour, projectId] of [[9, 'proj_a'], [10, 'proj_b'], [11, 'proj_a']] as const) {
      h.setClock(new Date(2024, 4, 10, hour, 0, 0));
      const id = h.begin({ projectId });
      h.ledger.recordAnswer(id, ok(SUMMARY, 25_000_000 - hour * SUMMARY));
      ids.push(id);
    }
    return { h, ids };
  }

  it('lists newest first with project, time range and paging filters', () => {
    const { h, ids } = threeCalls();
    const [first, second, third] = ids;
    expect(h.ledger.list({ limit: 10 }).map((entry) => entry.id)).toEqual([third, second, first]);
    expect(h.ledger.list({ limit: 10, projectId: 'proj_a' }).map((entry) => entry.id)).toEqual([third, first]);
    expect(h.ledger.list({ limit: 10, projectId: null })).toEqual([]);
    expect(
      h.ledger.list({ limit: 10, from: new Date(2024, 4, 10, 10, 0, 0), to: new Date(2024, 4, 10, 11, 0, 0) }).map((entry) => entry.id),
    ).toEqual([second]);
    expect(h.ledger.list({ limit: 1, offset: 1 }).map((entry) => entry.id)).toEqual([second]);
  });

  it('exports RFC 4180 CSV that survives commas, quotes and line breaks', () => {
    const h = harness();
    const summary = { owner: 'SMITH, JOHN "JACK"', note: 'line one\nline two\r\nline three', filter: { price: { gte: 1_250_000 } } };
    const id = h.begin({ requestSummary: summary, expectedCostMicroUsd: 1_250_000_000 });
    h.ledger.recordAnswer(id, ok(1_250_000_000, 0, { errorCode: '=HYPERLINK("x")' }));
    const csv = h.ledger.exportCsv();
    expect(csv.endsWith('\r\n')).toBe(true);
    const records = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(1);
    const record = records[0];
    expect(JSON.parse(record?.['request_summary'] ?? '')).toEqual(summary);
    expect(record).toMatchObject({
      id: String(id),
      kind: 'call',
      status: 'succeeded',
      charged_micro_usd: '1250000000',
      charged_usd: '$1,250.00',
      total_charge_usd: '$1,250.00',
      credit_usd: '$0.00',
      balance_after_usd: '$0.00',
      replayed: 'false',
      started_at: new Date(2024, 4, 10, 12, 0, 0).toISOString(),
      project_id: 'proj_a',
      // A text cell that a spreadsheet would run as a formula is kept as text.
      error_code: `'=HYPERLINK("x")`,
    });
  });

  it('exports only the filtered rows, header included when there are none', () => {
    const { h } = threeCalls();
    const csv = h.ledger.exportCsv({ projectId: 'proj_b' });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]?.startsWith('id,kind,status,started_at,finished_at,operation,request_summary')).toBe(true);
    expect(h.ledger.exportCsv({ projectId: 'nope' }).trimEnd().split('\r\n')).toHaveLength(1);
  });
});

describe('change events', () => {
  it('reports each committed write with the rows it touched, reconciliation rows included', () => {
    const h = harness();
    const changes: SpendChange[] = [];
    h.ledger.onChange(() => {
      throw new Error('a broken subscriber');
    });
    const stop = h.ledger.onChange((change) => changes.push(change));
    observe(h, 100_000);
    const callId = h.begin({ expectedCostMicroUsd: 150_000 });
    h.ledger.recordAnswer(callId, ok(150_000, 100_000 + TOP_UP - 150_000));
    expect(changes.map((change) => [change.reason, change.entries().map((entry) => entry.kind)])).toEqual([
      ['begun', ['call']],
      ['answered', ['call']],
      ['begun', ['call']],
      ['answered', ['call', 'credit']],
    ]);
    stop();
    h.ledger.recordAnswer(h.free(), ok(0, TOP_UP - 50_000));
    expect(changes).toHaveLength(4);
  });
});

describe('a charge whose answer was lost before a plain failure', () => {
  const lostThen503 = (extra: Partial<CallAnswer> = {}): CallAnswer => ({
    ...ok(0, 0),
    httpStatus: 503,
    chargedMicroUsd: null,
    balanceAfterMicroUsd: null,
    errorCode: 'service_unavailable',
    attempts: 4,
    outcomeUnknown: true,
    ...extra,
  });

  it('keeps the call pending, a candidate, and books the charge the next balance shows against it', () => {
    const h = harness();
    observe(h, 25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, lostThen503());
    expect(h.ledger.get(callId)).toMatchObject({ status: 'pending', httpStatus: 503, errorCode: 'service_unavailable', reconciled: false });
    observe(h, 24_900_000);
    expect(h.ledger.get(callId)).toMatchObject({ status: 'pending', unreportedChargeMicroUsd: SUMMARY, reconciled: true });
    expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(SUMMARY);
  });

  it("measures it at once when the failure's answer carries the balance", () => {
    const h = harness();
    observe(h, 25_000_000);
    const callId = h.begin();
    h.ledger.recordAnswer(callId, lostThen503({ balanceAfterMicroUsd: 24_900_000 }));
    expect(h.ledger.get(callId)).toMatchObject({ status: 'pending', unreportedChargeMicroUsd: SUMMARY, reconciled: true });
  });

  it('books it on the first try, not on the retry whose replay shows it (one charge, one candidate)', () => {
    const h = harness();
    observe(h, 25_000_000);
    const first = h.begin({ idempotencyKey: 'plat-action-1' });
    h.ledger.recordAnswer(first, lostThen503());
    // The person tries again: same action, same key, a free replay with the balance after the charge.
    const retry = h.begin({ idempotencyKey: 'plat-action-1' });
    h.ledger.recordAnswer(retry, ok(0, 24_900_000, { replayed: true }));
    expect(h.ledger.get(first)).toMatchObject({ unreportedChargeMicroUsd: SUMMARY });
    expect(h.ledger.get(retry)).toMatchObject({ status: 'succeeded', totalChargeMicroUsd: 0 });
    expect(rows(h.ledger).filter((entry) => entry.kind !== 'call')).toEqual([]);
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(SUMMARY);
  });
});

describe('when the database refuses writes', () => {
  const LONG_KEY = `plat-${'a'.repeat(200)}`;

  it('keeps a charged answer in memory, counts it, says why, and writes it as soon as it can', () => {
    const h = harness(tempDbPath());
    observe(h, 25_000_000);
    const changes: string[] = [];
    h.ledger.onChange((change) => changes.push(change.reason));
    const callId = h.begin({ idempotencyKey: LONG_KEY });
    fillDisk(h.db);

    const closed = h.ledger.recordAnswer(callId, ok(SUMMARY, 24_900_000, { requestId: LONG_KEY }));
    expect(closed).toEqual({ callId, totalChargeMicroUsd: SUMMARY, unsaved: true });
    expect(h.ledger.get(callId)?.status).toBe('pending');
    const status = h.ledger.storageStatus();
    expect(status).toMatchObject({ problem: 'disk_full', unsavedMicroUsd: SUMMARY, unsavedWrites: 1 });
    expect(status.message).toMatch(/disk holding Plat’s data folder is full/);
    expect(h.ledger.totals({ sessionId: 'sess_1' })).toMatchObject({ sessionMicroUsd: SUMMARY, todayMicroUsd: SUMMARY, allTimeMicroUsd: SUMMARY, lastChargeMicroUsd: SUMMARY });
    expect(h.ledger.totals({ sessionId: 'sess_1' }).byProject).toEqual([{ projectId: 'proj_a', microUsd: SUMMARY }]);

    // A paid call cannot be written ahead now: it is refused before anything is sent.
    expect(() => h.begin()).toThrow(expect.objectContaining({ platError: expect.objectContaining({ code: 'disk_full' }) }));
    expect(h.ledger.flushUnsaved()).toBe(false);

    freeSpace(h.db);
    // The next write of any kind writes what waited first, in order.
    h.ledger.recordAnswer(h.free(), ok(0, 24_900_000));
    expect(h.ledger.get(callId)).toMatchObject({ status: 'succeeded', chargedMicroUsd: SUMMARY, requestId: LONG_KEY, balanceAfterMicroUsd: 24_900_000 });
    expect(h.ledger.storageStatus()).toEqual({ problem: null, message: null, unsavedMicroUsd: 0, unsavedWrites: 0 });
    expect(h.ledger.totals({ sessionId: 'sess_1' }).allTimeMicroUsd).toBe(SUMMARY);
    expect(rows(h.ledger).filter((entry) => entry.kind === 'reconciliation' || entry.kind === 'credit')).toEqual([]);
    // The problem's start and end are both announced (the meter shows them).
    expect(changes.filter((reason) => reason === 'storage')).toHaveLength(2);
  });

  it('writes what waited on its timer too, and says a read-only file is read-only', async () => {
    const h = harness(tempDbPath());
    const ledger = new SpendLedger(h.db, { retryUnsavedMs: 5 });
    h.ledger.recordAnswer(h.free(), ok(0, 25_000_000));
    const callId = ledger.beginAttempt({ operation: 'v4.summary', requestSummary: {}, idempotencyKey: 'k', expectedCostMicroUsd: SUMMARY, projectId: null, sessionId: 's' });
    h.db.exec('PRAGMA query_only = ON');
    expect(ledger.recordAnswer(callId, ok(SUMMARY, 24_900_000)).unsaved).toBe(true);
    expect(ledger.storageStatus()).toMatchObject({ problem: 'read_only', unsavedMicroUsd: SUMMARY });
    expect(ledger.storageStatus().message).toMatch(/read-only/);
    const ended = new Promise<void>((resolve) => ledger.onChange((change) => change.reason === 'storage' && resolve()));
    h.db.exec('PRAGMA query_only = OFF');
    await ended;
    expect(ledger.get(callId)).toMatchObject({ status: 'succeeded', totalChargeMicroUsd: SUMMARY });
    expect(ledger.storageStatus().unsavedWrites).toBe(0);
  });

  it('leaves a kept call pending on disk, so a restart replays it if the app stops before writing it', () => {
    const path = tempDbPath();
    const h = harness(path);
    observe(h, 25_000_000);
    const callId = h.begin({ idempotencyKey: LONG_KEY });
    fillDisk(h.db);
    h.ledger.recordAnswer(callId, ok(SUMMARY, 24_900_000, { requestId: LONG_KEY }));
    h.db.close(); // the app stops with the answer unsaved
    const next = new SpendLedger(open(path));
    expect(next.pendingAttempts().map((entry) => [entry.id, entry.idempotencyKey])).toEqual([[callId, LONG_KEY]]);
  });
});
