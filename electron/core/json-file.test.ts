import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonFile } from './json-file.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'plat-json-file-'));
const limits = { maxBytes: 64 * 1024, maxDepth: 8 };

describe('readJsonFile', () => {
  it('reads a small file, and refuses a deep one and a large one (the large one unread)', () => {
    const small = path.join(dir, 'small.json');
    writeFileSync(small, '{"pid": 1}');
    expect(readJsonFile(small, limits)).toEqual({ ok: true, value: { pid: 1 } });
    const deep = path.join(dir, 'deep.json');
    writeFileSync(deep, `${'['.repeat(5000)}${']'.repeat(5000)}`);
    expect(readJsonFile(deep, limits)).toMatchObject({ ok: false, reason: 'too-deep' });
    // A sparse 8 GB file: refused from its size alone (reading it would fail or take minutes).
    const large = path.join(dir, 'large.json');
    writeFileSync(large, '');
    truncateSync(large, 8 * 1024 ** 3);
    expect(readJsonFile(large, limits)).toMatchObject({ ok: false, reason: 'too-large' });
  });
});
