// Source refs as the independent dialect writes them: `<source_id>@<release_id>` (a release of a
// source, not a record). The embedded operations cite records (`rec_…`); this turns every record
// ref in a `source_refs` (or `derived_from`) list into its source release, each once per list.
import type { SampleStore } from '../sample-store.ts';
import type { Citation } from '../sample-store.ts';

const RECORD_REF = /^rec_[0-9a-f-]{36}$/;
const REF_LISTS = new Set(['source_refs', 'derived_from']);

/** Looks up the citation of a record ref once per answer (many values cite the same record). */
export class ReleaseRefs {
  readonly #store: SampleStore;
  readonly #citations = new Map<string, Citation | null>();
  /** Every source release cited, in the order first cited. */
  readonly cited = new Map<string, Citation>();

  constructor(store: SampleStore) {
    this.#store = store;
  }

  /** `dc_otr_ownership@20170205` for a record of that release; a string that is not a record ref is kept. */
  of(ref: string): string {
    if (!RECORD_REF.test(ref)) return ref;
    if (!this.#citations.has(ref)) this.#citations.set(ref, this.#store.getRecord(ref)?.citation ?? null);
    const citation = this.#citations.get(ref);
    if (!citation) return ref;
    const release = `${citation.source_id}@${citation.release_id}`;
    if (!this.cited.has(release)) this.cited.set(release, citation);
    return release;
  }

  list(refs: readonly unknown[]): unknown[] {
    const out: unknown[] = [];
    for (const ref of refs) {
      const mapped = typeof ref === 'string' ? this.of(ref) : ref;
      if (!out.includes(mapped)) out.push(mapped);
    }
    return out;
  }

  /** A copy of `value` with every `source_refs` / `derived_from` list rewritten, at any depth. */
  rewrite(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((inner) => this.rewrite(inner));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = REF_LISTS.has(key) && Array.isArray(inner) ? this.list(inner) : this.rewrite(inner);
    }
    return out;
  }
}
