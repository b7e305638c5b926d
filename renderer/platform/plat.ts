// The renderer's only way out: `window.plat`, put there by the Electron preload or, in the browser
// host, by the bridge. Views call `callPlat`, which turns an `{ok:false}` result into a thrown
// PlatCallError so TanStack Query sees failures as failures.
import type { IpcOperationName, IpcRequest, IpcResponse, IpcResult, PlatApi } from '../../shared/ipc.ts';
import type { PlatError } from '../../shared/errors.ts';
import { createBrowserBridge, takeHostToken } from './browser-bridge.ts';
import { setHostLinkSource } from './host-link.ts';

declare global {
  interface Window {
    plat?: PlatApi;
  }
}

export class PlatCallError extends Error {
  readonly error: PlatError;
  constructor(error: PlatError) {
    super(error.message);
    this.name = 'PlatCallError';
    this.error = error;
  }
}

export function installPlat(): PlatApi {
  if (window.plat) return window.plat;
  const bridge = createBrowserBridge(takeHostToken(window.location, window.sessionStorage, window.history));
  Object.defineProperty(window, 'plat', { value: bridge.api, writable: false, configurable: false, enumerable: true });
  setHostLinkSource(bridge);
  // A restarted Plat prints the same address with a new token; pasted into this tab only the fragment
  // changes, which does not reload the page. Take the new token and start again with it.
  window.addEventListener('hashchange', () => {
    if (/(?:^#|&)token=/.test(window.location.hash) && takeHostToken(window.location, window.sessionStorage, window.history)) window.location.reload();
  });
  return bridge.api;
}

export function plat(): PlatApi {
  if (!window.plat) throw new Error('window.plat is not installed');
  return window.plat;
}

export async function callPlat<N extends IpcOperationName>(operation: N, request: IpcRequest<N>): Promise<IpcResponse<N>> {
  const call = plat()[operation] as unknown as (request: IpcRequest<N>) => Promise<IpcResult<IpcResponse<N>>>;
  const result = await call(request);
  if (!result.ok) throw new PlatCallError(result.error);
  return result.value;
}
