// The local service's own state: accounts, API keys, charges, top-ups and stored idempotent
// responses, in one node:sqlite database. Everything here is synchronous on purpose: the server
// calls it inside a single turn of the event loop, so no two requests can interleave between a
// replay lookup, a charge and storing the response.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SQLOutputValue } from 'node:sqlite';
import { createHash, randomBytes } from 'node:crypto';

/** Fixed amount added to an account with a payment method whenever a charge would overdraw it. */
export const TOP_UP_MICRO_USD = 25_000_000;
/** Credit the seeded active account starts with ($25.00). */
export const SEED_CREDIT_MICRO_USD = 25_000_000;
/** Idempotent responses are replayed for seven days after they were stored. */
export const IDEMPOTENCY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export type DemoKeyRole = 'active' | 'revoked' | 'suspended' | 'exhausted';
export const DEMO_KEY_ROLES: readonly DemoKeyRole[] = ['active', 'revoked', 'suspended', 'exhausted'];
export type DemoKeys = Record<DemoKeyRole, string>;

export interface Account {
  id: string;
  status: 'active' | 'suspended';
  balanceMicroUsd: number;
  hasPaymentMethod: boolean;
}

export type Authentication =
  | { ok: true; keyId: string; account: Account }
  | { ok: false; reason: 'unknown_key' | 'revoked_key' | 'account_suspended' };

export interface StoredResponse {
  fingerprint: string;
  operation: string;
  status: number;
  body: string;
}

export interface ChargeRow {
  requestId: string;
  operation: string;
  amountMicroUsd: number;
  keyId: string;
  accountId: string;
  balanceAfterMicroUsd: number;
  chargedAt: string;
}

export interface TopUpRow {
  accountId: string;
  amountMicroUsd: number;
  requestId: string;
  toppedUpAt: string;
}

export interface SuccessCommit {
  accountId: string;
  keyId: string;
  requestId: string;
  operation: string;
  chargeMicroUsd: number;
  now: Date;
  /** Present for idempotent operations called with a key: the response to replay later. */
  replay?: { idempotencyKey: string; fingerprint: string; status: number; body: string };
}

export type CommitOutcome =
  | { ok: true; balanceAfterMicroUsd: number; toppedUpMicroUsd: number }
  | { ok: false; reason: 'insufficient_credit'; balanceMicroUsd: number };

interface SeedAccount {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  balance: number;
  hasPaymentMethod: boolean;
}

// The four demo situations the spec's Authentication section describes.
const SEED_ACCOUNTS: readonly SeedAccount[] = [
  { id: 'acct_active', name: 'Demo account', status: 'active', balance: SEED_CREDIT_MICRO_USD, hasPaymentMethod: true },
  { id: 'acct_suspended', name: 'Suspended demo account', status: 'suspended', balance: SEED_CREDIT_MICRO_USD, hasPaymentMethod: true },
  { id: 'acct_exhausted', name: 'Exhausted demo account', status: 'active', balance: 0, hasPaymentMethod: false },
];

const SEED_KEYS: ReadonlyArray<{ role: DemoKeyRole; accountId: string; revoked: boolean }> = [
  { role: 'active', accountId: 'acct_active', revoked: false },
  { role: 'revoked', accountId: 'acct_active', revoked: true },
  { role: 'suspended', accountId: 'acct_suspended', revoked: false },
  { role: 'exhausted', accountId: 'acct_exhausted', revoked: false },
];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'suspended')),
  balance_micro_usd INTEGER NOT NULL CHECK (balance_micro_usd >= 0),
  has_payment_method INTEGER NOT NULL CHECK (has_payment_method IN (0, 1)),
  created_at TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  key_sha256 TEXT NOT NULL UNIQUE,
  demo_role TEXT UNIQUE,
  demo_key TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;
