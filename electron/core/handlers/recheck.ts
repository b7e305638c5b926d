// Re-checking an imported assignment: what a workfile brought is the file's word, so the person may buy
// each of its answers again from the service (the priced button of the assignment page; never
// automatic). The purchases go through the observed call like any other: booked in the ledger,
// charged to this assignment (made the active one first) and kept with it, in place of the file's.
import type { IpcHandlers } from '../ipc-dispatch.ts';
import type { ProjectStore } from '../projects.ts';
import type { AssignmentService } from '../assignments/assignments.ts';
import type { GatewayAnswer, GatewayCall } from '../service-gateway.ts';

export function recheckHandlers(deps: {
  ready: Promise<void>;
  projects: ProjectStore;
  assignments: AssignmentService;
  /** The gateway's call, observed by the core (connection state, the active assignment keeps the answer). */
  call: (call: GatewayCall) => Promise<GatewayAnswer>;
}): Pick<IpcHandlers, 'recheckImportedAnswers'> {
  return {
    recheckImportedAnswers: async (request, context) => {
      await deps.ready;
      // Asked of the assignment the person is looking at: its purchases are its own.
      return deps.assignments.recheckImported(request.assignmentId, {
        activate: () => deps.projects.setActiveProjectId(request.assignmentId),
        buy: (operation, parts) => deps.call({ operation, parts, refresh: true, confirmed: request.confirmed, signal: context.signal }),
      });
    },
  };
}
