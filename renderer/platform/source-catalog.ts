// The v4 catalog of a jurisdiction's sources (free): which kinds it publishes and, per source, the
// fields its records carry, the names every v4 search filter and record reader takes from
// (shared/service/record-fields.ts). One query per jurisdiction, shared by every screen that asks.
import { useMemo } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { isJurisdictionCode } from '../../shared/jurisdictions.ts';
import { callService } from './service-calls.ts';
import { serviceQueryKey } from './query-keys.ts';

function sourceCatalogQuery(jurisdiction: string) {
  const request = { query: { jurisdiction } };
  return {
    queryKey: serviceQueryKey('getSourceCatalog', request),
    queryFn: () => callService('getSourceCatalog', request),
    enabled: isJurisdictionCode(jurisdiction),
  };
}

export function useSourceCatalog(jurisdiction: string) {
  const query = useQuery(sourceCatalogQuery(jurisdiction));
  const items = useMemo(() => (query.data?.envelope.status === 'ok' ? query.data.envelope.data.items : []), [query.data]);
  return { query, items };
}

/** Asks for a jurisdiction's catalog ahead of the screen that shows it (the same query, so one call). */
export function prefetchSourceCatalog(queryClient: QueryClient, jurisdiction: string): void {
  if (isJurisdictionCode(jurisdiction)) void queryClient.prefetchQuery(sourceCatalogQuery(jurisdiction));
}
