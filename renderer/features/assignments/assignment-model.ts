// Pure logic of assignments in the renderer: which pages may start one, the form's defaults, and
// reading the form into the createAssignment / updateAssignment requests with a message per field
// that says what is wrong (the core checks again; nothing invalid is sent).
import type { AssignmentDetails, IpcRequest, Project } from '../../../shared/ipc.ts';
import { entityPrefix, isIsoDate } from '../../../shared/service/common.ts';
import { parseOptionalUsd } from '../../components/usd-input.ts';

/** The entity kinds an assignment can be about (a property, a parcel, a unit or a tax account). */
export function canBeSubject(entityId: string): boolean {
  const prefix = entityPrefix(entityId);
  return prefix === 'prop' || prefix === 'parc' || prefix === 'unit' || prefix === 'acct';
}


export interface AssignmentDraft {
  name: string;
  effectiveDate: string;
  intendedUse: string;
  client: string;
  reference: string;
  notes: string;
  cap: string;
}

/** What the form starts with: named after the subject, effective today, everything else empty. */
export function newAssignmentDraft(subjectLabel: string, today: string): AssignmentDraft {
  return { name: subjectLabel.slice(0, 120), effectiveDate: today, intendedUse: '', client: '', reference: '', notes: '', cap: '' };
}

export function draftOf(project: Project): AssignmentDraft {
  const details = project.assignment;
  return {
    name: project.name,
    effectiveDate: details?.effectiveDate ?? '',
    intendedUse: details?.intendedUse ?? '',
    client: details?.client ?? '',
    reference: details?.reference ?? '',
    notes: details?.notes ?? '',
    cap: '',
  };
}

export type DraftErrors = Partial<Record<keyof AssignmentDraft, string>>;

// The contract's limits (shared/ipc.ts AssignmentDetailsSchema, createAssignment's name).
const LIMITS = { name: 120, intendedUse: 500, client: 300, reference: 120, notes: 20_000 } as const;
const LABELS = { name: 'Name', intendedUse: 'Intended use', client: 'Client', reference: 'Reference', notes: 'Notes' } as const;

function checkCommon(draft: AssignmentDraft, errors: DraftErrors): void {
  if (draft.name.trim() === '') errors.name = 'Name the assignment (the subject’s address is a good name).';
  for (const key of Object.keys(LIMITS) as Array<keyof typeof LIMITS>) {
    const length = key === 'name' ? draft.name.trim().length : draft[key].length;
    if (length > LIMITS[key]) errors[key] = `${LABELS[key]}: at most ${LIMITS[key].toLocaleString('en-US')} characters (it has ${length.toLocaleString('en-US')}).`;
  }
  const date = draft.effectiveDate.trim();
  if (date === '') errors.effectiveDate = 'Give the effective date (YYYY-MM-DD): comparables and “as of” are judged against it.';
  else if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isIsoDate(date)) errors.effectiveDate = `“${date}” is not a date that exists: write it as YYYY-MM-DD.`;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: DraftErrors };

export function checkNewAssignment(
  draft: AssignmentDraft,
  subject: { subjectRef: string; subjectLabel: string },
): Checked<IpcRequest<'createAssignment'>> {
  const errors: DraftErrors = {};
  checkCommon(draft, errors);
  const cap = parseOptionalUsd(draft.cap, 'Cap');
  if (!cap.ok) errors.cap = cap.error;
  if (Object.keys(errors).length > 0 || !cap.ok) return { ok: false, errors };
  return {
    ok: true,
    value: {
      name: draft.name.trim(),
      capMicroUsd: cap.value,
      details: {
        subjectRef: subject.subjectRef,
        subjectLabel: subject.subjectLabel.slice(0, 300),
        effectiveDate: draft.effectiveDate.trim(),
        intendedUse: draft.intendedUse.trim(),
        client: draft.client.trim(),
        reference: draft.reference.trim(),
        notes: draft.notes,
      },
      activate: true,
    },
  };
}

/** The details that changed (the name and cap are the project's, changed with updateProject). */
export function checkDetailsEdit(draft: AssignmentDraft, current: AssignmentDetails): Checked<{ name: string; details: Partial<AssignmentDetails> }> {
  const errors: DraftErrors = {};
  checkCommon(draft, errors);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const next = {
    effectiveDate: draft.effectiveDate.trim(),
    intendedUse: draft.intendedUse.trim(),
    client: draft.client.trim(),
    reference: draft.reference.trim(),
    notes: draft.notes,
  };
  const details: Partial<AssignmentDetails> = {};
  for (const key of Object.keys(next) as Array<keyof typeof next>) if (next[key] !== current[key]) details[key] = next[key];
  return { ok: true, value: { name: draft.name.trim(), details } };
}

/** Assignments first by whether they are open, then newest first. */
export function assignmentsOf(projects: Project[]): Project[] {
  return projects
    .filter((project) => project.assignment !== null)
    .sort((a, b) => Number(a.archived) - Number(b.archived) || b.createdAt.localeCompare(a.createdAt));
}

/** The operation's name for a person ("v3.recordQuery" → "Record query (v3)"). */
export function operationLabel(operation: string): string {
  const match = /^(v\d)\.(.+)$/.exec(operation);
  if (!match) return operation;
  const words = match[2]!.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} (${match[1]})`;
}
