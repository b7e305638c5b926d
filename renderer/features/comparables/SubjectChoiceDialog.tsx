// "Use this value" for a subject characteristic: the appraiser picks another value the answers give
// and must say why. The reason is kept in the comparables workfile and printed beside the value in
// the grid, the report and the exports; nothing is saved without one (the workfile's own rule).
import { useId, useState } from 'react';
import type { AlternativeValue, CitedValue } from '../../../shared/cited/value.ts';
import { AppraiserActSchema } from '../../../shared/comparables/model.ts';
import type { SubjectCharacteristicKey } from '../../../shared/comparables/subject/resolve.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { DialogFormActions, ActReasonField, useModalDialog } from '../../components/Dialog.tsx';

export interface SubjectChoiceRequest {
  key: SubjectCharacteristicKey;
  value: CitedValue;
  alternative: AlternativeValue;
  /** The value already used, adopted by the appraiser with a reason (printed as the appraiser's choice). */
  adopt?: boolean;
}

const statusWord = (status: CitedValue['status']) => (status === 'reported' ? 'published' : status);

export function SubjectChoiceDialog(props: { request: SubjectChoiceRequest | null; saving: boolean; error: unknown; onSave: (reason: string) => void; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { title: useId(), reason: useId(), error: useId() };
  const dialogRef = useModalDialog(props.request !== null, () => {
    setReason('');
    setProblem(null);
  });
  const save = () => {
    const checked = AppraiserActSchema.shape.reason.safeParse(reason);
    if (!checked.success) {
      setProblem(reason.trim() === '' ? 'Say why you use this value: the reason is kept with the assignment and printed beside it.' : 'Keep the reason under 2,000 characters.');
      return;
    }
    setProblem(null);
    props.onSave(checked.data);
  };
  const request = props.request;
  return (
    <dialog ref={dialogRef} className="confirm-dialog reason-dialog" aria-labelledby={ids.title} onClose={props.onCancel} data-testid="subject-choice-dialog">
      <h2 id={ids.title}>
        {request?.adopt ? 'Adopt this value' : 'Use another value'}
        {request ? ` for ${request.value.label.toLowerCase()}` : ''}
      </h2>
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
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <ActReasonField
          id={ids.reason}
          label="Reason (required; printed in the grid, the report and the exports)"
          value={reason}
          onChange={setReason}
          problem={problem}
          problemId={ids.error}
        />
        {props.error !== null && props.error !== undefined && <ErrorNotice error={props.error} compact />}
        <DialogFormActions onCancel={props.onCancel} busy={props.saving} label={request?.adopt ? 'Adopt this value' : 'Use this value'} busyLabel="Saving…" />
      </form>
    </dialog>
  );
}
