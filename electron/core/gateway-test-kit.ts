// Test support (not a test, not part of the app): the gateway as the app wires it, over an app
// database of its own: ledger, projects, budgets, cache and estimator, with the client the test
// brings. Also the embedded service the gateway tests call, and the full disk the ledger and
// gateway tests write against.
import { afterAll, beforeAll, expect } from 'vitest';
import type { DatabaseSync } from 'node:sqlite';
import { createLocalService, type LocalService } from '../local-service/server.ts';
import { localOperations } from '../local-service/operations/index.ts';
import { openSampleStore, type SampleStore } from '../local-service/sample-store.ts';
import { inTransaction, openAppDatabase } from './app-db.ts';
import { SpendLedger, type SpendLedgerOptions } from './ledger/spend-ledger.ts';
import { ResponseCache } from './cache.ts';
import { ProjectStore } from './projects.ts';
import { BudgetPolicy, type BudgetSettings } from './budgets.ts';
import { CostEstimator } from './cost-estimator.ts';
import { EventHub } from './events.ts';
import type { ServiceClient } from './service-client/index.ts';
import { ServiceGateway } from './service-gateway.ts';
import { PlatFailure } from './failure.ts';
import { rejectionOf } from './service-client/test-kit.ts';

/**
 * The embedded service over the sample store, started before the file's tests and closed after
 * them. Read `service` and `store` inside tests or hooks (they exist once beforeAll has run).
 */
export function useLocalService(): {
  readonly service: LocalService;
  readonly store: SampleStore;
  /** What the service itself charged under one Idempotency-Key. */
  chargesFor(key: string): number[];
  /** A real property of the sample, the `offset`-th of DC's (a request not asked before). */
  property(offset: number): string;
} {
  let store: SampleStore | undefined;
  let service: LocalService | undefined;
  beforeAll(async () => {
    store = openSampleStore();
    service = await createLocalService({ operations: localOperations, store });
  });
  afterAll(async () => {
    await service?.close();
    store?.close();
  });
  return {
    get service() {
      return service!;
    },
    get store() {
      return store!;
    },
    chargesFor: (key) =>
      service!.state
        .charges('acct_active')
        .filter((charge) => charge.requestId === key)
        .map((charge) => charge.amountMicroUsd),
    property(offset) {
      const found = store!.searchProperties({ areaUid: 'area_us_dc', limit: 1, offset }).items[0];
      if (!found) throw new Error('the sample has no property there');
      return found.entity_id;
    },
  };
}

export interface TestGatewayOptions {
  /** The app database's file; an in-memory database when left out. */
  dbPath?: string;
  /** The client calls go through, or how to make it once the database and ledger exist (to watch them as requests leave). */
  client: ServiceClient | ((stores: { db: DatabaseSync; ledger: SpendLedger }) => ServiceClient);
  /** Default 'local-sample'. */
  connectionId?: string;
  sessionId: string;
  /** Over no confirmation threshold and no session cap. */
  budget?: Partial<BudgetSettings>;
  ledger?: SpendLedgerOptions;
  now?: () => Date;
}

export function buildTestGateway(options: TestGatewayOptions) {
  const db = openAppDatabase(options.dbPath ?? ':memory:');
  const ledger = new SpendLedger(db, options.ledger);
  const projects = new ProjectStore(db);
  const budgets = new BudgetPolicy(db, projects);
  budgets.update({ confirmationThresholdMicroUsd: null, sessionCapMicroUsd: null, ...options.budget });
  const cache = new ResponseCache(db);
  const events = new EventHub();
  const client = typeof options.client === 'function' ? options.client({ db, ledger }) : options.client;
  const connectionId = options.connectionId ?? 'local-sample';
  const gateway = new ServiceGateway({
    ledger,
    cache,
    budgets,
    estimator: new CostEstimator(db),
    projects,
    events,
    sessionId: options.sessionId,
    commitTogether: (work) => inTransaction(db, work),
    activeService: () => ({ client, connectionId }),
    now: options.now,
  });
  /** Stops the gateway's events and closes the database (if the test has not already). */
  const close = () => {
    gateway.dispose();
    if (db.isOpen) db.close();
  };
  return { db, ledger, projects, budgets, cache, events, gateway, close };
}

/**
 * Lets the database grow no more and fills what is left, so the next write that needs room fails
 * with SQLITE_FULL. The fillers stand for other files on the disk: they cost nothing and are not
 * part of the ledger's story.
 */
export function fillDisk(db: DatabaseSync): void {
  const pages = Number(db.prepare('PRAGMA page_count').get()?.['page_count']);
  db.exec(`PRAGMA max_page_count = ${pages}`);
  const filler = db.prepare(
    `INSERT INTO spend_ledger (kind, status, started_at, operation, request_summary, session_id, reconciled) VALUES ('call', 'recorded', '', '', '{}', '', 1)`,
  );
  expect(() => {
    for (;;) filler.run();
  }).toThrow(/full/);
}

/** Room on the disk again. */
export function freeSpace(db: DatabaseSync): void {
  db.exec('PRAGMA max_page_count = 1073741823');
}

/** The PlatFailure a gateway call ends with; fails the test if the call succeeds or throws anything else. */
export const failureOf = (promise: Promise<unknown>): Promise<PlatFailure> => rejectionOf(promise, PlatFailure);
