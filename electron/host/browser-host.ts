// The browser host: the same renderer build and the same IPC handlers as Electron, served over HTTP on
// 127.0.0.1 only. The page proves itself with a per-launch token (handed over in the URL fragment,
// which browsers never send to servers or Referers) and a same-origin Origin header on every bridge
// call. The API key stays in this process: the bridge only carries IPC requests and results.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { IpcDispatch } from '../core/ipc-dispatch.ts';
import type { EventHub } from '../core/events.ts';
import { securityHeaders } from './content-security.ts';
import { readStaticFile } from './static-files.ts';

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

export const BRIDGE_TOKEN_HEADER = 'x-plat-token';
const MAX_BRIDGE_BODY = 1024 * 1024;

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  let origin = '';
  let hostHeader = '';
  const streams = new Set<ServerResponse>();

  const tokenMatches = (presented: string | undefined): boolean => {
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

    if (url.pathname.startsWith('/bridge/')) {
      if (req.method !== 'POST') return refuse(res, 405, 'invalid_payload', 'Bridge calls are POST.');
      if (req.headers.origin !== origin) return refuse(res, 403, 'forbidden_sender', 'Requests from another origin are refused.');
      const presented = req.headers[BRIDGE_TOKEN_HEADER];
      if (!tokenMatches(typeof presented === 'string' ? presented : undefined))
        return refuse(res, 403, 'forbidden_sender', 'This page is not the one Plat opened (missing or wrong token).');

      if (url.pathname === '/bridge/events') return openEventStream(res);
      const match = /^\/bridge\/op\/([A-Za-z][A-Za-z0-9]{0,63})$/.exec(url.pathname);
      if (!match?.[1]) return refuse(res, 404, 'invalid_payload', 'No such bridge path.');
      let payload: unknown;
      try {
        payload = JSON.parse((await readBody(req, MAX_BRIDGE_BODY)) || '{}');
      } catch {
        return refuse(res, 400, 'invalid_payload', 'The request body is not JSON (or is too large).');
      }
      const result = await options.dispatch(match[1], payload, { runtime: 'browser-host', url: origin, isMainFrame: true });
      return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(result));
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'invalid_payload', 'Method not allowed.');
    const file = await readStaticFile(options.rendererDir, url.pathname);
    if (!file) return send(res, 404, 'text/plain; charset=utf-8', 'Not found');
    res.writeHead(200, { ...securityHeaders, 'Content-Type': file.contentType, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  };

  const openEventStream = (res: ServerResponse): void => {
    res.writeHead(200, { ...securityHeaders, 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
    res.write('{"event":"ready"}\n');
    streams.add(res);
    const unsubscribe = options.events.subscribe((event, payload) => {
      res.write(`${JSON.stringify({ event, payload })}\n`);
    });
    res.on('close', () => {
      unsubscribe();
      streams.delete(res);
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'internal', 'The host failed to answer.');
      else res.destroy();
    });
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
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { ...securityHeaders, 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
