// The local service's HTTP layer over fake operations: request bodies, operation errors and faults.
import { describe, expect, it } from 'vitest';
import { seededRandom } from './server.ts';
import { SEED_CREDIT_MICRO_USD } from './service-state.ts';
import { SUMMARY_PRICE, envelope, setup, stopServicesAfterEach } from './server-test-kit.ts';

stopServicesAfterEach();

describe('local service: request bodies and operation errors', () => {
  it('answers 400 invalid_body for malformed JSON, a form body or an empty body', async () => {
    const { svc, runs } = await setup();
    const malformed = await svc.call('/api/v2/property-searches', { rawBody: '{"area_uid":', headers: { 'Content-Type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(envelope(malformed.body)).toMatchObject({ contract_version: 'svc-v2', error: { code: 'invalid_body' } });
    const form = await svc.call('/api/v2/property-searches', { rawBody: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(envelope(form.body).error?.code).toBe('invalid_body');
    const empty = await svc.call('/api/v2/property-searches', { method: 'POST' });
    expect(envelope(empty.body).error?.code).toBe('invalid_body');
    expect(runs.search).toBe(0);
    expect(svc.balance()).toBe(SEED_CREDIT_MICRO_USD);
  });

  it('answers 400 invalid_body, uncharged, for a body nested 5,000 levels deep, with or without an Idempotency-Key', async () => {
    const { svc, runs, internalErrors } = await setup();
    const deep = `{"area_uid":"area_us_dc","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const idempotencyKey of ['deep-1', undefined]) {
      const res = await svc.call('/api/v2/property-searches', { rawBody: deep, ...(idempotencyKey ? { idempotencyKey } : {}) });
      expect(res.status).toBe(400);
      expect(envelope(res.body).error).toMatchObject({ code: 'invalid_body', message: expect.stringMatching(/32 levels/) });
    }
    // A whole megabyte of brackets, far past any stack, is refused the same way.
    const deepest = await svc.call('/api/v2/property-searches', { rawBody: `${'['.repeat(500_000)}${']'.repeat(500_000)}`, idempotencyKey: 'deep-2' });
    expect(envelope(deepest.body).error?.code).toBe('invalid_body');
    expect(internalErrors).toEqual([]);
    expect(runs.search).toBe(0);
    expect(svc.balance()).toBe(SEED_CREDIT_MICRO_USD);
    expect(svc.service.state.charges('acct_active')).toHaveLength(0);
  });

  it('takes a body nested as deep as the bound, and fingerprints it for replay', async () => {
    const { svc, runs } = await setup();
    // 32 levels: the body object, then 31 nested arrays under an extra key the operation ignores.
    const atBound = `{"area_uid":"area_us_dc","x":${'['.repeat(31)}${']'.repeat(31)}}`;
    const first = await svc.call('/api/v2/property-searches', { rawBody: atBound, idempotencyKey: 'bound' });
    expect(first.status).toBe(200);
    const replay = await svc.call('/api/v2/property-searches', { rawBody: atBound, idempotencyKey: 'bound' });
    expect(replay.replayed).toBe(true);
    expect(runs.search).toBe(1);
    const overBound = await svc.call('/api/v2/property-searches', { rawBody: `{"area_uid":"area_us_dc","x":${'['.repeat(32)}${']'.repeat(32)}}` });
    expect(envelope(overBound.body).error?.code).toBe('invalid_body');
  });

  it('refuses a body over 1 MiB', async () => {
    const { svc } = await setup();
    const res = await svc.call('/api/v2/property-searches', { json: { area_uid: 'x'.repeat(1024 * 1024) } });
    expect(res.status).toBe(400);
    expect(envelope(res.body).error?.code).toBe('body_too_large');
  });

  it('serves a v2 success with status, provenance and usage_units', async () => {
    const { svc } = await setup();
    const res = await svc.call('/api/v2/property-searches', { json: { area_uid: 'area_us_dc' }, idempotencyKey: 'v2-ok' });
    expect(res.status).toBe(200);
    expect(res.charged).toBe(20_000);
    expect(envelope(res.body)).toMatchObject({
      contract_version: 'svc-v2',
      request_id: 'v2-ok',
      operation: 'search_properties',
      status: 'partial',
      error: null,
      meta: { truncated: false, usage_units: 20_000, warnings: ['one filter ignored'] },
      provenance: { source_refs: ['src_otr'] },
    });
  });

  it('maps a zod failure to 400 invalid_<parameter>, with the issues as v2 details', async () => {
    const { svc } = await setup();
    const v2 = await svc.call('/api/v2/property-searches', { json: { area_uid: 'a', limit: 500 } });
    expect(v2.status).toBe(400);
    const error = envelope(v2.body).error;
    expect(error).toMatchObject({ code: 'invalid_limit', retryable: false, retry_after_seconds: 0 });
    expect(error?.message).toMatch(/^limit: .*100/);
    expect(error?.details).toEqual([{ parameter: 'limit', location: 'limit', message: expect.stringMatching(/100/) }]);
    expect(envelope(v2.body).data).toBeNull();

    const v4 = await svc.call('/api/v4/search?limit=0');
    expect(v4.status).toBe(400);
    expect(envelope(v4.body)).toMatchObject({ contract_version: 'svc-v4', error: { code: 'invalid_limit', retryable: false } });
    expect(envelope(v4.body).error).not.toHaveProperty('details');
    expect(svc.balance()).toBe(SEED_CREDIT_MICRO_USD);
  });

  it('passes a ServiceFailure through uncharged', async () => {
    const { svc } = await setup();
    const res = await svc.call('/api/v2/entities/prop_404');
    expect(res.status).toBe(404);
    expect(envelope(res.body)).toMatchObject({ contract_version: 'svc-v2', operation: 'get_entity', error: { code: 'not_found', message: 'No entity prop_404.' } });
    expect(res.charged).toBeNull();
  });

  it('answers any other exception with 500 internal_error and no internals', async () => {
    const { svc, internalErrors } = await setup();
    const res = await svc.call('/api/v3/record-queries', { json: { mode: 'catalog' } });
    expect(res.status).toBe(500);
    expect(envelope(res.body)).toMatchObject({ contract_version: 'svc-v3', error: { code: 'internal_error' } });
    expect(res.text).not.toMatch(/secret|TypeError|file\.ts/);
    expect(internalErrors).toHaveLength(1);
  });

  it('logs method, path, status and charge, never the key or the query', async () => {
    const { svc, log } = await setup();
    await svc.call('/api/v4/entities/parc_1/summary?owner=SMITH');
    expect(log).toEqual([{ method: 'GET', path: '/api/v4/entities/parc_1/summary', status: 200, ms: expect.any(Number), chargedMicroUsd: SUMMARY_PRICE }]);
    expect(JSON.stringify(log)).not.toContain(svc.keys.active);
  });
});

describe('local service: faults', () => {
  it('fails a seeded share of calls: 503s are free, dropped answers are charged and replay free on retry', async () => {
    const { svc, log } = await setup({ faultRate: 0.5, random: seededRandom(7) });
    let unavailable = 0;
    let dropped = 0;
    let replaysAfterDrop = 0;
    const actions = 12;
    for (let action = 0; action < actions; action += 1) {
      const key = `fault-${action}`;
      let lostAnswer = false;
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const before = svc.balance();
        let res;
        try {
          res = await svc.call(`/api/v4/entities/parc_${action}/summary`, { idempotencyKey: key });
        } catch {
          // The connection closed without an answer; the work was done and paid for.
          dropped += 1;
          if (!lostAnswer) expect(svc.balance()).toBe(before - SUMMARY_PRICE);
          else expect(svc.balance()).toBe(before);
          lostAnswer = true;
          continue;
        }
        if (res.status === 503) {
          unavailable += 1;
          expect(res.headers.get('retry-after')).toBe('1');
          expect(envelope(res.body).error).toMatchObject({ code: 'service_unavailable', retryable: true });
          expect(svc.balance()).toBe(before);
          continue;
        }
        expect(res.status).toBe(200);
        if (lostAnswer) {
          expect(res.replayed).toBe(true);
          expect(res.charged).toBe(0);
          replaysAfterDrop += 1;
        }
        break;
      }
    }
    expect(unavailable).toBeGreaterThan(0);
    expect(dropped).toBeGreaterThan(0);
    expect(replaysAfterDrop).toBeGreaterThan(0);
    // Each action was paid exactly once, whatever happened to its answers.
    expect(svc.balance()).toBe(SEED_CREDIT_MICRO_USD - actions * SUMMARY_PRICE);
    expect(svc.service.state.charges('acct_active')).toHaveLength(actions);
    expect(log.filter((entry) => entry.status === 'dropped')).toHaveLength(dropped);
  });

  it('is reproducible for a given seed', async () => {
    const outcomes = async () => {
      const { svc } = await setup({ faultRate: 0.5, random: seededRandom(42) });
      const seen: string[] = [];
      for (let i = 0; i < 10; i += 1) {
        try {
          seen.push(String((await svc.call('/api/v4/catalog')).status));
        } catch {
          seen.push('dropped');
        }
      }
      return seen;
    };
    expect(await outcomes()).toEqual(await outcomes());
  });
});
