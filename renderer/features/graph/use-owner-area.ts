import { useMemo } from 'react';
import { ownerAreaFor } from '../../components/owner-lookup.ts';
import { useOwnerCoverage } from '../../components/owner-coverage.ts';
import type { CallOptions } from '../../platform/service-calls.ts';
import { useGraphStore } from './graph-store.ts';

/**
 * The areas whose rolls publish owner names (the v2 catalog's coverage): owner names are searched in
 * one of them. Read by itself only where it is known to be free; otherwise `unread` until `read` (a
 * priced button's click) buys it.
 */
export function useOwnerArea(rootArea: string | null): {
  areaUid: string | null;
  areas: Array<{ areaUid: string; name: string }>;
  loading: boolean;
  unread: boolean;
  read: (options: CallOptions) => void;
} {
  const coverage = useOwnerCoverage();
  const chosen = useGraphStore((state) => state.ownerAreaUid);
  const areas = useMemo(() => coverage.data?.searchable ?? [], [coverage.data]);
  // The area picked here, else the one the owner was opened in (an owner page's), else the first.
  const areaUid = (chosen === null ? null : areas.find((area) => area.areaUid === chosen)?.areaUid) ?? ownerAreaFor(areas, rootArea)?.areaUid ?? areas[0]?.areaUid ?? null;
  return {
    areaUid,
    areas,
    loading: coverage.isPending && coverage.fetchStatus !== 'idle',
    unread: coverage.isPending && coverage.fetchStatus === 'idle' && !coverage.isError,
    read: coverage.read,
  };
}
