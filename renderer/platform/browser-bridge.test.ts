// The page's bridge link through a host that stops, comes back, or is replaced by a new launch:
// the page must know which, retry with bounded backoff, and never call a dead host "connected".
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBridgeSocket } from '../../shared/fake-bridge-socket.ts';
import { createBrowserBridge, type BrowserBridge } from './browser-bridge.ts';
import type { HostLink } from './host-link.ts';

/** A host that is up (sockets open), down (they fail) or replaced (they fail, but the host answers HTTP). */
function harness() {
  let host: 'up' | 'down' | 'replaced' = 'up';
  const sockets: FakeBridgeSocket[] = [];
  const bridge = createBrowserBridge('t'.repeat(43), new URL('http://127.0.0.1:4100/') as unknown as Location, {
    openSocket: () => {
      const socket = new FakeBridgeSocket();
      sockets.push(socket);
      // The outcome arrives on a later turn, as a real socket's does.
      queueMicrotask(() => (host === 'up' ? socket.open() : socket.drop()));
      return socket;
    },
    hostAnswers: async () => host === 'replaced',
  });
  const states: HostLink['state'][] = [];
  bridge.onLinkChange((link) => states.push(link.state));
  return {
    bridge,
    sockets,
    states,
    setHost: (next: typeof host) => {
      host = next;
    },
  };
}

/** Subscribes as the page does (the status line listens for events), which keeps the link alive. */
const listen = (bridge: BrowserBridge) => bridge.api.onServiceConnectionChanged(() => undefined);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the page’s link to Plat’s host', () => {
  it('says the host has gone when it stops, retries with bounded backoff, and reconnects when it is back', async () => {
    const h = harness();
    listen(h.bridge);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.bridge.link()).toMatchObject({ state: 'open', opens: 1 });

    h.setHost('down');
    h.sockets.at(-1)!.drop();
    await vi.advanceTimersByTimeAsync(0);
    // One immediate reopen failed: the link is lost, and the next try is scheduled.
    expect(h.bridge.link().state).toBe('lost');
    expect(h.sockets).toHaveLength(2);
    const call = await h.bridge.api.getSpend({});
    expect(call).toMatchObject({ ok: false, error: { code: 'network_error', retryable: true } });
    expect(!call.ok && call.error.message).toContain('reconnects by itself');

    // Waits between automatic tries: 1 s, 2 s, 4 s, 8 s, then never more than 10 s.
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = h.sockets.length;
      const due = h.bridge.link().retryAt!;
      waits.push(due - Date.now());
      await vi.advanceTimersByTimeAsync(due - Date.now() - 1);
      expect(h.sockets).toHaveLength(before); // not before it is due
      await vi.advanceTimersByTimeAsync(1);
      expect(h.sockets).toHaveLength(before + 1);
      expect(h.bridge.link().state).toBe('lost');
    }
    // The call above tried at once and failed too, so the series had one more step by then.
    expect(waits).toEqual([2000, 4000, 8000, 10_000, 10_000, 10_000]);

    h.setHost('up');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.bridge.link()).toMatchObject({ state: 'open', opens: 2, retryAt: null });
    expect(h.states).not.toContain('refused');
  });

  it('reconnects silently after a brief drop: never reported lost', async () => {
    const h = harness();
    listen(h.bridge);
    await vi.advanceTimersByTimeAsync(0);
    h.sockets.at(-1)!.drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.bridge.link()).toMatchObject({ state: 'open', opens: 2 });
    expect(h.states).toEqual(['open', 'connecting', 'open']);
  });

  it('says Plat was restarted when a new launch answers at the address and refuses this page, and stops retrying', async () => {
    const h = harness();
    listen(h.bridge);
    await vi.advanceTimersByTimeAsync(0);
    h.setHost('replaced');
    h.sockets.at(-1)!.drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.bridge.link()).toMatchObject({ state: 'refused', retryAt: null });
    const tried = h.sockets.length;
    await vi.advanceTimersByTimeAsync(120_000);
    const call = await h.bridge.api.getAppInfo({});
    expect(h.sockets).toHaveLength(tried); // no retries, not even for a call
    expect(call).toMatchObject({ ok: false, error: { code: 'forbidden_sender', retryable: false } });
    expect(!call.ok && call.error.message).toContain('Plat was restarted');
  });

  it('a page opened without its launch token says so', () => {
    const bridge = createBrowserBridge(null, new URL('http://127.0.0.1:4100/') as unknown as Location);
    expect(bridge.link().state).toBe('no-token');
  });
});
