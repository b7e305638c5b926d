import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonDataProblem, MAX_JSON_DEPTH } from './json-data.ts';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
};

describe('jsonDataProblem', () => {
  it('accepts anything JSON.parse can produce within the depth bound', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'small' }), (text) => {
        const value: unknown = JSON.parse(text);
        expect(jsonDataProblem(value, 1000)).toBeNull();
      }),
    );
    expect(jsonDataProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonDataProblem({ a: undefined, b: [undefined] })).toBeNull();
  });

  it('names where a value nests too deep, however deep', () => {
    expect(jsonDataProblem(nested(MAX_JSON_DEPTH + 1))).toMatch(/more than 32 levels deep/);
    expect(jsonDataProblem({ body: { items: [nested(1_000_000)] } })).toMatch(/^\$\.body\.items\[0\]/);
  });

  it('ends on cycles and on shared references without walking them again and again', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(jsonDataProblem(cyclic)).toMatch(/levels deep/);
    // 2^31 paths through 31 shared levels, but only 31 objects: answered at once.
    let shared: unknown = 'leaf';
    for (let level = 0; level < MAX_JSON_DEPTH - 1; level += 1) shared = { a: shared, b: shared };
    expect(jsonDataProblem(shared)).toBeNull();
  });

  it('refuses what JSON cannot carry: NaN, infinities, BigInt, functions, symbols, class instances, lone surrogates', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 1n, () => 1, Symbol('s'), new Date(0), new Map(), new Uint8Array(1), '\uD800', { ['\uDC00']: 1 }]) {
      expect(jsonDataProblem({ x: [value] }), String(typeof value)).not.toBeNull();
    }
    expect(jsonDataProblem(Object.create(null) as unknown)).toBeNull();
  });
});
