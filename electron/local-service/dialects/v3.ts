// v3 record queries in the independent dialect: sales coded `01` (market) / `03` (non-market,
// price 0 included) with sale_type MARKET / OTHER, money in field cells as dollars and cents
// ("18402.50"), and citations by source release: every `source_refs` entry `<source_id>@<release_id>`,
// `data.sources` entries without the embedded service's `record_refs` index.
import type { OperationResult } from '../operation.ts';
import type { SampleStore } from '../sample-store.ts';
import { ReleaseRefs } from './refs.ts';
import type { V3SourceEntry } from '../operations/citations.ts';

export const MARKET_CODE = '01';
export const NON_MARKET_CODE = '03';

/** A v3 source entry as this dialect writes it: the embedded one without its `synthetic` flag and `record_refs` index. */
type SourceEntry = Omit<V3SourceEntry, 'synthetic' | 'record_refs'>;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A field cell (`{value, status, source_refs}`) holding whole dollars as text. */
function isDollarCell(key: string, value: unknown): value is { value: string } {
  return key.endsWith('_dollars') && isObject(value) && typeof value['value'] === 'string' && Array.isArray(value['source_refs']);
}

/** Walks an answer: transfer sections get the dialect's codes, dollar cells get cents. */
function recode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(recode);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (isDollarCell(key, inner)) {
      out[key] = /^-?\d+$/.test(inner.value) ? { ...inner, value: `${inner.value}.00` } : inner;
    } else {
      out[key] = recode(inner);
    }
  }
  if (typeof out['acceptance_code'] === 'string') {
    const market = out['acceptance_code'] === 'market';
    out['acceptance_code'] = market ? MARKET_CODE : NON_MARKET_CODE;
    out['sale_type'] = market ? 'MARKET' : 'OTHER';
  }
  return out;
}

function sourceEntry(entry: SourceEntry): SourceEntry {
  const { source_id, release_id, sha256, official_url, publisher, dataset, as_of } = entry;
  return { source_id, release_id, sha256, official_url, publisher, dataset, as_of };
}

export function recordQueryOut(result: OperationResult, store: SampleStore): OperationResult {
  if (!isObject(result.data)) return result;
  const refs = new ReleaseRefs(store);
  const { sources, ...rest } = result.data as { sources?: SourceEntry[] } & Record<string, unknown>;
  const data = refs.rewrite(recode(rest)) as Record<string, unknown>;
  const entries = (sources ?? []).map(sourceEntry);
  // Every release a ref names has its entry, even one the embedded answer listed under another source.
  for (const citation of refs.cited.values()) {
    if (entries.some((entry) => entry.source_id === citation.source_id)) continue;
    entries.push(sourceEntry({ ...citation, publisher: citation.publisher }));
  }
  // Keys in the embedded order, `sources` where it was.
  const ordered = Object.fromEntries(Object.keys(result.data).map((key) => [key, key === 'sources' ? entries : data[key]]));
  return { ...result, data: ordered };
}
