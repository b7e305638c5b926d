import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppDatabase } from './app-db.ts';
import { canonicalJson } from '../../shared/canonical-json.ts';
import { canonicalRequestKey, DEFAULT_CACHE_POLICY, ResponseCache, type CacheEntry } from './cache.ts';

const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const HOUR = 60 * 60 * 1000;

function entry(overrides: Partial<CacheEntry> = {}): CacheEntry {
  return {
    value: { items: [{ record_ref: 'r1', data: { SALEPRICE: 450000 } }] },
    servedAt: '2025-01-15T12:00:00Z',
    requestId: 'req-1',
    chargedMicroUsd: 100_000,
    storedAt: T0,
    ...overrides,
  };
}

describe('canonicalRequestKey', () => {
  it('does not depend on the order of object keys, at any depth', () => {
    const a = canonicalRequestKey('local', 'v4.search', { jurisdiction: '11001', kind: 'sale', filter: { SALEPRICE: { gte: 1 }, SSL: 'x' } });
    const b = canonicalRequestKey('local', 'v4.search', { filter: { SSL: 'x', SALEPRICE: { gte: 1 } }, kind: 'sale', jurisdiction: '11001' });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('separates connections, operations and different requests', () => {
    const request = { q_id: 'addr_0d5b6c1e-1111-4222-8333-944455556666' };
    const keys = new Set([
      canonicalRequestKey('local', 'v4.summary', request),
      canonicalRequestKey('live', 'v4.summary', request),
      canonicalRequestKey('local', 'v4.connected', request),
      canonicalRequestKey('local', 'v4.summary', { q_id: 'addr_0d5b6c1e-1111-4222-8333-944455556667' }),
      canonicalRequestKey('local', 'v4.summary', { ...request, limit: 50 }),
    ]);
    expect(keys.size).toBe(5);
  });

  it('keeps array order (a different order can be a different question)', () => {
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });

  it('drops undefined properties as JSON does, and refuses values JSON cannot hold', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/finite/);
    expect(() => canonicalJson({ a: 10n })).toThrow(/cache key/);
    expect(() => canonicalJson({ a: () => 1 })).toThrow(/cache key/);
  });

  it('is stable under any key order (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalRequestKey('c', 'op', reversed)).toBe(canonicalRequestKey('c', 'op', record));
        // The canonical form is JSON for the same value.
        expect(JSON.parse(canonicalJson(record))).toEqual(JSON.parse(JSON.stringify(record)));
      }),
      { numRuns: 200 },
    );
  });
});

