// Which areas publish owner names, for every screen that looks owners up (the Owners view, an owner's
// page, the find box, the graph): the free v2 coverage facet, read by what its rows carry. When a row
// names its area only by a jurisdiction code, the free jurisdictions facet is asked for the area id
// the service lists for it; without one, the search names the jurisdiction code.
import { useQuery } from '@tanstack/react-query';
import { callService } from '../platform/service-calls.ts';
import { serviceQueryKey } from '../platform/query-keys.ts';
import { envelopeData } from './service-data.ts';
import { areaDirectoryRequest, areaIdsByJurisdiction, ownerCoverage, ownerCoverageRequest, withAreaIds, type OwnerCoverage } from './owner-lookup.ts';

export interface OwnerCoverageAnswer {
  data: OwnerCoverage | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => void;
}

export function useOwnerCoverage(): OwnerCoverageAnswer {
  const coverage = useQuery({
    queryKey: serviceQueryKey('getCatalogFacet', ownerCoverageRequest),
    queryFn: () => callService('getCatalogFacet', ownerCoverageRequest),
    select: (answer) => ownerCoverage(envelopeData(answer.envelope)),
    staleTime: Infinity,
  });
  const needsIds = coverage.data?.searchable.some((area) => !area.areaGiven) ?? false;
  const directory = useQuery({
    queryKey: serviceQueryKey('getCatalogFacet', areaDirectoryRequest),
    queryFn: () => callService('getCatalogFacet', areaDirectoryRequest),
    select: (answer) => areaIdsByJurisdiction(envelopeData(answer.envelope)),
    staleTime: Infinity,
    enabled: needsIds,
  });
  // A directory that cannot be read leaves the jurisdiction codes: the owner search still runs.
  const waiting = needsIds && directory.isPending && !directory.isError;
  const data = coverage.data === undefined || waiting ? undefined : needsIds && directory.data ? withAreaIds(coverage.data, directory.data) : coverage.data;
  return {
    data,
    isPending: coverage.isPending || waiting,
    isError: coverage.isError,
    error: coverage.error,
    refetch: () => void coverage.refetch(),
  };
}
