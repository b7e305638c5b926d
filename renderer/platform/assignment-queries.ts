// The assignment reads the Report and Assignments views share (and the print route), and what to ask
// again after a change. Assignments and reports are read from Plat's own store, never the service, so
// they are re-read whenever a view shows them: a purchase made elsewhere may have added an answer.
import { useQuery, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { callPlat } from './plat.ts';
import { assignmentQueryKey, pricingQueryScope, projectsQueryKey, subjectReportQueryKey } from './query-keys.ts';

/** Read again whenever a view shows it (see above). */
const REREAD_ON_SHOW = { staleTime: 0, refetchOnMount: 'always' } as const;

/**
 * A read of one assignment's own data from Plat's store, asked only while there is an assignment;
 * `freshness` says when it is read again (by default, whenever a view shows it).
 */
export function useAssignmentRead<T>(
  assignmentId: string | null,
  queryKey: (assignmentId: string) => QueryKey,
  read: (assignmentId: string) => Promise<T>,
  freshness: { staleTime: number; refetchOnMount?: 'always' } = REREAD_ON_SHOW,
) {
  return useQuery({
    queryKey: queryKey(assignmentId ?? ''),
    queryFn: () => read(assignmentId ?? ''),
    enabled: assignmentId !== null,
    ...freshness,
  });
}

export function useSubjectReport(assignmentId: string | null) {
  return useAssignmentRead(assignmentId, subjectReportQueryKey, (id) => callPlat('getSubjectReport', { assignmentId: id }));
}

/** After anything that changes an assignment (a purchase, a choice, new details): its page, its report and the project list. */
export async function refreshAssignment(queryClient: QueryClient, assignmentId: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: subjectReportQueryKey(assignmentId) }),
    queryClient.invalidateQueries({ queryKey: assignmentQueryKey(assignmentId) }),
    queryClient.invalidateQueries({ queryKey: projectsQueryKey }),
    queryClient.invalidateQueries({ queryKey: pricingQueryScope }),
  ]);
}

export function useAssignment(assignmentId: string | null) {
  return useAssignmentRead(assignmentId, assignmentQueryKey, (id) => callPlat('getAssignment', { id }));
}
