// The graph decisions store: one decision per link and assignment, a note always, the time the
// core's; withdrawing removes it; a write the disk refuses leaves the decisions as they were.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { appliedMigrations } from '../app-db.ts';
import { ProjectStore } from '../projects.ts';
import { fillDisk, openTestDb, refusalOf, SUBJECT, tempDir } from './assignments-test-kit.ts';
import { ASSIGNMENT_GRAPH_DECISIONS_MODULE, GraphDecisionsStore } from './graph-decisions-store.ts';

/** The owner link of 1620 Q ST NW to ABDOLLAH POOZESH: a same-name lead. */
const LEAD = 'owned_by:rec_3c1f0e9b-7f7e-5d8e-9d2b-1f1f2a6b8c01→owner:ABDOLLAH POOZESH';
const FACT = 'taxed_in:prop_284146b3-f423-59ee-80e2-29b10fd24df9→acct_206b2b5c-b1ce-57b6-806a-0ab5e5ad0856';

function setUp(path = ':memory:') {
  const db = openTestDb(path);
  const projects = new ProjectStore(db);
  let clock = Date.parse('2017-01-03T10:00:00Z');
  const store = new GraphDecisionsStore(db, { now: () => new Date((clock += 60_000)) });
  const details = { subjectRef: SUBJECT, subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01' };
  const id = projects.createAssignment({ name: 'Title 1708 21st St NW', details }).id;
  const other = projects.createAssignment({ name: 'Another assignment', details }).id;
  return { db, store, id, other };
}

describe('the graph decisions store', () => {
  it('keeps one decision per link with its note trimmed and the time it was made, per assignment', () => {
    const { store, id, other, db } = setUp();
    expect(store.list(id)).toEqual([]);
    const first = store.set(id, LEAD, { decision: 'cut', note: '  The deed names a different Abdollah Poozesh.  ' });
    expect(first).toEqual([{ edgeKey: LEAD, decision: 'cut', note: 'The deed names a different Abdollah Poozesh.', at: '2017-01-03T10:01:00.000Z' }]);
    store.set(id, FACT, { decision: 'confirmed', note: 'Tax bill checked.' });
    // A second decision on the same link replaces the first, with its own time.
    const replaced = store.set(id, LEAD, { decision: 'confirmed', note: 'Same mailing address on both tax bills.' });
    expect(replaced).toEqual([
      { edgeKey: FACT, decision: 'confirmed', note: 'Tax bill checked.', at: '2017-01-03T10:02:00.000Z' },
      { edgeKey: LEAD, decision: 'confirmed', note: 'Same mailing address on both tax bills.', at: '2017-01-03T10:03:00.000Z' },
    ]);
    expect(store.list(other)).toEqual([]);
    expect(appliedMigrations(db)[ASSIGNMENT_GRAPH_DECISIONS_MODULE]).toBe(1);
  });

  it('withdraws a decision, and withdrawing one not made changes nothing', () => {
    const { store, id } = setUp();
    store.set(id, LEAD, { decision: 'cut', note: 'Different person.' });
    store.set(id, FACT, { decision: 'confirmed', note: 'Checked.' });
    expect(store.set(id, LEAD, null).map((decision) => decision.edgeKey)).toEqual([FACT]);
    expect(store.set(id, LEAD, null).map((decision) => decision.edgeKey)).toEqual([FACT]);
  });

  it('refuses a decision without a note or with one too long, saying what to write, and keeps what was there', () => {
    const { store, id } = setUp();
    const kept = store.set(id, LEAD, { decision: 'cut', note: 'Different person.' });
    const blank = refusalOf(() => store.set(id, LEAD, { decision: 'confirmed', note: '   ' }));
    expect(blank.platError).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/^Note is required: say why you confirm or cut this link — /) });
    const long = refusalOf(() => store.set(id, LEAD, { decision: 'confirmed', note: 'x'.repeat(2_001) }));
    expect(long.platError.message).toMatch(/Note must be at most 2000 characters/);
    expect(store.list(id)).toEqual(kept);
  });

  it('restores decisions made elsewhere with their own times', () => {
    const { store, id } = setUp();
    store.restore(id, [{ edgeKey: LEAD, decision: 'cut', note: 'Different person.', at: '2016-12-30T09:00:00Z' }]);
    expect(store.list(id)).toEqual([{ edgeKey: LEAD, decision: 'cut', note: 'Different person.', at: '2016-12-30T09:00:00Z' }]);
    expect(() => store.restore(id, [{ edgeKey: FACT, decision: 'maybe', note: 'x', at: '2016-12-30T09:00:00Z' }] as never)).toThrow(/not in the shape Plat saves/);
  });

  it('says so when a saved decision cannot be read, and leaves it as it is', () => {
    const { db, store, id } = setUp();
    db.prepare('INSERT INTO assignment_graph_decisions (project_id, edge_key, decision, note, at) VALUES (?, ?, ?, ?, ?)').run(id, LEAD, 'cut', '', 'x');
    expect(refusalOf(() => store.list(id)).platError.message).toMatch(/cannot be read by this Plat .* left as they are/);
    expect(db.prepare('SELECT COUNT(*) AS n FROM assignment_graph_decisions').get()?.['n']).toBe(1);
  });

  it('on a full disk fails with disk_full, keeps the decisions as they were, and saves once there is room', () => {
    const dir = tempDir('plat-graph-decisions-');
    const { db, store, id } = setUp(join(dir, 'plat.db'));
    // Two long notes nearly fill the table's page, so the next one needs a page the disk has not got.
    store.set(id, LEAD, { decision: 'cut', note: 'The deed names a different Abdollah Poozesh. '.repeat(35) });
    const kept = store.set(id, `${FACT}:2`, { decision: 'confirmed', note: 'Tax bill checked against the roll. '.repeat(45) });
    fillDisk(db);
    const note = 'The deed of 2013 names the buyer with a middle initial; the roll does not. '.repeat(26);
    const refused = refusalOf(() => store.set(id, FACT, { decision: 'confirmed', note }));
    expect(refused.platError).toMatchObject({ code: 'disk_full', retryable: true });
    expect(refused.platError.message).toMatch(/disk holding Plat’s data folder is full, so Plat could not save the decision: the decisions are kept as they were — free some space on it/);
    expect(store.list(id)).toEqual(kept);
    db.exec('PRAGMA max_page_count = 1073741823');
    expect(store.set(id, FACT, { decision: 'confirmed', note }).map((decision) => decision.edgeKey)).toEqual([LEAD, `${FACT}:2`, FACT]);
  });
});
