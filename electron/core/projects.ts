// Projects: the assignment a piece of research is for (an appraisal, a title search). Spending is
// attributed to the active project in the ledger (its `project_id`), and each project may carry a
// hard spending cap that the budget policy enforces.
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { AssignmentDetailsSchema, type AssignmentDetails, type Project as IpcProject } from '../../shared/ipc.ts';
import { MicroUsdSchema, type MicroUsd } from '../../shared/money.ts';
import { entityPrefix, isIsoDate } from '../../shared/service/index.ts';
import { ModuleStore, inTransaction, statement } from './app-db.ts';
import { PlatFailure } from './failure.ts';
import { SettingsStore } from './settings-store.ts';

export const PROJECTS_MODULE = 'projects';

/** Append-only (see app-db.ts). */
export const PROJECTS_MIGRATIONS: readonly string[] = [
  `CREATE TABLE projects (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     -- Case- and spacing-insensitive form of the name: "Smith  Appraisal" and "smith appraisal" clash.
     name_key TEXT NOT NULL,
     spending_cap_micro_usd INTEGER CHECK (spending_cap_micro_usd IS NULL OR spending_cap_micro_usd >= 0),
     created_at TEXT NOT NULL,
     archived_at TEXT
   ) STRICT;
   -- Names are unique among open projects; an archived name may be reused.
   CREATE UNIQUE INDEX projects_open_name ON projects (name_key) WHERE archived_at IS NULL;`,
  // An assignment is a project with these details (the appraiser's workfile); a plain project has none.
  `CREATE TABLE assignment_details (
     project_id TEXT PRIMARY KEY REFERENCES projects (id),
     subject_ref TEXT NOT NULL,
     subject_label TEXT NOT NULL,
     effective_date TEXT NOT NULL,
     intended_use TEXT NOT NULL,
     client TEXT NOT NULL,
     reference TEXT NOT NULL,
     notes TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT;`,
];

export const PROJECT_NAME_MAX_LENGTH = 120;
const ACTIVE_PROJECT_SETTING = 'projects.activeProjectId';

/**
 * A project as the store keeps it: the IPC contract's id, name and creation time, with its cap and
 * archive time under the store's names. toIpcProject is the one mapping to the contract's `Project`.
 */
export interface Project extends Pick<IpcProject, 'id' | 'name' | 'createdAt'> {
  /** Hard cap on this project's spending; null means no cap. */
  spendingCapMicroUsd: MicroUsd | null;
  /** When it was archived; null while open. */
  archivedAt: string | null;
}

export interface CreateProjectInput {
  name: string;
  spendingCapMicroUsd?: MicroUsd | null;
}

/** A refused project change, with a message for the person who made it. Crosses IPC as `invalid_payload`. */
export class ProjectError extends PlatFailure {
  constructor(message: string) {
    super('invalid_payload', message);
    this.name = 'ProjectError';
  }
}

/** The name as stored: trimmed, inner runs of whitespace collapsed, 1..120 characters. */
export function normalizeProjectName(name: string): string {
  if (typeof name !== 'string') throw new ProjectError('A project name must be text');
  const normalized = name.normalize('NFC').trim().replace(/\s+/g, ' ');
  if (normalized === '') throw new ProjectError('A project needs a name');
  // Count characters as a person sees them, not UTF-16 units.
  if ([...normalized].length > PROJECT_NAME_MAX_LENGTH) {
    throw new ProjectError(`A project name can be at most ${PROJECT_NAME_MAX_LENGTH} characters`);
  }
  if (/\p{Cc}/u.test(normalized)) throw new ProjectError('A project name cannot contain control characters');
  return normalized;
}

function nameKey(normalizedName: string): string {
  return normalizedName.toLocaleLowerCase('en-US');
}

function checkCap(cap: MicroUsd | null | undefined): MicroUsd | null {
  if (cap === undefined || cap === null) return null;
  const parsed = MicroUsdSchema.safeParse(cap);
  if (!parsed.success) throw new ProjectError('A spending cap must be a whole, non-negative number of micro-USD');
  return parsed.data;
}

