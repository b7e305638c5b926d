// Projects: one per assignment, each with an optional spending cap. The active project is charged
// for new calls and its cap is enforced; archiving keeps a finished project's history but takes it
// out of the choices.
import { useId, useMemo, useState, type ComponentProps } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IpcRequest, Project } from '../../../shared/ipc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { formatDay } from '../../../shared/format-date.ts';
import { callPlat } from '../../platform/plat.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { capAlreadyReached, parseOptionalUsd, usdInputText } from './settings-model.ts';
import { invalidatePricing, useProjects } from '../../platform/core-queries.ts';
import { projectsQueryKey, spendQueryKey } from '../../platform/query-keys.ts';
import { Outcome, SettingsSection, UsdField } from './settings-ui.tsx';
import { payerChoiceLabels } from '../../../shared/assignments/payer.ts';
import { usePayerStore } from '../../platform/payer-store.ts';
import { Field, fieldIds, TextField } from '../../components/TextField.tsx';
import { ActionForm } from '../../components/ActionForm.tsx';
import { spentAndCapColumns } from '../../components/project-columns.ts';
import { SelectOptions } from '../../components/SelectOptions.tsx';

interface ProjectRow extends Project {
  active: boolean;
  spentMicroUsd: number;
}

export function ProjectSettings() {
  const queryClient = useQueryClient();
  const projects = useProjects();
  const spend = useQuery({ queryKey: spendQueryKey, queryFn: () => callPlat('getSpend', {}) });
  const [editingId, setEditingId] = useState<string | null>(null);
  const ids = { active: useId() };

  const setActive = useMutation({
    mutationFn: (id: string | null) => callPlat('setActiveProject', { id }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      void invalidatePricing(queryClient);
    },
  });

  const list = projects.data?.projects;
  const activeId = projects.data?.activeProjectId ?? null;
  const rows: ProjectRow[] = useMemo(
    () =>
      (list ?? []).map((project) => ({
        ...project,
        active: project.id === activeId,
        spentMicroUsd: spend.data?.byProject.find((entry) => entry.projectId === project.id)?.microUsd ?? 0,
      })),
    [list, activeId, spend.data],
  );
  const open = rows.filter((row) => !row.archived);
  const editing = rows.find((row) => row.id === editingId) ?? null;

  const columns: Column<ProjectRow>[] = [
    {
      id: 'name',
      header: 'Name',
      text: (row) => row.name,
      render: (row) => (
        <>
          {row.name}
          {row.active && <span className="badge settings-badge settings-badge--active">Active</span>}
          {row.archived && <span className="badge settings-badge">Archived</span>}
        </>
      ),
    },
    ...spentAndCapColumns<ProjectRow>((row) => row.spentMicroUsd),
    { id: 'created', header: 'Created', text: (row) => formatDay(row.createdAt), sortValue: (row) => row.createdAt },
    {
      id: 'edit',
      header: 'Change',
      text: () => '',
      render: (row) => (
        <button type="button" className="button button--small" onClick={() => setEditingId(row.id)} aria-label={`Change ${row.name}`}>
          Change…
        </button>
      ),
    },
  ];

  return (
    <SettingsSection
      id="settings-projects"
      title="Projects"
      description="One project per assignment. New calls are charged to the active project (a lookup of another property asks which file pays first), and its cap is enforced like the session cap."
      reads={projects}
    >
      <div className="settings-row">
        <Field id={ids.active} label="Active project" hint="Calls made from now on are charged to it.">
          <select
            id={ids.active}
            className="input"
            value={activeId ?? ''}
            disabled={!projects.data || setActive.isPending}
            aria-describedby={fieldIds(ids.active, { hint: true }).describedBy}
            onChange={(event) => setActive.mutate(event.target.value === '' ? null : event.target.value)}
          >
            <option value="">No project</option>
            <SelectOptions items={open} value={(project) => project.id} label={(project) => project.name} />
          </select>
        </Field>
      </div>
      {setActive.isError && <ErrorNotice error={setActive.error} />}
      <RememberedPayer />
      <CreateProjectForm />
      <DataTable
        label="Projects"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        onOpen={(row) => setEditingId(row.id)}
        empty={projects.isPending ? 'Loading projects…' : 'No projects yet. Create one per assignment to keep its spending apart.'}
        initialSort={{ columnId: 'name', direction: 'asc' }}
      />
      {editing && <ProjectEditor key={editing.id} project={editing} onClose={() => setEditingId(null)} />}
    </SettingsSection>
  );
}

/** A project's name, as typed when creating the project and when changing it. */
function ProjectNameField(props: Omit<ComponentProps<typeof TextField>, 'wide' | 'inputClassName'>) {
  return <TextField {...props} wide inputClassName="settings-input--name" />;
}

function CreateProjectForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [capText, setCapText] = useState('');
  const [errors, setErrors] = useState<{ name?: string; cap?: string }>({});
  const [created, setCreated] = useState<string | null>(null);
  const ids = { name: useId(), cap: useId() };

  const create = useMutation({
    mutationFn: (request: IpcRequest<'createProject'>) => callPlat('createProject', request),
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      setCreated(`Created “${project.name}”. Choose it as the active project to charge calls to it.`);
      setName('');
      setCapText('');
    },
  });

  const submit = () => {
    const trimmed = name.trim();
    const cap = parseOptionalUsd(capText, 'Cap');
    const nextErrors = {
      ...(trimmed === '' ? { name: 'Give the project a name (up to 120 characters).' } : {}),
      ...([...trimmed].length > 120 ? { name: 'A project name has at most 120 characters.' } : {}),
      ...(cap.ok ? {} : { cap: cap.error }),
    };
    setErrors(nextErrors);
    if (nextErrors.name || !cap.ok) return;
    setCreated(null);
    create.mutate({ name: trimmed, capMicroUsd: cap.value });
  };

  return (
    <ActionForm
      className="settings-form settings-form--inline stack gap-3"
      aria-label="New project"
      onSubmit={submit}
    >
      <div className="settings-row">
        <ProjectNameField
          id={ids.name}
          label="New project"
          error={errors.name ?? null}
          placeholder="e.g. 1234 Main St appraisal"
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setCreated(null);
          }}
        />
        <UsdField id={ids.cap} label="Cap (optional)" error={errors.cap ?? null} hint="Empty: no cap." value={capText} placeholder="No cap" onChange={setCapText} />
        <div className="settings-row__action">
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create project'}
          </button>
        </div>
      </div>
      {created && <Outcome tone="ok">{created}</Outcome>}
      {create.isError && <ErrorNotice error={create.error} />}
    </ActionForm>
  );
}