describe('ResponseCache', () => {
  let db: DatabaseSync;
  let cache: ResponseCache;

  beforeEach(() => {
    db = openAppDatabase(':memory:');
    cache = new ResponseCache(db);
  });
  afterEach(() => db.close());

  it('returns what was stored, with its charge, ids and times', () => {
    const key = canonicalRequestKey('local', 'v4.summary', { q_id: 'x' });
    expect(cache.get(key, T0)).toBeNull();
    expect(cache.put(key, entry())).toBe(true);
    expect(cache.get(key, T0 + HOUR)).toEqual(entry());
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 1, misses: 1 });
    expect(cache.stats().bytes).toBeGreaterThan(0);
  });

  it('replaces an answer on refresh without double counting it', () => {
    cache.put('k', entry());
    cache.put('k', entry({ value: { fresh: true }, requestId: 'req-2', storedAt: T0 + 5 * HOUR }));
    expect(cache.get('k', T0 + 6 * HOUR)).toMatchObject({ value: { fresh: true }, requestId: 'req-2' });
    const { entries, bytes } = cache.stats();
    expect(entries).toBe(1);
    const otherDb = openAppDatabase(':memory:');
    const single = new ResponseCache(otherDb);
    single.put('k', entry({ value: { fresh: true }, requestId: 'req-2', storedAt: T0 + 5 * HOUR }));
    expect(bytes).toBe(single.stats().bytes);
    otherDb.close();
  });

  it('expires free answers after the TTL', () => {
    cache.setPolicy({ ttlSeconds: 3600 });
    cache.put('free', entry({ chargedMicroUsd: 0 }));
    expect(cache.get('free', T0 + HOUR - 1)).not.toBeNull();
    expect(cache.get('free', T0 + HOUR)).toBeNull();
    expect(cache.stats().entries).toBe(0);
  });

  it('never expires a charged answer by age: only eviction, clear or a refresh removes it', () => {
    cache.setPolicy({ ttlSeconds: 60 });
    cache.put('bought', entry({ chargedMicroUsd: 100_000 }));
    expect(cache.get('bought', T0 + 365 * 24 * HOUR)).toMatchObject({ chargedMicroUsd: 100_000 });
  });

  it('reports policy and stats together', () => {
    cache.put('k', entry());
    expect(cache.status()).toEqual({ ...DEFAULT_CACHE_POLICY, ...cache.stats() });
  });

  it('evicts the least recently used answer beyond maxEntries; a hit counts as use', () => {
    cache.setPolicy({ maxEntries: 2 });
    cache.put('a', entry({ requestId: 'a' }));
    cache.put('b', entry({ requestId: 'b' }));
    expect(cache.get('a', T0)).not.toBeNull(); // a is now more recent than b
    cache.put('c', entry({ requestId: 'c' }));
    expect(cache.get('b', T0)).toBeNull();
    expect(cache.get('a', T0)?.requestId).toBe('a');
    expect(cache.get('c', T0)?.requestId).toBe('c');
    expect(cache.stats().entries).toBe(2);
  });

  it('evicts least recently used answers until the bytes fit, keeping the newest', () => {
    const big = { blob: 'x'.repeat(1000) };
    cache.put('a', entry({ value: big }));
    const perEntry = cache.stats().bytes;
    cache.setPolicy({ maxBytes: perEntry * 3 });
    cache.put('b', entry({ value: big }));
    cache.put('c', entry({ value: big }));
    cache.put('d', entry({ value: big }));
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: perEntry * 3 });
    expect(cache.get('a', T0)).toBeNull();
    expect(cache.get('d', T0)).not.toBeNull();
  });

  it('does not keep an answer larger than the whole cache, and drops the older one under its key', () => {
    cache.put('k', entry());
    cache.setPolicy({ maxBytes: 2000 });
    expect(cache.put('k', entry({ value: 'y'.repeat(5000) }))).toBe(false);
    expect(cache.get('k', T0)).toBeNull();
    expect(cache.stats().entries).toBe(0);
  });

  it('shrinking the policy evicts at once and the policy persists', () => {
    for (const key of ['a', 'b', 'c', 'd']) cache.put(key, entry({ requestId: key }));
    expect(cache.setPolicy({ maxEntries: 1 })).toEqual({ ...DEFAULT_CACHE_POLICY, maxEntries: 1 });
    expect(cache.stats().entries).toBe(1);
    expect(cache.get('d', T0)?.requestId).toBe('d');
    expect(new ResponseCache(db).policy().maxEntries).toBe(1);
  });

  it('refuses an invalid policy and keeps the old one', () => {
    expect(() => cache.setPolicy({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => cache.setPolicy({ ttlSeconds: -5 })).toThrow(RangeError);
    expect(() => cache.setPolicy({ ttlSeconds: 0 })).toThrow(RangeError);
    expect(() => cache.setPolicy({ maxBytes: 1.5 })).toThrow(RangeError);
    expect(cache.policy()).toEqual(DEFAULT_CACHE_POLICY);
  });

  it('refuses an entry with a fractional or negative charge', () => {
    expect(() => cache.put('k', entry({ chargedMicroUsd: 0.5 }))).toThrow(RangeError);
    expect(() => cache.put('k', entry({ chargedMicroUsd: -1 }))).toThrow(RangeError);
    expect(cache.stats().entries).toBe(0);
  });

  it('clear empties the cache; purgeExpired drops only stale free answers', () => {
    cache.setPolicy({ ttlSeconds: 60 });
    cache.put('free-old', entry({ chargedMicroUsd: 0, storedAt: T0 }));
    cache.put('free-new', entry({ chargedMicroUsd: 0, storedAt: T0 + HOUR }));
    cache.put('charged-old', entry({ chargedMicroUsd: 20_000, storedAt: T0 }));
    expect(cache.purgeExpired(T0 + HOUR)).toBe(1);
    expect(cache.stats().entries).toBe(2);
    cache.clear();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('keeps answers across a restart of the app (file database)', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'plat-cache-'));
    try {
      const file = path.join(directory, 'app.db');
      const first = openAppDatabase(file);
      new ResponseCache(first).put('k', entry());
      first.close();
      const second = openAppDatabase(file);
      expect(new ResponseCache(second).get('k', T0)).toEqual(entry());
      second.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('joins a transaction the caller already holds', () => {
    db.exec('BEGIN IMMEDIATE');
    cache.put('k', entry());
    db.exec('ROLLBACK');
    expect(cache.get('k', T0)).toBeNull();
  });

  it('stays within its bounds under any sequence of puts and gets (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 400 })), { maxLength: 40 }),
        (maxEntries, steps) => {
          const localDb = openAppDatabase(':memory:');
          try {
            const local = new ResponseCache(localDb);
            local.setPolicy({ maxEntries, maxBytes: 1500 });
            for (const [isPut, keyIndex, size] of steps) {
              if (isPut) local.put(`k${keyIndex}`, entry({ value: 'z'.repeat(size) }));
              else local.get(`k${keyIndex}`, T0);
              const { entries, bytes } = local.stats();
              expect(entries).toBeLessThanOrEqual(maxEntries);
              expect(bytes).toBeLessThanOrEqual(1500);
            }
          } finally {
            localDb.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
