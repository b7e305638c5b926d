// "Use this value": the appraiser picks another source's value for a field and must say why. The
// reason is kept with the assignment and printed beside the value; nothing is saved without one.
import type { AlternativeValue, CitedValue } from '../../../shared/cited/value.ts';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
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
  const request = props.request;
  return (
    <ReasonDialog
      open={request !== null}
      title={<>Use another value{request ? ` for ${request.value.label.toLowerCase()}` : ''}</>}
      reasonLabel="Reason (required, printed in the report)"
      check={checkChoiceReason}
      onAct={props.onSave}
      act={{ label: 'Use this value', busyLabel: 'Saving…', busy: props.saving }}
      error={props.error}
      onCancel={props.onCancel}
    >
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
    </ReasonDialog>
  );
}
