import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectSchema } from '../../shared/ipc.ts';
import { openAppDatabase } from './app-db.ts';
import { toIpcError } from './failure.ts';
import { applyMigrations } from './app-db.ts';
import { localDay, normalizeProjectName, ProjectError, PROJECTS_MIGRATIONS, PROJECTS_MODULE, ProjectStore, toIpcProject } from './projects.ts';

const fixedClock = () => new Date('2025-03-01T09:00:00.000Z');

function refusal(work: () => unknown): { code: string; message: string } {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ProjectError);
    return toIpcError(error);
  }
  throw new Error('expected a refusal');
}

// Each test gets a ProjectStore on a fresh in-memory database, at the fixed clock.
let db: DatabaseSync;
let projects: ProjectStore;

beforeEach(() => {
  db = openAppDatabase(':memory:');
  projects = new ProjectStore(db, { now: fixedClock });
});
afterEach(() => db.close());

describe('normalizeProjectName', () => {
  it('trims and collapses inner whitespace', () => {
    expect(normalizeProjectName('  1200 Main St \t appraisal ')).toBe('1200 Main St appraisal');
  });

  it('accepts 1 to 120 characters, counting what a person sees', () => {
    expect(normalizeProjectName('x')).toBe('x');
    expect(normalizeProjectName('é'.repeat(120))).toHaveLength(120);
    expect(normalizeProjectName('🏠'.repeat(120))).toBe('🏠'.repeat(120));
    expect(() => normalizeProjectName('a'.repeat(121))).toThrow(/at most 120/);
    expect(() => normalizeProjectName('   ')).toThrow(/needs a name/);
  });
});

