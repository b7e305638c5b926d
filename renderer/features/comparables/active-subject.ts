// Whether an entity page shows the active assignment's subject, and the assignment's comparables
// (its resolved subject's answers) when it does: asked by the page's subject panel and its Summary alike.
import type { Project } from '../../../shared/ipc.ts';
import { activeAssignment } from '../../components/ActiveAssignmentGate.tsx';
import { useProjects } from '../../platform/core-queries.ts';
import { useComparables } from '../../platform/comparables-queries.ts';

type AssignmentProject = Project & { assignment: NonNullable<Project['assignment']> };

/** The active assignment when `entityId` is its subject (its comparables read only then), else null. */
export function useActiveSubject(entityId: string): { assignment: AssignmentProject; comparables: ReturnType<typeof useComparables> } | null {
  const projects = useProjects();
  const assignment = activeAssignment(projects.data);
  const isSubject = assignment?.assignment?.subjectRef === entityId;
  const comparables = useComparables(isSubject ? assignment!.id : null);
  return isSubject && assignment?.assignment ? { assignment: assignment as AssignmentProject, comparables } : null;
}
