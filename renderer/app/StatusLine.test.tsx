// The status line and a charge button through the real bridge client, with Plat's host faked at the
// socket: when the host stops the page must say so (no green dot, no endless "Pricing…"), and when
// it is back the page reads app info and prices again.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { BridgeSocket } from '../../shared/bridge-protocol.ts';
import type { AppInfo, CostPreview, SpendSnapshot } from '../../shared/ipc.ts';
import { createBrowserBridge } from '../platform/browser-bridge.ts';
import { setHostLinkSource } from '../platform/host-link.ts';
import { ChargeButton } from '../components/ChargeButton.tsx';
import { createQueryClient } from './App.tsx';
import { StatusLine } from './StatusLine.tsx';
import { HostLinkNotice } from './HostLinkNotice.tsx';

const appInfo: AppInfo = {
  appName: 'Plat',
  appVersion: '0.0.0',
  runtime: 'browser-host',
  service: { mode: 'local-sample', baseUrl: 'http://127.0.0.1:4200', label: 'Local sample service', state: 'ready', detail: null, checkedAt: null },
};
const spend: SpendSnapshot = {
  sessionMicroUsd: 20_000,
  todayMicroUsd: 20_000,
  allTimeMicroUsd: 20_000,
  sessionCreditMicroUsd: 0,
  todayCreditMicroUsd: 0,
  allTimeCreditMicroUsd: 0,
  sessionNetMicroUsd: 20_000,
  todayNetMicroUsd: 20_000,
  allTimeNetMicroUsd: 20_000,
  byProject: [],
  lastKnownBalanceMicroUsd: 24_980_000,
  lastChargeMicroUsd: 20_000,
  lastChargeAt: null,
  unsavedMicroUsd: 0,
  storageProblem: null,
};
const price: CostPreview = {
  operation: 'v4.summary',
  expectedCostMicroUsd: 100_000,
  basis: 'price_table',
  largestSeenMicroUsd: null,
  note: '',
  cached: false,
  needsConfirmation: false,
  blockedBy: null,
};

/** Plat's host at the far end of the socket: answers while up; sockets fail while down. */
function fakeHost() {
  const host = { up: true, asked: [] as string[], sockets: [] as FakeSocket[] };
  class FakeSocket implements BridgeSocket {
    readyState = 0;
    #listeners = new Map<string, Array<(event: { data: unknown }) => void>>();
    constructor() {
      host.sockets.push(this);
      setTimeout(() => (host.up ? this.#open() : this.drop()), 0);
    }
    addEventListener(type: string, listener: (event: { data: unknown }) => void): void {
      this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
    }
    #fire(type: string, data?: unknown) {
      for (const listener of this.#listeners.get(type) ?? []) listener({ data });
    }
    #open() {
      this.readyState = 1;
      this.#fire('open');
    }
    send(data: string): void {
      const { id, op } = JSON.parse(data) as { id: number; op: string };
      host.asked.push(op);
      const value = op === 'getAppInfo' ? appInfo : op === 'getSpend' ? spend : op === 'previewCost' ? price : null;
      setTimeout(() => this.#fire('message', JSON.stringify({ id, result: { ok: true, value } })), 0);
    }
    close(): void {
      this.drop();
    }
    drop() {
      this.readyState = 3;
      this.#fire('close');
    }
  }
  return { host, FakeSocket };
}

afterEach(() => {
  cleanup();
  setHostLinkSource(null);
  delete window.plat;
});

describe('the status line when Plat’s host stops and comes back', () => {
  it('shows the disconnected state, disables charges with a reason, and refreshes on reconnect', async () => {
    const { host, FakeSocket } = fakeHost();
    const bridge = createBrowserBridge('t'.repeat(43), new URL('http://127.0.0.1:4100/') as unknown as Location, {
      openSocket: () => new FakeSocket(),
      hostAnswers: async () => false,
    });
    window.plat = bridge.api;
    setHostLinkSource(bridge);
    const summary = { path: { q_id: 'prop_1' } } as never;
    const { container } = render(
      <QueryClientProvider client={createQueryClient()}>
        <HostLinkNotice />
        <StatusLine />
        <ChargeButton operation="getEntitySummary" request={summary} label="Buy summary" what="the summary" onRun={() => undefined} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(container.querySelector('.status-line__dot--ready')).not.toBeNull());
    await waitFor(() => expect(screen.getByTestId('cost-tag').textContent).toBe('$0.10'));
    expect(screen.getByRole('button', { name: 'Buy summary' })).toHaveProperty('disabled', false);

    // The host stops: the socket drops and the immediate reopen fails.
    host.up = false;
    act(() => host.sockets.at(-1)!.drop());
    await waitFor(() => expect(screen.getByTestId('service-label').textContent).toBe('Plat’s host has stopped — reconnecting…'));
    expect(container.querySelector('.status-line__dot--ready')).toBeNull();
    expect(container.querySelector('.status-line__dot--down')).not.toBeNull();
    expect(screen.getByTestId('host-link-notice').textContent).toContain('next try in');
    expect(screen.getByTestId('cost-unavailable').textContent).toBe('No price: Plat is not connected');
    expect(container.textContent).not.toContain('Pricing…');
    const buy = screen.getByRole('button', { name: 'Buy summary' });
    expect(buy).toHaveProperty('disabled', true);
    expect(buy.getAttribute('title')).toContain('not answering');

    // It is back: "Try now" reconnects, and the page reads app info, spend and prices again.
    host.up = true;
    const askedBefore = host.asked.length;
    fireEvent.click(screen.getByRole('button', { name: 'Try now' }));
    await waitFor(() => expect(screen.getByTestId('service-label').textContent).toBe('Local sample service'));
    await waitFor(() => expect(container.querySelector('.status-line__dot--ready')).not.toBeNull());
    await waitFor(() => expect(host.asked.slice(askedBefore)).toEqual(expect.arrayContaining(['getAppInfo', 'getSpend', 'previewCost'])));
    await waitFor(() => expect(screen.getByTestId('cost-tag').textContent).toBe('$0.10'));
    expect(screen.queryByTestId('host-link-notice')).toBeNull();
  });
});
