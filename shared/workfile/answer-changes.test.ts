import { describe, expect, it } from 'vitest';
import { answerChanges, MAX_LISTED_CHANGES } from './answer-changes.ts';

describe('answerChanges', () => {
  it('lists each field of the data that differs, old → new, and ignores meta', () => {
    const before = { status: 'ok', meta: { request_id: 'a' }, data: { items: [{ owner: 'MALLORY FORGED-OWNER', year: 1900, same: { x: 1 } }] } };
    const after = { status: 'ok', meta: { request_id: 'b' }, data: { items: [{ owner: 'KUIPERS JOEL', year: 1900, same: { x: 1 }, added: true }] } };
    expect(answerChanges(before, after)).toEqual({
      changes: [
        { path: 'items[0].owner', before: 'MALLORY FORGED-OWNER', after: 'KUIPERS JOEL' },
        { path: 'items[0].added', before: '—', after: 'true' },
      ],
      more: 0,
    });
  });

  it('lists nothing for the same data, and bounds a long list', () => {
    const data = { rows: Array.from({ length: 80 }, (_, i) => i) };
    expect(answerChanges({ data }, { data: structuredClone(data) })).toEqual({ changes: [], more: 0 });
    const changed = answerChanges({ data }, { data: { rows: data.rows.map((n) => n + 1) } });
    expect(changed.changes).toHaveLength(MAX_LISTED_CHANGES);
    expect(changed.more).toBe(80 - MAX_LISTED_CHANGES);
  });
});
