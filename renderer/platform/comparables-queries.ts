// An assignment's comparables as the core keeps them (the workfile, the subject's kept answer, the
// current search's kept pages: free local reads that work with the service down), saving the
// workfile, and the sales dates the service holds (a free catalog answer) that tell whether an
// effective date can have comparables at all.
import type { QueryClient } from '@tanstack/react-query';
import type { ComparablesWorkfile } from '../../shared/comparables/model.ts';
import { isRecord } from '../../shared/json-data.ts';
import type { SalesCoverage } from '../../shared/comparables/effective-date.ts';
import { useAssignmentRead } from './assignment-queries.ts';
import { callPlat } from './plat.ts';
import { usePaidAnswer } from './paid-answer.ts';
import { comparablesQueryKey, pricingQueryScope, projectsQueryKey, assignmentQueryKey } from './query-keys.ts';
import type { ServiceRequestParts } from './service-calls.ts';

// Read again whenever a view shows it: a purchase made elsewhere (the subject report on the Report
// view) may have added an answer.
export function useComparables(assignmentId: string | null) {
  return useAssignmentRead(assignmentId, comparablesQueryKey, (id) => callPlat('getComparables', { assignmentId: id }));
}

export function saveComparables(assignmentId: string, workfile: ComparablesWorkfile) {
  return callPlat('saveComparables', { assignmentId, workfile });
}

/**
 * After a purchase for the comparables (a search, a page, the subject's record): the core keeps the
 * answer with the assignment, so its comparables, its page (the answers list and spend), its report
 * and the prices on screen are all read again.
 */
export async function refreshComparables(queryClient: QueryClient, assignmentId: string): Promise<void> {
  await Promise.all([
    // The assignment's key is a prefix of its comparables' and its report's: one invalidation reaches all three.
    queryClient.invalidateQueries({ queryKey: assignmentQueryKey(assignmentId) }),
    queryClient.invalidateQueries({ queryKey: projectsQueryKey }),
    queryClient.invalidateQueries({ queryKey: pricingQueryScope }),
  ]);
}

/** The catalog's description of the sales' date field (free): it carries the dates the sales span. */
export const salesDateCatalogParts: ServiceRequestParts<'queryRecords'> = { body: { mode: 'catalog', dataset: 'sales', field: 'sale_date' } };

export type { SalesCoverage };

/** The span of sale dates the catalog states, or null when its answer gives none. */
export function salesCoverageOf(envelope: unknown): SalesCoverage | null {
  const data = isRecord(envelope) && isRecord(envelope.data) ? envelope.data : null;
  const items = data && Array.isArray(data.items) ? data.items.filter(isRecord) : [];
  const row = items.find((item) => item.dataset === 'sales' && item.field === 'sale_date') ?? items.find((item) => isRecord(item.coverage));
  if (!row || !isRecord(row.coverage)) return null;
  const day = (value: unknown) => (typeof value === 'string' && value !== '' ? value.slice(0, 10) : null);
  return { earliest: day(row.coverage.earliest), latest: day(row.coverage.latest) };
}

/** The sales dates the service holds: loaded by itself where a catalog answer is known to cost nothing (Plat's own service); elsewhere not read. */
export function useSalesCoverage(): { coverage: SalesCoverage | null; loading: boolean } {
  const paid = usePaidAnswer('queryRecords', salesDateCatalogParts, { loadWhenFree: true });
  return { coverage: paid.query.data ? salesCoverageOf(paid.query.data.envelope) : null, loading: paid.query.isFetching };
}