/** The details a new assignment must have; the rest default (effective date: today, the others empty). */
export type AssignmentDetailsInput = Pick<AssignmentDetails, 'subjectRef'> & Partial<AssignmentDetails>;

const SUBJECT_PREFIXES = new Set(['prop', 'parc', 'unit', 'acct']);
const DETAIL_LABELS: Record<keyof AssignmentDetails, string> = {
  subjectRef: 'subject',
  subjectLabel: 'subject description',
  effectiveDate: 'effective date',
  intendedUse: 'intended use',
  client: 'client',
  reference: 'reference',
  notes: 'notes',
};

/** The calendar day of `now` where Plat runs (the appraiser's today), as YYYY-MM-DD. */
export function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(now.getFullYear()).padStart(4, '0')}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The details as stored: NFC, one-line fields trimmed and free of control characters (notes keep
 * their line breaks and tabs), checked with the contract's own schema so the limits are one set.
 */
export function checkAssignmentDetails(details: AssignmentDetails): AssignmentDetails {
  const oneLine = (key: keyof AssignmentDetails): string => {
    const text = String(details[key] ?? '').normalize('NFC').trim();
    if (/\p{Cc}/u.test(text)) throw new ProjectError(`The assignment's ${DETAIL_LABELS[key]} cannot contain control characters`);
    return text;
  };
  const notes = String(details.notes ?? '').normalize('NFC');
  if (/[^\P{Cc}\t\n\r]/u.test(notes)) throw new ProjectError("The assignment's notes cannot contain control characters other than line breaks and tabs");
  const normalized: AssignmentDetails = {
    subjectRef: oneLine('subjectRef'),
    subjectLabel: oneLine('subjectLabel'),
    effectiveDate: oneLine('effectiveDate'),
    intendedUse: oneLine('intendedUse'),
    client: oneLine('client'),
    reference: oneLine('reference'),
    notes,
  };
  const prefix = entityPrefix(normalized.subjectRef);
  if (!prefix || !SUBJECT_PREFIXES.has(prefix)) {
    throw new ProjectError('The subject must be a property, parcel, unit or tax account id (prop_, parc_, unit_ or acct_ and a uuid)');
  }
  if (!isIsoDate(normalized.effectiveDate)) {
    throw new ProjectError(`The effective date must be a date that exists, as YYYY-MM-DD ("${normalized.effectiveDate.slice(0, 40)}" is not)`);
  }
  const parsed = AssignmentDetailsSchema.safeParse(normalized);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0] as keyof AssignmentDetails | undefined;
    const label = key ? DETAIL_LABELS[key] : 'details';
    const max = issue?.code === 'too_big' ? Number(issue.maximum) : null;
    throw new ProjectError(max !== null ? `The assignment's ${label} can be at most ${max.toLocaleString('en-US')} characters` : `The assignment's ${label} ${issue?.message ?? 'is not valid'}`);
  }
  return parsed.data;
}

export interface ProjectStoreOptions {
  /** The clock for createdAt and archivedAt; tests pass a fixed one. */
  now?: () => Date;
}

export class ProjectStore extends ModuleStore {
  readonly #settings: SettingsStore;
  readonly #now: () => Date;

  constructor(db: DatabaseSync, options: ProjectStoreOptions = {}) {
    super(db, PROJECTS_MODULE, PROJECTS_MIGRATIONS);
    this.#settings = new SettingsStore(db);
    this.#now = options.now ?? (() => new Date());
  }

