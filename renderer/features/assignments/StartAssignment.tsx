// "Start an assignment" on a property page: a short form (named after the subject, effective today),
// and the new assignment becomes the active one, so everything bought from now on is kept with it.
// When the page's entity is already the active assignment's subject, the page says so instead.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IpcRequest } from '../../../shared/ipc.ts';
import { callPlat } from '../../platform/plat.ts';
import { useProjects } from '../../platform/core-queries.ts';
import { assignmentsQueryScope, pricingQueryScope, projectsQueryKey } from '../../platform/query-keys.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { DialogFormActions, useModalDialog } from '../../components/Dialog.tsx';
import { useUiStore } from '../../app/ui-store.ts';
import { AssignmentFields } from './AssignmentFields.tsx';
import { canBeSubject, checkNewAssignment, newAssignmentDraft, type AssignmentDraft, type DraftErrors } from './assignment-model.ts';
import { localToday } from '../../../shared/format-date.ts';
import './assignments.css';

export function StartAssignment({ entityId, caption }: { entityId: string; caption: string | undefined }) {
  const projects = useProjects();
  const openView = useUiStore((state) => state.openView);
  const openAssignment = useUiStore((state) => state.openAssignment);
  const [open, setOpen] = useState(false);
  if (!canBeSubject(entityId)) return null;
  const active = projects.data?.projects.find((project) => project.id === projects.data?.activeProjectId) ?? null;
  const isSubject = active?.assignment?.subjectRef === entityId;
  return (
    <div className="start-assignment" data-testid="start-assignment">
      {isSubject && active ? (
        <p className="start-assignment__active">
          <span className="start-assignment__badge">Subject</span> of the active assignment <strong>{active.name}</strong>.{' '}
          <button type="button" className="link-button" onClick={() => openView('report')}>
            Open the report
          </button>{' '}
          ·{' '}
          <button type="button" className="link-button" onClick={() => openAssignment(active.id)}>
            Open the assignment
          </button>
        </p>
      ) : (
        <button type="button" className="button" onClick={() => setOpen(true)}>
          Start an assignment…
        </button>
      )}
      {open && <StartAssignmentDialog entityId={entityId} caption={caption} onClose={() => setOpen(false)} />}
    </div>
  );
}

function StartAssignmentDialog(props: { entityId: string; caption: string | undefined; onClose: () => void }) {
  const queryClient = useQueryClient();
  const openView = useUiStore((state) => state.openView);
  // Shown as soon as it is mounted: the page mounts it to open it.
  const dialogRef = useModalDialog(true);
  const subjectLabel = props.caption ?? props.entityId;
  const [draft, setDraft] = useState<AssignmentDraft>(() => newAssignmentDraft(subjectLabel, localToday()));
  const [errors, setErrors] = useState<DraftErrors>({});

  const create = useMutation({
    mutationFn: (request: IpcRequest<'createAssignment'>) => callPlat('createAssignment', request),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      void queryClient.invalidateQueries({ queryKey: assignmentsQueryScope });
      // The active project changed: caps and prices shown beside buttons may too.
      void queryClient.invalidateQueries({ queryKey: pricingQueryScope });
    },
  });

  const submit = () => {
    const checked = checkNewAssignment(draft, { subjectRef: props.entityId, subjectLabel });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    create.mutate(checked.value);
  };

  return (
    <dialog ref={dialogRef} className="confirm-dialog confirm-dialog--wide assignment-dialog" aria-labelledby="start-assignment-title" onClose={props.onClose}>
      {create.isSuccess ? (
        <div data-testid="assignment-started">
          <h2 id="start-assignment-title">Assignment started</h2>
          <p>
            <strong>{create.data.name}</strong> is the active assignment. Everything you buy from now on is kept with it, with its cost and citations, and
            opens again free.
          </p>
          <div className="confirm-dialog__actions">
            <button type="button" className="button" onClick={props.onClose}>
              Stay here
            </button>
            <button
              type="button"
              className="button button--primary"
              autoFocus
              onClick={() => {
                props.onClose();
                openView('report');
              }}
            >
              Open the report
            </button>
          </div>
        </div>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <h2 id="start-assignment-title">Start an assignment</h2>
          <p className="muted">
            Subject: <strong>{subjectLabel}</strong> <code className="assignment-dialog__ref">{props.entityId}</code>
          </p>
          <AssignmentFields draft={draft} errors={errors} onChange={setDraft} withCap />
          {create.isError && <ErrorNotice error={create.error} compact />}
          <DialogFormActions onCancel={props.onClose} busy={create.isPending} label="Start and make active" busyLabel="Starting…" />
        </form>
      )}
    </dialog>
  );
}
