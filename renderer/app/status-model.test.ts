import { describe, expect, it } from 'vitest';
import type { ServiceConnection } from '../../shared/ipc.ts';
import { connectionStateWords, hostLinkWords } from './status-model.ts';

const live = (state: ServiceConnection['state'], checkedAt: string | null = null): ServiceConnection => ({
  mode: 'live',
  baseUrl: 'http://127.0.0.1:9',
  label: 'Live service · 127.0.0.1:9',
  state,
  detail: state === 'unreachable' ? 'http://127.0.0.1:9 could not be reached.' : null,
  checkedAt,
});

describe('the connection, in words', () => {
  it('is green only when the last check was answered', () => {
    const tones = (['starting', 'checking', 'ready', 'unreachable', 'failed'] as const).map((state) => connectionStateWords(live(state)).tone);
    expect(tones).toEqual(['pending', 'pending', 'ready', 'problem', 'down']);
    expect(connectionStateWords(live('checking')).state).toBe('Checking…');
    expect(connectionStateWords(live('unreachable')).state).toBe('Not reachable');
    expect(connectionStateWords(live('failed')).state).toBe('Not available');
  });

  it('says when a ready connection was checked: the time today, the date before', () => {
    const now = new Date(2026, 10, 23, 15, 0, 0).getTime();
    expect(connectionStateWords(live('ready', new Date(2026, 10, 23, 14, 3, 9).toISOString()), now).state).toBe('Ready (checked at 14:03)');
    expect(connectionStateWords(live('ready', new Date(2026, 10, 21, 9, 30, 0).toISOString()), now).state).toBe('Ready (checked at 2026-11-21 09:30)');
    expect(connectionStateWords(live('ready'), now).state).toBe('Ready');
  });
});

describe('the link to Plat’s host, in words', () => {
  it('says nothing while calls reach the core, including the quiet reopen after a drop', () => {
    expect(hostLinkWords({ state: 'open', opens: 1, retryAt: null })).toBeNull();
    expect(hostLinkWords({ state: 'connecting', opens: 1, retryAt: null })).toBeNull();
  });

  it('says the host stopped and when the next try is, or that Plat was restarted', () => {
    const lost = hostLinkWords({ state: 'lost', opens: 1, retryAt: 10_400 }, 6_000);
    expect(lost?.headline).toBe('Plat’s host has stopped — reconnecting…');
    expect(lost?.detail).toContain('next try in 5 s');
    expect(lost?.tone).toBe('down');
    expect(hostLinkWords({ state: 'refused', opens: 1, retryAt: null })?.headline).toBe('Plat was restarted — open the address it printed');
    expect(hostLinkWords({ state: 'no-token', opens: 0, retryAt: null })?.headline).toContain('open the address it printed');
  });
});
