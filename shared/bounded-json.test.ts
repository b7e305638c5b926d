import { describe, expect, it } from 'vitest';
import { jsonNestingDepth, readBoundedJson, readBoundedJsonBytes } from './bounded-json.ts';

const limits = { maxBytes: 1000, maxDepth: 4 };
const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('readBoundedJson', () => {
  it('reads JSON within its limits', () => {
    expect(readBoundedJson('{"a":[1,{"b":"[[[[[[["}]}', limits)).toEqual({ ok: true, value: { a: [1, { b: '[[[[[[[' }] } });
    expect(readBoundedJson(nested(4), limits)).toEqual({ ok: true, value: [[[[1]]]] });
  });

  it('refuses deeper nesting before parsing, brackets inside strings and escaped quotes not counted', () => {
    expect(readBoundedJson(nested(5), limits)).toEqual({ ok: false, reason: 'too-deep', problem: 'nests deeper than 4 levels' });
    expect(jsonNestingDepth('["\\"[[[[[[", {"x": []}]')).toBe(3);
    const deep = readBoundedJson(nested(200_000), { maxBytes: 1_000_000, maxDepth: 64 });
    expect(deep).toMatchObject({ ok: false, reason: 'too-deep', problem: 'nests deeper than 64 levels' });
  });

  it('refuses a text past its size before reading it, and text that is not JSON', () => {
    expect(readBoundedJson(`"${'x'.repeat(2000)}"`, limits)).toMatchObject({ ok: false, reason: 'too-large', problem: expect.stringMatching(/more than the .* Plat reads/) });
    expect(readBoundedJson('{"a": ', limits)).toMatchObject({ ok: false, reason: 'not-json' });
  });

  it('checks the size of bytes before decoding them', () => {
    expect(readBoundedJsonBytes(new Uint8Array(1001), limits)).toMatchObject({ ok: false, reason: 'too-large' });
    expect(readBoundedJsonBytes(new Uint8Array([0xff, 0xfe]), limits)).toMatchObject({ ok: false, reason: 'not-json', problem: 'is not UTF-8 text' });
    expect(readBoundedJsonBytes(new TextEncoder().encode('[1]'), limits)).toEqual({ ok: true, value: [1] });
  });
});
