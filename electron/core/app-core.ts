// Composes the runtime-neutral core: app database (ledger, cache, projects, budgets), key vault,
// service connection (the embedded sample service by default, or a live base URL), the gateway
// every service call goes through, the IPC handlers and the event hub. Electron's main.ts and the
// browser host both build one of these and differ only in the ports they plug in: how the local
// service process starts, and where the key is kept.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AppInfo, ServiceConnection } from '../../shared/ipc.ts';
import { serviceCallOperations, type ServiceCallIpcName } from '../../shared/ipc.ts';
import { formatUsd } from '../../shared/money.ts';
import { createIpcDispatcher, type CallContext, type IpcDispatch, type IpcHandlers, type IpcSender } from './ipc-dispatch.ts';
import { EventHub } from './events.ts';
import { inTransaction, openAppDatabase } from './app-db.ts';
import { SpendLedger } from './ledger.ts';
import { ResponseCache } from './cache.ts';
import { ProjectStore, SettingsStore, toIpcProject } from './projects.ts';
import { BudgetPolicy, CostEstimator } from './budgets.ts';
import type { KeyVault } from './key-vault.ts';
import { ServiceClient, ServiceCallError } from './service-client.ts';
import { ServiceGateway, type ActiveService, type RequestParts } from './service-gateway.ts';
import { PlatFailure } from './failure.ts';

/** The embedded service as a running process: where it listens and the demo keys it seeded. */
export interface RunningLocalService {
  url: string;
  keys: { active: string; revoked: string; suspended: string; exhausted: string };
  stop(): Promise<void>;
}

/** Starts the embedded service in its own process (Electron utilityProcess, or a Node child process). */
export type LocalServiceLauncher = (options: { stateDbPath: string }) => Promise<RunningLocalService>;

export interface AppCoreOptions {
  runtime: AppInfo['runtime'];
  appVersion: string;
  /** Where Plat keeps its database and the local service's state. */
  dataDir: string;
  launchLocalService: LocalServiceLauncher;
  keyVault: KeyVault;
  /** Who may call: Electron checks the frame, the browser host has already checked its token. */
  isTrustedSender: (sender: IpcSender) => boolean;
  /** For tests: the service client's options (clock, sleep, retries). */
  clientOptions?: Partial<ConstructorParameters<typeof ServiceClient>[0]>;
}

export interface AppCore {
  dispatch: IpcDispatch;
  events: EventHub;
  /** Resolves once the service connection is ready or has failed (the app shows either). */
  ready: Promise<void>;
  connection(): ServiceConnection;
  close(): Promise<void>;
}

type StoredConnection = { mode: 'local-sample' } | { mode: 'live'; baseUrl: string };
const CONNECTION_SETTING = 'connection';

function liveLabel(baseUrl: string): string {
  try {
    return `Live service · ${new URL(baseUrl).host}`;
  } catch {
    return 'Live service';
  }
}

