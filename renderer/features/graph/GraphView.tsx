// The Graph view: parcels, accounts, addresses, units and owners around one root (the active
// assignment's subject, any entity opened with "graph", or one typed here), and why each is linked.
// The root's links come from v2 relationships and v4 connected entities (free), its record names its
// owner; an owner's other holdings come from the owner-name search (priced, shown before the click).
// Expanding a node adds only its new neighbours. The same graph is a table beside the drawing, a
// parcel's runsheet is a tab, and the researcher's confirm/cut decisions are kept with the assignment
// and drawn on the links.
import { useId, useState, type FormEvent } from 'react';
import type { Project } from '../../../shared/ipc.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { activeAssignment } from '../../components/ActiveAssignmentGate.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useProjects } from '../../platform/core-queries.ts';
import { readRoot } from './graph-model.ts';
import { RootGraph } from './RootGraph.tsx';
import './graph-view.css';

export function GraphView() {
  const projects = useProjects();
  const assignment = activeAssignment(projects.data);
  const opened = useUiStore((state) => state.graphRootId);
  const rootText = opened ?? assignment?.assignment?.subjectRef ?? null;
  if (opened === null && projects.isError) return <ErrorNotice error={projects.error} onRetry={() => void projects.refetch()} />;
  if (opened === null && projects.isPending) return <p className="muted">Loading the active assignment…</p>;
  return <GraphWorkspace key={rootText ?? 'no-root'} rootText={rootText} assignment={assignment} />;
}

function GraphWorkspace({ rootText, assignment }: { rootText: string | null; assignment: Project | null }) {
  const read = rootText === null ? null : readRoot(rootText);
  const root = read?.ok ? read.root : null;
  return (
    <div className="graph-view stack gap-3" data-testid="graph-view">
      <GraphHeader rootText={rootText} assignment={assignment} />
      {read && !read.ok && (
        <p className="notice notice--error" role="alert">
          {read.problem}
        </p>
      )}
      {rootText === null && (
        <div className="empty-state graph-empty">
          <h2>Draw a graph</h2>
          <p>
            No assignment is active, so there is no subject to start from. Type an entity id or an owner name above, or make an assignment active: its
            subject is drawn here, and the links you confirm or cut are kept with it.
          </p>
        </div>
      )}
      {root && <RootGraph root={root} assignment={assignment} />}
    </div>
  );
}

function GraphHeader({ rootText, assignment }: { rootText: string | null; assignment: Project | null }) {
  const openGraph = useUiStore((state) => state.openGraph);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { input: useId(), problem: useId() };
  const subject = assignment?.assignment ?? null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readRoot(text);
    if (!read.ok) {
      setProblem(read.problem);
      return;
    }
    setProblem(null);
    openGraph(read.root.kind === 'owner' ? `owner:${read.root.name}` : read.root.id);
  };
  return (
    <header className="view-head">
      <div className="graph-head__facts">
        {subject ? (
          <p className="view-head__meta muted">
            Assignment <strong>{assignment?.name}</strong> · subject {subject.subjectLabel || subject.subjectRef}
            {rootText !== null && rootText !== subject.subjectRef && ' · drawn from another entity'}
          </p>
        ) : (
          <p className="view-head__meta muted">No assignment is active: links can be read, not confirmed or cut.</p>
        )}
      </div>
      <form className="view-head__actions" onSubmit={submit} role="search" aria-label="Draw the graph from">
        <label htmlFor={ids.input}>Draw from</label>
        <input
          id={ids.input}
          className="input input--compact graph-head__input"
          value={text}
          placeholder="prop_…, parc_…, acct_… or an owner name"
          onChange={(event) => setText(event.target.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem ? ids.problem : undefined}
        />
        <button type="submit" className="button">
          Draw
        </button>
        {subject && rootText !== subject.subjectRef && (
          <button type="button" className="button" onClick={() => openGraph(subject.subjectRef)}>
            Back to the subject
          </button>
        )}
        {problem && (
          <span id={ids.problem} className="graph-head__problem" role="alert">
            {problem}
          </span>
        )}
      </form>
    </header>
  );
}
