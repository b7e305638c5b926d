// The Assignments view: every assignment (the workfiles), and one assignment's page: its details
// (editable), the answers kept with it (each opens again free, from the local store), what it has
// spent against its cap, and its workfile to export or import so a reviewer reads the same answers on
// another machine, each labelled as the file's until a re-check buys it from the service.
import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AssignmentAnswer, Project } from '../../../shared/ipc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { formatDateTime, formatDay } from '../../../shared/format-date.ts';
import { callPlat } from '../../platform/plat.ts';
import { refreshAssignment, useAssignment } from '../../platform/assignment-queries.ts';
import { useProjects } from '../../platform/core-queries.ts';
import { assignmentAnswerQueryKey, assignmentsQueryScope, pricingQueryScope, projectsQueryKey } from '../../platform/query-keys.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { downloadTextFile } from '../../components/download.ts';
import { HiddenFileInput } from '../../components/HiddenFileInput.tsx';
import { usdInputText, parseOptionalUsd } from '../../components/usd-input.ts';
import { ActionForm } from '../../components/ActionForm.tsx';
import { useUiStore } from '../../app/ui-store.ts';
import { AssignmentFields } from './AssignmentFields.tsx';
import { ImportedAnswers } from './ImportedAnswers.tsx';
import { assignmentsOf, checkDetailsEdit, draftOf, operationLabel, type AssignmentDraft, type DraftErrors } from './assignment-model.ts';
import { useImportNotice } from './import-notice.ts';
import './assignments.css';

// A workfile travels as one JSON string on the bridge (importAssignment takes up to 15 MiB).
const MAX_WORKFILE_BYTES = 15 * 1024 * 1024;

export function AssignmentsView() {
  const openId = useUiStore((state) => state.openAssignmentId);
  return openId ? <AssignmentPage key={openId} assignmentId={openId} /> : <AssignmentList />;
}

// ---------------------------------------------------------------------------------------------
// The list

interface AssignmentRow extends Project {
  active: boolean;
}

function AssignmentList() {
  const projects = useProjects();
  const openAssignment = useUiStore((state) => state.openAssignment);
  const activeId = projects.data?.activeProjectId ?? null;
  const rows: AssignmentRow[] = assignmentsOf(projects.data?.projects ?? []).map((project) => ({ ...project, active: project.id === activeId }));
  const columns: Column<AssignmentRow>[] = [
    {
      id: 'name',
      header: 'Assignment',
      text: (row) => row.name,
      render: (row) => (
        <>
          <button type="button" className="link-button" onClick={() => openAssignment(row.id)}>
            {row.name}
          </button>
          {row.active && <span className="assignment-badge assignment-badge--active">Active</span>}
          {row.archived && <span className="assignment-badge">Archived</span>}
        </>
      ),
    },
    { id: 'subject', header: 'Subject', text: (row) => row.assignment?.subjectLabel ?? '' },
    { id: 'effective', header: 'Effective', text: (row) => row.assignment?.effectiveDate ?? '' },
    { id: 'client', header: 'Client', text: (row) => row.assignment?.client ?? '' },
    { id: 'created', header: 'Started', text: (row) => formatDay(row.createdAt), sortValue: (row) => row.createdAt },
  ];
  return (
    <div className="assignments stack gap-3">
      {projects.isError && <ErrorNotice error={projects.error} onRetry={() => void projects.refetch()} />}
      <div className="assignments__toolbar">
        <p className="muted">Start an assignment from a property page (Ctrl+K finds the property). Import a workfile someone sent you to read its answers: they stay in that assignment, labelled as the file’s, until you re-check them.</p>
        <ImportWorkfile />
      </div>
      <DataTable
        label="Assignments"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        onOpen={(row) => openAssignment(row.id)}
        empty={projects.isPending ? 'Loading assignments…' : 'No assignments yet. Open a property and choose “Start an assignment”.'}
        initialSort={{ columnId: 'created', direction: 'desc' }}
      />
    </div>
  );
}

