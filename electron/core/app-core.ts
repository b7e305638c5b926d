// Composes the runtime-neutral core: app database (ledger, cache, projects and assignments,
// budgets), key vault, service connection (the embedded sample service by default, or a live base
// URL) and its state, the gateway every service call goes through, the event hub, and the IPC
// handler map, assembled from one module per domain in handlers/. Electron's main.ts and the
// browser host both build one of these and differ only in the ports they plug in: how the local
// service process starts, where the key is kept, and what prints a PDF.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { AppInfo, ServiceConnection } from '../../shared/ipc.ts';
import { checkServiceBaseUrl } from '../../shared/connection-url.ts';
import { createIpcDispatcher, type IpcDispatch, type IpcHandlers, type IpcSender } from './ipc-dispatch.ts';
import { EventHub } from './events.ts';
import { inTransaction } from './app-db.ts';
import { lockDataFolder } from './data-folder-lock.ts';
import { checkDataFolderDatabases, DataFolderProblem, LEDGER_FILE, openLedgerDatabase, SERVICE_STATE_FILE } from './database-check.ts';
import { SpendLedger } from './ledger/spend-ledger.ts';
import { ResponseCache } from './cache.ts';
import { ProjectStore } from './projects.ts';
import { SettingsStore } from './settings-store.ts';
import { BudgetPolicy } from './budgets.ts';
import { CostEstimator } from './cost-estimator.ts';
import type { KeyVault } from './key-vault.ts';
import type { InstallationIdentity } from './installation-identity.ts';
import { KeysInUse } from './secret-scrub.ts';
import { ServiceClient, ServiceCallError } from './service-client/index.ts';
import { ServiceGateway, type ActiveService, type GatewayAnswer, type GatewayCall } from './service-gateway.ts';
import { PlatFailure } from './failure.ts';
import type { Printer } from './reports/printer.ts';
import { ReportPdfService } from './reports/report-pdf-service.ts';
import { AssignmentService } from './assignments/assignments.ts';
import { connectionHandlers, type ConnectionCheck, type ConnectionControl, type StoredConnection } from './handlers/connection.ts';
import { serviceCallHandlers } from './handlers/service-calls.ts';
import { spendHandlers } from './handlers/spend.ts';
import { projectHandlers } from './handlers/projects.ts';
import { recheckHandlers } from './handlers/recheck.ts';
import { comparablesHandlers } from './handlers/comparables.ts';
import { graphHandlers } from './handlers/graph.ts';
import { budgetHandlers } from './handlers/budgets.ts';
import { cacheHandlers } from './handlers/cache.ts';
import { keyHandlers } from './handlers/key.ts';
import { recheckPricer, reportHandlers, subjectReportBuilder } from './handlers/reports.ts';

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
  /**
   * The person asked to replace a damaged plat.db or local-service.db with a new one (the damaged
   * file is kept aside, never deleted). Without it a damaged database stops the start.
   */
  startFresh?: boolean;
  /** How the person starts fresh in this runtime, for the messages (see database-check.ts). */
  startFreshHint?: string;
  /**
   * The printer for PDF exports, once there is one (the browser host knows its page address only
   * after it has started): Electron's hidden window, or a Chromium found on the machine.
   */
  printer?: () => Printer | null;
  /** Waits between re-checks of an unreachable service, in ms (the last one repeats). */
  recheckDelaysMs?: readonly number[];
  /** This installation's signing identity (PDFs and workfiles are signed with it); without one they are exported unsigned. */
  identity?: InstallationIdentity | null;
}

export interface AppCore {
  dispatch: IpcDispatch;
  events: EventHub;
  /**
   * Resolves once the embedded service has started (or failed to), calls lost in a crash were
   * replayed, and the first connection check has an answer: `connection()` then says what was checked.
   */
  ready: Promise<void>;
  connection(): ServiceConnection;
  /** What the person should be told although Plat started (e.g. a damaged file set aside on request). */
  notices: readonly string[];
  /** Records the address this Plat is opened at (the browser host's page), so a second start can point to it. */
  recordAddress(url: string): void;
  close(): Promise<void>;
}

const StoredConnectionSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('local-sample') }),
  z.object({ mode: z.literal('live'), baseUrl: z.string(), allowInsecure: z.literal(true).optional() }),
]) satisfies z.ZodType<StoredConnection>;
const CONNECTION_SETTING = 'connection';