CREATE TABLE IF NOT EXISTS charges (
  id INTEGER PRIMARY KEY,
  request_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  amount_micro_usd INTEGER NOT NULL CHECK (amount_micro_usd > 0),
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  account_id TEXT NOT NULL REFERENCES accounts(id),
  balance_after_micro_usd INTEGER NOT NULL,
  charged_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS charges_account ON charges(account_id, id);
CREATE TABLE IF NOT EXISTS top_ups (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  amount_micro_usd INTEGER NOT NULL CHECK (amount_micro_usd > 0),
  request_id TEXT NOT NULL,
  topped_up_at TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS idempotent_responses (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  operation TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  stored_at_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, idempotency_key)
) STRICT;
CREATE INDEX IF NOT EXISTS idempotent_responses_stored_at ON idempotent_responses(stored_at_ms);
CREATE TABLE IF NOT EXISTS service_secrets (
  name TEXT PRIMARY KEY,
  value BLOB NOT NULL
) STRICT;
`;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A new API key: `svc_live_` and 32 hex characters from the OS's CSPRNG. */
export function generateApiKey(): string {
  return `svc_live_${randomBytes(16).toString('hex')}`;
}

function text(row: Record<string, SQLOutputValue>, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new Error(`state db: column ${column} is not text`);
  return value;
}

function int(row: Record<string, SQLOutputValue>, column: string): number {
  const value = row[column];
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'number') throw new Error(`state db: column ${column} is not an integer`);
  return value;
}

function accountFrom(row: Record<string, SQLOutputValue>): Account {
  const status = text(row, 'status');
  return {
    id: text(row, 'id'),
    status: status === 'suspended' ? 'suspended' : 'active',
    balanceMicroUsd: int(row, 'balance_micro_usd'),
    hasPaymentMethod: int(row, 'has_payment_method') === 1,
  };
}

export class ServiceState {
  readonly db: DatabaseSync;
  readonly #now: () => Date;

  constructor(dbPath: string, now: () => Date = () => new Date()) {
    this.#now = now;
    this.db = new DatabaseSync(dbPath);
    const onFile = dbPath !== ':memory:' && dbPath !== '';
    // WAL lets an inspector read the file while the service writes; memory databases have no journal.
    // WAL with synchronous=NORMAL: a commit survives the process being killed (what the fault and crash
    // tests exercise); only a power cut could lose the last few, which a local sample can afford.
    if (onFile) this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
    this.db.exec('PRAGMA foreign_keys = ON;');
    this.db.exec(SCHEMA);
    this.#seedIfEmpty();
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /**
   * The secret that seals cursors, drawn once and kept with the service's state: a page 1 a client
   * kept (Plat caches paid answers) still leads to its page 2 after the service restarts.
   */
  cursorSecret(): Buffer {
    const found = this.#statement('SELECT value FROM service_secrets WHERE name = ?').get('cursor_seal') as { value: Uint8Array } | undefined;
    if (found) return Buffer.from(found.value);
    const secret = randomBytes(32);
    this.#statement('INSERT INTO service_secrets (name, value) VALUES (?, ?)').run('cursor_seal', secret);
    return secret;
  }

  readonly #statements = new Map<string, StatementSync>();

  /** Compiled once per SQL text: node:sqlite compiles on every prepare, a cost paid per request. */
  #statement(sql: string): StatementSync {
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.#statements.set(sql, prepared);
    }
    return prepared;
  }

  #transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  #seedIfEmpty(): void {
    this.#transaction(() => {
      const row = this.#statement('SELECT count(*) AS n FROM accounts').get();
      if (row && int(row, 'n') > 0) return;
      const createdAt = this.#now().toISOString();
      const insertAccount = this.#statement(
        'INSERT INTO accounts (id, name, status, balance_micro_usd, has_payment_method, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const account of SEED_ACCOUNTS) {
        insertAccount.run(account.id, account.name, account.status, account.balance, account.hasPaymentMethod ? 1 : 0, createdAt);
      }
      const insertKey = this.#statement(
        'INSERT INTO api_keys (id, account_id, key_sha256, demo_role, demo_key, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const seed of SEED_KEYS) {
        const key = generateApiKey();
        // The plaintext is kept only for these demo keys, so a restart on the same --db can print them again.
        insertKey.run(`key_${seed.role}`, seed.accountId, sha256Hex(key), seed.role, key, createdAt, seed.revoked ? createdAt : null);
      }
    });
  }

  /** The seeded demo keys, by role. */
  demoKeys(): DemoKeys {
    const rows = this.#statement('SELECT demo_role, demo_key FROM api_keys WHERE demo_role IS NOT NULL').all();
    const keys: Partial<DemoKeys> = {};
    for (const row of rows) {
      const role = text(row, 'demo_role');
      if ((DEMO_KEY_ROLES as readonly string[]).includes(role)) keys[role as DemoKeyRole] = text(row, 'demo_key');
    }
    const missing = DEMO_KEY_ROLES.filter((role) => keys[role] === undefined);
    if (missing.length > 0) throw new Error(`state db: demo keys missing: ${missing.join(', ')}`);
    return keys as DemoKeys;
  }

  /**
   * Creates a key for an existing account (e.g. for tests that need a second key on one account);
   * `apiKey` chooses its text (a test's sentinel key), a new random key by default.
   */
  createKey(accountId: string, apiKey: string = generateApiKey()): { keyId: string; apiKey: string } {
    const keyId = `key_${randomBytes(8).toString('hex')}`;
    this.#statement('INSERT INTO api_keys (id, account_id, key_sha256, created_at) VALUES (?, ?, ?, ?)')
      .run(keyId, accountId, sha256Hex(apiKey), this.#now().toISOString());
    return { keyId, apiKey };
  }

  authenticate(apiKey: string): Authentication {
    const row = this.#statement(
        `SELECT k.id AS key_id, k.revoked_at, a.id, a.status, a.balance_micro_usd, a.has_payment_method
         FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_sha256 = ?`,
      )
      .get(sha256Hex(apiKey));
    if (!row) return { ok: false, reason: 'unknown_key' };
    if (row['revoked_at'] !== null) return { ok: false, reason: 'revoked_key' };
    const account = accountFrom(row);
    if (account.status === 'suspended') return { ok: false, reason: 'account_suspended' };
    return { ok: true, keyId: text(row, 'key_id'), account };
  }

  account(accountId: string): Account {
    const row = this.#statement('SELECT * FROM accounts WHERE id = ?').get(accountId);
    if (!row) throw new Error(`state db: no account ${accountId}`);
    return accountFrom(row);
  }

  /** The account an API key belongs to (revoked keys included), or undefined for an unknown key. */
  accountOfKey(apiKey: string): Account | undefined {
    const row = this.#statement('SELECT a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_sha256 = ?')
      .get(sha256Hex(apiKey));
    return row ? accountFrom(row) : undefined;
  }

  /** The stored response for (account, key) if one was stored within the replay window. */
  findReplay(accountId: string, idempotencyKey: string): StoredResponse | undefined {
    const oldest = this.#now().getTime() - IDEMPOTENCY_WINDOW_MS;
    const row = this.#statement(
        `SELECT fingerprint, operation, status, body FROM idempotent_responses
         WHERE account_id = ? AND idempotency_key = ? AND stored_at_ms >= ?`,
      )
      .get(accountId, idempotencyKey, oldest);
    if (!row) return undefined;
    return { fingerprint: text(row, 'fingerprint'), operation: text(row, 'operation'), status: int(row, 'status'), body: text(row, 'body') };
  }

  /**
   * Charges a successful call and stores its replay in one transaction. An account with a payment
   * method is topped up in $25.00 steps so it never goes below zero; one without is refused.
   */
  commitSuccess(commit: SuccessCommit): CommitOutcome {
    if (!Number.isSafeInteger(commit.chargeMicroUsd) || commit.chargeMicroUsd < 0) {
      throw new Error(`charge must be a non-negative integer of micro-USD, got ${commit.chargeMicroUsd}`);
    }
    return this.#transaction((): CommitOutcome => {
      const account = this.account(commit.accountId);
      const at = commit.now.toISOString();
      let balance = account.balanceMicroUsd;
      let toppedUp = 0;
      if (commit.chargeMicroUsd > balance) {
        if (!account.hasPaymentMethod) return { ok: false, reason: 'insufficient_credit', balanceMicroUsd: balance };
        const insertTopUp = this.#statement(
          'INSERT INTO top_ups (account_id, amount_micro_usd, request_id, topped_up_at) VALUES (?, ?, ?, ?)',
        );
        while (commit.chargeMicroUsd > balance) {
          insertTopUp.run(account.id, TOP_UP_MICRO_USD, commit.requestId, at);
          balance += TOP_UP_MICRO_USD;
          toppedUp += TOP_UP_MICRO_USD;
        }
      }
      balance -= commit.chargeMicroUsd;
      this.#statement('UPDATE accounts SET balance_micro_usd = ? WHERE id = ?').run(balance, account.id);
      if (commit.chargeMicroUsd > 0) {
        this.#statement(
            `INSERT INTO charges (request_id, operation, amount_micro_usd, key_id, account_id, balance_after_micro_usd, charged_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(commit.requestId, commit.operation, commit.chargeMicroUsd, commit.keyId, account.id, balance, at);
      }
      if (commit.replay) {
        const nowMs = commit.now.getTime();
        this.#statement('DELETE FROM idempotent_responses WHERE stored_at_ms < ?').run(nowMs - IDEMPOTENCY_WINDOW_MS);
        this.#statement(
            `INSERT OR REPLACE INTO idempotent_responses
             (account_id, idempotency_key, fingerprint, operation, status, body, stored_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(account.id, commit.replay.idempotencyKey, commit.replay.fingerprint, commit.operation, commit.replay.status, commit.replay.body, nowMs);
      }
      return { ok: true, balanceAfterMicroUsd: balance, toppedUpMicroUsd: toppedUp };
    });
  }

  charges(accountId: string): ChargeRow[] {
    return this.#statement('SELECT * FROM charges WHERE account_id = ? ORDER BY id')
      .all(accountId)
      .map((row) => ({
        requestId: text(row, 'request_id'),
        operation: text(row, 'operation'),
        amountMicroUsd: int(row, 'amount_micro_usd'),
        keyId: text(row, 'key_id'),
        accountId: text(row, 'account_id'),
        balanceAfterMicroUsd: int(row, 'balance_after_micro_usd'),
        chargedAt: text(row, 'charged_at'),
      }));
  }

  topUps(accountId: string): TopUpRow[] {
    return this.#statement('SELECT * FROM top_ups WHERE account_id = ? ORDER BY id')
      .all(accountId)
      .map((row) => ({
        accountId: text(row, 'account_id'),
        amountMicroUsd: int(row, 'amount_micro_usd'),
        requestId: text(row, 'request_id'),
        toppedUpAt: text(row, 'topped_up_at'),
      }));
  }
}
