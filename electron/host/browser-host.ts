// The browser host: the same renderer build and the same IPC handlers as Electron, served over HTTP on
// 127.0.0.1 only. Calls and events travel on one WebSocket per page (shared/bridge-protocol.ts). The
// page proves itself in the socket's handshake: the per-launch token (handed over in the URL fragment,
// which browsers never send to servers or Referers), a same-origin Origin and our own Host. The API
// key stays in this process: the bridge only carries IPC requests, results and events.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { BRIDGE_MAX_MESSAGE_BYTES, BRIDGE_PATH, BRIDGE_PROTOCOL, BridgeCallSchema, tokenFromProtocols, type BridgeMessage } from '../../shared/bridge-protocol.ts';
import type { IpcDispatch } from '../core/ipc-dispatch.ts';
import type { EventHub } from '../core/events.ts';
import { securityHeaders } from '../web/content-security.ts';
import { readStaticFile } from '../web/static-files.ts';

export interface BrowserHostOptions {
  dispatch: IpcDispatch;
  events: EventHub;
  /** Folder holding the renderer build (index.html and assets). */
  rendererDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** For tests: a fixed token instead of a random one. */
  token?: string;
}

export interface BrowserHost {
  /** The URL to open, with the token in its fragment. */
  url: string;
  origin: string;
  token: string;
  server: Server;
  close(): Promise<void>;
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  let origin = '';
  let hostHeader = '';
  const sender = () => ({ runtime: 'browser-host' as const, url: origin, isMainFrame: true });

  const tokenMatches = (presented: string | null): boolean => {
    if (!presented) return false;
    const bytes = Buffer.from(presented);
    return bytes.length === tokenBytes.length && timingSafeEqual(bytes, tokenBytes);
  };

  const refuse = (res: ServerResponse, status: number, code: string, message: string): void => {
    send(res, status, 'application/json; charset=utf-8', JSON.stringify({ ok: false, error: { code, message, retryable: false } }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // A page on another name that resolves to loopback (DNS rebinding) must not reach us.
    if (req.headers.host !== hostHeader) return refuse(res, 421, 'forbidden_sender', 'Wrong host.');
    const url = new URL(req.url ?? '/', origin);

    // The bridge is a WebSocket (see the upgrade handler below); a plain request gets told so.
    if (url.pathname === BRIDGE_PATH || url.pathname.startsWith(`${BRIDGE_PATH}/`)) {
      return refuse(res, 426, 'invalid_payload', 'The bridge is a WebSocket.');
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'invalid_payload', 'Method not allowed.');
    const file = await readStaticFile(options.rendererDir, url.pathname);
    if (!file) return send(res, 404, 'text/plain; charset=utf-8', 'Not found');
    res.writeHead(200, { ...securityHeaders, 'Content-Type': file.contentType, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  };

  const bridge = new WebSocketServer({
    noServer: true,
    maxPayload: BRIDGE_MAX_MESSAGE_BYTES,
    handleProtocols: (offered) => (offered.has(BRIDGE_PROTOCOL) ? BRIDGE_PROTOCOL : false),
  });

  /** Refuses a handshake before it becomes a socket: the page learns only the status. */
  const refuseUpgrade = (socket: Socket, status: number, reason: string): void => {
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  const serveBridge = (socket: WebSocket): void => {
    const send = (message: BridgeMessage) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    };
    const unsubscribe = options.events.subscribe((event, payload) => send({ event, payload }));
    // When the page goes, work still queued for it is dropped (nobody is left to read the answer).
    const page = new AbortController();
    socket.on('message', (data, isBinary) => {
      let call;
      try {
        call = BridgeCallSchema.parse(JSON.parse(isBinary ? '' : data.toString()));
      } catch {
        // Not a bridge call: the page's own client never sends one, so this is not the page.
        socket.close(1008, 'Not a bridge call');
        return;
      }
      void options.dispatch(call.op, call.payload, sender(), { signal: page.signal }).then(
        (result) => send({ id: call.id, result }),
        () => send({ id: call.id, result: { ok: false, error: { code: 'internal', message: 'The host failed to answer.', retryable: false } } }),
      );
    });
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      unsubscribe();
      page.abort();
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'internal', 'The host failed to answer.');
      else res.destroy();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // Same checks as a page request, then the page's proof: same origin and the launch token.
    if (req.headers.host !== hostHeader) return refuseUpgrade(socket, 421, 'Misdirected Request');
    if (new URL(req.url ?? '/', origin).pathname !== BRIDGE_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    if (req.headers.origin !== origin) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!tokenMatches(tokenFromProtocols(req.headers['sec-websocket-protocol']))) return refuseUpgrade(socket, 403, 'Forbidden');
    bridge.handleUpgrade(req, socket, head, serveBridge);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  hostHeader = `127.0.0.1:${port}`;

  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    server,
    close: async () => {
      for (const socket of bridge.clients) socket.terminate();
      bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { ...securityHeaders, 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}
