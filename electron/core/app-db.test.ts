import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { applyMigrations, appliedMigrations, inTransaction, openAppDatabase, registerMigrations } from './app-db.ts';

const dirs: string[] = [];
function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plat-appdb-'));
  dirs.push(dir);
  return join(dir, 'app.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const pragma = (db: DatabaseSync, name: string): unknown => db.prepare(`PRAGMA ${name}`).get()?.[name];

describe('openAppDatabase', () => {
  it('opens a file database in WAL mode with NORMAL sync, foreign keys and a busy timeout', () => {
    const db = openAppDatabase(tempPath());
    try {
      expect(pragma(db, 'journal_mode')).toBe('wal');
      expect(pragma(db, 'synchronous')).toBe(1); // NORMAL
      expect(pragma(db, 'foreign_keys')).toBe(1);
      expect(db.prepare('PRAGMA busy_timeout').get()?.['timeout']).toBe(5000);
      expect(pragma(db, 'user_version')).toBe(1);
    } finally {
      db.close();
    }
  });

  it('applies registered migrations when opening, once', () => {
    registerMigrations('appdb-test-registered', ['CREATE TABLE registered_thing (id INTEGER PRIMARY KEY) STRICT']);
    const path = tempPath();
    const first = openAppDatabase(path);
    first.prepare('INSERT INTO registered_thing (id) VALUES (1)').run();
    expect(appliedMigrations(first)['appdb-test-registered']).toBe(1);
    first.close();
    // Reopening does not run the CREATE again (it would throw) and keeps the data.
    const second = openAppDatabase(path);
    expect(second.prepare('SELECT count(*) AS n FROM registered_thing').get()?.['n']).toBe(1);
    second.close();
  });

  it('refuses a module registering two different migration lists', () => {
    registerMigrations('appdb-test-twice', ['CREATE TABLE twice_a (id INTEGER) STRICT']);
    expect(() => registerMigrations('appdb-test-twice', ['CREATE TABLE twice_a (id INTEGER) STRICT'])).not.toThrow();
    expect(() => registerMigrations('appdb-test-twice', ['CREATE TABLE twice_b (id INTEGER) STRICT'])).toThrow(/two different/);
  });
});

describe('applyMigrations', () => {
  it('runs only the new migrations of a module and keeps modules apart', () => {
    const db = openAppDatabase(':memory:');
    const v1 = ['CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT'];
    expect(applyMigrations(db, 'notes', v1)).toBe(1);
    expect(applyMigrations(db, 'notes', v1)).toBe(0);
    const v2 = [...v1, 'ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0'];
    expect(applyMigrations(db, 'notes', v2)).toBe(1);
    expect(applyMigrations(db, 'other', ['CREATE TABLE other_things (id INTEGER) STRICT'])).toBe(1);
    expect(appliedMigrations(db)).toMatchObject({ notes: 2, other: 1 });
    db.prepare('INSERT INTO notes (body, pinned) VALUES (?, 1)').run('x');
    db.close();
  });

  it('rolls a failing migration back and leaves the module at the previous step', () => {
    const db = openAppDatabase(':memory:');
    const migrations = ['CREATE TABLE steps (id INTEGER) STRICT', 'CREATE TABLE half_done (id INTEGER) STRICT; THIS IS NOT SQL'];
    expect(() => applyMigrations(db, 'steps', migrations)).toThrow();
    expect(appliedMigrations(db)['steps']).toBe(1);
    expect(db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'half_done'`).get()?.['n']).toBe(0);
    db.close();
  });

  it('refuses a database migrated further than the code knows', () => {
    const db = openAppDatabase(':memory:');
    applyMigrations(db, 'ahead', ['CREATE TABLE a1 (id INTEGER) STRICT', 'CREATE TABLE a2 (id INTEGER) STRICT']);
    expect(() => applyMigrations(db, 'ahead', ['CREATE TABLE a1 (id INTEGER) STRICT'])).toThrow(/newer/);
    db.close();
  });

  it('refuses a file written with a newer bookkeeping layout', () => {
    const path = tempPath();
    const raw = new DatabaseSync(path);
    raw.exec('PRAGMA user_version = 99');
    raw.close();
    expect(() => openAppDatabase(path)).toThrow(/newer Plat/);
  });
});

describe('inTransaction', () => {
  it('commits on success and rolls back when the work throws', () => {
    const db = openAppDatabase(':memory:');
    db.exec('CREATE TABLE t (v INTEGER) STRICT');
    inTransaction(db, () => db.prepare('INSERT INTO t VALUES (1)').run());
    expect(() =>
      inTransaction(db, () => {
        db.prepare('INSERT INTO t VALUES (2)').run();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.prepare('SELECT group_concat(v) AS vs FROM t').get()?.['vs']).toBe('1');
    db.close();
  });

  it('lets a nested call join the outer transaction, so both commit or roll back together', () => {
    const db = openAppDatabase(':memory:');
    db.exec('CREATE TABLE t (v INTEGER) STRICT');
    inTransaction(db, () => {
      db.prepare('INSERT INTO t VALUES (1)').run();
      inTransaction(db, () => db.prepare('INSERT INTO t VALUES (2)').run());
    });
    expect(() =>
      inTransaction(db, () => {
        inTransaction(db, () => db.prepare('INSERT INTO t VALUES (3)').run());
        throw new Error('after the inner work');
      }),
    ).toThrow('after the inner work');
    expect(db.prepare('SELECT group_concat(v) AS vs FROM t').get()?.['vs']).toBe('1,2');
    expect(db.isTransaction).toBe(false);
    db.close();
  });
});
