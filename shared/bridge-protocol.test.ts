import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_PROTOCOL, bridgeProtocols, createBridgeClient, tokenFromProtocols } from './bridge-protocol.ts';
import { FakeBridgeSocket } from './fake-bridge-socket.ts';

function harness(options: { reconnectDelayMs?: number } = {}) {
  const sockets: FakeBridgeSocket[] = [];
  const client = createBridgeClient(() => {
    const socket = new FakeBridgeSocket();
    sockets.push(socket);
    return socket;
  }, options);
  return { client, sockets, latest: () => sockets.at(-1)! };
}

describe('the bridge handshake', () => {
  it('carries the token as a subprotocol beside the bridge protocol, and reads it back', () => {
    const offered = bridgeProtocols('abc_DEF-123');
    expect(offered[0]).toBe(BRIDGE_PROTOCOL);
    expect(tokenFromProtocols(offered.join(', '))).toBe('abc_DEF-123');
    expect(tokenFromProtocols('plat-token.abc')).toBeNull(); // without the bridge protocol
    expect(tokenFromProtocols(undefined)).toBeNull();
  });
});

describe('the bridge client', () => {
  it('sends each call once the socket is open and matches answers by id, in any order', async () => {
    const h = harness();
    const first = h.client.api.getAppInfo({});
    const second = h.client.api.getSpend({});
    h.latest().open();
    await vi.waitFor(() => expect(h.latest().sent).toHaveLength(2));
    const [a, b] = h.latest().sent;
    expect(a).toMatchObject({ op: 'getAppInfo', payload: {} });
    h.latest().receive({ id: b!.id, result: { ok: true, value: 'spend' } });
    h.latest().receive({ id: a!.id, result: { ok: true, value: 'info' } });
    expect(await first).toEqual({ ok: true, value: 'info' });
    expect(await second).toEqual({ ok: true, value: 'spend' });
    expect(h.sockets).toHaveLength(1);
  });

  it('fails calls in flight as retryable when the socket drops, and opens a new one for the next call', async () => {
    const h = harness();
    const pending = h.client.api.getAppInfo({});
    h.latest().open();
    await vi.waitFor(() => expect(h.latest().sent).toHaveLength(1));
    h.latest().drop();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'network_error', retryable: true } });
    const next = h.client.api.getAppInfo({});
    expect(h.sockets).toHaveLength(2);
    h.latest().open();
    await vi.waitFor(() => expect(h.latest().sent).toHaveLength(1));
    h.latest().receive({ id: h.latest().sent[0]!.id, result: { ok: true, value: 1 } });
    expect(await next).toEqual({ ok: true, value: 1 });
  });

  it('says the host is not answering when the socket never opens', async () => {
    const h = harness();
    const call = h.client.api.getAppInfo({});
    h.latest().drop();
    expect(await call).toMatchObject({ ok: false, error: { code: 'network_error' } });
  });

  it('delivers pushed events to their listeners and reconnects while anything listens', async () => {
    vi.useFakeTimers();
    try {
      const h = harness({ reconnectDelayMs: 1000 });
      const seen: unknown[] = [];
      const stop = h.client.api.onSpendUpdated((payload) => seen.push(payload));
      h.latest().open();
      h.latest().receive({ event: 'spendUpdated', payload: { sessionMicroUsd: 100_000 } });
      h.latest().receive({ event: 'serviceConnectionChanged', payload: {} });
      expect(seen).toEqual([{ sessionMicroUsd: 100_000 }]);
      h.latest().drop();
      await vi.advanceTimersByTimeAsync(1000);
      expect(h.sockets).toHaveLength(2);
      stop();
      h.latest().drop();
      await vi.advanceTimersByTimeAsync(5000);
      expect(h.sockets).toHaveLength(2); // nobody listens: no reconnecting
    } finally {
      vi.useRealTimers();
    }
  });

  it('exposes exactly the contract: one function per operation and event, frozen', () => {
    const { client } = harness();
    expect(Object.isFrozen(client.api)).toBe(true);
    expect(typeof client.api.getAppInfo).toBe('function');
    expect(typeof client.api.onCallProgress).toBe('function');
    expect(Object.keys(client.api)).not.toContain('invoke');
  });
});