describe('ProjectStore', () => {
  it('creates a project with a trimmed name and an optional cap', () => {
    const smith = projects.create({ name: '  Smith appraisal ', spendingCapMicroUsd: 20_000_000 });
    expect(smith).toEqual({
      id: expect.any(String),
      name: 'Smith appraisal',
      spendingCapMicroUsd: 20_000_000,
      createdAt: '2025-03-01T09:00:00.000Z',
      archivedAt: null,
    });
    expect(projects.create({ name: 'Title search, lot 295' }).spendingCapMicroUsd).toBeNull();
    expect(projects.get(smith.id)).toEqual(smith);
    expect(projects.get('no-such-id')).toBeNull();
  });

  it('refuses a second open project with the same name, ignoring case and spacing', () => {
    projects.create({ name: 'Smith appraisal' });
    const { code, message } = refusal(() => projects.create({ name: 'smith   APPRAISAL' }));
    expect(code).toBe('invalid_payload');
    expect(message).toMatch(/already exists/);
    expect(projects.list()).toHaveLength(1);
  });

  it('refuses an invalid cap', () => {
    expect(refusal(() => projects.create({ name: 'A', spendingCapMicroUsd: -1 })).message).toMatch(/spending cap/);
    expect(refusal(() => projects.create({ name: 'A', spendingCapMicroUsd: 0.5 })).message).toMatch(/spending cap/);
  });

  it('renames, keeping the id, and refuses a clash with another open project', () => {
    const a = projects.create({ name: 'A' });
    projects.create({ name: 'B' });
    expect(projects.rename(a.id, ' A (revised) ')).toMatchObject({ id: a.id, name: 'A (revised)' });
    expect(projects.rename(a.id, 'a (REVISED)').name).toBe('a (REVISED)'); // same project, new casing
    expect(refusal(() => projects.rename(a.id, 'b')).message).toMatch(/"b" already exists/);
    expect(refusal(() => projects.rename('missing', 'C')).message).toMatch(/no longer exists/);
  });

  it('converts to the IPC shape the renderer receives', () => {
    const a = projects.create({ name: 'A', spendingCapMicroUsd: 1_000_000 });
    expect(ProjectSchema.parse(toIpcProject(a))).toEqual({
      id: a.id,
      name: 'A',
      capMicroUsd: 1_000_000,
      archived: false,
      createdAt: '2025-03-01T09:00:00.000Z',
      assignment: null,
    });
    expect(toIpcProject(projects.archive(a.id)).archived).toBe(true);
  });

  it('sets and removes a spending cap', () => {
    const a = projects.create({ name: 'A' });
    expect(projects.setSpendingCap(a.id, 5_000_000).spendingCapMicroUsd).toBe(5_000_000);
    expect(projects.setSpendingCap(a.id, null).spendingCapMicroUsd).toBeNull();
  });

  it('archives: hidden from the default list, name free again, no longer active', () => {
    const a = projects.create({ name: 'Smith appraisal' });
    projects.create({ name: 'Jones title search' });
    projects.setActiveProjectId(a.id);
    expect(projects.archive(a.id).archivedAt).toBe('2025-03-01T09:00:00.000Z');
    expect(projects.list().map((project) => project.name)).toEqual(['Jones title search']);
    expect(projects.list({ includeArchived: true }).map((project) => project.name)).toEqual(['Jones title search', 'Smith appraisal']);
    expect(projects.activeProjectId()).toBeNull();
    // The name may be reused, and then the archived one cannot be restored under it.
    const again = projects.create({ name: 'Smith appraisal' });
    expect(refusal(() => projects.restore(a.id)).message).toMatch(/already exists/);
    projects.rename(again.id, 'Smith appraisal 2025');
    expect(projects.restore(a.id).archivedAt).toBeNull();
  });

  it('refuses to make an archived or unknown project active', () => {
    const a = projects.create({ name: 'A' });
    projects.archive(a.id);
    expect(refusal(() => projects.setActiveProjectId(a.id)).message).toMatch(/archived/);
    expect(refusal(() => projects.setActiveProjectId('missing')).message).toMatch(/no longer exists/);
  });

  it('lists open projects by name, case-insensitively', () => {
    for (const name of ['beta', 'Alpha', 'gamma']) projects.create({ name });
    expect(projects.list().map((project) => project.name)).toEqual(['Alpha', 'beta', 'gamma']);
  });

  it('persists projects and the active project across a restart', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'plat-projects-'));
    try {
      const file = path.join(directory, 'app.db');
      const first = openAppDatabase(file);
      const store = new ProjectStore(first);
      const a = store.create({ name: 'A', spendingCapMicroUsd: 1_000_000 });
      store.setActiveProjectId(a.id);
      first.close();
      const second = openAppDatabase(file);
      const reopened = new ProjectStore(second);
      expect(reopened.activeProjectId()).toBe(a.id);
      expect(reopened.get(a.id)?.spendingCapMicroUsd).toBe(1_000_000);
      reopened.setActiveProjectId(null);
      expect(reopened.activeProjectId()).toBeNull();
      second.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('ProjectStore assignments', () => {
  const SUBJECT = 'prop_0b7c2f3e-5d0a-5c1e-9f43-2a6d8e1b4c70';

  it('creates an assignment with defaults: effective date today where Plat runs, the rest empty', () => {
    const a = projects.createAssignment({ name: '1708 21st St NW', details: { subjectRef: SUBJECT, subjectLabel: ' 1708 21ST ST NW ' } });
    expect(projects.assignmentDetails(a.id)).toEqual({
      subjectRef: SUBJECT,
      subjectLabel: '1708 21ST ST NW',
      effectiveDate: localDay(fixedClock()),
      intendedUse: '',
      client: '',
      reference: '',
      notes: '',
    });
    expect(ProjectSchema.parse(toIpcProject(a, projects.assignmentDetails(a.id))).assignment?.subjectRef).toBe(SUBJECT);
    // A plain project has no details.
    expect(projects.assignmentDetails(projects.create({ name: 'Plain' }).id)).toBeNull();
  });

  it('refuses details a person must correct, with a message naming the field, and writes nothing', () => {
    const refused = (details: Record<string, string>) => refusal(() => projects.createAssignment({ name: 'X', details: { subjectRef: SUBJECT, ...details } }));
    expect(refused({ effectiveDate: '2025-02-30' })).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/effective date must be a date that exists/) });
    expect(refused({ effectiveDate: '30/01/2025' }).message).toMatch(/effective date/);
    expect(refused({ client: 'c'.repeat(301) }).message).toMatch(/client can be at most 300 characters/);
    expect(refused({ notes: 'n'.repeat(20_001) }).message).toMatch(/notes can be at most 20,000 characters/);
    expect(refused({ reference: 'A\u0007B' }).message).toMatch(/reference cannot contain control characters/);
    expect(refused({ subjectRef: '1708 21ST ST NW' }).message).toMatch(/subject must be a property, parcel, unit or tax account id/);
    expect(refused({ subjectRef: 'addr_0293e560-4883-540b-a751-b66d24869504' }).message).toMatch(/subject must be/);
    expect(projects.list()).toEqual([]);
    // Notes keep their line breaks.
    const ok = projects.createAssignment({ name: 'Y', details: { subjectRef: SUBJECT, notes: 'line 1\n\tline 2' } });
    expect(projects.assignmentDetails(ok.id)?.notes).toBe('line 1\n\tline 2');
  });

  it('updates only the details given, and makes a plain project an assignment only with a subject', () => {
    const a = projects.createAssignment({ name: 'A', details: { subjectRef: SUBJECT, client: 'First Bank' } });
    expect(projects.updateAssignmentDetails(a.id, { effectiveDate: '2024-12-31', notes: 'Inspected 12/30' })).toMatchObject({
      client: 'First Bank',
      effectiveDate: '2024-12-31',
      notes: 'Inspected 12/30',
    });
    expect(refusal(() => projects.updateAssignmentDetails(a.id, { effectiveDate: '2024-13-01' })).message).toMatch(/effective date/);
    expect(projects.assignmentDetails(a.id)?.effectiveDate).toBe('2024-12-31');
    const plain = projects.create({ name: 'Plain' });
    expect(refusal(() => projects.updateAssignmentDetails(plain.id, { client: 'X' })).message).toMatch(/without a subject/);
    expect(projects.updateAssignmentDetails(plain.id, { subjectRef: SUBJECT }).effectiveDate).toBe(localDay(fixedClock()));
  });

  it('brings a database written before assignments up to date, keeping its projects', () => {
    const old = openAppDatabase(':memory:');
    applyMigrations(old, PROJECTS_MODULE, PROJECTS_MIGRATIONS.slice(0, 1));
    old.prepare("INSERT INTO projects (id, name, name_key, created_at) VALUES ('p1', 'Old', 'old', '2024-01-01T00:00:00.000Z')").run();
    const store = new ProjectStore(old);
    expect(store.get('p1')?.name).toBe('Old');
    expect(store.assignmentDetails('p1')).toBeNull();
    store.updateAssignmentDetails('p1', { subjectRef: SUBJECT });
    expect(store.assignmentDetails('p1')?.subjectRef).toBe(SUBJECT);
    old.close();
  });
});
