// The browser host's bridge from Node (tests, benchmarks, the crash test): the same client the page
// uses (shared/bridge-protocol.ts) on a `ws` socket, which speaks the standard WebSocket interface
// and, unlike a browser's, must be told the Origin a page on the host would send.
import { WebSocket } from 'ws';
import { BRIDGE_PATH, bridgeProtocols, createBridgeClient, type BridgeClient, type BridgeSocket } from '../../shared/bridge-protocol.ts';

export function bridgeUrl(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}${BRIDGE_PATH}`;
}

/** A raw bridge socket, as a page on `origin` would open it (tests use it to send what a page would not). */
export function openBridgeSocket(host: { origin: string; token: string }, origin = host.origin): WebSocket {
  return new WebSocket(bridgeUrl(host.origin), bridgeProtocols(host.token), { origin });
}

export function connectBridge(host: { origin: string; token: string }, options: { origin?: string; reconnectDelayMs?: number } = {}): BridgeClient {
  return createBridgeClient(() => openBridgeSocket(host, options.origin) as unknown as BridgeSocket, options);
}
