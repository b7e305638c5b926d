// What the assignment tests share: app databases (and temporary folders) closed after each test, the
// refusal a call throws, a disk that fills up, and an assignment on the AssignmentService over one
// database that keeps answers as the core does after a call. Imported by each test file, which then
// gets its own afterEach closing what it opened.
import { afterEach, expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { CallBilling } from '../../../shared/ipc.ts';
import type { ServiceOperationName } from '../../../shared/service/index.ts';
import { openAppDatabase } from '../app-db.ts';
import { CostEstimator } from '../cost-estimator.ts';
import { PlatFailure } from '../failure.ts';
import { ProjectStore } from '../projects.ts';
import type { RequestParts } from '../service-gateway.ts';
import { AssignmentService, type AssignmentServiceOptions } from './assignments.ts';

/** 1708 21ST ST NW, the sample's subject. */
export const SUBJECT = 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b';

const dirs: string[] = [];
const dbs: DatabaseSync[] = [];

afterEach(() => {
  for (const db of dbs.splice(0)) if (db.isOpen) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An app database (in memory unless a path is given), closed after the test. */
export function openTestDb(path = ':memory:'): DatabaseSync {
  const db = openAppDatabase(path);
  dbs.push(db);
  return db;
}

/** A new temporary folder, removed after the test. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export function refusalOf(work: () => unknown): PlatFailure {
  try {
    work();
  } catch (error) {
    if (error instanceof PlatFailure) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** Lets the database grow no more and fills what is left, so the next write that needs room fails with SQLITE_FULL. */
export function fillDisk(db: DatabaseSync): void {
  db.exec('CREATE TABLE filler (blob TEXT NOT NULL) STRICT');
  const pages = Number(db.prepare('PRAGMA page_count').get()?.['page_count']);
  db.exec(`PRAGMA max_page_count = ${pages}`);
  const filler = db.prepare('INSERT INTO filler (blob) VALUES (?)');
  expect(() => {
    for (;;) filler.run('x'.repeat(200));
  }).toThrow(/full/);
}

/**
 * A new active assignment on 1708 21ST ST NW (`subjectRef` names it), on an AssignmentService whose
 * clock starts at `start` and moves a second per reading. `keep` keeps an answer with it, as the core
 * does after a call, served at `start`.
 */
export function openAssignment(options: { name: string; subjectRef: string; start: string; signer?: AssignmentServiceOptions['signer'] }) {
  const db = openTestDb();
  const projects = new ProjectStore(db);
  let clock = Date.parse(options.start);
  const assignments = new AssignmentService({
    db,
    projects,
    estimator: new CostEstimator(db),
    projectSpent: () => 0,
    appVersion: 'test',
    now: () => new Date((clock += 1_000)),
    signer: options.signer ?? null,
  });
  const created = assignments.create({
    name: options.name,
    capMicroUsd: null,
    details: { subjectRef: options.subjectRef, subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01' },
    activate: true,
  });
  const keep = (operation: ServiceOperationName, parts: RequestParts, envelope: unknown, chargedMicroUsd: number) => {
    const billing: CallBilling = { chargedMicroUsd, replayed: false, cacheHit: false, servedAt: options.start, requestId: 'req', balanceMicroUsd: null, attempts: 1 };
    assignments.attach({ projectId: created.id, connectionId: 'local-sample', operation, parts, envelope, billing });
  };
  return { db, projects, assignments, id: created.id, keep };
}
