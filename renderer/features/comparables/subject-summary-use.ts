// For the entity page's Summary (through its slot, renderer/app/entity-slots.ts): on the page of the
// active assignment's subject, each summary field whose best value is not the one the assignment uses
// says which it uses and why (shared/comparables/subject/summary-use.ts decides).
import { useCallback, useMemo } from 'react';
import { resolveSubject, type ResolvedSubject } from '../../../shared/comparables/subject/resolve.ts';
import { assignmentUseOfSummaryField } from '../../../shared/comparables/subject/summary-use.ts';
import type { SummaryUseOf } from '../../app/entity-slots.ts';
import { activeAssignment } from '../../components/ActiveAssignmentGate.tsx';
import { useProjects } from '../../platform/core-queries.ts';
import { useComparables } from '../../platform/comparables-queries.ts';

export function useSubjectSummaryUse(entityId: string): SummaryUseOf {
  const projects = useProjects();
  const assignment = activeAssignment(projects.data);
  const details = assignment?.assignment;
  const isSubject = details?.subjectRef === entityId;
  const comparables = useComparables(isSubject ? assignment!.id : null);
  const data = isSubject ? comparables.data : undefined;
  const effectiveDate = details?.effectiveDate;
  const resolved = useMemo((): ResolvedSubject | null => {
    if (!data || data.subject === null || !effectiveDate) return null;
    return resolveSubject({ subject: data.subject, summary: data.summary ?? null, effectiveDate, choices: data.workfile.subjectChoices });
  }, [data, effectiveDate]);
  return useCallback(
    (field, best) => (resolved === null || !(typeof best === 'string' || typeof best === 'number' || typeof best === 'boolean') ? null : assignmentUseOfSummaryField(resolved, field, best)),
    [resolved],
  );
}
