// The price of a service call before it is made (the core's previewCost: its expected cost and where
// that comes from, or "not known", and what blocks it), asked again whenever a view shows it: prices
// move with spending, the cache and the charges seen on the connection.
import { useQuery } from '@tanstack/react-query';
import type { CostPreview } from '../../shared/ipc.ts';
import { serviceCallOperations, type ServiceCallIpcName } from '../../shared/ipc-names.ts';
import { formatUsd } from '../../shared/money.ts';
import { callPlat } from './plat.ts';
import { previewCostQueryKey } from './query-keys.ts';
import type { ServiceRequestParts } from './service-calls.ts';

/** The price of `request` (null: nothing to price yet, and nothing is asked). */
export function useCostPreview<N extends ServiceCallIpcName>(operation: N, request: ServiceRequestParts<N> | null) {
  return useQuery({
    queryKey: previewCostQueryKey(operation, request),
    queryFn: () =>
      callPlat('previewCost', {
        operation: serviceCallOperations[operation],
        request: (request ?? {}) as Record<string, unknown>,
      }),
    enabled: request !== null,
    staleTime: 0,
  });
}

/**
 * Whether a call may be made without a click: only when its price is known to be zero (free by the
 * spec or the embedded service's table, or already cached) and no cap stands in the way. A price not
 * known, or a small one, waits for the person.
 */
export function knownFree(preview: CostPreview | undefined): boolean {
  return preview !== undefined && preview.expectedCostMicroUsd === 0 && preview.blockedBy === null;
}

/** Whether the call will be charged when asked without a click; true while the price is being read. */
export function useKnownFree<N extends ServiceCallIpcName>(operation: N, request: ServiceRequestParts<N> | null): boolean {
  return knownFree(useCostPreview(operation, request).data);
}

/** Whether the call is known to be free, or null while its price is still being read. */
export function useFreeOrPending<N extends ServiceCallIpcName>(operation: N, request: ServiceRequestParts<N> | null): boolean | null {
  const preview = useCostPreview(operation, request);
  if (request === null) return false;
  return preview.data ? knownFree(preview.data) : preview.isError ? false : null;
}

/**
 * The price in words: "$0.10" (the spec's or Plat's own service's), "about $0.025, from your last
 * call" (learnt on this connection), "price not known".
 */
export function priceWords(preview: Pick<CostPreview, 'expectedCostMicroUsd' | 'basis'>): string {
  if (preview.expectedCostMicroUsd === null) return 'price not known';
  if (preview.basis === 'last_observed') return `about ${formatUsd(preview.expectedCostMicroUsd)}, from your last call`;
  return formatUsd(preview.expectedCostMicroUsd);
}

/** Why a call whose price is not known asks first: the largest charge seen for it, or that none was. */
export function unknownPriceWords(preview: Pick<CostPreview, 'largestSeenMicroUsd'>): string {
  return preview.largestSeenMicroUsd === null
    ? 'price not known; no charge for it seen yet'
    : `price not known; the largest charge seen for this operation was ${formatUsd(preview.largestSeenMicroUsd)}`;
}
