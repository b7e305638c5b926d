// The page's link to Plat's core, beside `window.plat` (which carries only the contract): the browser
// host's bridge socket can drop or belong to an earlier launch, and the page must say so rather than
// keep showing its last answers as live. Under Electron the preload's IPC has no socket to lose (the
// window goes with the main process), so the link is always open.
import { useSyncExternalStore } from 'react';
import type { BridgeLink } from '../../shared/bridge-protocol.ts';

export interface HostLink {
  /** The bridge's states, and `no-token`: the page was opened without its launch token. */
  state: BridgeLink['state'] | 'no-token';
  /** How many times the link has opened; a rise after the first is a reconnection. */
  opens: number;
  /** When the next automatic attempt is due (ms since the epoch), while `lost`. */
  retryAt: number | null;
}

export interface HostLinkSource {
  link(): HostLink;
  onLinkChange(listener: (link: HostLink) => void): () => void;
}

const ALWAYS_OPEN: HostLink = { state: 'open', opens: 1, retryAt: null };
const alwaysOpen: HostLinkSource = { link: () => ALWAYS_OPEN, onLinkChange: () => () => undefined };

let source: HostLinkSource = alwaysOpen;

/** Set once by installPlat (and by tests). */
export function setHostLinkSource(next: HostLinkSource | null): void {
  source = next ?? alwaysOpen;
}

export function hostLink(): HostLink {
  return source.link();
}

export function useHostLink(): HostLink {
  return useSyncExternalStore((onChange) => source.onLinkChange(onChange), () => source.link());
}

/** Whether calls can reach the core now. */
export const linkIsUp = (link: HostLink): boolean => link.state === 'open' || link.state === 'connecting';
