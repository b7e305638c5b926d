// The v4 catalog of a jurisdiction's sources (free): which kinds it publishes and, per source, the
// fields its records carry, the names every v4 search filter and record reader takes from
// (shared/service/record-fields.ts). One query per jurisdiction, shared by every screen that asks.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isJurisdictionCode } from '../../shared/jurisdictions.ts';
import { callService } from './service-calls.ts';
import { serviceQueryKey } from './query-keys.ts';

export function useSourceCatalog(jurisdiction: string) {
  const request = { query: { jurisdiction } };
  const query = useQuery({
    queryKey: serviceQueryKey('getSourceCatalog', request),
    queryFn: () => callService('getSourceCatalog', request),
    enabled: isJurisdictionCode(jurisdiction),
  });
  const items = useMemo(() => (query.data?.envelope.status === 'ok' ? query.data.envelope.data.items : []), [query.data]);
  return { query, items };
}
