// Request summaries and replay copies.
//
// A call's row keeps two forms of its request. The *summary* is for people (the Spend screen, the
// CSV): bounded, with credentials taken out. The *replay copy* is the exact request, kept only while
// the row is pending: recovery re-sends it with the same Idempotency-Key, and the service answers a
// different request under that key with 409, so it must not lose a character (no truncation, no
// redaction of ordinary words). Once the row is closed the copy is dropped. Credentials are taken
// out by the one scrub Plat has (../secret-scrub.ts), which also cleans every answer as it arrives.
import { Scrubber } from '../secret-scrub.ts';

const MAX_SUMMARY_CHARS = 8192;
const MAX_SUMMARY_DEPTH = 12;
/** Ever smaller cuts applied to a summary over MAX_SUMMARY_CHARS: items kept per list or object, characters per text. */
const SHRINK_STEPS = [
  { items: 10, chars: 200 },
  { items: 3, chars: 60 },
  { items: 1, chars: 20 },
] as const;

function isSecretKeyName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return (
    normalized === 'key' ||
    normalized === 'token' ||
    normalized === 'bearer' ||
    normalized === 'cookie' ||
    normalized === 'credential' ||
    normalized === 'credentials' ||
    normalized.endsWith('apikey') ||
    normalized.endsWith('accesstoken') ||
    normalized.endsWith('refreshtoken') ||
    normalized.includes('authorization') ||
    normalized.includes('secret') ||
    normalized.includes('password')
  );
}

interface JsonWalk {
  /** Summaries: credentials out. The replay copy: null (exact). */
  scrub: ((text: string) => string) | null;
  /** Deeper values become "…" (summaries); Infinity for the replay copy. */
  maxDepth: number;
}

/** The value as plain JSON data; throws TypeError for what JSON cannot hold (a programming error). */
function jsonValue(value: unknown, depth: number, walk: JsonWalk): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') return walk.scrub ? walk.scrub(value) : value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('requestSummary holds a non-finite number');
    return value;
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'object') throw new TypeError(`requestSummary holds a ${typeof value}, which is not JSON`);
  if (depth >= walk.maxDepth) return '…';
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : jsonValue(item, depth + 1, walk)));
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new TypeError('requestSummary must hold plain objects only');
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (walk.scrub && isSecretKeyName(key)) continue;
    result[walk.scrub ? walk.scrub(key) : key] = jsonValue(item, depth + 1, walk);
  }
  return result;
}

/** A shorter summary: long lists and objects keep their first entries and say how many more there were. */
function shrinkValue(value: unknown, limits: { items: number; chars: number }): unknown {
  if (typeof value === 'string') return value.length > limits.chars ? `${value.slice(0, limits.chars)}…` : value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, limits.items).map((item) => shrinkValue(item, limits));
    return value.length > limits.items ? [...kept, `… ${value.length - limits.items} more`] : kept;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    const result: Record<string, unknown> = {};
    for (const [key, item] of entries.slice(0, limits.items)) result[key] = shrinkValue(item, limits);
    if (entries.length > limits.items) result['…'] = `${entries.length - limits.items} more`;
    return result;
  }
  return value;
}

/**
 * The JSON text stored as a request's summary: credentials out (keys named like secrets, the given
 * secrets wherever they appear, credential-looking text), at most MAX_SUMMARY_CHARS. A summary is a
 * summary: a request too large for it is shortened, never refused. Exported for tests.
 */
export function summaryJson(summary: unknown, secrets: Iterable<string | null | undefined> = []): string {
  const scrubber = new Scrubber(secrets);
  const value = jsonValue(summary, 0, { scrub: (text) => scrubber.text(text), maxDepth: MAX_SUMMARY_DEPTH });
  let text = JSON.stringify(value);
  for (const limits of SHRINK_STEPS) {
    if (text.length <= MAX_SUMMARY_CHARS) return text;
    text = JSON.stringify(shrinkValue(value, limits));
  }
  // Escaping can at most double a character's length, so half the budget always fits.
  return text.length <= MAX_SUMMARY_CHARS ? text : JSON.stringify({ truncated: text.slice(0, MAX_SUMMARY_CHARS / 2 - 32) });
}

/**
 * The exact request as JSON for a pending row's replay, or null when it holds one of the given secrets
 * (the key is never written to the ledger; such a call cannot be replayed after a crash, and
 * reconciliation books what it cost). Exported for tests.
 */
export function replayJson(request: unknown, secrets: Iterable<string | null | undefined> = []): string | null {
  const text = JSON.stringify(jsonValue(request, 0, { scrub: null, maxDepth: Number.POSITIVE_INFINITY }));
  return new Scrubber(secrets).holdsSecret(text) ? null : text;
}
