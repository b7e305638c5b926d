// Projects and assignments: the workfile a piece of research is for. Everything here reads or
// writes the local store only; reopening an assignment or any answer in it is free.
import type { IpcHandlers } from '../ipc-dispatch.ts';
import type { ProjectStore } from '../projects.ts';
import type { AssignmentService } from '../assignments/assignments.ts';

type ProjectHandlers = Pick<
  IpcHandlers,
  | 'listProjects'
  | 'createProject'
  | 'updateProject'
  | 'setActiveProject'
  | 'createAssignment'
  | 'updateAssignment'
  | 'getAssignment'
  | 'getAssignmentAnswer'
  | 'setValueChoice'
  | 'exportAssignment'
  | 'importAssignment'
>;

export function projectHandlers(deps: {
  projects: ProjectStore;
  assignments: AssignmentService;
  /** The service calls go to now, for the price of re-checking imported answers; null when none is usable. */
  connectionId: () => string | null;
}): ProjectHandlers {
  const { projects, assignments } = deps;
  return {
    listProjects: async () => ({ projects: assignments.ipcProjects(), activeProjectId: projects.activeProjectId() }),
    createProject: async (request) => assignments.ipcProject(projects.create({ name: request.name, spendingCapMicroUsd: request.capMicroUsd }).id),
    updateProject: async (request) => {
      if (request.name !== undefined) projects.rename(request.id, request.name);
      if (request.capMicroUsd !== undefined) projects.setSpendingCap(request.id, request.capMicroUsd);
      if (request.archived === true) projects.archive(request.id);
      if (request.archived === false) projects.restore(request.id);
      return assignments.ipcProject(request.id);
    },
    setActiveProject: async (request) => ({ activeProjectId: projects.setActiveProjectId(request.id) }),

    createAssignment: async (request) =>
      assignments.create({ name: request.name, capMicroUsd: request.capMicroUsd, details: request.details, activate: request.activate }),
    updateAssignment: async (request) => assignments.update(request.id, request.details),
    getAssignment: async (request) => assignments.get(request.id, deps.connectionId() ?? undefined),
    getAssignmentAnswer: async (request) => assignments.answer(request.id, request.answerId),
    setValueChoice: async (request) => ({ choices: assignments.setChoice(request.assignmentId, request.field, request.choice) }),
    exportAssignment: async (request) => assignments.exportWorkfile(request.id),
    importAssignment: async (request) => assignments.importWorkfile(request.json, request.fileName),
  };
}