function ProjectEditor({ project, onClose }: { project: ProjectRow; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(project.name);
  const [capText, setCapText] = useState(usdInputText(project.capMicroUsd));
  const [errors, setErrors] = useState<{ name?: string; cap?: string }>({});
  const [note, setNote] = useState<string | null>(null);
  const [noteWarns, setNoteWarns] = useState(false);
  const ids = { name: useId(), cap: useId(), title: useId() };

  const update = useMutation({
    mutationFn: (request: IpcRequest<'updateProject'>) => callPlat('updateProject', request),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      void invalidatePricing(queryClient);
    },
  });
  const activate = useMutation({
    mutationFn: () => callPlat('setActiveProject', { id: project.id }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      void invalidatePricing(queryClient);
    },
  });

  const save = () => {
    const trimmed = name.trim();
    const cap = parseOptionalUsd(capText, 'Cap');
    const nextErrors = {
      ...(trimmed === '' ? { name: 'A project needs a name.' } : {}),
      ...(cap.ok ? {} : { cap: cap.error }),
    };
    setErrors(nextErrors);
    if (nextErrors.name || !cap.ok) return;
    const request: IpcRequest<'updateProject'> = { id: project.id };
    if (trimmed !== project.name) request.name = trimmed;
    if (cap.value !== project.capMicroUsd) request.capMicroUsd = cap.value;
    if (request.name === undefined && request.capMicroUsd === undefined) {
      setNote('Nothing changed.');
      setNoteWarns(false);
      return;
    }
    setNote(null);
    setNoteWarns(false);
    update.mutate(request, {
      onSuccess: (saved) => {
        const reached = capAlreadyReached('project', saved.capMicroUsd, project.spentMicroUsd) !== null;
        setNote(reached ? `Saved “${saved.name}”, with a cap this project has already reached.` : `Saved “${saved.name}”.`);
        setNoteWarns(reached);
      },
    });
  };

  // Said beside the field as it is typed: a cap already reached stops every charged call for the project.
  const typedCap = parseOptionalUsd(capText, 'Cap');
  const capReached = typedCap.ok ? capAlreadyReached('project', typedCap.value, project.spentMicroUsd) : null;
  return (
    <ActionForm
      className="settings-editor stack gap-3"
      aria-labelledby={ids.title}
      onSubmit={save}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <h3 id={ids.title}>
        Change “{project.name}”{project.archived && <span className="badge settings-badge">Archived</span>}
        {project.active && <span className="badge settings-badge settings-badge--active">Active</span>}
      </h3>
      <div className="settings-row">
        <ProjectNameField
          id={ids.name}
          label="Name"
          error={errors.name ?? null}
          value={name}
          autoFocus
          onChange={(event) => setName(event.target.value)}
        />
        <UsdField
          id={ids.cap}
          label="Cap"
          error={errors.cap ?? null}
          warning={capReached}
          hint={`Spent so far: ${formatUsd(project.spentMicroUsd)}. Empty: no cap.`}
          value={capText}
          placeholder="No cap"
          onChange={setCapText}
        />
      </div>
      <div className="settings-actions cluster">
        <button type="submit" className="button button--primary" disabled={update.isPending}>
          Save changes
        </button>
        {!project.archived && !project.active && (
          <button type="button" className="button" disabled={activate.isPending} onClick={() => activate.mutate()}>
            Make active
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={update.isPending}
          onClick={() =>
            update.mutate(
              { id: project.id, archived: !project.archived },
              {
                onSuccess: (saved) => {
                  setNote(saved.archived ? `Archived “${saved.name}”. Its spending stays in the ledger.` : `Restored “${saved.name}”.`);
                  setNoteWarns(false);
                },
              },
            )
          }
        >
          {project.archived ? 'Restore' : 'Archive'}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      {note && <Outcome tone={noteWarns ? 'warning' : 'ok'}>{note}</Outcome>}
      {update.isError && <ErrorNotice error={update.error} />}
      {activate.isError && <ErrorNotice error={activate.error} />}
    </ActionForm>
  );
}

/** The file that pays for lookups of other properties, when the person asked not to be asked again this session. */
function RememberedPayer() {
  const remembered = usePayerStore((state) => state.remembered);
  const forget = usePayerStore((state) => state.forget);
  return (
    <p className="settings-row" data-testid="remembered-payer">
      {remembered === null ? (
        <span className="muted">A priced lookup of a property that is not the active assignment’s subject asks which file pays for it.</span>
      ) : (
        <>
          <span>
            This session, lookups of other properties are charged to: <strong>{payerChoiceLabels[remembered]}</strong> (not asked).
          </span>{' '}
          <button type="button" className="button button--small" onClick={forget}>
            Ask again
          </button>
        </>
      )}
    </p>
  );
}
