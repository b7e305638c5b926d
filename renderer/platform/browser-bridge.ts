// In the browser host there is no preload, so the page builds the same `window.plat` the preload
// gives Electron: one named function per contract operation, one `on<Event>` per event, nothing else.
// Each call is a same-origin POST carrying the per-launch token the host put in the URL fragment.
import {
  eventListenerName,
  ipcEventNames,
  ipcOperationNames,
  type IpcEventName,
  type IpcResult,
  type PlatApi,
} from '../../shared/ipc.ts';

const TOKEN_KEY = 'plat.hostToken';
const TOKEN_HEADER = 'X-Plat-Token';

/** Takes the token from `#token=…` once (then removes it from the address bar); reloads reuse it. */
export function takeHostToken(location: Location, storage: Storage, history: History): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]{16,128})/.exec(location.hash);
  if (match?.[1]) {
    storage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', location.pathname + location.search);
    return match[1];
  }
  return storage.getItem(TOKEN_KEY);
}

type Listener = (payload: unknown) => void;

export function createBrowserBridge(token: string | null): PlatApi {
  const listeners = new Map<IpcEventName, Set<Listener>>(ipcEventNames.map((name) => [name, new Set<Listener>()]));
  let streaming = false;

  const failure = (code: string, message: string, retryable: boolean): IpcResult<never> => ({
    ok: false,
    error: { code, message, retryable },
  });

  const call = async (operation: string, request: unknown): Promise<IpcResult<unknown>> => {
    if (!token) return failure('forbidden_sender', 'This page was opened without its launch token. Open the address Plat printed.', false);
    let response: Response;
    try {
      response = await fetch(`/bridge/op/${operation}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: token },
        body: JSON.stringify(request ?? {}),
      });
    } catch {
      return failure('network_error', 'Plat is not answering. Is it still running?', true);
    }
    try {
      return (await response.json()) as IpcResult<unknown>;
    } catch {
      return failure('malformed_response', 'Plat answered with something that is not a result.', false);
    }
  };

  // One event stream for the page, opened on first subscription and reopened if it drops.
  const openStream = async (): Promise<void> => {
    if (streaming || !token) return;
    streaming = true;
    try {
      const response = await fetch('/bridge/events', { method: 'POST', headers: { [TOKEN_HEADER]: token } });
      const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = '';
      while (reader) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          const message = JSON.parse(line) as { event: string; payload?: unknown };
          for (const listener of listeners.get(message.event as IpcEventName) ?? []) listener(message.payload);
        }
      }
    } catch {
      // The host went away or the page is unloading; the retry below picks it up if it comes back.
    } finally {
      streaming = false;
    }
    setTimeout(() => void openStream(), 2000);
  };

  const api: Record<string, unknown> = {};
  for (const operation of ipcOperationNames) {
    api[operation] = (request: unknown) => call(operation, request);
  }
  for (const event of ipcEventNames) {
    api[eventListenerName(event)] = (listener: Listener) => {
      listeners.get(event)?.add(listener);
      void openStream();
      return () => listeners.get(event)?.delete(listener);
    };
  }
  return Object.freeze(api) as PlatApi;
}