export function createAppCore(options: AppCoreOptions): AppCore {
  mkdirSync(options.dataDir, { recursive: true });
  const db = openAppDatabase(path.join(options.dataDir, 'plat.db'));
  const events = new EventHub();
  const sessionId = randomUUID();
  const ledger = new SpendLedger(db);
  const cache = new ResponseCache(db);
  const settings = new SettingsStore(db);
  const projects = new ProjectStore(db);
  const budgets = new BudgetPolicy(db, projects);
  const estimator = new CostEstimator(db);
  const vault = options.keyVault;

  let localService: RunningLocalService | null = null;
  let stored: StoredConnection = (settings.get(CONNECTION_SETTING) as StoredConnection | undefined) ?? { mode: 'local-sample' };
  let active: ActiveService | null = null;
  let connection: ServiceConnection = {
    mode: stored.mode,
    baseUrl: stored.mode === 'live' ? stored.baseUrl : '',
    label: stored.mode === 'live' ? liveLabel(stored.baseUrl) : 'Local sample service',
    state: 'starting',
    detail: stored.mode === 'live' ? null : 'Starting the embedded service…',
    checkedAt: null,
  };

  const setConnection = (next: ServiceConnection): ServiceConnection => {
    connection = next;
    events.emit('serviceConnectionChanged', next);
    return next;
  };

  const makeClient = (baseUrl: string, getApiKey: () => string | null) =>
    new ServiceClient({
      baseUrl,
      getApiKey,
      onThrottle: (event) =>
        events.emit('callProgress', {
          actionId: 'throttle',
          operation: event.operation,
          state: 'throttled',
          attempt: 0,
          delayMs: Math.round(event.delayMs),
          reason: 'Pacing calls under the rate limit',
        }),
      ...options.clientOptions,
    });

  /**
   * Points calls at the stored connection. When the account may have changed (another service, a
   * new key), the balance baseline restarts: the next balance belongs to another account. At start
   * it is kept, so charges lost in a crash are still measured against the balance before them.
   */
  const activate = (options: { accountChanged: boolean }): ServiceConnection => {
    if (options.accountChanged) ledger.resetBalanceBaseline();
    if (stored.mode === 'live') {
      active = { client: makeClient(stored.baseUrl, () => vault.getKey()), connectionId: `live:${new URL(stored.baseUrl).origin}` };
      return setConnection({
        mode: 'live',
        baseUrl: stored.baseUrl,
        label: liveLabel(stored.baseUrl),
        state: 'ready',
        detail: vault.status().configured ? null : 'No API key yet — add one in Settings.',
        checkedAt: null,
      });
    }
    if (!localService) {
      active = null;
      return setConnection({ mode: 'local-sample', baseUrl: '', label: 'Local sample service', state: 'failed', detail: connection.detail, checkedAt: null });
    }
    const service = localService;
    active = { client: makeClient(service.url, () => service.keys.active), connectionId: 'local-sample' };
    return setConnection({ mode: 'local-sample', baseUrl: service.url, label: 'Local sample service', state: 'ready', detail: null, checkedAt: null });
  };

  const gateway = new ServiceGateway({
    ledger,
    cache,
    budgets,
    estimator,
    projects,
    events,
    sessionId,
    commitTogether: (work) => inTransaction(db, work),
    activeService: () => {
      if (!active) throw new PlatFailure('service_unavailable', connection.detail ?? 'The service is not connected yet.');
      if (stored.mode === 'live' && !vault.status().configured) throw new PlatFailure('key_not_configured');
      return active;
    },
  });

  const ready = options
    .launchLocalService({ stateDbPath: path.join(options.dataDir, 'local-service.db') })
    .then((service) => {
      localService = service;
    })
    .catch((error: unknown) => {
      connection = {
        ...connection,
        detail: `The embedded service did not start: ${error instanceof Error ? error.message : String(error)}`,
      };
    })
    .then(async () => {
      activate({ accountChanged: false });
      // Calls whose answers were lost before the last exit are replayed free now, before new spending.
      if (active) await gateway.recoverPending().catch(() => undefined);
    });

  const serviceHandler =
    <N extends ServiceCallIpcName>(name: N) =>
    async (
      request: { request: unknown; actionId?: string | undefined; confirmed?: boolean | undefined; refresh?: boolean | undefined },
      context: CallContext,
    ) => {
      await ready;
      return gateway.call({
        operation: serviceCallOperations[name],
        parts: request.request as RequestParts,
        actionId: request.actionId,
        confirmed: request.confirmed,
        refresh: request.refresh,
        signal: context.signal,
      }) as never;
    };

  const cacheStatus = () => cache.status();
  const ledgerFilter = (filter: { projectId?: string | null | undefined; from?: string | undefined; to?: string | undefined }) => ({
    ...(filter.projectId !== undefined ? { projectId: filter.projectId } : {}),
    ...(filter.from ? { from: new Date(filter.from) } : {}),
    ...(filter.to ? { to: new Date(filter.to) } : {}),
  });

  const handlers: IpcHandlers = {
    getAppInfo: async () => ({ appName: 'Plat', appVersion: options.appVersion, runtime: options.runtime, service: connection }),
    setConnection: async (request) => {
      await ready;
      stored = request.mode === 'live' ? { mode: 'live', baseUrl: request.baseUrl.replace(/\/+$/, '') } : { mode: 'local-sample' };
      settings.set(CONNECTION_SETTING, stored);
      return activate({ accountChanged: true });
    },

    searchRecords: serviceHandler('searchRecords'),
    getSourceCatalog: serviceHandler('getSourceCatalog'),
    getConnectedEntities: serviceHandler('getConnectedEntities'),
    getEntitySummary: serviceHandler('getEntitySummary'),
    queryRecords: serviceHandler('queryRecords'),
    searchProperties: serviceHandler('searchProperties'),
    resolveEntities: serviceHandler('resolveEntities'),
    getCatalogFacet: serviceHandler('getCatalogFacet'),
    getEntity: serviceHandler('getEntity'),
    traverseRelationships: serviceHandler('traverseRelationships'),
    previewCost: async (request) => {
      await ready;
      return gateway.preview(request.operation, request.request as RequestParts);
    },

    getSpend: async () => gateway.spend(),
    listLedger: async (request) => {
      const filter = ledgerFilter(request.filter);
      const rows = ledger.list({ ...filter, limit: request.limit, offset: request.offset });
      const total = ledger.count(filter);
      return {
        total,
        rows: rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          startedAt: row.startedAt,
          finishedAt: row.finishedAt,
          operation: row.operation,
          requestSummary: JSON.stringify(row.requestSummary),
          requestId: row.requestId,
          idempotencyKey: row.idempotencyKey,
          httpStatus: row.httpStatus,
          status: row.status,
          expectedCostMicroUsd: row.expectedCostMicroUsd,
          chargedMicroUsd: row.totalChargeMicroUsd,
          unreportedChargeMicroUsd: row.unreportedChargeMicroUsd,
          balanceAfterMicroUsd: row.balanceAfterMicroUsd,
          replayed: row.replayed,
          cacheHit: row.cacheHit,
          projectId: row.projectId,
          errorCode: row.errorCode,
        })),
      };
    },
    exportLedgerCsv: async (request) => ({
      filename: `plat-ledger-${new Date().toISOString().slice(0, 10)}.csv`,
      csv: ledger.exportCsv(ledgerFilter(request.filter)),
    }),

    listProjects: async () => ({ projects: projects.list({ includeArchived: true }).map(toIpcProject), activeProjectId: projects.activeProjectId() }),
    createProject: async (request) => toIpcProject(projects.create({ name: request.name, spendingCapMicroUsd: request.capMicroUsd })),
    updateProject: async (request) => {
      if (request.name !== undefined) projects.rename(request.id, request.name);
      if (request.capMicroUsd !== undefined) projects.setSpendingCap(request.id, request.capMicroUsd);
      if (request.archived === true) projects.archive(request.id);
      if (request.archived === false) projects.restore(request.id);
      const project = projects.get(request.id);
      if (!project) throw new PlatFailure('not_found', 'There is no such project.');
      return toIpcProject(project);
    },
    setActiveProject: async (request) => ({ activeProjectId: projects.setActiveProjectId(request.id) }),
    getBudgets: async () => budgets.settings(),
    setBudgets: async (request) => budgets.update(request),

    getCacheStatus: async () => cacheStatus(),
    setCachePolicy: async (request) => {
      cache.setPolicy(request);
      return cacheStatus();
    },
    clearCache: async () => {
      cache.clear();
      return cacheStatus();
    },

    getKeyStatus: async () => vault.status(),
    setApiKey: async (request) => {
      const status = vault.setKey(request.key, { allowWeakStorage: request.allowWeakStorage === true });
      if (stored.mode === 'live') activate({ accountChanged: true });
      return status;
    },
    deleteApiKey: async () => {
      const status = vault.deleteKey();
      if (stored.mode === 'live') activate({ accountChanged: true });
      return status;
    },
    testApiKey: async () => {
      await ready;
      if (stored.mode !== 'live') {
        return { ok: false, message: 'Plat is connected to the local sample, which needs no key. Choose a live service first.', balanceMicroUsd: null };
      }
      if (!vault.status().configured) return { ok: false, message: 'No API key is set up — add one first.', balanceMicroUsd: null };
      try {
        // A free catalog call: it proves the key without spending.
        const outcome = await makeClient(stored.baseUrl, () => vault.getKey()).catalog({});
        const balance = outcome.http.balanceMicroUsd;
        return { ok: true, message: `The key works.${balance !== null ? ` Balance ${formatUsd(balance)}.` : ''}`, balanceMicroUsd: balance };
      } catch (error) {
        const message = error instanceof ServiceCallError ? error.platError.message : 'The key could not be tested.';
        return { ok: false, message, balanceMicroUsd: null };
      }
    },
  };

  return {
    dispatch: createIpcDispatcher(handlers, options.isTrustedSender),
    events,
    ready,
    connection: () => connection,
    close: async () => {
      await ready;
      gateway.dispose();
      await localService?.stop();
      localService = null;
      db.close();
    },
  };
}
