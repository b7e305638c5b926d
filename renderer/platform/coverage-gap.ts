// What the service's catalog says a priced answer about a property will lack (shared/service/
// coverage-gaps.ts), for its confirmation before the charge. Read only from free answers: the
// property's own record (its area), the v2 coverage facet and, when coverage rows name no area, the
// jurisdictions facet. Where any of them may cost, or does not say, nothing is said.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { coverageGap, jurisdictionsByArea, readCoverageRows, type CoverageGap, type PricedAnswer } from '../../shared/service/coverage-gaps.ts';
import { isRecord } from '../../shared/json-data.ts';
import { useFreeOrPending } from './cost-preview.ts';
import { idleServiceQueryKey, serviceQueryKey } from './query-keys.ts';
import { callService, type ServiceRequestParts } from './service-calls.ts';

export const coverageFacetRequest: ServiceRequestParts<'getCatalogFacet'> = { query: { facet: 'coverage', page_size: 100 } };
export const jurisdictionsFacetRequest: ServiceRequestParts<'getCatalogFacet'> = { query: { facet: 'jurisdictions', page_size: 100 } };

const itemsOf = (envelope: unknown): unknown[] => {
  const data = isRecord(envelope) && isRecord(envelope.data) ? envelope.data : null;
  return data && Array.isArray(data.items) ? data.items : [];
};

/** The area id a v2 entity record names, or null. */
function areaOf(envelope: unknown): string | null {
  const data = isRecord(envelope) && isRecord(envelope.data) ? envelope.data : null;
  const entity = data && isRecord(data.entity) ? data.entity : null;
  return entity && typeof entity.area_uid === 'string' && entity.area_uid !== '' ? entity.area_uid : null;
}

function useFreeFacet(request: ServiceRequestParts<'getCatalogFacet'> | null) {
  const free = useFreeOrPending('getCatalogFacet', request);
  const query = useQuery({
    queryKey: request === null ? idleServiceQueryKey('getCatalogFacet') : serviceQueryKey('getCatalogFacet', request),
    queryFn: () => callService('getCatalogFacet', request ?? coverageFacetRequest),
    select: (answer) => itemsOf(answer.envelope),
    enabled: free === true && request !== null,
    staleTime: Infinity,
  });
  // Still to come: asked for, and free or its price not read yet, with neither an answer nor an error.
  const awaited = request !== null && free !== false && query.data === undefined && !query.isError;
  return { data: query.data, awaited };
}

/** Said while the free answers that decide it are still being read: a charge waits for them. */
export const COVERAGE_CHECKING = 'checking' as const;

/**
 * What `answer` about the property `subjectRef` will lack, as the catalog's coverage says; null when it
 * says nothing; COVERAGE_CHECKING while the free answers that decide it are still being read (a priced
 * action waits, so its confirmation is never shown without what the coverage would have said).
 */
export function useCoverageGap(answer: PricedAnswer, subjectRef: string | null): CoverageGap | null | typeof COVERAGE_CHECKING {
  const entityRequest = subjectRef ? { path: { entity_ref: subjectRef } } : null;
  const entityFree = useFreeOrPending('getEntity', entityRequest);
  const entity = useQuery({
    queryKey: entityRequest === null ? idleServiceQueryKey('getEntity') : serviceQueryKey('getEntity', entityRequest),
    queryFn: () => callService('getEntity', entityRequest ?? { path: { entity_ref: '' } }),
    enabled: entityFree === true && entityRequest !== null,
    staleTime: Infinity,
  });
  const areaUid = entity.data ? areaOf(entity.data.envelope) : null;
  const coverage = useFreeFacet(areaUid ? coverageFacetRequest : null);
  const rows = useMemo(() => readCoverageRows(coverage.data ?? []), [coverage.data]);
  const needsAreas = rows.some((row) => row.areaUid === null);
  const directory = useFreeFacet(needsAreas ? jurisdictionsFacetRequest : null);
  // Each answer still to come counts from the render that asks for it, so the button never flickers
  // enabled between one answer and the next.
  const checking = entityRequest !== null && (entityFree === null || (entityFree && entity.isPending) || coverage.awaited || directory.awaited);
  return useMemo(() => {
    if (checking) return COVERAGE_CHECKING;
    if (areaUid === null || rows.length === 0) return null;
    return coverageGap(rows, areaUid, answer, jurisdictionsByArea(directory.data ?? []));
  }, [checking, areaUid, rows, answer, directory.data]);
}
