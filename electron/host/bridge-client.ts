// The browser host's bridge from Node (tests, benchmarks, the crash test): the same client the page
// uses (shared/bridge-protocol.ts) on Node's WebSocket, which, unlike a browser's, must be told the
// Origin a page on the host would send.
import { BRIDGE_PATH, bridgeProtocols, createBridgeClient, type BridgeClient, type BridgeSocket } from '../../shared/bridge-protocol.ts';

export function bridgeUrl(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}${BRIDGE_PATH}`;
}

export function connectBridge(host: { origin: string; token: string }, options: { origin?: string; reconnectDelayMs?: number } = {}): BridgeClient {
  // Node's WebSocket (undici) takes an init object with headers as its second argument.
  const init = { protocols: bridgeProtocols(host.token), headers: { Origin: options.origin ?? host.origin } };
  return createBridgeClient(() => new WebSocket(bridgeUrl(host.origin), init as unknown as string[]) as BridgeSocket, options);
}
