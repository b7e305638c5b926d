import { useMemo } from 'react';
import { ownerAreaFor, ownerCoverage, ownerCoverageRequest } from '../../components/owner-lookup.ts';
import { envelopeData } from '../../components/service-data.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { useGraphStore } from './graph-store.ts';

/** The areas whose rolls publish owner names (a free catalog answer): owner names are searched in one of them. */
export function useOwnerArea(rootArea: string | null): { areaUid: string | null; areas: Array<{ areaUid: string; name: string }>; loading: boolean } {
  const coverage = usePaidAnswer('getCatalogFacet', ownerCoverageRequest, { loadWhenFree: true });
  const chosen = useGraphStore((state) => state.ownerAreaUid);
  const areas = useMemo(() => {
    const data = coverage.query.data;
    if (!data) return [];
    try {
      return ownerCoverage(envelopeData(data.envelope)).searchable;
    } catch {
      return [];
    }
  }, [coverage.query.data]);
  // The area picked here, else the one the owner was opened in (an owner page's), else the first.
  const areaUid = (chosen === null ? null : areas.find((area) => area.areaUid === chosen)?.areaUid) ?? ownerAreaFor(areas, rootArea)?.areaUid ?? areas[0]?.areaUid ?? null;
  return { areaUid, areas, loading: coverage.query.isPending };
}
