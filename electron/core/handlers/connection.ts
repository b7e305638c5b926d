// Which service Plat talks to, and what was last checked about it.
import type { AppInfo, ServiceConnection } from '../../../shared/ipc.ts';
import { checkServiceBaseUrl } from '../../../shared/connection-url.ts';
import type { IpcHandlers } from '../ipc-dispatch.ts';
import { PlatFailure } from '../failure.ts';

/** The connection setting as stored (a live base URL is kept normalised, with its http:// consent). */
export type StoredConnection = { mode: 'local-sample' } | { mode: 'live'; baseUrl: string; allowInsecure?: true };

export type ConnectionCheck = { ok: true; balanceMicroUsd: number | null } | { ok: false; message: string };

/** The core's connection state machine, as the handlers use it (app-core owns it). */
export interface ConnectionControl {
  /** Resolves once the embedded service has started (or failed to) and the first check has an answer. */
  ready: Promise<void>;
  current(): ServiceConnection;
  stored(): StoredConnection;
  /** Saves `next`, points calls at it and checks it in the background; answers with the state now ("checking"). */
  choose(next: StoredConnection): ServiceConnection;
  /** The API key changed: a live connection is another account now, checked again when `check` (and there is a key). */
  keyChanged(options: { check: boolean }): void;
  /** One free catalog call through the gateway: the state follows its answer, the ledger its balance. */
  check(): Promise<ConnectionCheck>;
}

export function connectionHandlers(deps: {
  connection: ConnectionControl;
  appInfo: Omit<AppInfo, 'service'>;
}): Pick<IpcHandlers, 'getAppInfo' | 'setConnection'> {
  const { connection } = deps;
  return {
    getAppInfo: async () => ({ ...deps.appInfo, service: connection.current() }),
    setConnection: async (request) => {
      await connection.ready;
      // The contract has checked the address already; this is the same rule, so nothing unusable is
      // ever saved (a saved setting is read at every start).
      let next: StoredConnection = { mode: 'local-sample' };
      if (request.mode === 'live') {
        const check = checkServiceBaseUrl(request.baseUrl, { allowInsecure: request.allowInsecure });
        if (!check.ok) throw new PlatFailure('invalid_payload', check.problem);
        next = { mode: 'live', baseUrl: check.baseUrl, ...(request.allowInsecure ? { allowInsecure: true as const } : {}) };
      }
      // The answer says "checking"; the check's result follows as a serviceConnectionChanged event.
      return connection.choose(next);
    },
  };
}
