// Numbers citations for one document or screen: equal citations (citationKey) share one id, so a
// source cited by a hundred values is one endnote. The subject report, the comparables analysis and
// anything built into the same document cite through one book.
import { citationKey, type CitationFields } from './citation.ts';
import type { Citation } from './value.ts';

export type Cite = (citation: CitationFields) => string;

export class CitationBook {
  readonly #citations = new Map<string, Citation>();

  /** The citation's id in this book (`c1`, `c2`…), adding it when new. */
  cite = (citation: CitationFields): string => {
    const key = citationKey(citation);
    const existing = this.#citations.get(key);
    if (existing) return existing.id;
    const id = `c${this.#citations.size + 1}`;
    this.#citations.set(key, { ...citation, id });
    return id;
  };

  citationIds(citations: readonly CitationFields[]): string[] {
    return [...new Set(citations.map((citation) => this.cite(citation)))];
  }

  all(): Citation[] {
    return [...this.#citations.values()];
  }
}
