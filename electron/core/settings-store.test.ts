import { describe, expect, it } from 'vitest';
import { openAppDatabase } from './app-db.ts';
import { SettingsStore } from './settings-store.ts';

describe('SettingsStore', () => {
  it('round-trips JSON values and tells unset from null', () => {
    const db = openAppDatabase(':memory:');
    const settings = new SettingsStore(db);
    expect(settings.get('x')).toBeUndefined();
    settings.set('x', null);
    expect(settings.get('x')).toBeNull();
    settings.set('x', { a: [1, 2] });
    expect(settings.get('x')).toEqual({ a: [1, 2] });
    settings.delete('x');
    expect(settings.get('x')).toBeUndefined();
    db.close();
  });
});
