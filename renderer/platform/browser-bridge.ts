// In the browser host there is no preload, so the page builds the same `window.plat` the preload
// gives Electron: one named function per contract operation, one `on<Event>` per event, nothing else.
// Calls and events travel on one WebSocket to the host (shared/bridge-protocol.ts), opened with the
// per-launch token the host put in the URL fragment.
import { BRIDGE_PATH, bridgeProtocols, createBridgeClient, type BridgeSocket } from '../../shared/bridge-protocol.ts';
import type { PlatApi } from '../../shared/ipc.ts';
import { eventListenerName, ipcEventNames, ipcOperationNames } from '../../shared/ipc-names.ts';
import type { HostLink, HostLinkSource } from './host-link.ts';

const TOKEN_KEY = 'plat.hostToken';

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

export interface BrowserBridge extends HostLinkSource {
  api: PlatApi;
}

export interface BrowserBridgeDeps {
  openSocket?: (url: string, protocols: string[]) => BridgeSocket;
  /** Whether the host serves its page at all (a refused socket then means a stale token). */
  hostAnswers?: () => Promise<boolean>;
}

export function createBrowserBridge(token: string | null, location: Location = window.location, deps: BrowserBridgeDeps = {}): BrowserBridge {
  if (token) {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${BRIDGE_PATH}`;
    const openSocket = deps.openSocket ?? ((address, protocols) => new WebSocket(address, protocols));
    const hostAnswers =
      deps.hostAnswers ??
      (() =>
        fetch(`${location.protocol}//${location.host}/`, { method: 'HEAD', cache: 'no-store' }).then(
          (response) => response.ok,
          () => false,
        ));
    const client = createBridgeClient(() => openSocket(url, bridgeProtocols(token)), { hostAnswers });
    return { api: client.api, link: client.link, onLinkChange: client.onLinkChange };
  }
  // Without a token the host would refuse the socket; say why instead of failing as "not answering".
  const refused = async () => ({
    ok: false as const,
    error: { code: 'forbidden_sender', message: 'This page was opened without its launch token — open the address Plat printed', retryable: false },
  });
  const api: Record<string, unknown> = {};
  for (const operation of ipcOperationNames) api[operation] = refused;
  for (const event of ipcEventNames) api[eventListenerName(event)] = () => () => undefined;
  const link: HostLink = { state: 'no-token', opens: 0, retryAt: null };
  return { api: Object.freeze(api) as PlatApi, link: () => link, onLinkChange: () => () => undefined };
}
