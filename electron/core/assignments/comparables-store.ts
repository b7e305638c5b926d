// An assignment's comparable-sales workfile (criteria, searches run, chosen comps, reasons, rates,
// weights, reconciliation): one row per assignment, replaced whole on every save. What the service
// answered is not here: those answers are kept with the assignment like any other (answer-store.ts)
// and found again by the request bodies each search recorded. Reading is a local read: free, and it
// works with the service unreachable.
import type { DatabaseSync } from 'node:sqlite';
import { ComparablesWorkfileSchema, emptyComparablesWorkfile, type ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { ModuleStore, statement, storageProblemOf, STORAGE_PROBLEMS } from '../app-db.ts';
import { PlatFailure } from '../failure.ts';
import { ProjectError } from '../projects.ts';

export const ASSIGNMENT_COMPARABLES_MODULE = 'assignment-comparables';

/** Append-only (see app-db.ts). Needs the projects module's tables (ProjectStore first). */
export const ASSIGNMENT_COMPARABLES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE assignment_comparables (
     project_id TEXT PRIMARY KEY REFERENCES projects (id),
     workfile_json TEXT NOT NULL,
     saved_at TEXT NOT NULL
   ) STRICT;`,
];

/** The most comps a grid holds (the schema's limit, said for a person). */
export const MAX_CHOSEN_COMPS = 20;

/**
 * What makes a workfile unusable although its shape is right, each said for a person; [] when none.
 * An indicated value without a comment is allowed while working: the report says the comment is missing.
 */
export function comparablesWorkfileProblems(workfile: ComparablesWorkfile): string[] {
  const problems: string[] = [];
  const twice = [...new Set(workfile.chosen.filter((id, index) => workfile.chosen.indexOf(id) !== index))];
  if (twice.length > 0) problems.push(`A comparable can be chosen only once; chosen more than once: ${twice.join(', ')}.`);
  const searchIds = workfile.searches.map((search) => search.id);
  const sameSearch = [...new Set(searchIds.filter((id, index) => searchIds.indexOf(id) !== index))];
  if (sameSearch.length > 0) problems.push(`Two searches have the same id (${sameSearch.join(', ')}): each search run needs its own.`);
  return problems;
}


export class ComparablesStore extends ModuleStore {
  readonly #now: () => Date;

  constructor(db: DatabaseSync, options: { now?: () => Date } = {}) {
    super(db, ASSIGNMENT_COMPARABLES_MODULE, ASSIGNMENT_COMPARABLES_MIGRATIONS);
    this.#now = options.now ?? (() => new Date());
  }

  /** The saved workfile, or null when the assignment has none yet. */
  find(projectId: string): ComparablesWorkfile | null {
    const row = statement(this.db, 'SELECT workfile_json FROM assignment_comparables WHERE project_id = ?').get(projectId);
    if (!row) return null;
    let stored: unknown;
    try {
      stored = JSON.parse(String(row['workfile_json']));
    } catch {
      stored = undefined;
    }
    const parsed = ComparablesWorkfileSchema.safeParse(stored);
    // Checked on every save, so only another program (or a newer Plat) could have written this: say so, change nothing.
    if (!parsed.success) {
      throw new PlatFailure(
        'internal',
        'The comparables saved with this assignment cannot be read by this Plat (written by a newer Plat, or changed outside Plat). They were left as they are',
      );
    }
    return parsed.data;
  }

  /** The saved workfile, or an empty one (nothing searched or chosen yet). */
  get(projectId: string): ComparablesWorkfile {
    return this.find(projectId) ?? emptyComparablesWorkfile();
  }

  /**
   * Checks and replaces the assignment's workfile in one write, `savedAt` set to now; returns it as
   * stored. A workfile that breaks a rule is refused with what to correct; a write the disk refuses
   * leaves the last saved one as it was and fails with `disk_full`.
   */
  save(projectId: string, workfile: unknown): ComparablesWorkfile {
    return this.put(projectId, workfile, this.#now().toISOString());
  }

  /** As `save`, with the time it was saved given (an imported workfile keeps its own). */
  put(projectId: string, workfile: unknown, savedAt: string): ComparablesWorkfile {
    const checked = checkWorkfile(workfile);
    const stored: ComparablesWorkfile = { ...checked, savedAt };
    try {
      statement(
        this.db,
        `INSERT INTO assignment_comparables (project_id, workfile_json, saved_at) VALUES (?, ?, ?)
         ON CONFLICT (project_id) DO UPDATE SET workfile_json = excluded.workfile_json, saved_at = excluded.saved_at`,
      ).run(projectId, JSON.stringify(stored), savedAt);
    } catch (error) {
      const problem = storageProblemOf(error);
      if (problem === null) throw error;
      const { what, todo } = STORAGE_PROBLEMS[problem];
      throw PlatFailure.from({
        code: 'disk_full',
        message: `${what}, so Plat could not save the comparables: the last saved version is kept as it was — ${todo}, then save again.`,
        retryable: true,
      });
    }
    return stored;
  }
}

/** The workfile, parsed and checked, or a ProjectError (invalid_payload) saying what to correct. */
export function checkWorkfile(workfile: unknown): ComparablesWorkfile {
  // Said before the shape check, whose message for it ("too big") would not tell a person what to do.
  const chosen = typeof workfile === 'object' && workfile !== null ? (workfile as { chosen?: unknown }).chosen : undefined;
  if (Array.isArray(chosen) && chosen.length > MAX_CHOSEN_COMPS) {
    throw new ProjectError(`${chosen.length} comparables are chosen; a grid holds at most ${MAX_CHOSEN_COMPS}: take some out first`);
  }
  const parsed = ComparablesWorkfileSchema.safeParse(workfile);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new ProjectError(`These comparables are not in the shape Plat saves${where} (${issue?.message ?? 'invalid'})`);
  }
  const problems = comparablesWorkfileProblems(parsed.data);
  if (problems.length > 0) throw new ProjectError(problems.join(' '));
  return parsed.data;
}
