// Request summaries (bounded, credentials out) and replay copies (exact, never the API key).
import { describe, expect, it } from 'vitest';
import { SpendLedger } from './spend-ledger.ts';
import { summaryJson } from './redaction.ts';
import { harness, ok, open } from './ledger-test-kit.ts';

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

  it('scrubs the service\'s words it keeps (request id, charge header text) of the keys in use, whatever the caller passed', () => {
    const key = 'plat-Sentinel-4f9a2c7e1b88';
    const db = open();
    const ledger = new SpendLedger(db, { secrets: () => [key] });
    const begin = { operation: 'v4.search', requestSummary: { q: 1 }, idempotencyKey: 'k-1', expectedCostMicroUsd: 20_000, projectId: null, sessionId: 'sess_1' };
    const callId = ledger.beginAttempt(begin);
    ledger.recordAnswer(callId, { ...ok(20_000, 24_980_000), requestId: `req_Bearer ${key}`, chargeHeader: `about ${key}` });
    ledger.recordCacheHit({ operation: 'v4.search', requestSummary: { q: 1 }, projectId: null, sessionId: 'sess_1', originalRequestId: `req_${key}`, servedAt: new Date() });
    const rows = db.prepare('SELECT request_id, charge_header FROM spend_ledger ORDER BY id').all();
    expect(rows).toEqual([
      { request_id: 'req_[redacted]', charge_header: 'about [redacted]' },
      { request_id: 'req_[redacted]', charge_header: null },
    ]);
    expect(ledger.exportCsv()).not.toContain(key);
  });
});
