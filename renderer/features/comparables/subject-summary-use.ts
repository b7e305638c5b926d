// For the entity page's Summary (through its slot, renderer/app/entity-slots.ts): on the page of the
// active assignment's subject, each summary field whose best value is not the one the assignment uses
// says which it uses and why (shared/comparables/subject/summary-use.ts decides).
import { useCallback, useMemo } from 'react';
import { resolveSubject, type ResolvedSubject } from '../../../shared/comparables/subject/resolve.ts';
import { assignmentUseOfSummaryField } from '../../../shared/comparables/subject/summary-use.ts';
import type { SummaryUseOf } from '../../app/entity-slots.ts';
import { useActiveSubject } from './active-subject.ts';

export function useSubjectSummaryUse(entityId: string): SummaryUseOf {
  const subject = useActiveSubject(entityId);
  const data = subject?.comparables.data;
  const effectiveDate = subject?.assignment.assignment.effectiveDate;
  const resolved = useMemo((): ResolvedSubject | null => {
    if (!data || data.subject === null || !effectiveDate) return null;
    return resolveSubject({ subject: data.subject, summary: data.summary ?? null, effectiveDate, choices: data.workfile.subjectChoices });
  }, [data, effectiveDate]);
  return useCallback(
    (field, best) => (resolved === null || !(typeof best === 'string' || typeof best === 'number' || typeof best === 'boolean') ? null : assignmentUseOfSummaryField(resolved, field, best)),
    [resolved],
  );
}
