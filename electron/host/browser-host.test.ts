import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request as httpRequest } from 'node:http';
import { startBrowserHost, type BrowserHost } from './browser-host.ts';
import { EventHub } from '../core/events.ts';
import type { IpcDispatch } from '../core/ipc-dispatch.ts';
import { BRIDGE_PATH, BRIDGE_PROTOCOL, bridgeProtocols } from '../../shared/bridge-protocol.ts';
import { connectBridge, openBridgeSocket } from './bridge-client.ts';

const calls: Array<{ operation: string; payload: unknown }> = [];
const dispatch: IpcDispatch = async (operation, payload) => {
  calls.push({ operation, payload });
  return { ok: true, value: { echoed: operation } };
};
const events = new EventHub();
let host: BrowserHost;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'plat-host-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Plat</title>');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(path.dirname(dir), 'secret.txt'), 'outside');
  host = await startBrowserHost({ dispatch, events, rendererDir: dir });
});
afterAll(() => host.close());

/** Raw HTTP so tests control Host and Origin exactly (fetch would not let us forge them). */
function raw(method: string, urlPath: string, headers: Record<string, string>, body?: string) {
  const { port } = new URL(host.origin);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: urlPath, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const hostHeader = () => new URL(host.origin).host;

describe('browser host', () => {
  it('listens on loopback with a long random token in the URL fragment', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/#token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(43);
  });

  it('serves the renderer with the CSP and security headers', async () => {
    const res = await raw('GET', '/', { Host: hostHeader() });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Plat</title>');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const js = await raw('GET', '/assets/app.js', { Host: hostHeader() });
    expect(js.headers['content-type']).toContain('text/javascript');
  });

  it('refuses paths that escape the renderer folder', async () => {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt']) {
      const res = await raw('GET', p, { Host: hostHeader() });
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain('outside');
    }
  });

  it('refuses another Host header (DNS rebinding)', async () => {
    const res = await raw('GET', '/', { Host: `evil.example:${new URL(host.origin).port}` });
    expect(res.status).toBe(421);
  });

  it('passes a call on the bridge socket to the dispatcher and answers it', async () => {
    const client = connectBridge(host);
    try {
      const result = await client.api.getAppInfo({ a: 1 } as never);
      expect(result).toEqual({ ok: true, value: { echoed: 'getAppInfo' } });
      expect(calls.at(-1)).toEqual({ operation: 'getAppInfo', payload: { a: 1 } });
    } finally {
      client.close();
    }
  });

  it('refuses the socket with no token, a wrong token, another origin or another Host, without dispatching', async () => {
    const before = calls.length;
    // A raw handshake, so the test sets Host, Origin and the offered protocols exactly.
    const handshake = (headers: Record<string, string>) =>
      new Promise<{ status: number }>((resolve, reject) => {
        const req = httpRequest({
          host: '127.0.0.1',
          port: new URL(host.origin).port,
          path: BRIDGE_PATH,
          headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
        });
        req.on('upgrade', (res, socket) => {
          socket.destroy();
          resolve({ status: res.statusCode ?? 0 });
        });
        req.on('response', (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0 });
        });
        req.on('error', reject);
        req.end();
      });
    const good = { Host: hostHeader(), Origin: host.origin, 'Sec-WebSocket-Protocol': bridgeProtocols(host.token).join(', ') };
    expect((await handshake({ ...good, 'Sec-WebSocket-Protocol': BRIDGE_PROTOCOL })).status).toBe(403);
    expect((await handshake({ ...good, 'Sec-WebSocket-Protocol': bridgeProtocols('x'.repeat(43)).join(', ') })).status).toBe(403);
    expect((await handshake({ ...good, Origin: 'http://evil.example' })).status).toBe(403);
    const { Origin: _origin, ...noOrigin } = good;
    expect((await handshake(noOrigin)).status).toBe(403);
    expect((await handshake({ ...good, Host: `evil.example:${new URL(host.origin).port}` })).status).toBe(421);
    // Through a real client too: the wrong origin gets no socket, so the call fails as unanswered.
    const stranger = connectBridge(host, { origin: 'http://evil.example' });
    expect(await stranger.api.getAppInfo({})).toMatchObject({ ok: false, error: { code: 'network_error' } });
    stranger.close();
    expect(calls.length).toBe(before);
    // The handshake that passes all checks is switched to the bridge protocol.
    expect((await handshake(good)).status).toBe(101);
  });

  it('tells a plain HTTP request to the bridge that it is a WebSocket', async () => {
    const res = await raw('POST', BRIDGE_PATH, { Host: hostHeader(), Origin: host.origin, 'Content-Type': 'application/json' }, '{}');
    expect(res.status).toBe(426);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
  });

  it('closes a socket that sends something other than a bridge call', async () => {
    const socket = openBridgeSocket(host);
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)));
    socket.send('{not json');
    expect(await closed).toBe(1008);
  });

  it('pushes events to a connected page', async () => {
    const client = connectBridge(host);
    try {
      const received: unknown[] = [];
      client.api.onServiceConnectionChanged((payload) => received.push(payload));
      await client.api.getAppInfo({}); // the socket is open once a call has been answered
      events.emit('serviceConnectionChanged', { mode: 'local-sample', baseUrl: 'http://127.0.0.1:1', label: 'Local sample service', state: 'ready', detail: null, checkedAt: null });
      await expect.poll(() => received).toEqual([expect.objectContaining({ state: 'ready' })]);
    } finally {
      client.close();
    }
  });
});
