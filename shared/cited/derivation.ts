// How a derived value is made from its inputs, by rule name: the builder makes the value with the
// rule and writes the rule and its inputs beside it (citations.json), and "Verify a report" makes it
// again from those inputs. A rule named here is the only place its arithmetic lives.
import { z } from 'zod';
import { formatDollars } from '../money.ts';
import { MARKET_RULES } from '../market/market-rules.ts';

export const DerivationSchema = z.object({
  rule: z.string().min(1).max(100),
  inputs: z.array(z.union([z.number(), z.string()])).max(100_000),
});
export type Derivation = z.infer<typeof DerivationSchema>;

/** A rule: the value as printed, from its inputs; null when the inputs are not the rule's. */
type Rule = (inputs: readonly (number | string)[]) => string | null;

const amounts = (inputs: readonly (number | string)[]): number[] | null =>
  inputs.every((input): input is number => typeof input === 'number' && Number.isFinite(input)) ? (inputs as number[]) : null;

/** Every rule by its name. Comparables' adjusted prices and indicated value join here (issue 21). */
export const DERIVATION_RULES: Readonly<Record<string, Rule>> = {
  /** A total of dollar amounts, printed in whole dollars (an owner portfolio's total assessed value; a publisher may give cents). */
  'sum-of-dollars': (inputs) => {
    const dollars = amounts(inputs);
    if (dollars === null || dollars.length === 0) return null;
    const total = dollars.reduce((sum, value) => sum + value, 0);
    return Number.isFinite(total) ? formatDollars(total) : null;
  },
  /** Market conditions and the time trend (shared/market/). */
  ...MARKET_RULES,
};

export type Recomputed = { kind: 'same' } | { kind: 'differs'; recomputed: string } | { kind: 'unknown-rule' } | { kind: 'bad-inputs' };

/** Makes the value again from its inputs and says whether it is the value printed. */
export function recompute(derivation: Derivation, printed: string): Recomputed {
  const rule = Object.hasOwn(DERIVATION_RULES, derivation.rule) ? DERIVATION_RULES[derivation.rule] : undefined;
  if (!rule) return { kind: 'unknown-rule' };
  const value = rule(derivation.inputs);
  if (value === null) return { kind: 'bad-inputs' };
  return value === printed ? { kind: 'same' } : { kind: 'differs', recomputed: value };
}

/** The value a rule makes (for builders): throws when the inputs are not the rule's. */
export function derive(derivation: Derivation): string {
  const value = DERIVATION_RULES[derivation.rule]?.(derivation.inputs) ?? null;
  if (value === null) throw new Error(`the rule ${derivation.rule} cannot derive a value from these inputs`);
  return value;
}
