// The comparables workfile store: one row per assignment, checked on every save with messages for a
// person, and a write the disk refuses leaves the last saved version as it was.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { emptyComparablesWorkfile, type ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { appliedMigrations } from '../app-db.ts';
import { ProjectStore } from '../projects.ts';
import { fillDisk, openTestDb, refusalOf, SUBJECT, tempDir } from './assignments-test-kit.ts';
import { ASSIGNMENT_COMPARABLES_MODULE, ComparablesStore } from './comparables-store.ts';

function setUp(path = ':memory:') {
  const db = openTestDb(path);
  const projects = new ProjectStore(db);
  let clock = Date.parse('2017-01-03T10:00:00Z');
  const store = new ComparablesStore(db, { now: () => new Date((clock += 60_000)) });
  const assignment = projects.createAssignment({ name: '1708 21st St NW', details: { subjectRef: SUBJECT, subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01' } });
  return { db, projects, store, id: assignment.id };
}

const working = (overrides: Partial<ComparablesWorkfile> = {}): ComparablesWorkfile => ({
  ...emptyComparablesWorkfile(),
  chosen: ['rec_a', 'rec_b', 'rec_c'],
  weights: { rec_a: 'most' },
  manual: { rec_b: { fireplaces: -5_000 } },
  notUsed: { rec_d: { reason: 'size', note: 'Twice the subject’s living area' } },
  ...overrides,
});

describe('the comparables store', () => {
  it('answers an empty workfile until one is saved, then the saved one with the time it was saved', () => {
    const { store, id, db } = setUp();
    expect(store.find(id)).toBeNull();
    expect(store.get(id)).toEqual(emptyComparablesWorkfile());
    const saved = store.save(id, working({ savedAt: '1999-01-01T00:00:00.000Z' }));
    // The core sets savedAt, whatever the caller sent.
    expect(saved.savedAt).toBe('2017-01-03T10:01:00.000Z');
    expect(store.get(id)).toEqual(saved);
    const again = store.save(id, { ...saved, chosen: ['rec_c', 'rec_a'] });
    expect(store.get(id)).toEqual(again);
    expect(again.chosen).toEqual(['rec_c', 'rec_a']);
    expect(Number(db.prepare('SELECT COUNT(*) AS n FROM assignment_comparables').get()?.['n'])).toBe(1);
    expect(appliedMigrations(db)[ASSIGNMENT_COMPARABLES_MODULE]).toBe(1);
  });

  it('keeps an indicated value without its comment while the appraiser works', () => {
    const { store, id } = setUp();
    const saved = store.save(id, working({ reconciliation: { indicatedValueDollars: 1_450_000, comment: '' } }));
    expect(store.get(id).reconciliation).toEqual({ indicatedValueDollars: 1_450_000, comment: '' });
    expect(saved.reconciliation.indicatedValueDollars).toBe(1_450_000);
  });

  it('refuses what a person must correct, saying what, and keeps the last saved version', () => {
    const { store, id } = setUp();
    const kept = store.save(id, working());
    const twice = refusalOf(() => store.save(id, working({ chosen: ['rec_a', 'rec_b', 'rec_a'] })));
    expect(twice.platError).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/chosen only once.*rec_a/) });
    const many = refusalOf(() => store.save(id, working({ chosen: Array.from({ length: 21 }, (_, i) => `rec_${i}`) })));
    expect(many.platError.message).toMatch(/21 comparables are chosen; a grid holds at most 20/);
    const run = {
      id: 'search-1',
      criteria: emptyComparablesWorkfile().criteria,
      effectiveDate: '2017-01-01',
      radiusMiles: 0.5,
      pages: [{ mode: 'report' }],
      ranAt: '2017-01-03T10:00:00Z',
      dataAsOf: null,
      total: 0,
      returned: 0,
    };
    const sameSearch = refusalOf(() => store.save(id, working({ searches: [run, run] })));
    expect(sameSearch.platError.message).toMatch(/Two searches have the same id \(search-1\)/);
    const shape = refusalOf(() => store.save(id, { ...working(), weights: { rec_a: 'best' } }));
    expect(shape.platError).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/not in the shape Plat saves at weights\.rec_a/) });
    expect(store.get(id)).toEqual(kept);
  });

  it('says so when a saved workfile cannot be read, and leaves it as it is', () => {
    const { db, store, id } = setUp();
    db.prepare('INSERT INTO assignment_comparables (project_id, workfile_json, saved_at) VALUES (?, ?, ?)').run(id, '{"version":9}', 'x');
    expect(refusalOf(() => store.get(id)).platError.message).toMatch(/cannot be read by this Plat .* left as they are/);
    expect(db.prepare('SELECT workfile_json FROM assignment_comparables WHERE project_id = ?').get(id)?.['workfile_json']).toBe('{"version":9}');
  });

  it('on a full disk fails with disk_full, leaves the last saved version whole, and saves once there is room', () => {
    const dir = tempDir('plat-comparables-');
    const { db, store, id } = setUp(join(dir, 'plat.db'));
    const kept = store.save(id, working());
    fillDisk(db);
    const larger = working({ reconciliation: { indicatedValueDollars: 1_450_000, comment: 'Most weight to comp 1. '.repeat(200) } });
    const refused = refusalOf(() => store.save(id, larger));
    expect(refused.platError).toMatchObject({ code: 'disk_full', retryable: true });
    expect(refused.platError.message).toMatch(/disk holding Plat’s data folder is full, so Plat could not save the comparables: the last saved version is kept/);
    expect(store.get(id)).toEqual(kept);
    db.exec('PRAGMA max_page_count = 1073741823');
    expect(store.save(id, larger).reconciliation.comment).toBe(larger.reconciliation.comment);
  });
});