/**
 * The stored connection, checked as a new one would be: a setting written by hand or by an older
 * Plat that is not usable falls back to the local sample, with the reason, instead of failing the start.
 */
function readStoredConnection(value: unknown): { stored: StoredConnection; problem: string | null } {
  if (value === undefined) return { stored: { mode: 'local-sample' }, problem: null };
  const parsed = StoredConnectionSchema.safeParse(value);
  if (!parsed.success) return { stored: { mode: 'local-sample' }, problem: 'the saved connection setting is not one this Plat understands' };
  if (parsed.data.mode === 'local-sample') return { stored: parsed.data, problem: null };
  const check = checkServiceBaseUrl(parsed.data.baseUrl, { allowInsecure: parsed.data.allowInsecure });
  if (!check.ok) return { stored: { mode: 'local-sample' }, problem: `the saved live-service address cannot be used: ${check.problem}` };
  return { stored: { ...parsed.data, baseUrl: check.baseUrl }, problem: null };
}

/** Re-checks of an unreachable service: 5 s, doubling up to a minute. */
const RECHECK_DELAYS_MS = [5_000, 10_000, 20_000, 40_000, 60_000];

/** Failures that mean no answer came back (or only a 5xx): the service may come back by itself. */
const UNREACHABLE_CODES = new Set(['network_error', 'timeout', 'service_unavailable', 'charged_answer_lost']);
/** Failures that mean the service answered and refused this key or account: the person must act. */
const REFUSED_CODES = new Set(['unauthorized', 'account_suspended']);

const failureOf = (error: unknown) =>
  error instanceof PlatFailure ? error.platError : error instanceof ServiceCallError ? error.platError : { code: 'internal', message: 'Plat hit an unexpected problem.' };

/** The first clause of a catalogue message ("The service could not be reached — check …" → its "what"). */
const what = (message: string) => message.split(' — ')[0] ?? message;

function liveLabel(baseUrl: string): string {
  try {
    return `Live service · ${new URL(baseUrl).host}`;
  } catch {
    return 'Live service';
  }
}

