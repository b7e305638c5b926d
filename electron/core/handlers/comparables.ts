// Comparable sales: the appraiser's workfile of an assignment and the kept answers it reads. Both
// operations read or write the local store only: free, and they work with the service unreachable.
// The searches themselves are service calls (queryRecords), bought and kept like any other.
import type { IpcHandlers } from '../ipc-dispatch.ts';
import type { AssignmentService } from '../assignments/assignments.ts';

export function comparablesHandlers(deps: { assignments: AssignmentService }): Pick<IpcHandlers, 'getComparables' | 'saveComparables'> {
  const { assignments } = deps;
  return {
    getComparables: async (request) => assignments.comparablesSources(request.assignmentId),
    saveComparables: async (request) => ({ workfile: assignments.saveComparables(request.assignmentId, request.workfile) }),
  };
}
