// The response cache: what lets Plat answer a repeated question at no cost. Every successful answer
// is kept in the app database under a hash of (connection, operation, request), so a summary bought
// once is not bought again; "refresh" is the caller skipping get() and putting the new answer.
//
// Expiry: the TTL applies to free answers only (catalog, connected, empty pages), which are cheap
// to fetch fresh. A charged answer does not expire by age, because expiring it would buy it again
// without the user asking; it leaves only by LRU eviction under the size bounds, clear(), or a refresh.
// Totals are kept by triggers in a one-row table, so bounds checks cost O(1) on the main thread.
import { hash } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ModuleStore, inTransaction, statement } from './app-db.ts';
import { canonicalJson } from '../../shared/canonical-json.ts';

export const CACHE_MODULE = 'response-cache';

/** Append-only: never edit or reorder a shipped entry (see app-db.ts). */
export const CACHE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE response_cache (
     key TEXT PRIMARY KEY,
     value_json TEXT NOT NULL,
     served_at TEXT NOT NULL,
     request_id TEXT NOT NULL,
     charged_micro_usd INTEGER NOT NULL CHECK (charged_micro_usd >= 0),
     stored_at INTEGER NOT NULL,
     bytes INTEGER NOT NULL CHECK (bytes >= 0),
     last_used INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX response_cache_by_last_used ON response_cache (last_used);
   CREATE TABLE response_cache_totals (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     entries INTEGER NOT NULL,
     bytes INTEGER NOT NULL
   ) STRICT;
   INSERT INTO response_cache_totals (id, entries, bytes) VALUES (1, 0, 0);
   CREATE TRIGGER response_cache_count_insert AFTER INSERT ON response_cache BEGIN
     UPDATE response_cache_totals SET entries = entries + 1, bytes = bytes + NEW.bytes WHERE id = 1;
   END;
   CREATE TRIGGER response_cache_count_delete AFTER DELETE ON response_cache BEGIN
     UPDATE response_cache_totals SET entries = entries - 1, bytes = bytes - OLD.bytes WHERE id = 1;
   END;
   CREATE TRIGGER response_cache_count_update AFTER UPDATE OF bytes ON response_cache BEGIN
     UPDATE response_cache_totals SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1;
   END;
   CREATE TABLE response_cache_policy (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     ttl_seconds INTEGER NOT NULL CHECK (ttl_seconds > 0),
     max_entries INTEGER NOT NULL CHECK (max_entries > 0),
     max_bytes INTEGER NOT NULL CHECK (max_bytes > 0)
   ) STRICT;`,
];

export interface CachePolicy {
  /** How long a free answer is served from the cache. Charged answers never expire by age. */
  ttlSeconds: number;
  maxEntries: number;
  /** Bound on the stored answers' size (UTF-8 bytes of their JSON and ids). */
  maxBytes: number;
}

export const DEFAULT_CACHE_POLICY: CachePolicy = {
  ttlSeconds: 24 * 60 * 60,
  maxEntries: 20_000,
  maxBytes: 200 * 1024 * 1024,
};

/** One stored answer. Times are epoch milliseconds. */
export interface CacheEntry {
  /** The parsed response data (JSON-serialisable). */
  value: unknown;
  /** The service's `meta.served_at`: when the answer was produced, shown as "as of". */
  servedAt: string;
  /** The service's `request_id`, to trace the answer back to its ledger row. */
  requestId: string;
  /** What the answer cost when it was bought (0 for free answers); what a hit saves. */
  chargedMicroUsd: number;
  /** When Plat stored it (epoch ms). */
  storedAt: number;
}

export interface CacheStats {
  entries: number;
  bytes: number;
  /** Hits and misses since this ResponseCache was created (the app's session). */
  hits: number;
  misses: number;
}

/**
 * The cache key of a request: sha256 (hex) of the connection (which service and account answered:
 * the local sample's answers must never stand in for the live service's), the operation name and
 * the canonical request. Leave the Idempotency-Key out: it names an attempt, not a question.
 */
export function canonicalRequestKey(connectionId: string, operation: string, request: unknown): string {
  const text = `[${JSON.stringify(connectionId)},${JSON.stringify(operation)},${canonicalJson(request)}]`;
  return hash('sha256', text, 'hex');
}

function checkPolicy(policy: CachePolicy): void {
  const { ttlSeconds, maxEntries, maxBytes } = policy;
  if (!(Number.isSafeInteger(ttlSeconds) && ttlSeconds > 0)) {
    throw new RangeError('cache ttlSeconds must be a positive whole number of seconds');
  }
  if (!(Number.isSafeInteger(maxEntries) && maxEntries > 0)) throw new RangeError('cache maxEntries must be a positive whole number');
  if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) throw new RangeError('cache maxBytes must be a positive whole number');
}

export class ResponseCache extends ModuleStore {
  // Prepared once: get() and put() run on the main thread for every call.
  readonly #selectEntry: StatementSync;
  readonly #touchEntry: StatementSync;
  readonly #upsertEntry: StatementSync;
  readonly #deleteEntry: StatementSync;
  readonly #selectTotals: StatementSync;
  #policy: CachePolicy;
  #hits = 0;
  #clears = 0;
  #misses = 0;

  constructor(db: DatabaseSync) {
    super(db, CACHE_MODULE, CACHE_MIGRATIONS);
    this.#selectEntry = db.prepare(
      'SELECT value_json, served_at, request_id, charged_micro_usd, stored_at FROM response_cache WHERE key = ?',
    );
    this.#touchEntry = db.prepare(
      'UPDATE response_cache SET last_used = (SELECT COALESCE(MAX(last_used), 0) + 1 FROM response_cache) WHERE key = ?',
    );
    this.#upsertEntry = db.prepare(
      `INSERT INTO response_cache (key, value_json, served_at, request_id, charged_micro_usd, stored_at, bytes, last_used)
       VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(last_used), 0) + 1 FROM response_cache))
       ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, served_at = excluded.served_at,
         request_id = excluded.request_id, charged_micro_usd = excluded.charged_micro_usd,
         stored_at = excluded.stored_at, bytes = excluded.bytes, last_used = excluded.last_used`,
    );
    this.#deleteEntry = db.prepare('DELETE FROM response_cache WHERE key = ?');
    this.#selectTotals = db.prepare('SELECT entries, bytes FROM response_cache_totals WHERE id = 1');
    const row = db.prepare('SELECT ttl_seconds, max_entries, max_bytes FROM response_cache_policy WHERE id = 1').get();
    this.#policy = row
      ? {
          ttlSeconds: Number(row['ttl_seconds']),
          maxEntries: Number(row['max_entries']),
          maxBytes: Number(row['max_bytes']),
        }
      : { ...DEFAULT_CACHE_POLICY };
  }

  policy(): CachePolicy {
    return { ...this.#policy };
  }

  /** Changes (and persists) the bounds; shrinking evicts least-recently-used answers at once. */
  setPolicy(update: Partial<CachePolicy>): CachePolicy {
    const next: CachePolicy = { ...this.#policy, ...definedOnly(update) };
    checkPolicy(next);
    inTransaction(this.db, () => {
      statement(this.db, 
          `INSERT INTO response_cache_policy (id, ttl_seconds, max_entries, max_bytes) VALUES (1, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET ttl_seconds = excluded.ttl_seconds, max_entries = excluded.max_entries, max_bytes = excluded.max_bytes`,
        )
        .run(next.ttlSeconds, next.maxEntries, next.maxBytes);
      this.#policy = next;
      this.#evict();
    });
    return this.policy();
  }

  /** The stored answer, or null when there is none or a free answer is older than the TTL. A hit marks it recently used. */
  get(key: string, now: number): CacheEntry | null {
    const row = this.#selectEntry.get(key);
    if (!row) {
      this.#misses += 1;
      return null;
    }
    const entry: CacheEntry = {
      value: JSON.parse(String(row['value_json'])),
      servedAt: String(row['served_at']),
      requestId: String(row['request_id']),
      chargedMicroUsd: Number(row['charged_micro_usd']),
      storedAt: Number(row['stored_at']),
    };
    if (this.#isExpired(entry, now)) {
      this.#deleteEntry.run(key);
      this.#misses += 1;
      return null;
    }
    this.#touchEntry.run(key);
    this.#hits += 1;
    return entry;
  }

  /**
   * Stores (or replaces) an answer and evicts least-recently-used ones beyond the bounds. Returns
   * false when the answer alone is larger than maxBytes: it is not kept (and any older answer under
   * the key is dropped, since the caller just replaced it).
   */
  put(key: string, entry: CacheEntry): boolean {
    const valueJson = JSON.stringify(entry.value);
    if (valueJson === undefined) throw new TypeError('a cached value must be JSON-serialisable');
    if (!(Number.isSafeInteger(entry.chargedMicroUsd) && entry.chargedMicroUsd >= 0)) {
      throw new RangeError('chargedMicroUsd must be a whole, non-negative number of micro-USD');
    }
    if (!Number.isFinite(entry.storedAt)) throw new RangeError('storedAt must be epoch milliseconds');
    const bytes =
      Buffer.byteLength(valueJson, 'utf8') + Buffer.byteLength(entry.servedAt, 'utf8') + Buffer.byteLength(entry.requestId, 'utf8');
    return inTransaction(this.db, () => {
      if (bytes > this.#policy.maxBytes) {
        this.#deleteEntry.run(key);
        return false;
      }
      this.#upsertEntry.run(key, valueJson, entry.servedAt, entry.requestId, entry.chargedMicroUsd, Math.trunc(entry.storedAt), bytes);
      this.#evict();
      return true;
    });
  }

  /** Removes one answer (e.g. the service said it is gone). Returns whether there was one. */
  delete(key: string): boolean {
    return Number(this.#deleteEntry.run(key).changes) > 0;
  }

  /** Drops free answers older than the TTL; returns how many. Optional housekeeping (get() already ignores them). */
  purgeExpired(now: number): number {
    const { ttlSeconds } = this.#policy;
    const result = statement(this.db, 'DELETE FROM response_cache WHERE charged_micro_usd = 0 AND stored_at <= ?')
      .run(now - ttlSeconds * 1000);
    return Number(result.changes);
  }

  /** Empties the cache. Hit and miss counts are kept: they describe the session. */
  clear(): void {
    inTransaction(this.db, () => {
      this.db.exec('DELETE FROM response_cache');
    });
    this.#clears += 1;
  }

  /** How many times the cache was cleared: a copy taken before a clear must not be put back after it. */
  get clears(): number {
    return this.#clears;
  }

  stats(): CacheStats {
    const totals = this.#totals();
    return { entries: totals.entries, bytes: totals.bytes, hits: this.#hits, misses: this.#misses };
  }

  /** Policy and stats together: the shape of the IPC `CacheStatus`. */
  status(): CachePolicy & CacheStats {
    return { ...this.policy(), ...this.stats() };
  }

  #isExpired(entry: CacheEntry, now: number): boolean {
    const { ttlSeconds } = this.#policy;
    if (entry.chargedMicroUsd > 0) return false;
    return now - entry.storedAt >= ttlSeconds * 1000;
  }

  #totals(): { entries: number; bytes: number } {
    const row = this.#selectTotals.get();
    return { entries: Number(row?.['entries'] ?? 0), bytes: Number(row?.['bytes'] ?? 0) };
  }

  // Deletes the least recently used answers until both bounds hold.
  #evict(): void {
    const { maxEntries, maxBytes } = this.#policy;
    let totals = this.#totals();
    const excessEntries = totals.entries - maxEntries;
    if (excessEntries > 0) {
      statement(this.db, 'DELETE FROM response_cache WHERE key IN (SELECT key FROM response_cache ORDER BY last_used LIMIT ?)')
        .run(excessEntries);
      totals = this.#totals();
    }
    const excessBytes = totals.bytes - maxBytes;
    if (excessBytes <= 0) return;
    const victims: string[] = [];
    let freed = 0;
    for (const row of statement(this.db, 'SELECT key, bytes FROM response_cache ORDER BY last_used').iterate()) {
      victims.push(String(row['key']));
      freed += Number(row['bytes']);
      if (freed >= excessBytes) break;
    }
    for (const key of victims) this.#deleteEntry.run(key);
  }
}

function definedOnly<T extends object>(update: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined)) as Partial<T>;
}
