// The views that work on the active assignment (Report, Comparables) open the same way: loading,
// an error with a retry, or — when no assignment is active — what to do about it, in words.
import type { ReactNode } from 'react';
import type { Project } from '../../shared/ipc.ts';
import { useProjects } from '../platform/core-queries.ts';
import { useUiStore } from '../app/ui-store.ts';
import { ErrorNotice } from './ErrorNotice.tsx';

/** The active project, if it is an assignment. */
export function activeAssignment(list: { projects: Project[]; activeProjectId: string | null } | undefined): Project | null {
  if (!list?.activeProjectId) return null;
  const project = list.projects.find((candidate) => candidate.id === list.activeProjectId);
  return project?.assignment ? project : null;
}

export function ActiveAssignmentGate(props: {
  /** Why the view needs an assignment, said before how to get one. */
  purpose: string;
  testId: string;
  className: string;
  children: (assignment: Project) => ReactNode;
}) {
  const projects = useProjects();
  const assignment = activeAssignment(projects.data);
  if (projects.isError) return <ErrorNotice error={projects.error} onRetry={() => void projects.refetch()} />;
  if (projects.isPending) return <p className="muted">Loading the active assignment…</p>;
  if (!assignment) return <NoActiveAssignment purpose={props.purpose} testId={props.testId} className={props.className} />;
  return props.children(assignment);
}

function NoActiveAssignment({ purpose, testId, className }: { purpose: string; testId: string; className: string }) {
  const openView = useUiStore((state) => state.openView);
  const openAssignment = useUiStore((state) => state.openAssignment);
  return (
    <div className={className} data-testid={testId}>
      <h2>No assignment is active</h2>
      <p>
        {purpose} Find the property (Ctrl+K finds it by address, SSL, account number or owner), open it and choose <strong>Start an assignment</strong>; or
        make an existing assignment active on the Assignments page.
      </p>
      <p className={`${className}__actions`}>
        <button type="button" className="button button--primary" onClick={() => openView('search')}>
          Find a property
        </button>
        <button type="button" className="button" onClick={() => openAssignment(null)}>
          Assignments
        </button>
      </p>
    </div>
  );
}
