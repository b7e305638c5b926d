import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request as httpRequest } from 'node:http';
import { startBrowserHost, type BrowserHost } from './browser-host.ts';
import { EventHub } from '../core/events.ts';
import type { IpcDispatch } from '../core/ipc-dispatch.ts';

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
const bridgeHeaders = () => ({ Host: hostHeader(), Origin: host.origin, 'X-Plat-Token': host.token, 'Content-Type': 'application/json' });

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

  it('passes a bridge call with token and same origin to the dispatcher', async () => {
    const res = await raw('POST', '/bridge/op/getAppInfo', bridgeHeaders(), JSON.stringify({ a: 1 }));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, value: { echoed: 'getAppInfo' } });
    expect(calls.at(-1)).toEqual({ operation: 'getAppInfo', payload: { a: 1 } });
  });

  it('refuses bridge calls with no token, a wrong token, or another origin, without dispatching', async () => {
    const before = calls.length;
    const { 'X-Plat-Token': _token, ...noToken } = bridgeHeaders();
    expect((await raw('POST', '/bridge/op/getAppInfo', noToken, '{}')).status).toBe(403);
    expect((await raw('POST', '/bridge/op/getAppInfo', { ...bridgeHeaders(), 'X-Plat-Token': 'x'.repeat(43) }, '{}')).status).toBe(403);
    expect((await raw('POST', '/bridge/op/getAppInfo', { ...bridgeHeaders(), Origin: 'http://evil.example' }, '{}')).status).toBe(403);
    const { Origin: _origin, ...noOrigin } = bridgeHeaders();
    expect((await raw('POST', '/bridge/op/getAppInfo', noOrigin, '{}')).status).toBe(403);
    expect((await raw('GET', '/bridge/op/getAppInfo', bridgeHeaders())).status).toBe(405);
    expect(calls.length).toBe(before);
  });

  it('answers bad JSON with a clean error', async () => {
    const res = await raw('POST', '/bridge/op/getAppInfo', bridgeHeaders(), '{not json');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
  });

  it('streams pushed events to an authenticated page', async () => {
    const { port } = new URL(host.origin);
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/bridge/events', headers: bridgeHeaders() }, (res) => {
        res.on('data', (chunk: Buffer) => {
          lines.push(...chunk.toString().split('\n').filter(Boolean));
          if (lines.length === 1) {
            events.emit('serviceConnectionChanged', { mode: 'local-sample', baseUrl: 'http://127.0.0.1:1', label: 'Local sample service', state: 'ready', detail: null });
          }
          if (lines.length >= 2) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', (error) => (lines.length >= 2 ? resolve() : reject(error)));
      req.end();
    });
    expect(JSON.parse(lines[0] ?? '')).toEqual({ event: 'ready' });
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({ event: 'serviceConnectionChanged', payload: { state: 'ready' } });
  });
});
