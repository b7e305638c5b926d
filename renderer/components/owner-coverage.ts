// Which areas publish owner names, for every screen that looks owners up (the Owners view, an owner's
// page, the find box, the graph): the v2 coverage facet, read by what its rows carry, without a click
// only where it is known to be free (`read` buys it otherwise, from a priced button). When a row names
// its area only by a jurisdiction code, the jurisdictions facet (when known free) is asked for the area
// id the service lists for it; without one, the search names the jurisdiction code.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useKnownFree } from '../platform/cost-preview.ts';
import { buyAnswer } from '../platform/paid-answer.ts';
import { callService, type CallOptions } from '../platform/service-calls.ts';
import { serviceQueryKey } from '../platform/query-keys.ts';
import { envelopeData } from './service-data.ts';
import { areaDirectoryRequest, areaIdsByJurisdiction, ownerCoverage, ownerCoverageRequest, withAreaIds, type OwnerCoverage } from './owner-lookup.ts';

export interface OwnerCoverageAnswer {
  data: OwnerCoverage | undefined;
  isPending: boolean;
  /** `idle` while pending: not asked, because it may cost (`read` buys it). */
  fetchStatus: 'idle' | 'fetching' | 'paused';
  isError: boolean;
  error: unknown;
  refetch: () => void;
  /** Buys the coverage from a priced button's click. */
  read: (options: CallOptions) => void;
}

export function useOwnerCoverage(): OwnerCoverageAnswer {
  const queryClient = useQueryClient();
  const free = useKnownFree('getCatalogFacet', ownerCoverageRequest);
  const coverage = useQuery({
    queryKey: serviceQueryKey('getCatalogFacet', ownerCoverageRequest),
    queryFn: () => callService('getCatalogFacet', ownerCoverageRequest),
    select: (answer) => ownerCoverage(envelopeData(answer.envelope)),
    enabled: free,
    staleTime: Infinity,
  });
  const needsIds = coverage.data?.searchable.some((area) => !area.areaGiven) ?? false;
  const directoryFree = useKnownFree('getCatalogFacet', needsIds ? areaDirectoryRequest : null);
  const directory = useQuery({
    queryKey: serviceQueryKey('getCatalogFacet', areaDirectoryRequest),
    queryFn: () => callService('getCatalogFacet', areaDirectoryRequest),
    select: (answer) => areaIdsByJurisdiction(envelopeData(answer.envelope)),
    staleTime: Infinity,
    enabled: needsIds && directoryFree,
  });
  // A directory that may cost, or cannot be read, leaves the jurisdiction codes: the owner search still runs.
  const waiting = needsIds && directoryFree && directory.isPending && !directory.isError;
  const data = coverage.data === undefined || waiting ? undefined : directory.data ? withAreaIds(coverage.data, directory.data) : coverage.data;
  return {
    data,
    isPending: coverage.isPending || waiting,
    fetchStatus: waiting ? 'fetching' : coverage.fetchStatus,
    isError: coverage.isError,
    error: coverage.error,
    refetch: () => void coverage.refetch(),
    read: (options) => void buyAnswer(queryClient, 'getCatalogFacet', ownerCoverageRequest, options),
  };
}
