// On the page of the active assignment's subject: its characteristics as the assignment resolves them
// (the same values the grid, the report and the PDF use), the contradictions, and the appraiser's
// choice with a reason (kept in the comparables workfile through the core's value choice). Placed on
// the entity page through its slot (renderer/app/entity-slots.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reportFieldOf } from '../../../shared/comparables/subject/resolve.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { refreshAssignment } from '../../platform/assignment-queries.ts';
import { callPlat } from '../../platform/plat.ts';
import { SubjectCharacteristics, type SubjectChoiceChange } from './SubjectCharacteristics.tsx';
import { useActiveSubject } from './active-subject.ts';

export function AssignmentSubject({ entityId }: { entityId: string }) {
  const subject = useActiveSubject(entityId);
  const queryClient = useQueryClient();
  const choose = useMutation({
    mutationFn: ({ key, choice }: SubjectChoiceChange) => callPlat('setValueChoice', { assignmentId: subject!.assignment.id, field: reportFieldOf(key), choice }),
    onSuccess: () => void refreshAssignment(queryClient, subject!.assignment.id),
  });
  if (subject === null) return null;
  const { assignment, comparables } = subject;
  if (comparables.isError) return <ErrorNotice error={comparables.error} onRetry={() => void comparables.refetch()} />;
  if (!comparables.data || comparables.data.subject === null) return null;
  return (
    <section className="stack gap-2" aria-label={`The subject of ${assignment.name}`}>
      <p className="muted">
        The subject of the active assignment, {assignment.name}: as the assignment’s report, grid and exports use it.
      </p>
      <SubjectCharacteristics
        subject={comparables.data.subject}
        summary={comparables.data.summary ?? null}
        effectiveDate={assignment.assignment.effectiveDate}
        subjectChoices={comparables.data.workfile.subjectChoices}
        onChoose={(change) => choose.mutate(change)}
        saving={choose.isPending}
        error={choose.error}
      />
    </section>
  );
}
