// The response cache: its status, its policy, and emptying it.
import type { ResponseCache } from '../cache.ts';
import type { IpcHandlers } from '../ipc-dispatch.ts';

export function cacheHandlers(deps: { cache: ResponseCache }): Pick<IpcHandlers, 'getCacheStatus' | 'setCachePolicy' | 'clearCache'> {
  const { cache } = deps;
  return {
    getCacheStatus: async () => cache.status(),
    setCachePolicy: async (request) => {
      cache.setPolicy(request);
      return cache.status();
    },
    clearCache: async () => {
      cache.clear();
      return cache.status();
    },
  };
}
