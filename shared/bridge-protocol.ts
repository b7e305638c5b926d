// The browser host's bridge: what Electron's IPC is to a window, one WebSocket is to a page. It carries
// the page's IPC calls, their results and the events the core pushes, on a socket opened once.
// A WebSocket rather than a POST per call: measured here, a round trip through the host took 0.09 ms
// over an open socket against 0.62 ms as an HTTP request, and a proxied service call pays it on
// every call.
//
// The handshake proves the page, before any message: same Host (no DNS rebinding), same-origin
// Origin (browsers always send it on a WebSocket), and the per-launch token offered as a subprotocol
// (a page cannot set headers on a WebSocket; the Sec-WebSocket-Protocol value is the one it can).
//
// Messages are JSON text. Page → host: `{id, op, payload}`. Host → page: `{id, result}` for a call
// (the same `{ok, value} | {ok:false, error}` result Electron's handlers return) or `{event, payload}`.
// The client below is written against the standard WebSocket interface only, so the renderer and the
// Node tools (tests, benchmarks) share it.
import { z } from 'zod';
import type { IpcEventName, IpcResult, PlatApi } from './ipc.ts';
import { eventListenerName, ipcEventNames, ipcOperationNames } from './ipc-names.ts';

export const BRIDGE_PATH = '/bridge';
/** The subprotocol the host speaks; the page offers it together with its token. */
export const BRIDGE_PROTOCOL = 'plat-bridge.v1';
const TOKEN_PROTOCOL_PREFIX = 'plat-token.';
/** Largest message either side accepts (a service answer is capped well below this). */
export const BRIDGE_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** What the page offers in the handshake: the protocol, and its token in a form a subprotocol allows. */
export function bridgeProtocols(token: string): string[] {
  return [BRIDGE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`];
}

/** The token a page offered in its Sec-WebSocket-Protocol header, if it offered the bridge protocol. */
export function tokenFromProtocols(header: string | undefined): string | null {
  const offered = (header ?? '').split(',').map((value) => value.trim());
  if (!offered.includes(BRIDGE_PROTOCOL)) return null;
  const token = offered.find((value) => value.startsWith(TOKEN_PROTOCOL_PREFIX));
  return token ? token.slice(TOKEN_PROTOCOL_PREFIX.length) : null;
}

export const BridgeCallSchema = z.strictObject({
  id: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
  op: z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/),
  payload: z.unknown(),
});
export type BridgeCall = z.infer<typeof BridgeCallSchema>;

export type BridgeMessage = { id: number; result: IpcResult<unknown> } | { event: string; payload: unknown };

/** The part of the standard WebSocket the client uses (the browser's, or Node's global one). */
export interface BridgeSocket {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

const OPEN = 1;

/**
 * How the link to Plat stands, so a page can say so instead of showing its last answers as live:
 * `connecting` (first open, or the one immediate reopen after a drop: a brief drop heals unseen),
 * `open`, `lost` (nothing answers: the host stopped; retried with bounded backoff while anything
 * listens, and on every call), `refused` (a host answers at this address but refuses this page's
 * token: Plat was restarted and the page belongs to the earlier launch; retrying cannot help).
 */
export interface BridgeLink {
  state: 'connecting' | 'open' | 'lost' | 'refused';
  /** How many times a socket has opened: a rise after the first means the page reconnected. */
  opens: number;
  /** When the next automatic attempt is due (ms since the epoch), while `lost` and listening. */
  retryAt: number | null;
}

export interface BridgeClientOptions {
  /** The wait before the first automatic retry after a failed open; it doubles after each failure. */
  reconnectDelayMs?: number;
  /** The longest wait between automatic retries. */
  maxReconnectDelayMs?: number;
  /**
   * Whether a host answers plain requests at the bridge's address. A socket that cannot open while a
   * host answers was refused by it (the standard WebSocket hides the 403), so the token is stale.
   */
  hostAnswers?: () => Promise<boolean>;
}

export interface BridgeClient {
  /** One named function per operation and one `on<Event>` per event: the shape of `window.plat`. */
  api: PlatApi;
  /** The link as it stands now. */
  link(): BridgeLink;
  /** Called with every change of the link; returns the unsubscribe function. */
  onLinkChange(listener: (link: BridgeLink) => void): () => void;
  /** Closes the socket; later calls open a new one. */
  close(): void;
}

const failure = (code: string, message: string, retryable: boolean): IpcResult<never> => ({ ok: false, error: { code, message, retryable } });

/** What a call answers when there is no link, by the link's state. */
const NO_LINK = {
  lost: () => failure('network_error', 'Plat’s host is not answering: it has stopped or is restarting — start Plat again; this page reconnects by itself', true),
  refused: () => failure('forbidden_sender', 'Plat was restarted, so this page belongs to its earlier launch — open the address Plat printed', false),
};

/**
 * A bridge client over sockets from `openSocket`. The socket opens on the first call or subscription;
 * if it drops, calls in flight fail as retryable (their outcome is unknown: a retry with the same
 * action id is replayed free). While anything is subscribed to events it reopens at once, then after
 * `reconnectDelayMs`, doubling up to `maxReconnectDelayMs`; a call also tries at once.
 */
export function createBridgeClient(openSocket: () => BridgeSocket, options: BridgeClientOptions = {}): BridgeClient {
  type Listener = (payload: unknown) => void;
  const listeners = new Map<IpcEventName, Set<Listener>>(ipcEventNames.map((name) => [name, new Set<Listener>()]));
  const linkListeners = new Set<(link: BridgeLink) => void>();
  const pending = new Map<number, (result: IpcResult<unknown>) => void>();
  const firstDelay = options.reconnectDelayMs ?? 1000;
  const maxDelay = Math.max(firstDelay, options.maxReconnectDelayMs ?? 10_000);
  let socket: BridgeSocket | null = null;
  let opening: Promise<BridgeSocket | null> | null = null;
  let nextId = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let nextDelay = firstDelay;
  let closedByUs = false;
  let link: BridgeLink = { state: 'connecting', opens: 0, retryAt: null };

  const subscribed = () => [...listeners.values()].some((set) => set.size > 0);

  const setLink = (next: BridgeLink) => {
    if (next.state === link.state && next.opens === link.opens && next.retryAt === link.retryAt) return;
    link = next;
    for (const listener of linkListeners) listener(link);
  };

  const scheduleRetry = (delayMs: number) => {
    if (closedByUs || !subscribed() || reconnectTimer !== null || link.state === 'refused') return;
    setLink({ ...link, retryAt: Date.now() + delayMs });
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void open();
    }, delayMs);
  };

  /** An open that failed: find out whether the host is gone or refuses this page, then plan the next try. */
  const afterFailedOpen = async (): Promise<void> => {
    if (closedByUs) return;
    const answers = options.hostAnswers ? await options.hostAnswers().catch(() => false) : false;
    if (socket !== null) return; // a call opened a socket meanwhile
    if (answers) {
      setLink({ state: 'refused', opens: link.opens, retryAt: null });
      return;
    }
    setLink({ state: 'lost', opens: link.opens, retryAt: null });
    const delay = nextDelay;
    nextDelay = Math.min(nextDelay * 2, maxDelay);
    scheduleRetry(delay);
  };

  const onMessage = (event: { data: unknown }) => {
    let message: Partial<{ id: unknown; result: IpcResult<unknown>; event: unknown; payload: unknown }>;
    try {
      message = JSON.parse(String(event.data)) as typeof message;
    } catch {
      return; // The host only sends JSON; anything else is not ours to act on.
    }
    if (typeof message.id === 'number') {
      const resolve = pending.get(message.id);
      pending.delete(message.id);
      resolve?.(message.result ?? failure('malformed_response', 'Plat answered with something that is not a result.', false));
    } else if (typeof message.event === 'string') {
      for (const listener of listeners.get(message.event as IpcEventName) ?? []) listener(message.payload);
    }
  };

  const open = (): Promise<BridgeSocket | null> => {
    if (socket?.readyState === OPEN) return Promise.resolve(socket);
    if (link.state === 'refused') return Promise.resolve(null);
    if (opening) return opening;
    closedByUs = false;
    if (reconnectTimer !== null) {
      clearTimeout(reconnectTimer);
      reconnectTimer = null;
    }
    opening = new Promise<BridgeSocket | null>((resolveOpening) => {
      // Cleared as it settles (not a turn later), so a drop right after an open can reopen at once.
      const resolve = (result: BridgeSocket | null) => {
        opening = null;
        resolveOpening(result);
      };
      let candidate: BridgeSocket;
      try {
        candidate = openSocket();
      } catch {
        void afterFailedOpen().then(() => resolve(null));
        return;
      }
      let settled = false;
      candidate.addEventListener('open', () => {
        settled = true;
        socket = candidate;
        nextDelay = firstDelay;
        setLink({ state: 'open', opens: link.opens + 1, retryAt: null });
        resolve(candidate);
      });
      candidate.addEventListener('message', onMessage);
      candidate.addEventListener('error', () => undefined);
      candidate.addEventListener('close', () => {
        if (!settled) {
          // Resolved once the link says why, so a waiting call can say it too.
          void afterFailedOpen().then(() => resolve(null));
          return;
        }
        if (socket === candidate) socket = null;
        const lost = [...pending.values()];
        pending.clear();
        for (const resolveCall of lost) {
          resolveCall(failure('network_error', 'Plat stopped answering before this finished. Try again; a repeated action is not charged twice.', true));
        }
        if (closedByUs) return;
        if (subscribed()) {
          setLink({ state: 'connecting', opens: link.opens, retryAt: null });
          void open();
        } else {
          setLink({ state: 'lost', opens: link.opens, retryAt: null });
        }
      });
    });
    return opening;
  };

  const call = async (op: string, payload: unknown): Promise<IpcResult<unknown>> => {
    const ready = await open();
    if (!ready) return link.state === 'refused' ? NO_LINK.refused() : NO_LINK.lost();
    const id = ++nextId;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      ready.send(JSON.stringify({ id, op, payload: payload ?? {} } satisfies BridgeCall));
    });
  };

  const api: Record<string, unknown> = {};
  for (const operation of ipcOperationNames) api[operation] = (request: unknown) => call(operation, request);
  for (const event of ipcEventNames) {
    api[eventListenerName(event)] = (listener: Listener) => {
      listeners.get(event)?.add(listener);
      void open();
      return () => listeners.get(event)?.delete(listener);
    };
  }
  return {
    api: Object.freeze(api) as PlatApi,
    link: () => link,
    onLinkChange(listener) {
      linkListeners.add(listener);
      return () => linkListeners.delete(listener);
    },
    close() {
      closedByUs = true;
      if (reconnectTimer !== null) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      socket?.close();
      socket = null;
    },
  };
}
