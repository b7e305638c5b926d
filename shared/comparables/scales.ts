// The DC CAMA residential rating scales, low to high, as ordinal steps: the grid adjusts quality and
// condition "per step", so a comp two grades above the subject is adjusted twice the rate. A rating
// that is not on the scale (or CAMA's "Default", which means not rated) has no step.

/** DC CAMA GRADE, lowest first. */
export const GRADE_SCALE = [
  'Low Quality',
  'Fair Quality',
  'Average',
  'Above Average',
  'Good Quality',
  'Very Good',
  'Excellent',
  'Superior',
  'Exceptional-A',
  'Exceptional-B',
  'Exceptional-C',
  'Exceptional-D',
] as const;

/** DC CAMA CNDTN, lowest first ("Default" is not a condition: it means not rated). */
export const CONDITION_SCALE = ['Poor', 'Fair', 'Average', 'Good', 'Very Good', 'Excellent'] as const;

/** Case, dashes and spacing differ between extracts ("EXCEPTIONAL A", "Exceptional-A"). */
const normalize = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

function stepsOf(scale: readonly string[], aliases: Record<string, string>): Map<string, number> {
  const steps = new Map<string, number>();
  scale.forEach((name, index) => steps.set(normalize(name), index));
  for (const [alias, name] of Object.entries(aliases)) steps.set(normalize(alias), scale.indexOf(name));
  return steps;
}

// Older extracts drop "Quality" from the low grades ("Good" for "Good Quality").
const GRADE_STEPS = stepsOf(GRADE_SCALE, { Low: 'Low Quality', Fair: 'Fair Quality', Good: 'Good Quality' });
const CONDITION_STEPS = stepsOf(CONDITION_SCALE, {});

function stepIn(steps: ReadonlyMap<string, number>, text: string | null | undefined): number | null {
  if (typeof text !== 'string') return null;
  return steps.get(normalize(text)) ?? null;
}

/** The grade's step on GRADE_SCALE (0 = Low Quality … 11 = Exceptional-D); null when not on the scale. */
export function gradeStep(text: string | null | undefined): number | null {
  return stepIn(GRADE_STEPS, text);
}

/** The condition's step on CONDITION_SCALE (0 = Poor … 5 = Excellent); null for "Default" or anything not on the scale. */
export function conditionStep(text: string | null | undefined): number | null {
  return stepIn(CONDITION_STEPS, text);
}
