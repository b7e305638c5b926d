// The spend ledger's lifecycle: write-ahead rows, answers, cache hits, crash recovery, change events,
// and what it does while the database refuses writes.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { SpendLedger } from './spend-ledger.ts';
import type { SpendChange } from './spend-entries.ts';
import { fillDisk, freeSpace } from '../gateway-test-kit.ts';
import { adjustmentRows, harness, harnessAtBalance, ok, observe, open, rows, SUMMARY, tempDbPath, TOP_UP } from './ledger-test-kit.ts';

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
    const h = harnessAtBalance(1_000_000);
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
    expect(adjustmentRows(ledger)).toEqual([]);
  });

  it('survives SIGKILL of the process that wrote ahead', async () => {
    const path = tempDbPath();
    open(path).close(); // create the file (and its migrations) up front
    const fixture = fileURLToPath(new URL('./crash-fixture.ts', import.meta.url));
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
