// What the status line and Settings say about the link to Plat's core and the service connection:
// only what was last checked, never assumed (a page whose host has gone is not "Ready").
import type { ServiceConnection } from '../../shared/ipc.ts';
import { formatDateTime } from '../../shared/format-date.ts';
import type { HostLink } from '../platform/host-link.ts';

/** The dot's colour class: green only for an answered check. */
export type StatusTone = 'ready' | 'pending' | 'problem' | 'down';

export interface StatusWords {
  tone: StatusTone;
  /** A few words: "Checking…", "Not reachable". */
  state: string;
}

/** "14:03" today, "2026-11-22 14:03" on another day. */
function checkedTime(iso: string, now: number): string {
  const when = formatDateTime(iso);
  return when.slice(0, 10) === formatDateTime(now).slice(0, 10) ? when.slice(11, 16) : when.slice(0, 16);
}

export function connectionStateWords(service: ServiceConnection, now: number = Date.now()): StatusWords {
  switch (service.state) {
    case 'starting':
      return { tone: 'pending', state: 'Starting…' };
    case 'checking':
      return { tone: 'pending', state: 'Checking…' };
    case 'ready':
      return { tone: 'ready', state: service.checkedAt ? `Ready (checked at ${checkedTime(service.checkedAt, now)})` : 'Ready' };
    case 'unreachable':
      return { tone: 'problem', state: 'Not reachable' };
    case 'failed':
      return { tone: 'down', state: 'Not available' };
  }
}

export interface LinkWords {
  tone: StatusTone;
  /** For the status line. */
  headline: string;
  /** What happened and what to do, for the banner. */
  detail: string;
}

/** Null while calls can reach the core (open, or quietly reopening after a drop). */
export function hostLinkWords(link: HostLink, now: number = Date.now()): LinkWords | null {
  switch (link.state) {
    case 'open':
    case 'connecting':
      return null;
    case 'lost': {
      const seconds = link.retryAt === null ? null : Math.max(1, Math.ceil((link.retryAt - now) / 1000));
      return {
        tone: 'down',
        headline: 'Plat’s host has stopped — reconnecting…',
        detail: `Prices and paid actions wait until Plat answers again; this page reconnects by itself${seconds === null ? '' : ` (next try in ${seconds} s)`}. If you closed Plat, start it again.`,
      };
    }
    case 'refused':
      return {
        tone: 'down',
        headline: 'Plat was restarted — open the address it printed',
        detail: 'This page belongs to Plat’s earlier launch, so the new one refuses it. Open the address Plat printed when it started (it carries the new launch key).',
      };
    case 'no-token':
      return {
        tone: 'down',
        headline: 'Opened without Plat’s launch key — open the address it printed',
        detail: 'Plat answers only the page opened from the address it printed when it started.',
      };
  }
}