  create(input: CreateProjectInput): Project {
    const name = normalizeProjectName(input.name);
    const cap = checkCap(input.spendingCapMicroUsd);
    const id = randomUUID();
    inTransaction(this.db, () => {
      this.#refuseNameClash(name, null);
      statement(this.db, 'INSERT INTO projects (id, name, name_key, spending_cap_micro_usd, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(id, name, nameKey(name), cap, this.#now().toISOString());
    });
    return this.#require(id);
  }

  /** A project with a subject and its details, in one commit (the effective date defaults to today). */
  createAssignment(input: CreateProjectInput & { details: AssignmentDetailsInput; createdAt?: string }): Project {
    const details = checkAssignmentDetails(this.#withDefaults(input.details));
    return inTransaction(this.db, () => {
      const project = this.create(input);
      // An imported workfile keeps the day its assignment was started.
      if (input.createdAt !== undefined) statement(this.db, 'UPDATE projects SET created_at = ? WHERE id = ?').run(input.createdAt, project.id);
      this.#writeDetails(project.id, details);
      return this.#require(project.id);
    });
  }

  /** Changes an assignment's details (only those given); a plain project becomes an assignment once it is given a subject. */
  updateAssignmentDetails(id: string, update: Partial<AssignmentDetails>): AssignmentDetails {
    return inTransaction(this.db, () => {
      const project = this.#require(id);
      const current = this.assignmentDetails(id);
      if (!current && update.subjectRef === undefined) {
        throw new ProjectError(`"${project.name}" is a project without a subject; give it a subject to make it an assignment`);
      }
      const merged = checkAssignmentDetails(withUpdate(current ?? this.#withDefaults({ subjectRef: update.subjectRef ?? '' }), update));
      this.#writeDetails(id, merged);
      return merged;
    });
  }

  /** The assignment details of a project; null for a plain project (or an unknown id). */
  assignmentDetails(id: string): AssignmentDetails | null {
    const row = statement(this.db, 'SELECT * FROM assignment_details WHERE project_id = ?').get(id);
    return row ? detailsFromRow(row) : null;
  }

  /** Every assignment's details, by project id (for lists). */
  allAssignmentDetails(): Map<string, AssignmentDetails> {
    const rows = statement(this.db, 'SELECT * FROM assignment_details').all();
    return new Map(rows.map((row) => [String(row['project_id']), detailsFromRow(row)]));
  }

  /** Whether an open project has this name (ignoring case and spacing), e.g. to name an imported copy. */
  nameTaken(name: string): boolean {
    return statement(this.db, 'SELECT 1 FROM projects WHERE name_key = ? AND archived_at IS NULL').get(nameKey(normalizeProjectName(name))) !== undefined;
  }

  #withDefaults(details: AssignmentDetailsInput): AssignmentDetails {
    const defaults = { subjectRef: details.subjectRef, subjectLabel: '', effectiveDate: localDay(this.#now()), intendedUse: '', client: '', reference: '', notes: '' };
    return withUpdate(defaults, details);
  }

  #writeDetails(id: string, details: AssignmentDetails): void {
    statement(
      this.db,
      `INSERT INTO assignment_details (project_id, subject_ref, subject_label, effective_date, intended_use, client, reference, notes, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET subject_ref = excluded.subject_ref, subject_label = excluded.subject_label,
         effective_date = excluded.effective_date, intended_use = excluded.intended_use, client = excluded.client,
         reference = excluded.reference, notes = excluded.notes, updated_at = excluded.updated_at`,
    ).run(id, details.subjectRef, details.subjectLabel, details.effectiveDate, details.intendedUse, details.client, details.reference, details.notes, this.#now().toISOString());
  }

  rename(id: string, name: string): Project {
    const normalized = normalizeProjectName(name);
    inTransaction(this.db, () => {
      const project = this.#require(id);
      if (project.archivedAt === null) this.#refuseNameClash(normalized, id);
      statement(this.db, 'UPDATE projects SET name = ?, name_key = ? WHERE id = ?').run(normalized, nameKey(normalized), id);
    });
    return this.#require(id);
  }

  /** Sets or removes (null) the project's spending cap. */
  setSpendingCap(id: string, capMicroUsd: MicroUsd | null): Project {
    const cap = checkCap(capMicroUsd);
    this.#require(id);
    statement(this.db, 'UPDATE projects SET spending_cap_micro_usd = ? WHERE id = ?').run(cap, id);
    return this.#require(id);
  }

  /** Closes the project: it leaves the default list, and stops being the active one. Its spending stays in the ledger. */
  archive(id: string): Project {
    inTransaction(this.db, () => {
      const project = this.#require(id);
      if (project.archivedAt !== null) return;
      statement(this.db, 'UPDATE projects SET archived_at = ? WHERE id = ?').run(this.#now().toISOString(), id);
      if (this.activeProjectId() === id) this.#settings.set(ACTIVE_PROJECT_SETTING, null, this.#now());
    });
    return this.#require(id);
  }

  /** Reopens an archived project, unless an open project has taken its name meanwhile. */
  restore(id: string): Project {
    inTransaction(this.db, () => {
      const project = this.#require(id);
      if (project.archivedAt === null) return;
      this.#refuseNameClash(project.name, id);
      statement(this.db, 'UPDATE projects SET archived_at = NULL WHERE id = ?').run(id);
    });
    return this.#require(id);
  }

  /** Open projects by name; archived ones too when asked. */
  list(options: { includeArchived?: boolean } = {}): Project[] {
    const where = options.includeArchived ? '' : 'WHERE archived_at IS NULL';
    return statement(this.db, `SELECT * FROM projects ${where} ORDER BY name_key, created_at`)
      .all()
      .map(projectFromRow);
  }

  get(id: string): Project | null {
    const row = statement(this.db, 'SELECT * FROM projects WHERE id = ?').get(id);
    return row ? projectFromRow(row) : null;
  }

  /** The project new spending is attributed to; null when none is chosen (or it has gone). */
  activeProjectId(): string | null {
    const stored = this.#settings.get(ACTIVE_PROJECT_SETTING);
    if (typeof stored !== 'string') return null;
    const project = this.get(stored);
    return project && project.archivedAt === null ? project.id : null;
  }

  /** Chooses the active project (an open one), or none with null. */
  setActiveProjectId(id: string | null): string | null {
    if (id !== null) {
      const project = this.#require(id);
      if (project.archivedAt !== null) throw new ProjectError(`"${project.name}" is archived; restore it before working in it`);
    }
    this.#settings.set(ACTIVE_PROJECT_SETTING, id, this.#now());
    return id;
  }

  #require(id: string): Project {
    const project = this.get(id);
    if (!project) throw new ProjectError('That project no longer exists');
    return project;
  }

  #refuseNameClash(name: string, exceptId: string | null): void {
    const clash = statement(this.db, 'SELECT id FROM projects WHERE name_key = ? AND archived_at IS NULL AND id IS NOT ?')
      .get(nameKey(name), exceptId);
    if (clash) throw new ProjectError(`A project named "${name}" already exists`);
  }
}

/** The project as the IPC contract carries it (shared/ipc.ts `Project`), with its assignment details if it is one. */
export function toIpcProject(project: Project, assignment: AssignmentDetails | null = null): IpcProject {
  return {
    id: project.id,
    name: project.name,
    capMicroUsd: project.spendingCapMicroUsd,
    archived: project.archivedAt !== null,
    createdAt: project.createdAt,
    assignment,
  };
}

/** Its id, name and cap as the IPC contract names them, for the documents that carry them (report sources, workfile). */
export function projectIdentity(project: Project): Pick<IpcProject, 'id' | 'name' | 'capMicroUsd'> {
  const { id, name, capMicroUsd } = toIpcProject(project);
  return { id, name, capMicroUsd };
}

function detailsFromRow(row: Record<string, unknown>): AssignmentDetails {
  return {
    subjectRef: String(row['subject_ref']),
    subjectLabel: String(row['subject_label']),
    effectiveDate: String(row['effective_date']),
    intendedUse: String(row['intended_use']),
    client: String(row['client']),
    reference: String(row['reference']),
    notes: String(row['notes']),
  };
}

/** `details` with the fields `update` gives (a field left out, or undefined, keeps its value). */
function withUpdate(details: AssignmentDetails, update: Partial<AssignmentDetails>): AssignmentDetails {
  const merged = { ...details };
  for (const key of Object.keys(DETAIL_LABELS) as Array<keyof AssignmentDetails>) {
    const value = update[key];
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

function projectFromRow(row: Record<string, unknown>): Project {
  const cap = row['spending_cap_micro_usd'];
  const archivedAt = row['archived_at'];
  return {
    id: String(row['id']),
    name: String(row['name']),
    spendingCapMicroUsd: cap === null || cap === undefined ? null : Number(cap),
    createdAt: String(row['created_at']),
    archivedAt: archivedAt === null || archivedAt === undefined ? null : String(archivedAt),
  };
}