export function createAppCore(options: AppCoreOptions): AppCore {
  // The folder is taken before either database is looked at, and both are checked before they are
  // opened: a second Plat, a damaged file or a read-only one stops here, with a message naming it.
  const lock = lockDataFolder(options.dataDir, { runtime: options.runtime });
  // The keys of this session (the vault's and the embedded service's, now and before a key change):
  // scrubbed from every answer as it arrives and from every ledger row.
  const keysInUse = new KeysInUse(() => [options.keyVault.getKey(), localService?.keys.active]);
  let db: DatabaseSync | null = null;
  const opened = (() => {
    try {
      const folder = checkDataFolderDatabases(options.dataDir, {
        startFresh: options.startFresh === true,
        ...(options.startFreshHint ? { startFreshHint: options.startFreshHint } : {}),
      });
      const file = path.join(options.dataDir, LEDGER_FILE);
      const ledgerDb = openLedgerDatabase(file);
      db = ledgerDb;
      try {
        const projects = new ProjectStore(ledgerDb);
        return {
          folder,
          db: ledgerDb,
          // The keys in use are scrubbed from every ledger row (a request can quote one).
          ledger: new SpendLedger(ledgerDb, { secrets: () => keysInUse.list() }),
          cache: new ResponseCache(ledgerDb),
          settings: new SettingsStore(ledgerDb),
          projects,
          budgets: new BudgetPolicy(ledgerDb, projects),
          estimator: new CostEstimator(ledgerDb),
        };
      } catch (error) {
        // Its tables could not be brought up to date (e.g. written by a newer Plat): name the file.
        throw new DataFolderProblem(`Plat could not open ${file}: ${(error as Error).message}. The file was left as it is.`, {
          keptAside: [],
          startFreshHelps: false,
        });
      }
    } catch (error) {
      (db as DatabaseSync | null)?.close();
      lock.release();
      throw error;
    }
  })();
  const { folder, ledger, cache, settings, projects, budgets, estimator } = opened;
  const assignments = new AssignmentService({
    db: opened.db,
    projects,
    estimator,
    appVersion: options.appVersion,
    // The ledger's own total for the project: the same figure its cap is checked against.
    projectSpent: (projectId) => gateway.spend().byProject.find((entry) => entry.projectId === projectId)?.microUsd ?? 0,
    signer: options.identity ?? null,
  });
  const events = new EventHub();
  const sessionId = randomUUID();
  const vault = options.keyVault;
  const recheckDelays = options.recheckDelaysMs?.length ? options.recheckDelaysMs : RECHECK_DELAYS_MS;

  let localService: RunningLocalService | null = null;
  let launchProblem: string | null = null;
  const storedAtStart = readStoredConnection(settings.get(CONNECTION_SETTING));
  let stored: StoredConnection = storedAtStart.stored;
  /** Why Plat is on the local sample although a live service was saved; cleared when the person chooses again. */
  let fallbackNote: string | null = storedAtStart.problem
    ? `Plat is using the local sample because ${storedAtStart.problem} Choose the live service again in Settings.`
    : null;
  let active: ActiveService | null = null;
  let connection: ServiceConnection = {
    mode: stored.mode,
    baseUrl: stored.mode === 'live' ? stored.baseUrl : '',
    label: stored.mode === 'live' ? liveLabel(stored.baseUrl) : 'Local sample service',
    state: 'starting',
    detail: fallbackNote ?? (stored.mode === 'live' ? null : 'Starting the embedded service…'),
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
      secrets: () => keysInUse.list(),
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

  // ---------------------------------------------------------------------------------------------
  // Connection state: what was last checked, never assumed. Every activation (start, switch, key
  // change) makes one free catalog call through the gateway (so the ledger records the balance);
  // later calls keep the state current; while unreachable, a free probe re-checks with backoff.

  /** Bumped on every activation and on close: answers to an older check or call are not applied. */
  let generation = 0;
  let recheckTimer: ReturnType<typeof setTimeout> | null = null;
  let recheckAttempt = 0;
  let closed = false;

  /** The fields that say which service, for the current stored connection. */
  const which = (): Pick<ServiceConnection, 'mode' | 'baseUrl' | 'label'> =>
    stored.mode === 'live'
      ? { mode: 'live', baseUrl: stored.baseUrl, label: liveLabel(stored.baseUrl) }
      : { mode: 'local-sample', baseUrl: localService?.url ?? '', label: 'Local sample service' };

  const publish = (state: ServiceConnection['state'], detail: string | null, checked: boolean): void => {
    const checkedAt = checked ? new Date().toISOString() : state === 'checking' ? connection.checkedAt : null;
    setConnection({ ...which(), state, detail: stored.mode === 'local-sample' && fallbackNote ? [fallbackNote, detail].filter(Boolean).join(' ') : detail, checkedAt });
  };

  const cancelRecheck = (): void => {
    if (recheckTimer) clearTimeout(recheckTimer);
    recheckTimer = null;
  };

  const markReady = (detail: string | null = null): void => {
    cancelRecheck();
    recheckAttempt = 0;
    publish('ready', detail, true);
  };

  /** No answer: say what, and that Plat will try again; a free probe re-checks after a bounded backoff. */
  const markUnreachable = (message: string): void => {
    const delay = recheckDelays[Math.min(recheckAttempt, recheckDelays.length - 1)] ?? 60_000;
    publish('unreachable', `${what(message)}. Plat will check again in ${Math.max(1, Math.round(delay / 1000))} s.`, true);
    if (recheckTimer || closed) return;
    const scheduledFor = generation;
    recheckTimer = setTimeout(() => {
      recheckTimer = null;
      recheckAttempt += 1;
      void recheck(scheduledFor);
    }, delay);
    recheckTimer.unref?.();
  };

  const markRefused = (code: string, message: string): void => {
    cancelRecheck();
    const detail =
      code === 'unauthorized'
        ? 'The service refused the API key (missing, wrong or revoked). Update it in Settings › API key.'
        : code === 'account_suspended'
          ? 'The service account is suspended. Contact the service provider to restore it.'
          : message;
    publish('failed', detail, true);
  };

  /**
   * The answer to a service call or a check, applied to the state. `isCheck`: the call was made to
   * prove the connection, so any other refusal (e.g. 404 for the catalog: not the records service) fails it.
   */
  const observe = (outcome: { ok: true } | { ok: false; error: unknown }, isCheck: boolean): void => {
    if (outcome.ok) {
      if (connection.state !== 'ready' || isCheck) markReady();
      else connection = { ...connection, checkedAt: new Date().toISOString() };
      return;
    }
    const failure = failureOf(outcome.error);
    if (UNREACHABLE_CODES.has(failure.code)) markUnreachable(failure.message);
    else if (REFUSED_CODES.has(failure.code)) markRefused(failure.code, failure.message);
    else if (isCheck && failure.code === 'key_not_configured') markRefused(failure.code, 'No API key yet — add one in Settings.');
    // Answered, and the key was accepted: out of credit or paced is still a working connection.
    else if (isCheck && (failure.code === 'payment_required' || failure.code === 'rate_limited')) markReady(failure.message);
    else if (isCheck) markRefused(failure.code, `The service at ${which().label.replace(/^Live service · /, '')} did not answer as the Property Records Service does: ${failure.message}`);
  };

  /** One free catalog call through the gateway: the state follows its answer, the ledger its balance. */
  const checkConnection = async (): Promise<ConnectionCheck> => {
    const checking = generation;
    if (!active || closed) return { ok: false, message: connection.detail ?? 'The service is not connected.' };
    if (connection.state !== 'checking') publish('checking', null, false);
    try {
      const answer = await gateway.call({ operation: 'v4.catalog', parts: { query: {} }, refresh: true });
      if (checking === generation) observe({ ok: true }, true);
      return { ok: true, balanceMicroUsd: answer.billing.balanceMicroUsd };
    } catch (error) {
      if (checking === generation) observe({ ok: false, error }, true);
      return { ok: false, message: failureOf(error).message };
    }
  };

  /**
   * While unreachable: a free probe straight to the client (a failed probe is not a call anyone
   * asked for, so it leaves no ledger row); once it is answered, the full check records the balance.
   */
  const recheck = async (scheduledFor: number): Promise<void> => {
    const service = active;
    if (scheduledFor !== generation || !service || closed) return;
    try {
      await service.client.call('v4.catalog', {}, { idempotencyKey: null });
    } catch (error) {
      if (scheduledFor === generation && !closed) observe({ ok: false, error }, false);
      if (connection.state === 'unreachable' && !recheckTimer && scheduledFor === generation) markUnreachable(failureOf(error).message);
      return;
    }
    if (scheduledFor === generation) await checkConnection();
  };

  /**
   * Points calls at the stored connection and says so; the caller then runs checkConnection() when
   * there is something to check. When the account may have changed (another service, a new key),
   * the balance baseline restarts: the next balance belongs to another account. At start it is
   * kept, so charges lost in a crash are still measured against the balance before them.
   */
  const activate = (options: { accountChanged: boolean }): ServiceConnection => {
    generation += 1;
    cancelRecheck();
    recheckAttempt = 0;
    // Another service or key: nothing about it has been checked yet.
    connection = { ...connection, checkedAt: null };
    if (options.accountChanged) ledger.resetBalanceBaseline();
    if (stored.mode === 'live') {
      active = { client: makeClient(stored.baseUrl, () => vault.getKey()), connectionId: `live:${new URL(stored.baseUrl).origin}` };
      if (!vault.status().configured) publish('failed', 'No API key yet — add one in Settings.', false);
      else publish('checking', null, false);
      return connection;
    }
    if (!localService) {
      active = null;
      publish('failed', launchProblem ?? 'The embedded service is not running.', false);
      return connection;
    }
    const service = localService;
    active = { client: makeClient(service.url, () => service.keys.active), connectionId: 'local-sample' };
    publish('checking', null, false);
    return connection;
  };

  const gateway = new ServiceGateway({
    ledger,
    cache,
    budgets,
    estimator,
    projects,
    events,
    sessionId,
    commitTogether: (work) => inTransaction(opened.db, work),
    activeService: () => {
      if (!active) throw new PlatFailure('service_unavailable', connection.detail ?? 'The service is not connected yet.');
      if (stored.mode === 'live' && !vault.status().configured) throw new PlatFailure('key_not_configured');
      return active;
    },
  });

  /** A service call the person asked for; its answer (or the lack of one) keeps the connection state current. */
  const observedCall = async (call: GatewayCall): Promise<GatewayAnswer> => {
    const calling = generation;
    // No service to call: the gateway refuses without asking anyone, which says nothing new.
    const reachesService = active !== null;
    // The file the call was asked for (named by the person, else the active assignment) and the
    // service of the moment it was asked, as the gateway books it.
    const projectId = gateway.payerOf(call);
    const connectionId = active?.connectionId ?? null;
    try {
      const answer = await gateway.call(call);
      // A cached answer was not asked of the service, so it proves nothing about it.
      if (reachesService && calling === generation && !answer.billing.cacheHit) observe({ ok: true }, false);
      // Everything used while an assignment is active is kept with it, cache hits included.
      if (connectionId !== null) {
        assignments.attach({ projectId, connectionId, operation: call.operation, parts: call.parts, envelope: answer.envelope, billing: answer.billing });
      }
      return answer;
    } catch (error) {
      if (reachesService && calling === generation) observe({ ok: false, error }, false);
      throw error;
    }
  };

  /** Whether the active service has something to check: a started embedded service, or a live one with a key. */
  const checkable = () => active !== null && connection.state === 'checking';

  const ready = options
    .launchLocalService({ stateDbPath: path.join(options.dataDir, SERVICE_STATE_FILE) })
    .then((service) => {
      localService = service;
    })
    .catch((error: unknown) => {
      launchProblem = `The embedded service did not start: ${error instanceof Error ? error.message : String(error)}`;
    })
    .then(async () => {
      // A new local-service.db is a new sample account: its balance is not the one the ledger last saw.
      const freshSampleAccount = folder.serviceStateFresh && stored.mode === 'local-sample';
      activate({ accountChanged: freshSampleAccount });
      // Calls whose answers were lost before the last exit are replayed free now, before new spending.
      // Not to a new sample account: it has no record of their keys and would charge them again.
      if (active && !freshSampleAccount) await gateway.recoverPending().catch(() => undefined);
      if (checkable()) await checkConnection();
    })
    .catch(() => undefined);

  const connectionControl: ConnectionControl = {
    ready,
    current: () => connection,
    stored: () => stored,
    choose: (next) => {
      settings.set(CONNECTION_SETTING, next);
      stored = next;
      fallbackNote = null;
      const switched = activate({ accountChanged: true });
      if (checkable()) void checkConnection();
      return switched;
    },
    keyChanged: ({ check }) => {
      if (stored.mode !== 'live') return;
      activate({ accountChanged: true });
      if (check && checkable()) void checkConnection();
    },
    check: checkConnection,
  };

  const identity = options.identity ?? null;
  const certificateFingerprint = (): string | null => {
    try {
      return identity?.fingerprint() ?? null;
    } catch {
      // An identity that cannot be made or saved must not take the report view down; exporting says why.
      return null;
    }
  };
  const reportSources = { assignments, gateway, connectionId: () => active?.connectionId ?? null, certificateFingerprint };
  const documentFor = subjectReportBuilder(reportSources);
  const reportPdf = new ReportPdfService({
    printer: options.printer ?? (() => null),
    documentFor,
    recheckPrice: recheckPricer(reportSources),
    appVersion: options.appVersion,
    signer: identity,
  });

  const handlers: IpcHandlers = {
    ...connectionHandlers({ connection: connectionControl, appInfo: { appName: 'Plat', appVersion: options.appVersion, runtime: options.runtime } }),
    ...serviceCallHandlers({ ready, call: observedCall, gateway }),
    ...spendHandlers({ ledger, gateway }),
    ...projectHandlers({ projects, assignments, connectionId: () => active?.connectionId ?? null }),
    ...recheckHandlers({ ready, projects, assignments, call: observedCall }),
    ...comparablesHandlers({ assignments }),
    ...graphHandlers({ assignments }),
    ...budgetHandlers({ budgets }),
    ...cacheHandlers({ cache }),
    ...keyHandlers({ vault, connection: connectionControl }),
    ...reportHandlers({ documentFor, pdf: reportPdf }),
  };

  return {
    dispatch: createIpcDispatcher(handlers, options.isTrustedSender),
    events,
    ready,
    connection: () => connection,
    notices: folder.notices,
    recordAddress: (url) => lock.recordAddress(url),
    close: async () => {
      closed = true;
      generation += 1;
      cancelRecheck();
      await ready;
      gateway.dispose();
      try {
        await localService?.stop();
        localService = null;
        opened.db.close();
      } finally {
        lock.release();
      }
    },
  };
}
