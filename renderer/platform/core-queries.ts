// The core's own settings and state as queries (projects, budgets, key status, cache, app info), shared
// by every view that shows them so each is fetched once. Free local reads, never service calls.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { callPlat } from './plat.ts';
import { appInfoQueryKey, budgetsQueryKey, cacheStatusQueryKey, keyStatusQueryKey, pricingQueryScope, projectsQueryKey, spendQueryKey } from './query-keys.ts';

export function useAppInfo() {
  return useQuery({ queryKey: appInfoQueryKey, queryFn: () => callPlat('getAppInfo', {}) });
}

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

export function useSpend() {
  return useQuery({ queryKey: spendQueryKey, queryFn: () => callPlat('getSpend', {}) });
}

/** Prices and refusals depend on caps, the active project, the cache and the connection: re-ask them. */
export function invalidatePricing(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: pricingQueryScope });
}
