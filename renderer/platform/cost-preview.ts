// The price of a service call before it is made (the core's previewCost: free, cached, its expected
// cost, or what blocks it), asked again whenever a view shows it: prices move with spending and the cache.
import { useQuery } from '@tanstack/react-query';
import { serviceCallOperations, type ServiceCallIpcName } from '../../shared/ipc.ts';
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
