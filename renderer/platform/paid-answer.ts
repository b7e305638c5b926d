// The one way a view holds a service answer that may cost money. Never fetched by rendering: only by
// `buy` (a ChargeButton's click, with the confirmation it collected), or on its own when the preview
// says its price is known to be zero (`loadWhenFree`): a price not known waits for the click too. The answer then stays in TanStack Query's cache under the
// request's own key for the session, so showing it again, anywhere, makes no call at all.
import { useEffect, useRef, useState } from 'react';
import { skipToken, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { IpcResponse, ServiceCallIpcName } from '../../shared/ipc.ts';
import { knownFree, useCostPreview } from './cost-preview.ts';
import { idleServiceQueryKey, pricingQueryScope, serviceQueryKey } from './query-keys.ts';
import { callService, type CallOptions, type ServiceRequestParts } from './service-calls.ts';

/** Options for reading a bought answer without ever fetching it (e.g. in `useQueries` for further pages). */
export function paidAnswerQuery<N extends ServiceCallIpcName>(operation: N, request: ServiceRequestParts<N>) {
  return { queryKey: serviceQueryKey(operation, request), queryFn: skipToken, gcTime: Infinity, staleTime: Infinity } as const;
}

export interface BuyOptions {
  /**
   * Ask the core even when this session already holds the answer: the core answers from its cache,
   * free, and keeps the answer with the active assignment, which the session's copy alone would not
   * (an answer bought on a property page before its assignment began).
   */
  askCore?: boolean;
}

/**
 * Makes a priced call for the user's action and keeps the answer under its query key for the session
 * (an answer already there is returned without a call, unless `askCore`). Resolves with the answer,
 * or undefined when the call failed: the failure stays in the query's state, where the screen shows it.
 */
export async function buyAnswer<N extends ServiceCallIpcName>(
  queryClient: QueryClient,
  operation: N,
  request: ServiceRequestParts<N>,
  options: CallOptions,
  how: BuyOptions = {},
): Promise<IpcResponse<N> | undefined> {
  try {
    return await queryClient.fetchQuery({
      queryKey: serviceQueryKey(operation, request),
      queryFn: () => callService(operation, request, options),
      // Bought answers are kept for the session: dropping them would mean asking (and the core
      // answering from its cache) again for something on screen a minute ago.
      gcTime: Infinity,
      staleTime: how.askCore ? 0 : Infinity,
    });
  } catch {
    return undefined;
  } finally {
    // Prices on screen change once an answer is cached ("Cached · free"): ask again.
    void queryClient.invalidateQueries({ queryKey: pricingQueryScope });
  }
}

export interface PaidAnswerOptions extends BuyOptions {
  /**
   * Load the answer without a click when it costs nothing (a free operation, or one already in Plat's
   * cache). Anything that costs money still waits for the button.
   */
  loadWhenFree?: boolean;
}

export function usePaidAnswer<N extends ServiceCallIpcName>(operation: N, request: ServiceRequestParts<N> | null, options: PaidAnswerOptions = {}) {
  const { loadWhenFree = false, askCore = false } = options;
  const queryClient = useQueryClient();
  const queryKey = request === null ? idleServiceQueryKey(operation) : serviceQueryKey(operation, request);
  // When the screen opened: an answer older than this was already bought and is being shown again.
  const [openedAt] = useState(() => Date.now());
  const query = useQuery<IpcResponse<N>>({ queryKey, queryFn: skipToken, gcTime: Infinity, staleTime: Infinity });

  // A retry repeats the user's own action, confirmation included (and the same action id, so a call
  // that did reach the service is replayed free).
  const last = useRef<{ options: CallOptions; target: ServiceRequestParts<N> | null }>({ options: {}, target: null });

  /** Buys `target` (default: this hook's request) unless its answer is already held. */
  const buy = (callOptions: CallOptions, target: ServiceRequestParts<N> | null = request): Promise<IpcResponse<N> | undefined> => {
    if (target === null) return Promise.resolve(undefined);
    last.current = { options: callOptions, target };
    return buyAnswer(queryClient, operation, target, callOptions, { askCore });
  };
  const retry = (): Promise<IpcResponse<N> | undefined> =>
    // Shown only after a failed purchase: one this screen made (its options again), or one made
    // before the screen was remounted, which the person had already approved.
    buy(last.current.target === null ? { confirmed: true } : last.current.options, last.current.target ?? request);

  const preview = useCostPreview(operation, loadWhenFree ? request : null);
  const free = knownFree(preview.data);
  const autoLoaded = useRef(false);
  useEffect(() => {
    if (!loadWhenFree || !free || autoLoaded.current || request === null || query.data !== undefined || query.isFetching) return;
    autoLoaded.current = true;
    last.current = { options: {}, target: request };
    void buyAnswer(queryClient, operation, request, {}, { askCore });
  }, [loadWhenFree, free, request, query.data, query.isFetching, queryClient, operation, askCore]);

  const shownAgain = query.data !== undefined && query.dataUpdatedAt < openedAt;
  return { query, buy, retry, shownAgain };
}
