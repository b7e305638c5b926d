// The local service's HTTP layer over fake operations: health and routing, authentication, billing,
// idempotency and the rate limit. Request bodies, operation errors and faults: server-requests.test.ts.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { randomBytes } from 'node:crypto';
import { createLocalService } from './server.ts';
import { cursorSeal, sealMatches, useCursorSecret } from './operations/cursor-seal.ts';
import { SEED_CREDIT_MICRO_USD, TOP_UP_MICRO_USD } from './service-state.ts';
import { v2Envelope, v3Envelope, v4Envelope } from '../../shared/service/index.ts';
import { SUMMARY_PRICE, T0, envelope, fakeOperations, fakeStore, setup, stopServicesAfterEach } from './server-test-kit.ts';

stopServicesAfterEach();

describe('local service: health and routing', () => {
  it('answers /health without a key', async () => {
    const { svc } = await setup();
    const res = await svc.call('/health', { as: 'none' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('answers an unknown path with a 404 in the envelope of the generation its prefix names', async () => {
    const { svc } = await setup();
    const v4 = await svc.call('/api/v4/nowhere');
    expect(v4.status).toBe(404);
    expect(v4.headers.get('content-type')).toBe('application/json');
    expect(envelope(v4.body)).toMatchObject({ contract_version: 'svc-v4', status: 'error', data: null, error: { code: 'not_found', retryable: false } });
    expect(envelope(v4.body).meta).toHaveProperty('served_at', new Date(T0).toISOString());

    const v3 = await svc.call('/api/v3/nowhere');
    expect(envelope(v3.body)).toMatchObject({ contract_version: 'svc-v3', error: { code: 'not_found' } });

    const v2 = await svc.call('/api/v2/nowhere', { as: 'none' });
    expect(v2.status).toBe(404);
    expect(envelope(v2.body)).toMatchObject({
      contract_version: 'svc-v2',
      status: 'error',
      data: null,
      error: { code: 'not_found', retryable: false, retry_after_seconds: 0, details: null },
      provenance: { source_refs: [], sources: [] },
    });

    const elsewhere = await svc.call('/favicon.ico');
    expect(envelope(elsewhere.body)).toMatchObject({ contract_version: 'svc-v4', error: { code: 'not_found' } });
  });

  it('writes envelopes the shared contract schemas accept, on success and on error', async () => {
    const { svc } = await setup();
    const v4 = v4Envelope(z.unknown());
    const v3 = v3Envelope(z.unknown());
    const v2 = v2Envelope(z.unknown());
    const checks: Array<[z.ZodType, Promise<{ body: unknown }>]> = [
      [v4, svc.call('/api/v4/entities/parc_1/summary')],
      [v4, svc.call('/api/v4/search?limit=0')],
      [v4, svc.call('/api/v4/nowhere', { as: 'none' })],
      [v3, svc.call('/api/v3/record-queries', { json: {} })],
      [v3, svc.call('/api/v3/nowhere')],
      [v2, svc.call('/api/v2/property-searches', { json: { area_uid: 'a' } })],
      [v2, svc.call('/api/v2/property-searches', { json: { limit: 0 } })],
      [v2, svc.call('/api/v2/entities/prop_1')],
    ];
    for (const [schema, call] of checks) {
      const { body } = await call;
      const parsed = schema.safeParse(body);
      expect(parsed.success, JSON.stringify(body)).toBe(true);
    }
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const { svc } = await setup();
    const res = await svc.call('/api/v4/catalog', { method: 'POST', json: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(envelope(res.body)).toMatchObject({ contract_version: 'svc-v4', operation: 'catalog', error: { code: 'method_not_allowed' } });
  });

  it('URL-decodes path parameters', async () => {
    const { svc } = await setup();
    const res = await svc.call(`/api/v4/entities/${encodeURIComponent('parc_a b/c')}/summary`);
    expect(res.status).toBe(200);
    expect(envelope(res.body).data).toMatchObject({ q_id: 'parc_a b/c' });
  });
});

describe('local service: authentication', () => {
  it('refuses missing, unknown and revoked keys with 401, suspended with 403, exhausted with 402, charging nothing', async () => {
    const { svc, runs } = await setup();
    const path = '/api/v4/entities/parc_1/summary';
    const cases = [
      { init: { as: 'none' as const }, status: 401, code: 'unauthorized' },
      { init: { apiKey: 'svc_live_00000000000000000000000000000000' }, status: 401, code: 'unauthorized' },
      { init: { as: 'revoked' as const }, status: 401, code: 'unauthorized' },
      { init: { as: 'suspended' as const }, status: 403, code: 'account_suspended' },
      { init: { as: 'exhausted' as const }, status: 402, code: 'payment_required' },
    ];
    for (const { init, status, code } of cases) {
      const res = await svc.call(path, init);
      expect(res.status, code).toBe(status);
      expect(envelope(res.body).error?.code).toBe(code);
      expect(res.charged).toBeNull();
    }
    expect(runs.summary).toBe(0);
    // The revoked key belongs to the active account: its balance must be untouched.
    expect(svc.balance('active')).toBe(SEED_CREDIT_MICRO_USD);
    expect(svc.balance('suspended')).toBe(SEED_CREDIT_MICRO_USD);
    expect(svc.balance('exhausted')).toBe(0);
    expect(svc.service.state.charges('acct_active')).toEqual([]);
  });

  it('issues random svc_live_ keys and keeps them across restarts on the same state db', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plat-svc-test-'));
    try {
      const dbPath = join(dir, 'state.db');
      const first = await createLocalService({ operations: fakeOperations().operations, store: fakeStore, dbPath });
      expect(Object.values(first.keys).every((key) => /^svc_live_[0-9a-f]{32}$/.test(key))).toBe(true);
      expect(new Set(Object.values(first.keys)).size).toBe(4);
      expect(first.state.db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      const charged = await fetch(`${first.url}/api/v4/entities/parc_1/summary`, { headers: { Authorization: `Bearer ${first.keys.active}` } });
      expect(charged.status).toBe(200);
      await first.close();

      const second = await createLocalService({ operations: fakeOperations().operations, store: fakeStore, dbPath });
      expect(second.keys).toEqual(first.keys);
      expect(second.state.account('acct_active').balanceMicroUsd).toBe(SEED_CREDIT_MICRO_USD - SUMMARY_PRICE);
      // Only a hash identifies a key at rest; the plaintext is kept for the demo keys alone.
      const row = second.state.db.prepare("SELECT key_sha256 FROM api_keys WHERE demo_role = 'active'").get();
      expect(row?.['key_sha256']).toMatch(/^[0-9a-f]{64}$/);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('seals cursors under a secret kept in the state db: a page 1 kept by a client still leads to page 2 after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plat-svc-test-'));
    try {
      const dbPath = join(dir, 'state.db');
      const first = await createLocalService({ operations: fakeOperations().operations, store: fakeStore, dbPath });
      const sealedBefore = cursorSeal('v4.search', 'sale', '11001', 'o42');
      await first.close();
      useCursorSecret(randomBytes(32)); // another process's own secret, as after a restart
      expect(cursorSeal('v4.search', 'sale', '11001', 'o42')).not.toBe(sealedBefore);
      const second = await createLocalService({ operations: fakeOperations().operations, store: fakeStore, dbPath });
      expect(sealMatches(sealedBefore, 'v4.search', 'sale', '11001', 'o42')).toBe(true);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('local service: billing', () => {
  it('charges a successful call once, reporting charge, balance, replay flag and remaining calls', async () => {
    const { svc } = await setup();
    const res = await svc.call('/api/v4/entities/parc_1/summary');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.charged).toBe(SUMMARY_PRICE);
    expect(res.balance).toBe(SEED_CREDIT_MICRO_USD - SUMMARY_PRICE);
    expect(res.replayed).toBe(false);
    expect(res.rateLimitRemaining).toBe(119);
    const body = envelope(res.body);
    expect(body).toMatchObject({ contract_version: 'svc-v4', operation: 'summary', status: 'ok', error: null, meta: { next_cursor: null } });
    expect(body.request_id).toMatch(/^req_[0-9a-f-]{36}$/);

    const again = await svc.call('/api/v4/entities/parc_1/summary');
    expect(again.balance).toBe(SEED_CREDIT_MICRO_USD - 2 * SUMMARY_PRICE);
    const charges = svc.service.state.charges('acct_active');
    expect(charges.map((c) => [c.requestId, c.operation, c.amountMicroUsd, c.keyId])).toEqual([
      [body.request_id, 'test.summary', SUMMARY_PRICE, 'key_active'],
      [envelope(again.body).request_id, 'test.summary', SUMMARY_PRICE, 'key_active'],
    ]);
    expect(svc.balance()).toBe(SEED_CREDIT_MICRO_USD - 2 * SUMMARY_PRICE);
  });

  it('reports 0 for a free call and leaves the balance alone', async () => {
    const { svc } = await setup();
    const res = await svc.call('/api/v4/catalog');
    expect(res.status).toBe(200);
    expect(res.charged).toBe(0);
    expect(res.balance).toBe(SEED_CREDIT_MICRO_USD);
    expect(envelope(res.body).meta).toMatchObject({ truncated: false });
    expect(svc.service.state.charges('acct_active')).toEqual([]);
  });

  it('tops up an account with a payment method by $25.00 rather than let it go below zero', async () => {
    const { svc } = await setup();
    const price = 30_000_000;
    const res = await svc.call(`/api/v4/priced?micro_usd=${price}`);
    expect(res.status).toBe(200);
    expect(res.charged).toBe(price);
    expect(res.balance).toBe(SEED_CREDIT_MICRO_USD + TOP_UP_MICRO_USD - price);
    expect(svc.service.state.topUps('acct_active')).toEqual([
      { accountId: 'acct_active', amountMicroUsd: TOP_UP_MICRO_USD, requestId: envelope(res.body).request_id, toppedUpAt: new Date(T0).toISOString() },
    ]);
  });

  it('answers 402 when a charge exceeds the credit of an account without a payment method, and charges nothing', async () => {
    const { svc } = await setup();
    svc.service.state.db.prepare("UPDATE accounts SET balance_micro_usd = 50000 WHERE id = 'acct_exhausted'").run();
    const tooDear = await svc.call('/api/v4/priced?micro_usd=50001', { as: 'exhausted', idempotencyKey: 'dear' });
    expect(tooDear.status).toBe(402);
    expect(envelope(tooDear.body).error?.code).toBe('payment_required');
    expect(svc.balance('exhausted')).toBe(50_000);

    const exact = await svc.call('/api/v4/priced?micro_usd=50000', { as: 'exhausted' });
    expect(exact.status).toBe(200);
    expect(exact.balance).toBe(0);
    const after = await svc.call('/api/v4/catalog', { as: 'exhausted' });
    expect(after.status).toBe(402);
    expect(svc.service.state.topUps('acct_exhausted')).toEqual([]);
  });

  it('answers 422 for a response over the size limit without charging or storing it', async () => {
    const { svc } = await setup({ maxResponseBytes: 2000 });
    const res = await svc.call('/api/v4/big', { idempotencyKey: 'big-1' });
    expect(res.status).toBe(422);
    expect(envelope(res.body)).toMatchObject({ request_id: 'big-1', error: { code: 'response_too_large', retryable: false } });
    expect(svc.balance()).toBe(SEED_CREDIT_MICRO_USD);
    // Failed calls are not stored, so the same key is simply tried again.
    const retry = await svc.call('/api/v4/big', { idempotencyKey: 'big-1' });
    expect(retry.status).toBe(422);
    expect(retry.replayed).toBeNull();
  });
});

describe('local service: idempotency', () => {
  it('replays a repeated call for free with the same body, and request_id echoes the key', async () => {
    const { svc, runs } = await setup();
    const first = await svc.call('/api/v4/entities/parc_1/summary?view=full', { idempotencyKey: 'action-1' });
    expect(first.charged).toBe(SUMMARY_PRICE);
    expect(envelope(first.body).request_id).toBe('action-1');

    const replay = await svc.call('/api/v4/entities/parc_1/summary?view=full', { idempotencyKey: 'action-1' });
    expect(replay.status).toBe(200);
    expect(replay.replayed).toBe(true);
    expect(replay.charged).toBe(0);
    expect(replay.balance).toBe(SEED_CREDIT_MICRO_USD - SUMMARY_PRICE);
    expect(replay.text).toBe(first.text);
    expect(runs.summary).toBe(1);
    expect(svc.service.state.charges('acct_active')).toHaveLength(1);
  });

  it('treats reordered query parameters and JSON keys as the same request', async () => {
    const { svc, runs } = await setup();
    await svc.call('/api/v4/priced?micro_usd=10&x=1', { idempotencyKey: 'q' });
    const reordered = await svc.call('/api/v4/priced?x=1&micro_usd=10', { idempotencyKey: 'q' });
    expect(reordered.replayed).toBe(true);

    await svc.call('/api/v2/property-searches', { idempotencyKey: 'b', json: { area_uid: 'area_us_dc', limit: 5 } });
    const sameBody = await svc.call('/api/v2/property-searches', { idempotencyKey: 'b', rawBody: '{ "limit": 5, "area_uid": "area_us_dc" }' });
    expect(sameBody.replayed).toBe(true);
    expect(runs.search).toBe(1);
  });

  it('answers 409 when a key is reused for a different request, without charging', async () => {
    const { svc } = await setup();
    await svc.call('/api/v4/entities/parc_1/summary', { idempotencyKey: 'action-2' });
    const otherPath = await svc.call('/api/v4/entities/parc_2/summary', { idempotencyKey: 'action-2' });
    expect(otherPath.status).toBe(409);
    expect(envelope(otherPath.body)).toMatchObject({ request_id: 'action-2', error: { code: 'idempotency_conflict', retryable: false } });
    const otherBody = await svc.call('/api/v2/property-searches', { idempotencyKey: 'action-2', json: { area_uid: 'x' } });
    expect(otherBody.status).toBe(409);
    expect(svc.balance()).toBe(SEED_CREDIT_MICRO_USD - SUMMARY_PRICE);
  });

  it('scopes keys per account', async () => {
    const { svc } = await setup();
    const other = svc.service.state.createKey('acct_suspended');
    svc.service.state.db.prepare("UPDATE accounts SET status = 'active' WHERE id = 'acct_suspended'").run();
    await svc.call('/api/v4/entities/parc_1/summary', { idempotencyKey: 'shared' });
    const res = await svc.call('/api/v4/entities/parc_9/summary', { apiKey: other.apiKey, idempotencyKey: 'shared' });
    expect(res.status).toBe(200);
    expect(res.replayed).toBe(false);
    expect(res.charged).toBe(SUMMARY_PRICE);
  });

  it('rejects an Idempotency-Key longer than 256 characters', async () => {
    const { svc } = await setup();
    const res = await svc.call('/api/v4/entities/parc_1/summary', { idempotencyKey: 'k'.repeat(257) });
    expect(res.status).toBe(400);
    expect(envelope(res.body).error?.code).toBe('invalid_idempotency_key');
    expect(envelope(res.body).request_id).toMatch(/^req_/);
    const longest = await svc.call('/api/v4/entities/parc_1/summary', { idempotencyKey: 'k'.repeat(256) });
    expect(longest.status).toBe(200);
  });

  it('charges again once the seven-day replay window has passed', async () => {
    const { svc, setNow } = await setup();
    await svc.call('/api/v4/entities/parc_1/summary', { idempotencyKey: 'week' });
    setNow(T0 + 7 * 24 * 3600 * 1000);
    expect((await svc.call('/api/v4/entities/parc_1/summary', { idempotencyKey: 'week' })).replayed).toBe(true);
    setNow(T0 + 7 * 24 * 3600 * 1000 + 1);
    const late = await svc.call('/api/v4/entities/parc_1/summary', { idempotencyKey: 'week' });
    expect(late.replayed).toBe(false);
    expect(late.charged).toBe(SUMMARY_PRICE);
  });

  it('charges 20 concurrent calls with one key exactly once', async () => {
    const { svc, runs } = await setup();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => svc.call('/api/v4/entities/parc_1/summary', { idempotencyKey: 'burst' })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.replayed === false)).toHaveLength(1);
    expect(results.filter((r) => r.replayed === true)).toHaveLength(19);
    expect(results.reduce((sum, r) => sum + (r.charged ?? 0), 0)).toBe(SUMMARY_PRICE);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(runs.summary).toBe(1);
    expect(svc.service.state.charges('acct_active')).toHaveLength(1);
    expect(svc.balance()).toBe(SEED_CREDIT_MICRO_USD - SUMMARY_PRICE);
  });
});

describe('local service: rate limit', () => {
  it('answers 429 past the per-minute limit, with Retry-After, and opens again the next minute', async () => {
    const { svc, setNow } = await setup({ rateLimitPerMinute: 3 });
    const remaining: Array<number | null> = [];
    for (let i = 0; i < 3; i += 1) remaining.push((await svc.call('/api/v4/catalog')).rateLimitRemaining);
    expect(remaining).toEqual([2, 1, 0]);

    const limited = await svc.call('/api/v4/entities/parc_1/summary');
    expect(limited.status).toBe(429);
    expect(limited.rateLimitRemaining).toBe(0);
    expect(limited.headers.get('retry-after')).toBe('50'); // T0 is 10 s into its minute
    expect(envelope(limited.body).error).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(svc.balance()).toBe(SEED_CREDIT_MICRO_USD);

    const v2 = await svc.call('/api/v2/property-searches', { json: { area_uid: 'a' } });
    expect(v2.status).toBe(429);
    expect(envelope(v2.body).error).toMatchObject({ code: 'rate_limited', retryable: true, retry_after_seconds: 50 });

    setNow(T0 + 50_000);
    const nextMinute = await svc.call('/api/v4/catalog');
    expect(nextMinute.status).toBe(200);
    expect(nextMinute.rateLimitRemaining).toBe(2);
  });
});
