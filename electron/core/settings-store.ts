// Settings: one JSON value per key, in a small table the core's modules share (the active project,
// budget settings).
import type { DatabaseSync } from 'node:sqlite';
import { ModuleStore, statement } from './app-db.ts';

export const SETTINGS_MODULE = 'core-settings';

/** Append-only (see app-db.ts). */
export const SETTINGS_MIGRATIONS: readonly string[] = [
  `CREATE TABLE core_settings (
     key TEXT PRIMARY KEY,
     value_json TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT;`,
];

/** Key-value settings kept in the app database. Values are JSON; readers validate what they get. */
export class SettingsStore extends ModuleStore {
  constructor(db: DatabaseSync) {
    super(db, SETTINGS_MODULE, SETTINGS_MIGRATIONS);
  }

  /** The stored value, or undefined when the key was never set (or holds unreadable JSON). */
  get(key: string): unknown {
    const row = statement(this.db, 'SELECT value_json FROM core_settings WHERE key = ?').get(key);
    if (!row) return undefined;
    try {
      return JSON.parse(String(row['value_json'])) as unknown;
    } catch {
      return undefined;
    }
  }

  set(key: string, value: unknown, now: Date = new Date()): void {
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`setting ${key} must be JSON-serialisable`);
    statement(this.db, 
        `INSERT INTO core_settings (key, value_json, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
      )
      .run(key, json, now.toISOString());
  }

  delete(key: string): void {
    statement(this.db, 'DELETE FROM core_settings WHERE key = ?').run(key);
  }
}
