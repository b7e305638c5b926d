// Where the assignment uses another value than the service summary's best value for a field of its
// subject: the entity page's Summary shows the service's own choice as published, and this says, on
// the same row, which value the assignment's report, grid and exports use instead (and why), so the
// two never stand side by side unexplained.
import { sameValue, type Candidate } from '../../report/conflicts.ts';
import { subjectCharacteristicKeys, subjectCharacteristicSpecs, type ResolvedSubject } from './resolve.ts';

export interface SummaryFieldUse {
  /** The value the assignment uses, as it prints it ("2012 or later"). */
  display: string;
  /** Why: the appraiser's choice with its reason, or the rule that ranked the answers; null when no rule is given. */
  why: string | null;
}

/**
 * For a v4 summary field (`year_built`) whose best value is `best`: the value the assignment uses
 * when it is another one, or null when they agree, the field is no characteristic of the subject, or
 * the assignment has no value for it (an unknown is never a disagreement).
 */
export function assignmentUseOfSummaryField(subject: ResolvedSubject, summaryField: string, best: Candidate['raw'] | undefined): SummaryFieldUse | null {
  const key = subjectCharacteristicKeys.find((candidate) => subjectCharacteristicSpecs[candidate].spec.summary === summaryField);
  if (key === undefined) return null;
  const characteristic = subject.characteristics[key];
  const chosen = characteristic.resolution?.chosen;
  if (!chosen || best === undefined || best === null || sameValue(chosen.raw, best)) return null;
  const choice = characteristic.resolution?.choice ?? null;
  const why = choice === null ? null : choice.by === 'appraiser' ? `the appraiser’s choice: “${choice.reason}”` : choice.reason;
  return { display: chosen.display, why };
}
