// The entity graph's decisions: the researcher confirms or cuts a link with a note, kept with the
// assignment. Both operations read or write the local store only: free, and they work with the
// service unreachable. The answers the graph is drawn from are service calls, bought and kept like any other.
import type { IpcHandlers } from '../ipc-dispatch.ts';
import type { AssignmentService } from '../assignments/assignments.ts';

export function graphHandlers(deps: { assignments: AssignmentService }): Pick<IpcHandlers, 'getGraphDecisions' | 'setGraphDecision'> {
  const { assignments } = deps;
  return {
    getGraphDecisions: async (request) => ({ decisions: assignments.graphDecisions(request.assignmentId) }),
    setGraphDecision: async (request) => ({ decisions: assignments.setGraphDecision(request.assignmentId, request.edgeKey, request.decision) }),
  };
}