function ImportWorkfile() {
  const queryClient = useQueryClient();
  const openAssignment = useUiStore((state) => state.openAssignment);
  const inputRef = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const showImportNotice = useImportNotice((state) => state.show);
  const importing = useMutation({
    mutationFn: (file: { json: string; fileName: string }) => callPlat('importAssignment', file),
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      void queryClient.invalidateQueries({ queryKey: pricingQueryScope });
      showImportNotice(project.id, project.workfileSignature);
      openAssignment(project.id);
    },
  });
  const take = async (file: File | undefined) => {
    if (!file) return;
    importing.reset();
    if (file.size > MAX_WORKFILE_BYTES) {
      setProblem(`“${file.name}” is ${(file.size / (1024 * 1024)).toFixed(1)} MB; a workfile Plat can import is at most 15 MB.`);
      return;
    }
    const text = await file.text();
    if (text.trim().length < 2) {
      setProblem(`“${file.name}” is empty: choose the workfile (.json) Plat exported.`);
      return;
    }
    setProblem(null);
    importing.mutate({ json: text, fileName: file.name });
  };
  return (
    <div className="assignments__import stack align-end">
      <button type="button" className="button" disabled={importing.isPending} onClick={() => inputRef.current?.click()}>
        {importing.isPending ? 'Importing…' : 'Import workfile…'}
      </button>
      <HiddenFileInput inputRef={inputRef} accept="application/json,.json" label="Workfile to import" onFiles={(files) => void take(files?.[0])} />
      {problem && (
        <p className="notice notice--error" role="alert">
          {problem}
        </p>
      )}
      {importing.isError && <ErrorNotice error={importing.error} compact />}
    </div>
  );
}

