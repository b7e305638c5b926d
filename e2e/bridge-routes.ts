// Stand-ins on the page's bridge socket (shared/bridge-protocol.ts), for states the sample cannot
// produce on demand: the socket still reaches the real host, and only what is named is replaced.
import type { Page } from '@playwright/test';

/** Answers every `operation` call with `value` instead of the host; other calls go through. */
export async function answerOnBridge(page: Page, operation: string, value: unknown): Promise<void> {
  await page.routeWebSocket('**/bridge', (socket) => {
    const host = socket.connectToServer();
    socket.onMessage((message) => {
      const call = JSON.parse(String(message)) as { id: number; op: string };
      if (call.op === operation) socket.send(JSON.stringify({ id: call.id, result: { ok: true, value } }));
      else host.send(message);
    });
  });
}

/** Pushes one event to the page once it has made its first call (so it is surely listening). */
export async function pushOnBridge(page: Page, event: string, payload: unknown): Promise<void> {
  await page.routeWebSocket('**/bridge', (socket) => {
    const host = socket.connectToServer();
    let pushed = false;
    socket.onMessage((message) => {
      host.send(message);
      if (pushed) return;
      pushed = true;
      socket.send(JSON.stringify({ event, payload }));
    });
  });
}
