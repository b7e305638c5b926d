// What may cross into Plat's core and the service: plain JSON data, not too deep. A request is
// checked here once, at the door, because everything behind it (schemas, the cache key, the ledger's
// summary, URL building, the idempotency fingerprint) assumes JSON and some of it recurses: a value
// nested 5,000 deep, a cycle, a NaN or a BigInt (Electron's structured clone carries all of them), or
// a lone UTF-16 surrogate (which URL encoding throws on) would otherwise fail deep inside as an
// internal error instead of being refused as the bad request it is.

/**
 * Deepest nesting of arrays and objects a request may have. The deepest Plat sends is six (an IPC
 * call's `request.body.items[].identifiers[]`); the bound keeps every recursive walk within the stack.
 */
export const MAX_JSON_DEPTH = 32;

// String.prototype.isWellFormed's test, spelt out: the renderer's library target predates it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `value` is not plain JSON data within `maxDepth` levels, naming where (`$.body.items[0]`),
 * or null when it is. Iterative, with each object expanded at most once per depth, so any input,
 * cycles included, is safe to ask about.
 */
export function jsonDataProblem(value: unknown, maxDepth: number = MAX_JSON_DEPTH): string | null {
  const deepest = new Map<object, number>();
  const pending: { value: unknown; depth: number; at: string }[] = [{ value, depth: 0, at: '$' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: item, depth, at } = next;
    // undefined is what JSON leaves out (a property) or writes as null (an item): harmless.
    if (item === null || item === undefined || typeof item === 'boolean') continue;
    if (typeof item === 'string') {
      if (LONE_SURROGATE.test(item)) return `${at} is text with a broken character (a lone UTF-16 surrogate)`;
      continue;
    }
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return `${at} is not a finite number`;
      continue;
    }
    if (typeof item !== 'object') return `${at} is a ${typeof item}, which JSON cannot carry`;
    const prototype = Object.getPrototypeOf(item) as unknown;
    const isArray = Array.isArray(item);
    if (!isArray && prototype !== Object.prototype && prototype !== null) return `${at} is not a plain object or array`;
    // A cycle nests without end, so it ends here too.
    if (depth + 1 > maxDepth) return `${at} nests arrays and objects more than ${maxDepth} levels deep`;
    if ((deepest.get(item) ?? -1) >= depth) continue;
    deepest.set(item, depth);
    for (const [name, child] of Object.entries(item)) {
      if (LONE_SURROGATE.test(name)) return `${at} has a key with a broken character (a lone UTF-16 surrogate)`;
      pending.push({ value: child, depth: depth + 1, at: isArray ? `${at}[${name}]` : `${at}.${name}` });
    }
  }
  return null;
}

/** A plain object (not null, not an array): how answers' nested parts are read without trusting their shape. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
