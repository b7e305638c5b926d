// What an assignment holds: every answer used while it was active (bought, replayed or served from
// the cache), with its request, cost and envelope, and the appraiser's value choices. Reading any of
// it is a local read: free, and it works with the service unreachable. Envelopes are kept once per
// assignment however often the same answer is used (a cache hit shows the same answer again).
import { hash, randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { AssignmentAnswer, ValueChoice } from '../../../shared/ipc.ts';
import type { QueryLogEntry } from '../../../shared/report/document.ts';
import type { ServiceOperationName } from '../../../shared/service/index.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import type { ReceivedFrom } from '../../../shared/workfile/received.ts';
import { ModuleStore, inTransaction, statement } from '../app-db.ts';

export const ASSIGNMENT_ANSWERS_MODULE = 'assignment-answers';

/** Append-only (see app-db.ts). Needs the projects module's tables (ProjectStore first). */
export const ASSIGNMENT_ANSWERS_MIGRATIONS: readonly string[] = [
  `CREATE TABLE assignment_envelopes (
     project_id TEXT NOT NULL REFERENCES projects (id),
     sha256 TEXT NOT NULL,
     envelope_json TEXT NOT NULL,
     PRIMARY KEY (project_id, sha256)
   ) STRICT;
   CREATE TABLE assignment_answers (
     id TEXT PRIMARY KEY,
     project_id TEXT NOT NULL REFERENCES projects (id),
     operation TEXT NOT NULL,
     -- The request parts as the gateway normalised them (defaults applied), canonical JSON: with
     -- connection_id they give the response cache's key, on this machine or another.
     request_json TEXT NOT NULL,
     connection_id TEXT NOT NULL,
     parameters TEXT NOT NULL,
     label TEXT NOT NULL,
     at TEXT NOT NULL,
     served_at TEXT NOT NULL,
     charged_micro_usd INTEGER NOT NULL CHECK (charged_micro_usd >= 0),
     cache_hit INTEGER NOT NULL CHECK (cache_hit IN (0, 1)),
     replayed INTEGER NOT NULL CHECK (replayed IN (0, 1)),
     request_id TEXT,
     citation_count INTEGER NOT NULL CHECK (citation_count >= 0),
     envelope_sha256 TEXT NOT NULL,
     FOREIGN KEY (project_id, envelope_sha256) REFERENCES assignment_envelopes (project_id, sha256)
   ) STRICT;
   CREATE INDEX assignment_answers_by_project ON assignment_answers (project_id, at);
   CREATE TABLE assignment_choices (
     project_id TEXT NOT NULL REFERENCES projects (id),
     field TEXT NOT NULL,
     alternative_key TEXT NOT NULL,
     reason TEXT NOT NULL,
     at TEXT NOT NULL,
     PRIMARY KEY (project_id, field)
   ) STRICT;`,
  // An imported assignment's answers came from a workfile, not from a purchase: the file's words about
  // itself are kept once per assignment, and each answer it brought is marked until a re-check replaces it.
  `CREATE TABLE assignment_imports (
     project_id TEXT PRIMARY KEY REFERENCES projects (id),
     file_name TEXT NOT NULL,
     exported_by TEXT NOT NULL,
     exported_at TEXT NOT NULL,
     assignment_name TEXT NOT NULL,
     imported_at TEXT NOT NULL
   ) STRICT;
   ALTER TABLE assignment_answers ADD COLUMN imported INTEGER NOT NULL DEFAULT 0 CHECK (imported IN (0, 1));`,
];

/** One kept answer as stored, with what is needed to use it again (its request and connection). */
export interface KeptAnswer extends Omit<AssignmentAnswer, 'receivedIn'> {
  projectId: string;
  /** The gateway's normalised request parts. */
  parts: Record<string, unknown>;
  connectionId: string;
  servedAt: string;
  replayed: boolean;
  /** It came in a workfile (assignment_imports says which), not from a purchase on this machine. */
  imported: boolean;
}

export interface NewKeptAnswer {
  id?: string;
  projectId: string;
  operation: ServiceOperationName;
  parts: Record<string, unknown>;
  connectionId: string;
  parameters: string;
  label: string;
  at: string;
  servedAt: string;
  chargedMicroUsd: number;
  cacheHit: boolean;
  replayed: boolean;
  requestId: string | null;
  citationCount: number;
  envelope: unknown;
  /** Brought by a workfile (see KeptAnswer.imported); false when absent. */
  imported?: boolean;
}

/** What a kept answer says about how it was bought, carried unchanged between the store and a workfile. */
export function answerFacts(
  answer: Pick<NewKeptAnswer, 'connectionId' | 'parameters' | 'label' | 'at' | 'servedAt' | 'chargedMicroUsd' | 'cacheHit' | 'replayed' | 'requestId'>,
) {
  return {
    connectionId: answer.connectionId,
    parameters: answer.parameters,
    label: answer.label,
    at: answer.at,
    servedAt: answer.servedAt,
    chargedMicroUsd: answer.chargedMicroUsd,
    cacheHit: answer.cacheHit,
    replayed: answer.replayed,
    requestId: answer.requestId,
  };
}

export class AnswerStore extends ModuleStore {
  constructor(db: DatabaseSync) {
    super(db, ASSIGNMENT_ANSWERS_MODULE, ASSIGNMENT_ANSWERS_MIGRATIONS);
  }

  /** Keeps an answer with its assignment, envelope and row in one commit (joining the caller's, if any). */
  add(answer: NewKeptAnswer): string {
    return inTransaction(this.db, () => this.#add(answer));
  }

  #add(answer: NewKeptAnswer): string {
    const envelopeJson = JSON.stringify(answer.envelope);
    if (envelopeJson === undefined) throw new TypeError('a kept envelope must be JSON');
    const sha = hash('sha256', envelopeJson, 'hex');
    statement(this.db, 'INSERT INTO assignment_envelopes (project_id, sha256, envelope_json) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(
      answer.projectId,
      sha,
      envelopeJson,
    );
    const id = answer.id ?? randomUUID();
    statement(
      this.db,
      `INSERT INTO assignment_answers (id, project_id, operation, request_json, connection_id, parameters, label, at, served_at,
         charged_micro_usd, cache_hit, replayed, request_id, citation_count, envelope_sha256, imported)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      answer.projectId,
      answer.operation,
      canonicalJson(answer.parts),
      answer.connectionId,
      answer.parameters,
      answer.label,
      answer.at,
      answer.servedAt,
      answer.chargedMicroUsd,
      answer.cacheHit ? 1 : 0,
      answer.replayed ? 1 : 0,
      answer.requestId,
      answer.citationCount,
      sha,
      answer.imported === true ? 1 : 0,
    );
    return id;
  }

  /** The assignment's answers, in the order they were used. */
  list(projectId: string): KeptAnswer[] {
    return statement(this.db, 'SELECT * FROM assignment_answers WHERE project_id = ? ORDER BY at, rowid').all(projectId).map(answerFromRow);
  }

  /** One answer with its envelope; null when the assignment holds no such answer. */
  get(projectId: string, answerId: string): { answer: KeptAnswer; envelope: unknown } | null {
    const row = statement(
      this.db,
      `SELECT a.*, e.envelope_json FROM assignment_answers a
       JOIN assignment_envelopes e ON e.project_id = a.project_id AND e.sha256 = a.envelope_sha256
       WHERE a.project_id = ? AND a.id = ?`,
    ).get(projectId, answerId);
    return row ? { answer: answerFromRow(row), envelope: JSON.parse(String(row['envelope_json'])) as unknown } : null;
  }

  /** The most recent answer to `operation` that `matches` accepts (by its request parts), with its envelope. */
  latest(
    projectId: string,
    operation: ServiceOperationName,
    matches: (parts: Record<string, unknown>) => boolean,
  ): { answer: KeptAnswer; envelope: unknown } | null {
    const rows = statement(this.db, 'SELECT id, request_json FROM assignment_answers WHERE project_id = ? AND operation = ? ORDER BY at DESC, rowid DESC').all(
      projectId,
      operation,
    );
    for (const row of rows) {
      if (matches(JSON.parse(String(row['request_json'])) as Record<string, unknown>)) return this.get(projectId, String(row['id']));
    }
    return null;
  }

  /**
   * The most recent answer to exactly this request (its parts as the gateway normalised them), with
   * its envelope: rows keep the canonical JSON of those parts, so equal requests have equal text.
   */
  latestFor(projectId: string, operation: ServiceOperationName, parts: Record<string, unknown>): { answer: KeptAnswer; envelope: unknown } | null {
    const row = statement(
      this.db,
      'SELECT id FROM assignment_answers WHERE project_id = ? AND operation = ? AND request_json = ? ORDER BY at DESC, rowid DESC LIMIT 1',
    ).get(projectId, operation, canonicalJson(parts));
    return row ? this.get(projectId, String(row['id'])) : null;
  }

  /** Every answer with its envelope (for the workfile). */
  listWithEnvelopes(projectId: string): Array<{ answer: KeptAnswer; envelope: unknown }> {
    return statement(
      this.db,
      `SELECT a.*, e.envelope_json FROM assignment_answers a
       JOIN assignment_envelopes e ON e.project_id = a.project_id AND e.sha256 = a.envelope_sha256
       WHERE a.project_id = ? ORDER BY a.at, a.rowid`,
    )
      .all(projectId)
      .map((row) => ({ answer: answerFromRow(row), envelope: JSON.parse(String(row['envelope_json'])) as unknown }));
  }

  /** Keeps what the workfile an assignment was imported from says about itself. */
  setImportedFrom(projectId: string, from: ReceivedFrom, importedAt: string): void {
    statement(
      this.db,
      'INSERT INTO assignment_imports (project_id, file_name, exported_by, exported_at, assignment_name, imported_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(projectId, from.fileName, from.exportedBy, from.exportedAt, from.assignmentName, importedAt);
  }

  /** The workfile the assignment was imported from; null for one made here. */
  importedFrom(projectId: string): ReceivedFrom | null {
    const row = statement(this.db, 'SELECT file_name, exported_by, exported_at, assignment_name FROM assignment_imports WHERE project_id = ?').get(projectId);
    return row
      ? { fileName: String(row['file_name']), exportedBy: String(row['exported_by']), exportedAt: String(row['exported_at']), assignmentName: String(row['assignment_name']) }
      : null;
  }

  /** Drops answers a re-check replaced with bought ones (their envelopes stay: another row may share one). */
  remove(projectId: string, answerIds: readonly string[]): void {
    inTransaction(this.db, () => {
      for (const id of answerIds) statement(this.db, 'DELETE FROM assignment_answers WHERE project_id = ? AND id = ?').run(projectId, id);
    });
  }

  choices(projectId: string): ValueChoice[] {
    return statement(this.db, 'SELECT field, alternative_key, reason, at FROM assignment_choices WHERE project_id = ? ORDER BY field')
      .all(projectId)
      .map((row) => ({ field: String(row['field']), alternativeKey: String(row['alternative_key']), reason: String(row['reason']), at: String(row['at']) }));
  }

  /** Keeps the appraiser's choice for `field`, or takes it back with null. */
  setChoice(projectId: string, field: string, choice: Omit<ValueChoice, 'field'> | null): void {
    if (choice === null) {
      statement(this.db, 'DELETE FROM assignment_choices WHERE project_id = ? AND field = ?').run(projectId, field);
      return;
    }
    statement(
      this.db,
      `INSERT INTO assignment_choices (project_id, field, alternative_key, reason, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (project_id, field) DO UPDATE SET alternative_key = excluded.alternative_key, reason = excluded.reason, at = excluded.at`,
    ).run(projectId, field, choice.alternativeKey, choice.reason, choice.at);
  }
}

/** A kept answer's line in the query log (the report's and the workfile's). */
export function queryLogEntry(answer: KeptAnswer) {
  return {
    operation: answer.operation,
    parameters: answer.parameters,
    at: answer.at,
    chargedMicroUsd: answer.chargedMicroUsd,
    cacheHit: answer.cacheHit,
    requestId: answer.requestId,
  } satisfies QueryLogEntry;
}

/** The contract's view of a kept answer (what the assignment page lists); `receivedIn` is the sentence of the workfile it came in, if it did. */
export function toIpcAnswer(answer: KeptAnswer, receivedIn: string | null): AssignmentAnswer {
  return {
    id: answer.id,
    ...queryLogEntry(answer),
    label: answer.label,
    citationCount: answer.citationCount,
    receivedIn: answer.imported ? receivedIn : null,
  };
}

function answerFromRow(row: Record<string, unknown>): KeptAnswer {
  const requestId = row['request_id'];
  return {
    id: String(row['id']),
    projectId: String(row['project_id']),
    operation: String(row['operation']) as ServiceOperationName,
    parts: JSON.parse(String(row['request_json'])) as Record<string, unknown>,
    connectionId: String(row['connection_id']),
    parameters: String(row['parameters']),
    label: String(row['label']),
    at: String(row['at']),
    servedAt: String(row['served_at']),
    chargedMicroUsd: Number(row['charged_micro_usd']),
    cacheHit: Number(row['cache_hit']) === 1,
    replayed: Number(row['replayed']) === 1,
    requestId: requestId === null || requestId === undefined ? null : String(requestId),
    citationCount: Number(row['citation_count']),
    imported: Number(row['imported']) === 1,
  };
}
