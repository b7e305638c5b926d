// A service answer that costs money: never fetched by rendering, only by `buy` (called from a
// ChargeButton with the user's confirmation), then kept in the query cache for the rest of the session
// so that showing it again makes no call at all.
import { useEffect, useRef, useState } from 'react';
import { skipToken, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { IpcResponse, ServiceCallIpcName } from '../../../shared/ipc.ts';
import { callService, serviceQueryKey, type CallOptions, type ServiceRequestParts } from '../../platform/service-calls.ts';
import { useCostPreview } from '../../components/CostTag.tsx';

/**
 * Makes a priced call for the user's action and keeps the answer under its query key for the session.
 * Resolves when done; a failure stays in the query's state, where the screen shows it.
 */
export async function buyAnswer<N extends ServiceCallIpcName>(
  queryClient: QueryClient,
  operation: N,
  request: ServiceRequestParts<N>,
  options: CallOptions,
): Promise<void> {
  try {
    await queryClient.fetchQuery({
      queryKey: serviceQueryKey(operation, request),
      queryFn: () => callService(operation, request, options),
      gcTime: Infinity,
      staleTime: Infinity,
    });
  } catch {
    // Shown from the query's error state.
  } finally {
    // Prices on screen change once an answer is cached ("Cached · free"): ask again.
    void queryClient.invalidateQueries({ queryKey: ['previewCost'] });
  }
}

export function usePaidAnswer<N extends ServiceCallIpcName>(operation: N, request: ServiceRequestParts<N> | null) {
  const queryClient = useQueryClient();
  const queryKey = request === null ? (['service', operation, 'unavailable'] as const) : serviceQueryKey(operation, request);
  // When the screen opened: an answer older than this was already bought and is being shown again.
  const [openedAt] = useState(() => Date.now());
  const query = useQuery<IpcResponse<N>>({ queryKey, queryFn: skipToken, gcTime: Infinity, staleTime: Infinity });

  // A retry repeats the user's own action, confirmation included (and the same action id, so a call
  // that did reach the service is replayed free).
  const lastOptions = useRef<CallOptions>({});
  const buy = (options: CallOptions) => {
    if (request === null) return;
    lastOptions.current = options;
    void buyAnswer(queryClient, operation, request, options);
  };
  const retry = () => buy(lastOptions.current);

  // A free answer (free operation, or already in Plat's cache) loads itself: there is nothing to
  // approve. Anything that costs money still waits for the button.
  const preview = useCostPreview(operation, request);
  const free = preview.data !== undefined && preview.data.expectedCostMicroUsd === 0 && preview.data.blockedBy === null;
  const autoLoaded = useRef(false);
  useEffect(() => {
    if (!free || autoLoaded.current || request === null || query.data !== undefined || query.isFetching) return;
    autoLoaded.current = true;
    lastOptions.current = {};
    void buyAnswer(queryClient, operation, request, {});
  }, [free, request, query.data, query.isFetching, queryClient, operation]);

  const shownAgain = query.data !== undefined && query.dataUpdatedAt < openedAt;
  return { query, buy, retry, shownAgain };
}
