// What a re-check changed: an imported answer's data against the answer bought in its place, field by
// field (a field is a path into the answer's `data`: "items[0].sections.ownership.owner_name"). The
// envelope's `meta` (request id, timing, charge) differs on every purchase and is not the answer.
import { canonicalJson } from '../canonical-json.ts';

export interface AnswerChange {
  path: string;
  /** The value as text ("—" when the field was absent). */
  before: string;
  after: string;
}

/** At most this many changes are listed per answer; `more` counts the rest. */
export const MAX_LISTED_CHANGES = 50;
const MAX_DEPTH = 64;
const ABSENT = '—';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const shown = (value: unknown): string => {
  if (value === undefined) return ABSENT;
  if (typeof value === 'string') return value;
  const text = value !== null && typeof value === 'object' ? canonicalJson(value) : String(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
};

/** The changes between two envelopes' `data`, in document order, at most MAX_LISTED_CHANGES of them. */
export function answerChanges(before: unknown, after: unknown): { changes: AnswerChange[]; more: number } {
  const changes: AnswerChange[] = [];
  let total = 0;
  const note = (path: string, a: unknown, b: unknown) => {
    total += 1;
    if (changes.length < MAX_LISTED_CHANGES) changes.push({ path: path === '' ? 'data' : path, before: shown(a), after: shown(b) });
  };
  const walk = (path: string, a: unknown, b: unknown, depth: number): void => {
    if (depth < MAX_DEPTH && Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(`${path}[${i}]`, a[i], b[i], depth + 1);
      return;
    }
    if (depth < MAX_DEPTH && isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(path === '' ? key : `${path}.${key}`, a[key], b[key], depth + 1);
      return;
    }
    if (a === b) return;
    if (a !== undefined && b !== undefined && typeof a === 'object' && typeof b === 'object' && canonicalJson(a) === canonicalJson(b)) return;
    note(path, a, b);
  };
  walk('', isObject(before) ? before['data'] : undefined, isObject(after) ? after['data'] : undefined, 0);
  return { changes, more: total - changes.length };
}
