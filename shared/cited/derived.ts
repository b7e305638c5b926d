// A value Plat works out from other values (a sum, a ratio, a distance): never shown as published.
// Its citations are its inputs' own citations, and `derivedFrom` says the rule in words, so a reader
// can find every input's source and redo the sum. Every derived value is built here.
import type { CitationFields } from './citation.ts';
import type { Cite } from './citation-book.ts';
import type { Derivation } from './derivation.ts';
import type { CitedValue } from './value.ts';

export interface DerivedInput {
  /** What the input is, in words ("sale price", "the subject's location"). */
  name: string;
  /** The input's citations, as the answer gives them. */
  citations?: readonly CitationFields[];
  /** Or its citation ids in the book already (an input that is itself a cited value). */
  citationIds?: readonly string[];
}

export interface DerivedSpec {
  field: string;
  label: string;
  raw: CitedValue['raw'];
  display: string;
  /** How the value is made from its inputs, in words ("Sale price $1,250,000 ÷ gross living area 2,046 sq ft, by Plat"). */
  rule: string;
  inputs: readonly DerivedInput[];
  limitation?: string | null;
  /** The named rule that made `display` from its inputs, kept with the value so Verify can make it again. */
  derivation?: Derivation;
}

/**
 * A derived value cited to its inputs: status `derived`, the rule as `derivedFrom`, each input's
 * citations once. Inputs none of which is cited leave nothing to check the value against: it is then
 * unavailable, and says so.
 */
export function derivedValue(spec: DerivedSpec, cite: Cite): CitedValue {
  const ids = [...new Set(spec.inputs.flatMap((input) => [...(input.citationIds ?? []), ...(input.citations ?? []).map(cite)]))];
  const base = { field: spec.field, label: spec.label, alternatives: [], choice: null };
  if (ids.length === 0) {
    const names = spec.inputs.map((input) => input.name).join(', ');
    return {
      ...base,
      raw: null,
      display: '—',
      status: 'unavailable',
      citationIds: [],
      derivedFrom: null,
      limitation: `Not shown: it would be worked out from ${names || 'inputs'} that the answers do not cite.`,
    };
  }
  return {
    ...base,
    raw: spec.raw,
    display: spec.display,
    status: 'derived',
    citationIds: ids,
    derivedFrom: spec.rule,
    limitation: spec.limitation ?? null,
    ...(spec.derivation ? { derivation: spec.derivation } : {}),
  };
}
