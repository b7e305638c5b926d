// "Use this value" for a subject characteristic: the appraiser picks another value the answers give
// and must say why. The reason is kept in the comparables workfile and printed beside the value in
// the grid, the report and the exports; nothing is saved without one (the workfile's own rule).
import type { AlternativeValue, CitedValue } from '../../../shared/cited/value.ts';
import { AppraiserActSchema } from '../../../shared/comparables/model.ts';
import type { SubjectCharacteristicKey } from '../../../shared/comparables/subject/resolve.ts';
import { ReasonDialog, type ReasonCheck } from '../../components/ReasonDialog.tsx';

export interface SubjectChoiceRequest {
  key: SubjectCharacteristicKey;
  value: CitedValue;
  alternative: AlternativeValue;
  /** The value already used, adopted by the appraiser with a reason (printed as the appraiser's choice). */
  adopt?: boolean;
}

const statusWord = (status: CitedValue['status']) => (status === 'reported' ? 'published' : status);

/** The reason, as the workfile keeps it (AppraiserActSchema): required, at most 2,000 characters. */
function checkSubjectReason(reason: string): ReasonCheck {
  const checked = AppraiserActSchema.shape.reason.safeParse(reason);
  if (checked.success) return { ok: true, value: checked.data };
  return { ok: false, error: reason.trim() === '' ? 'Say why you use this value: the reason is kept with the assignment and printed beside it.' : 'Keep the reason under 2,000 characters.' };
}

export function SubjectChoiceDialog(props: { request: SubjectChoiceRequest | null; saving: boolean; error: unknown; onSave: (reason: string) => void; onCancel: () => void }) {
  const request = props.request;
  return (
    <ReasonDialog
      open={request !== null}
      title={
        <>
          {request?.adopt ? 'Adopt this value' : 'Use another value'}
          {request ? ` for ${request.value.label.toLowerCase()}` : ''}
        </>
      }
      testId="subject-choice-dialog"
      reasonLabel="Reason (required; printed in the grid, the report and the exports)"
      check={checkSubjectReason}
      onAct={props.onSave}
      act={{ label: request?.adopt ? 'Adopt this value' : 'Use this value', busyLabel: 'Saving…', busy: props.saving }}
      error={props.error}
      onCancel={props.onCancel}
    >
      {request && !request.adopt && (
        <dl className="reason-dialog__values">
          <dt>Now used</dt>
          <dd>
            {request.value.display} <span className="muted">({statusWord(request.value.status)})</span>
          </dd>
          <dt>Use instead</dt>
          <dd>
            <strong>{request.alternative.display}</strong> <span className="muted">({statusWord(request.alternative.status)})</span>
          </dd>
        </dl>
      )}
      {request?.adopt && (
        <p>
          <strong>{request.value.display}</strong> <span className="muted">({statusWord(request.value.status)})</span>, over{' '}
          {request.value.alternatives.map((alternative) => `${alternative.display} (${statusWord(alternative.status)})`).join(', ')}: your reason is printed with it.
        </p>
      )}
    </ReasonDialog>
  );
}
