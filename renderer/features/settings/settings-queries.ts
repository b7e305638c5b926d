// Query keys and hooks for the core's settings (projects, budgets, key status, cache), shared by the
// Settings and Spend views so each is fetched once. These are free local reads, never service calls.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { callPlat } from '../../platform/plat.ts';

export const projectsQueryKey = ['projects'] as const;
export const budgetsQueryKey = ['budgets'] as const;
export const keyStatusQueryKey = ['keyStatus'] as const;
export const cacheStatusQueryKey = ['cacheStatus'] as const;

export function useProjects() {
  return useQuery({ queryKey: projectsQueryKey, queryFn: () => callPlat('listProjects', {}) });
}

export function useBudgets() {
  return useQuery({ queryKey: budgetsQueryKey, queryFn: () => callPlat('getBudgets', {}) });
}

export function useKeyStatus() {
  return useQuery({ queryKey: keyStatusQueryKey, queryFn: () => callPlat('getKeyStatus', {}) });
}

export function useCacheStatus() {
  // Entries and hits move with every call: read afresh whenever the view shows them.
  return useQuery({ queryKey: cacheStatusQueryKey, queryFn: () => callPlat('getCacheStatus', {}), staleTime: 0, refetchOnMount: 'always' });
}

/** Prices and refusals depend on caps, the active project, the cache and the connection: re-ask them. */
export function invalidatePricing(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: ['previewCost'] });
}
