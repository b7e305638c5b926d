// "Use this value": the appraiser picks another source's value for a field and must say why. The
// reason is kept with the assignment and printed beside the value; nothing is saved without one.
import { useId, useState } from 'react';
import type { AlternativeValue, CitedValue } from '../../../shared/cited/value.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { DialogFormActions, ActReasonField, useModalDialog } from '../../components/Dialog.tsx';
import { checkChoiceReason, statusWords } from './report-model.ts';

export interface ChoiceRequest {
  value: CitedValue;
  alternative: AlternativeValue;
}

export function ChoiceDialog(props: {
  request: ChoiceRequest | null;
  saving: boolean;
  error: unknown;
  onSave: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { title: useId(), reason: useId(), error: useId() };
  const open = props.request !== null;
  const dialogRef = useModalDialog(open, () => {
    setReason('');
    setProblem(null);
  });

  const save = () => {
    const checked = checkChoiceReason(reason);
    if (!checked.ok) {
      setProblem(checked.error);
      return;
    }
    setProblem(null);
    props.onSave(checked.value);
  };

  const request = props.request;
  return (
    <dialog ref={dialogRef} className="confirm-dialog reason-dialog" aria-labelledby={ids.title} onClose={props.onCancel}>
      <h2 id={ids.title}>Use another value{request ? ` for ${request.value.label.toLowerCase()}` : ''}</h2>
      {request && (
        <dl className="reason-dialog__values">
          <dt>Now shown</dt>
          <dd>
            {request.value.status === 'unavailable' ? 'Unavailable' : request.value.display}{' '}
            <span className="muted">({statusWords(request.value.status).label})</span>
          </dd>
          <dt>Use instead</dt>
          <dd>
            <strong>{request.alternative.display}</strong> <span className="muted">({statusWords(request.alternative.status).label})</span>
          </dd>
        </dl>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <ActReasonField
          id={ids.reason}
          label="Reason (required, printed in the report)"
          value={reason}
          onChange={setReason}
          problem={problem}
          problemId={ids.error}
        />
        {props.error !== null && props.error !== undefined && <ErrorNotice error={props.error} compact />}
        <DialogFormActions onCancel={props.onCancel} busy={props.saving} label="Use this value" busyLabel="Saving…" />
      </form>
    </dialog>
  );
}
