// The v4 summary's canonical fields, wherever the service put them. The spec says only that `data`
// holds one best value per canonical field with its citation and alternatives: Plat's embedded
// service writes the entries directly in `data`, another service under `data.fields`, and the names
// differ (`assessed_value` for `assessed_value_dollars`). One reader, used by the entity page and the
// subject report, so both read the same entries under the same names.
import { isRecord } from '../json-data.ts';
import { summaryCanonicalFields, V4SummaryFieldSchema, type V4SummaryField } from './v4.ts';

/** The canonical names Plat reads, in the order it shows them: the embedded service's, then those other services add. */
export const summaryFieldNames: readonly string[] = [...summaryCanonicalFields, 'effective_year_built', 'latitude', 'longitude'];

/** Keys of the summary's `data` that are about the answer, not fields of the entity. */
const ANSWER_KEYS = new Set(['q_id', 'entity_ref', 'limitations', 'truncated', 'next_cursor']);

const normalised = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

const BY_NORMALISED = new Map<string, string>();
for (const name of summaryFieldNames) {
  BY_NORMALISED.set(normalised(name), name);
  // A money field may be named with or without its unit (`assessed_value`, `assessed_value_dollars`).
  if (name.endsWith('_dollars')) BY_NORMALISED.set(normalised(name.slice(0, -'_dollars'.length)), name);
}

/** Plat's name for a field name as a service published it, or null when Plat has none for it. */
export function canonicalSummaryName(published: string): string | null {
  return BY_NORMALISED.get(normalised(published)) ?? null;
}

export interface SummaryEntry {
  /** The name as the service published it. */
  published: string;
  /** Plat's canonical name for it; null for a field Plat has no name for (still shown). */
  name: string | null;
  /** The entry as published. */
  raw: unknown;
  /** The entry in the shape Plat reads (`{value, citation, alternatives}`), or null when it is not. */
  entry: V4SummaryField | null;
}

export interface SummaryFields {
  entries: SummaryEntry[];
  /** What the service says it could not answer. */
  limitations: string[];
  /** Where the entries were: `data` itself or `data.fields`. */
  at: 'data' | 'data.fields';
}

/** One entry in Plat's shape; alternatives may be left out (none given). */
export function summaryEntryOf(raw: unknown): V4SummaryField | null {
  const parsed = V4SummaryFieldSchema.safeParse(isRecord(raw) && !('alternatives' in raw) ? { ...raw, alternatives: [] } : raw);
  return parsed.success ? parsed.data : null;
}

const limitationsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((line): line is string => typeof line === 'string') : []);

/** The summary's entries, known names first in Plat's order, then the others as published. */
export function summaryFields(data: unknown): SummaryFields {
  if (!isRecord(data)) return { entries: [], limitations: [], at: 'data' };
  const nested = isRecord(data.fields);
  const holder = nested ? (data.fields as Record<string, unknown>) : data;
  const limitations = [...limitationsOf(data.limitations), ...(nested ? limitationsOf(holder.limitations) : [])];
  // Beside `fields`, anything else in `data` that is not about the answer is kept too: nothing is lost.
  const published = [
    ...(nested ? Object.entries(holder).filter(([key]) => key !== 'limitations') : []),
    ...Object.entries(data).filter(([key]) => !ANSWER_KEYS.has(key) && !(nested && key === 'fields')),
  ];
  const entries = published.map(([name, raw]): SummaryEntry => ({ published: name, name: canonicalSummaryName(name), raw, entry: summaryEntryOf(raw) }));
  const rank = (entry: SummaryEntry) => (entry.name === null ? summaryFieldNames.length : summaryFieldNames.indexOf(entry.name));
  entries.sort((a, b) => rank(a) - rank(b));
  return { entries, limitations, at: nested ? 'data.fields' : 'data' };
}

/**
 * The summary as Plat's canonical record: each recognised entry under Plat's name (the first one
 * published under that name wins), plus `limitations`. What the report reads by name.
 */
export function canonicalSummary(data: unknown): Record<string, unknown> {
  const { entries, limitations } = summaryFields(data);
  const out: Record<string, unknown> = {};
  for (const entry of entries) if (entry.name !== null && !(entry.name in out)) out[entry.name] = entry.raw;
  if (limitations.length > 0) out.limitations = limitations;
  return out;
}