/** Whose signature the workfile this assignment was just imported from carried. */
function ImportedSignature({ assignmentId }: { assignmentId: string }) {
  const notice = useImportNotice((state) => state.notice);
  const dismiss = useImportNotice((state) => state.dismiss);
  if (notice?.assignmentId !== assignmentId) return null;
  const { signature } = notice;
  return (
    <div className={`notice${signature.status === 'this-installation' ? '' : ' notice--warning'} assignment-page__imported`} role="status" data-testid="import-signature" data-signature={signature.status}>
      <p>
        <strong>Imported from a workfile.</strong> {signature.message}
      </p>
      <button type="button" className="button button--small" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// One assignment

function AssignmentPage({ assignmentId }: { assignmentId: string }) {
  const queryClient = useQueryClient();
  const assignment = useAssignment(assignmentId);
  const projects = useProjects();
  const openAssignment = useUiStore((state) => state.openAssignment);
  const openView = useUiStore((state) => state.openView);
  const openEntity = useUiStore((state) => state.openEntity);
  const [editing, setEditing] = useState(false);
  const [openAnswerId, setOpenAnswerId] = useState<string | null>(null);

  const afterChange = () => {
    void refreshAssignment(queryClient, assignmentId);
    void queryClient.invalidateQueries({ queryKey: assignmentsQueryScope });
  };
  const setActive = useMutation({ mutationFn: (id: string | null) => callPlat('setActiveProject', { id }), onSuccess: afterChange });
  const archive = useMutation({ mutationFn: (archived: boolean) => callPlat('updateProject', { id: assignmentId, archived }), onSuccess: afterChange });
  const exportFile = useMutation({
    mutationFn: () => callPlat('exportAssignment', { id: assignmentId }),
    onSuccess: (file) => downloadTextFile(file.filename, file.json, 'application/json'),
  });

  const back = (
    <button type="button" className="button button--small" onClick={() => openAssignment(null)}>
      ← All assignments
    </button>
  );
  if (assignment.isError) {
    return (
      <div className="assignment-page stack gap-4">
        {back}
        <ErrorNotice error={assignment.error} onRetry={() => void assignment.refetch()} />
      </div>
    );
  }
  if (!assignment.data) {
    return (
      <div className="assignment-page stack gap-4">
        {back}
        <p className="muted">Opening the assignment…</p>
      </div>
    );
  }
  const { project, answers, spentMicroUsd, choices, imported } = assignment.data;
  const details = project.assignment;
  const active = projects.data?.activeProjectId === project.id;
  const capLeft = project.capMicroUsd === null ? null : Math.max(0, project.capMicroUsd - spentMicroUsd);
  const fraction = project.capMicroUsd === null ? null : project.capMicroUsd === 0 ? 1 : Math.min(1, spentMicroUsd / project.capMicroUsd);

  return (
    <div className="assignment-page stack gap-4" data-testid="assignment-page">
      <nav className="assignment-page__nav">{back}</nav>
      <ImportedSignature assignmentId={project.id} />
      <header className="assignment-page__header">
        <div>
          <h2 className="assignment-page__title">
            {project.name}
            {active && <span className="assignment-badge assignment-badge--active">Active</span>}
            {project.archived && <span className="assignment-badge">Archived</span>}
          </h2>
          {details && (
            <p className="assignment-page__subject">
              Subject{' '}
              <button type="button" className="link-button" onClick={() => openEntity(details.subjectRef)}>
                {details.subjectLabel || details.subjectRef}
              </button>{' '}
              · effective {details.effectiveDate}
            </p>
          )}
        </div>
        <div className="assignment-page__actions">
          {active ? (
            <button type="button" className="button button--primary" onClick={() => openView('report')}>
              Open the report
            </button>
          ) : (
            <button type="button" className="button button--primary" disabled={setActive.isPending || project.archived} onClick={() => setActive.mutate(project.id)}>
              Make active
            </button>
          )}
          <button type="button" className="button" disabled={exportFile.isPending} onClick={() => exportFile.mutate()}>
            {exportFile.isPending ? 'Exporting…' : 'Export workfile'}
          </button>
          <button
            type="button"
            className="button"
            disabled={archive.isPending}
            onClick={() => {
              if (active && !project.archived) setActive.mutate(null);
              archive.mutate(!project.archived);
            }}
          >
            {project.archived ? 'Reopen' : 'Archive'}
          </button>
        </div>
      </header>
      {[setActive, archive, exportFile].map((mutation, index) => (mutation.isError ? <ErrorNotice key={index} error={mutation.error} compact /> : null))}
      {exportFile.isSuccess && (
        <p className="muted" role="status">
          Exported “{exportFile.data.filename}”: {answers.length} {answers.length === 1 ? 'answer' : 'answers'} with their citations. Imported elsewhere, its answers open labelled as received in this file.
        </p>
      )}

      {imported && <ImportedAnswers assignmentId={assignmentId} imported={imported} />}

      <section className="assignment-spend" aria-label="Spent against the cap">
        <p>
          <strong data-testid="assignment-spent">{formatUsd(spentMicroUsd)}</strong> spent
          {project.capMicroUsd === null ? ' · no cap' : ` of a ${formatUsd(project.capMicroUsd)} cap · ${formatUsd(capLeft ?? 0)} left`}
          {choices.length > 0 && ` · ${choices.length} ${choices.length === 1 ? 'value' : 'values'} chosen by the appraiser`}
        </p>
        {fraction !== null && (
          <div className="assignment-spend__bar" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(fraction * 100)} aria-label="Share of the cap spent">
            <span style={{ width: `${fraction * 100}%` }} className={fraction >= 1 ? 'assignment-spend__fill--full' : undefined} />
          </div>
        )}
      </section>

      {details &&
        (editing ? (
          <EditDetails project={project} onDone={() => setEditing(false)} />
        ) : (
          <section className="assignment-details" aria-labelledby="assignment-details-title">
            <header className="assignment-section__header">
              <h3 id="assignment-details-title">Details</h3>
              <button type="button" className="button button--small" onClick={() => setEditing(true)}>
                Change details…
              </button>
            </header>
            <dl className="facts assignment-details__list">
              <dt>Intended use</dt>
              <dd>{details.intendedUse || <span className="muted">Not given</span>}</dd>
              <dt>Client</dt>
              <dd>{details.client || <span className="muted">Not given</span>}</dd>
              <dt>Reference</dt>
              <dd>{details.reference || <span className="muted">Not given</span>}</dd>
              <dt>Started</dt>
              <dd>{formatDateTime(project.createdAt)}</dd>
              <dt>Notes</dt>
              <dd className="assignment-details__notes">{details.notes || <span className="muted">None</span>}</dd>
            </dl>
          </section>
        ))}

      <AnswersSection assignmentId={assignmentId} answers={answers} openAnswerId={openAnswerId} onOpen={setOpenAnswerId} />
    </div>
  );
}

function EditDetails({ project, onDone }: { project: Project; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<AssignmentDraft>(() => ({ ...draftOf(project), cap: usdInputText(project.capMicroUsd) }));
  const [errors, setErrors] = useState<DraftErrors>({});
  const save = useMutation({
    mutationFn: async (change: { name: string; capMicroUsd: number | null; details: Record<string, string> }) => {
      if (change.name !== project.name || change.capMicroUsd !== project.capMicroUsd) {
        await callPlat('updateProject', { id: project.id, name: change.name, capMicroUsd: change.capMicroUsd });
      }
      if (Object.keys(change.details).length > 0) await callPlat('updateAssignment', { id: project.id, details: change.details });
    },
    onSuccess: () => {
      void refreshAssignment(queryClient, project.id);
      onDone();
    },
  });
  const submit = () => {
    if (!project.assignment) return;
    const checked = checkDetailsEdit(draft, project.assignment);
    const cap = parseOptionalUsd(draft.cap, 'Cap');
    const nextErrors: DraftErrors = checked.ok ? {} : { ...checked.errors };
    if (!cap.ok) nextErrors.cap = cap.error;
    setErrors(nextErrors);
    if (!checked.ok || !cap.ok) return;
    save.mutate({ name: checked.value.name, capMicroUsd: cap.value, details: checked.value.details as Record<string, string> });
  };
  return (
    <section className="assignment-details assignment-details--editing" aria-labelledby="assignment-edit-title">
      <ActionForm
        noValidate
        onSubmit={submit}
      >
        <header className="assignment-section__header">
          <h3 id="assignment-edit-title">Change details</h3>
        </header>
        <AssignmentFields draft={draft} errors={errors} onChange={setDraft} withCap />
        {save.isError && <ErrorNotice error={save.error} compact />}
        <p className="assignment-details__actions">
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save details'}
          </button>
        </p>
      </ActionForm>
    </section>
  );
}

function AnswersSection(props: { assignmentId: string; answers: AssignmentAnswer[]; openAnswerId: string | null; onOpen: (id: string | null) => void }) {
  const columns: Column<AssignmentAnswer>[] = [
    { id: 'at', header: 'Time', text: (row) => formatDateTime(row.at), sortValue: (row) => row.at },
    {
      id: 'what',
      header: 'What was asked',
      text: (row) => `${row.label} ${row.parameters}`,
      render: (row) => (
        <>
          <button type="button" className="link-button" onClick={() => props.onOpen(row.id)}>
            {row.label}
          </button>
          <span className="assignment-answers__params mono">{row.parameters}</span>
          {row.receivedIn && <span className="assignment-answers__received">{row.receivedIn}</span>}
        </>
      ),
    },
    { id: 'operation', header: 'Operation', text: (row) => operationLabel(row.operation) },
    {
      id: 'cost',
      header: 'Cost',
      align: 'right',
      // An imported answer's charge is what the file says was paid where it was exported, not a charge here.
      text: (row) => `${formatUsd(row.chargedMicroUsd)}${row.receivedIn ? ' (as the file says)' : row.cacheHit ? ' (cached)' : ''}`,
      sortValue: (row) => row.chargedMicroUsd,
    },
    { id: 'citations', header: 'Citations', align: 'right', text: (row) => String(row.citationCount), sortValue: (row) => row.citationCount },
  ];
  return (
    <section className="assignment-answers" aria-labelledby="assignment-answers-title">
      <header className="assignment-section__header">
        <h3 id="assignment-answers-title">Answers kept with this assignment</h3>
        <span className="muted">Each opens again free, from Plat’s own store — also with the service unreachable.</span>
      </header>
      <DataTable
        label="Answers kept with this assignment"
        columns={columns}
        rows={props.answers}
        rowKey={(row) => row.id}
        onOpen={(row) => props.onOpen(row.id)}
        empty="Nothing bought for this assignment yet. While it is active, every answer you buy is kept here."
        initialSort={{ columnId: 'at', direction: 'desc' }}
      />
      {props.openAnswerId && <KeptAnswer assignmentId={props.assignmentId} answerId={props.openAnswerId} onClose={() => props.onOpen(null)} />}
    </section>
  );
}

function KeptAnswer(props: { assignmentId: string; answerId: string; onClose: () => void }) {
  const answer = useQuery({
    queryKey: assignmentAnswerQueryKey(props.assignmentId, props.answerId),
    queryFn: () => callPlat('getAssignmentAnswer', { id: props.assignmentId, answerId: props.answerId }),
  });
  return (
    <section className="assignment-kept" aria-labelledby="assignment-kept-title" data-testid="kept-answer">
      <header className="assignment-section__header">
        <h3 id="assignment-kept-title">{answer.data?.answer.label ?? 'Kept answer'}</h3>
        <button type="button" className="button button--small" onClick={props.onClose}>
          Close
        </button>
      </header>
      {answer.isError && <ErrorNotice error={answer.error} />}
      {answer.data && (
        <>
          <p className="muted">
            {operationLabel(answer.data.answer.operation)} · asked {formatDateTime(answer.data.answer.at)} ·{' '}
            {answer.data.answer.cacheHit ? 'served from the cache' : `charged ${formatUsd(answer.data.answer.chargedMicroUsd)}`}
            {answer.data.answer.requestId ? ` · request ${answer.data.answer.requestId}` : ''} · opened free from Plat’s store
          </p>
          {answer.data.answer.receivedIn && <p className="notice notice--warning">{answer.data.answer.receivedIn}: not bought by this Plat.</p>}
          <pre className="assignment-kept__envelope">{JSON.stringify(answer.data.envelope, null, 2)}</pre>
        </>
      )}
    </section>
  );
}
