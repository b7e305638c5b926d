// A service call that may cost money: never fetched by rendering, only by `run` (a user's click on a
// ChargeButton, with the options it hands over). The answer then sits in TanStack Query's cache under
// the request's own key, so showing that page again — or asking for it again — costs nothing more.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { IpcResponse, ServiceCallIpcName } from '../../../shared/ipc.ts';
import { callService, serviceQueryKey, type CallOptions, type ServiceRequestParts } from '../../platform/service-calls.ts';

const idleKey = (operation: ServiceCallIpcName) => ['service', operation, 'not-asked'] as const;

export function usePaidQuery<N extends ServiceCallIpcName>(operation: N, request: ServiceRequestParts<N> | null) {
  const queryClient = useQueryClient();
  const queryKey = request ? serviceQueryKey(operation, request) : idleKey(operation);
  const query = useQuery<IpcResponse<N>>({
    queryKey,
    // Only `run` fetches; the function is here for TanStack's bookkeeping.
    queryFn: () => (request ? callService(operation, request) : Promise.reject(new Error('nothing to ask'))),
    enabled: false,
    // Bought answers are kept for the session: dropping them would mean asking (and the core
    // answering from its cache) again for something already on screen a minute ago.
    gcTime: Infinity,
    staleTime: Infinity,
  });

  /** Fetches `target` (default: this hook's request) unless its answer is already in the cache. */
  const run = (options: CallOptions, target: ServiceRequestParts<N> | null = request): Promise<IpcResponse<N> | undefined> => {
    if (!target) return Promise.resolve(undefined);
    return queryClient
      .fetchQuery({
        queryKey: serviceQueryKey(operation, target),
        queryFn: () => callService(operation, target, options),
        gcTime: Infinity,
        staleTime: Infinity,
      })
      .catch(() => undefined); // The failure stays on the query, where the view shows it.
  };

  return { query, run };
}
