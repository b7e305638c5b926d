// The one door into the core: sender check, then payload check, then the handler, then a check of our
// own response. Electron's ipcMain and the browser host's bridge both come through here, so the two
// runtimes cannot drift apart in what they accept.
import type { z } from 'zod';
import { ipcOperations, type IpcOperationName, type IpcResponse, type IpcResult } from '../../shared/ipc.ts';
import { PlatFailure, toIpcError } from './failure.ts';
import { jsonDataProblem } from '../../shared/json-data.ts';

/**
 * What a handler knows about the call beyond its payload. `signal` fires when the page that asked has
 * gone (its window closed or reloaded, its bridge socket closed): work still queued for it is dropped.
 */
export interface CallContext {
  signal: AbortSignal;
}

export type IpcHandlers = {
  [N in IpcOperationName]: (request: z.output<(typeof ipcOperations)[N]['request']>, context: CallContext) => Promise<IpcResponse<N>>;
};

/** Who is calling: an Electron frame (with its URL) or the browser host's authenticated page. */
export interface IpcSender {
  runtime: 'electron' | 'browser-host';
  url: string;
  isMainFrame: boolean;
}

export type IpcDispatch = (operation: string, payload: unknown, sender: IpcSender, context?: CallContext) => Promise<IpcResult<unknown>>;

/** For calls with no page behind them (tools, tests): a signal that never fires. */
const NO_PAGE: CallContext = { signal: new AbortController().signal };

const isOperation = (name: string): name is IpcOperationName => Object.hasOwn(ipcOperations, name);

export function createIpcDispatcher(handlers: IpcHandlers, isTrustedSender: (sender: IpcSender) => boolean): IpcDispatch {
  return async (operation, payload, sender, context = NO_PAGE) => {
    try {
      if (!isTrustedSender(sender)) throw new PlatFailure('forbidden_sender');
      if (!isOperation(operation)) throw new PlatFailure('invalid_payload', `There is no operation named "${String(operation).slice(0, 60)}".`);
      const contract = ipcOperations[operation];
      // JSON data only, in both runtimes (Electron's structured clone carries far more): what passes
      // here cannot break the recursive, URL-encoding and JSON steps behind the schemas.
      const problem = jsonDataProblem(payload ?? {});
      if (problem !== null) throw new PlatFailure('invalid_payload', `The request for ${operation} was rejected: ${problem} ($ is the request).`);
      const parsed = contract.request.safeParse(payload ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
        throw new PlatFailure('invalid_payload', `The request for ${operation} was rejected${where}: ${issue?.message ?? 'invalid'}.`);
      }
      const handler = handlers[operation] as (request: unknown, context: CallContext) => Promise<unknown>;
      const value = await handler(parsed.data, context);
      // Our own answer is checked too: a response that breaks the contract is a bug, not data to show.
      const checked = contract.response.safeParse(value);
      if (!checked.success) throw new PlatFailure('internal', `The app produced an invalid ${operation} response.`);
      return { ok: true, value: checked.data };
    } catch (error) {
      return { ok: false, error: toIpcError(error) };
    }
  };
}
