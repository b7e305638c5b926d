import { useMemo } from 'react';
import { ownerAreaFor } from '../../components/owner-lookup.ts';
import { useOwnerCoverage } from '../../components/owner-coverage.ts';
import { useGraphStore } from './graph-store.ts';

/** The areas whose rolls publish owner names (a free catalog answer): owner names are searched in one of them. */
export function useOwnerArea(rootArea: string | null): { areaUid: string | null; areas: Array<{ areaUid: string; name: string }>; loading: boolean } {
  const coverage = useOwnerCoverage();
  const chosen = useGraphStore((state) => state.ownerAreaUid);
  const areas = useMemo(() => coverage.data?.searchable ?? [], [coverage.data]);
  // The area picked here, else the one the owner was opened in (an owner page's), else the first.
  const areaUid = (chosen === null ? null : areas.find((area) => area.areaUid === chosen)?.areaUid) ?? ownerAreaFor(areas, rootArea)?.areaUid ?? areas[0]?.areaUid ?? null;
  return { areaUid, areas, loading: coverage.isPending };
}
