import { useMemo } from 'react';
import { ownerCoverage, ownerCoverageRequest } from '../../components/owner-lookup.ts';
import { envelopeData } from '../../components/service-data.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
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
  const areaUid = areas.find((area) => area.areaUid === (chosen ?? rootArea))?.areaUid ?? areas[0]?.areaUid ?? null;
  return {
    areaUid,
    areas,
    loading: coverage.query.isPending && coverage.query.isFetching,
    unread: coverage.query.isPending && !coverage.query.isFetching && !coverage.query.isError,
    read: (options) => void coverage.buy(options),
  };
}
