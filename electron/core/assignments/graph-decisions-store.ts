// The researcher's decisions on the links of the entity graph (confirm a lead, cut a link), kept with
// the assignment: one row per link, by the link's key (which a re-fetch of the same answers gives
// again), each with the note that says why and when it was made. The report prints them; the
// workfile file carries them. Reading is a local read: free, and it works with the service unreachable.
import type { DatabaseSync } from 'node:sqlite';
import { decide, GraphDecisionsSchema, type GraphDecision, type GraphDecisionKind } from '../../../shared/graph/decisions.ts';
import { ModuleStore, inTransaction, statement, storageProblemOf, STORAGE_PROBLEMS } from '../app-db.ts';
import { PlatFailure } from '../failure.ts';
import { ProjectError } from '../projects.ts';

export const ASSIGNMENT_GRAPH_DECISIONS_MODULE = 'assignment-graph-decisions';

/** Append-only (see app-db.ts). Needs the projects module's tables (ProjectStore first). */
export const ASSIGNMENT_GRAPH_DECISIONS_MIGRATIONS: readonly string[] = [
  `CREATE TABLE assignment_graph_decisions (
     project_id TEXT NOT NULL REFERENCES projects (id),
     edge_key TEXT NOT NULL,
     decision TEXT NOT NULL CHECK (decision IN ('confirmed', 'cut')),
     note TEXT NOT NULL,
     at TEXT NOT NULL,
     PRIMARY KEY (project_id, edge_key)
   ) STRICT;`,
];

/** A decision as the researcher makes it; the time is the core's. */
export interface GraphDecisionChange {
  decision: GraphDecisionKind;
  note: string;
}

export class GraphDecisionsStore extends ModuleStore {
  readonly #now: () => Date;

  constructor(db: DatabaseSync, options: { now?: () => Date } = {}) {
    super(db, ASSIGNMENT_GRAPH_DECISIONS_MODULE, ASSIGNMENT_GRAPH_DECISIONS_MIGRATIONS);
    this.#now = options.now ?? (() => new Date());
  }

  /** The assignment's decisions, oldest first. */
  list(projectId: string): GraphDecision[] {
    const rows = statement(this.db, 'SELECT edge_key, decision, note, at FROM assignment_graph_decisions WHERE project_id = ? ORDER BY at, rowid').all(projectId);
    const decisions = rows.map((row) => ({ edgeKey: String(row['edge_key']), decision: String(row['decision']), note: String(row['note']), at: String(row['at']) }));
    const parsed = GraphDecisionsSchema.safeParse(decisions);
    // Every row was checked when it was written, so only another program could have written this one.
    if (!parsed.success) {
      throw new PlatFailure('internal', 'The link decisions saved with this assignment cannot be read by this Plat (changed outside Plat). They were left as they are');
    }
    return parsed.data;
  }

  /**
   * Records a decision on one link (replacing an earlier one on it), or withdraws it (null); returns
   * every decision of the assignment. A decision without a note is refused with what to write; a
   * write the disk refuses leaves the decisions as they were and fails with `disk_full`.
   */
  set(projectId: string, edgeKey: string, decision: GraphDecisionChange | null): GraphDecision[] {
    if (decision === null) {
      this.#write('withdraw the decision', () => statement(this.db, 'DELETE FROM assignment_graph_decisions WHERE project_id = ? AND edge_key = ?').run(projectId, edgeKey));
      return this.list(projectId);
    }
    const checked = decide([], { edgeKey, decision: decision.decision, note: decision.note, at: this.#now().toISOString() });
    if (!checked.ok) throw new ProjectError(checked.problem.replace(/\.$/, ''));
    const [made] = checked.decisions;
    if (made) this.#write('save the decision', () => this.#put(projectId, made));
    return this.list(projectId);
  }

  /** Puts decisions made elsewhere (an imported workfile), each with its own time, in one write. */
  restore(projectId: string, decisions: readonly GraphDecision[]): void {
    const parsed = GraphDecisionsSchema.safeParse(decisions);
    if (!parsed.success) throw new ProjectError('These link decisions are not in the shape Plat saves');
    this.#write('keep the link decisions', () => inTransaction(this.db, () => parsed.data.forEach((made) => this.#put(projectId, made))));
  }

  #put(projectId: string, made: GraphDecision): void {
    statement(
      this.db,
      `INSERT INTO assignment_graph_decisions (project_id, edge_key, decision, note, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (project_id, edge_key) DO UPDATE SET decision = excluded.decision, note = excluded.note, at = excluded.at`,
    ).run(projectId, made.edgeKey, made.decision, made.note, made.at);
  }

  #write(what: string, work: () => unknown): void {
    try {
      work();
    } catch (error) {
      const problem = storageProblemOf(error);
      if (problem === null) throw error;
      const { what: cause, todo } = STORAGE_PROBLEMS[problem];
      throw PlatFailure.from({
        code: 'disk_full',
        message: `${cause}, so Plat could not ${what}: the decisions are kept as they were — ${todo}, then try again.`,
        retryable: true,
      });
    }
  }
}
