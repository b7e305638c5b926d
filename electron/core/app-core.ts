// Composes the runtime-neutral core: the service connection (the embedded sample service by default),
// the IPC handlers and the event hub. Electron's main.ts and the browser host both build one of these
// and differ only in the ports they plug in (how the local service process is started, key storage).
import type { AppInfo, ServiceConnection } from '../../shared/ipc.ts';
import { createIpcDispatcher, type IpcDispatch, type IpcHandlers, type IpcSender } from './ipc-dispatch.ts';
import { EventHub } from './events.ts';

/** The embedded service as a running process: where it listens and the demo keys it seeded. */
export interface RunningLocalService {
  url: string;
  keys: { active: string; revoked: string; suspended: string; exhausted: string };
  stop(): Promise<void>;
}

/** Starts the embedded service in its own process (Electron utilityProcess, or a Node child process). */
export type LocalServiceLauncher = () => Promise<RunningLocalService>;

export interface AppCoreOptions {
  runtime: AppInfo['runtime'];
  appVersion: string;
  launchLocalService: LocalServiceLauncher;
  /** Who may call: Electron checks the frame, the browser host has already checked its token. */
  isTrustedSender: (sender: IpcSender) => boolean;
}

export interface AppCore {
  dispatch: IpcDispatch;
  events: EventHub;
  /** Resolves once the service connection is ready or has failed (the app shows either). */
  ready: Promise<void>;
  connection(): ServiceConnection;
  close(): Promise<void>;
}

export function createAppCore(options: AppCoreOptions): AppCore {
  const events = new EventHub();
  let connection: ServiceConnection = {
    mode: 'local-sample',
    baseUrl: '',
    label: 'Local sample service',
    state: 'starting',
    detail: 'Starting the embedded service…',
  };
  let localService: RunningLocalService | null = null;

  const setConnection = (next: ServiceConnection): void => {
    connection = next;
    events.emit('serviceConnectionChanged', next);
  };

  const ready = options
    .launchLocalService()
    .then((service) => {
      localService = service;
      setConnection({ ...connection, baseUrl: service.url, state: 'ready', detail: null });
    })
    .catch((error: unknown) => {
      setConnection({
        ...connection,
        state: 'failed',
        detail: `The embedded service did not start: ${error instanceof Error ? error.message : String(error)}`,
      });
    });

  const handlers: IpcHandlers = {
    getAppInfo: async () => ({
      appName: 'Plat',
      appVersion: options.appVersion,
      runtime: options.runtime,
      service: connection,
    }),
  };

  return {
    dispatch: createIpcDispatcher(handlers, options.isTrustedSender),
    events,
    ready,
    connection: () => connection,
    close: async () => {
      await ready;
      await localService?.stop();
      localService = null;
    },
  };
}
