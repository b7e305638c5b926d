// Asked before a priced lookup of a property that is not the active assignment's subject is charged:
// which file pays for it — that assignment, none, or a new assignment started from the property found
// — with "don't ask again this session". Keyboard: the choices are one radio group, Enter continues.
import { useId, useState, type FormEvent } from 'react';
import { payerChoiceLabels, type PayerChoice } from '../../../shared/assignments/payer.ts';
import { useModalDialog } from '../../components/Dialog.tsx';

export function PayerDialog(props: {
  open: boolean;
  /** What is being looked up, as sent ("1717 4th St NW"). */
  lookup: string;
  /** The active assignment's name and subject, as the person knows them. */
  assignmentName: string;
  subjectLabel: string;
  onChoose: (choice: PayerChoice, rememberForSession: boolean) => void;
  onCancel: () => void;
}) {
  const ref = useModalDialog(props.open);
  const titleId = useId();
  const [choice, setChoice] = useState<PayerChoice>('new');
  const [remember, setRemember] = useState(false);
  const explain: Record<PayerChoice, string> = {
    assignment: `Charged to “${props.assignmentName}” and kept with it.`,
    none: 'Charged to no assignment (the Spend view lists it under “No assignment”); the active assignment stays as it is.',
    new: `Starts a new file named “${props.lookup}” and charges the lookup to it; the property you open from the candidates becomes its subject, and it becomes the active assignment.`,
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onChoose(choice, remember);
  };
  return (
    <dialog ref={ref} className="confirm-dialog payer-dialog" aria-labelledby={titleId} onClose={props.onCancel} data-testid="payer-dialog">
      <form method="dialog" onSubmit={submit} className="stack gap-3">
        <h2 id={titleId}>Which file pays for this lookup?</h2>
        <p>
          “{props.lookup}” is not the subject of the active assignment “{props.assignmentName}”
          {props.subjectLabel.trim() !== '' && props.subjectLabel.trim().toLowerCase() !== props.assignmentName.trim().toLowerCase() ? ` (${props.subjectLabel})` : ''}. Nothing is
          charged until you choose.
        </p>
        <fieldset className="bare-fieldset stack gap-2">
          <legend className="visually-hidden">Charge the lookup to</legend>
          {(['assignment', 'none', 'new'] as const).map((option) => (
            <label key={option} className="payer-dialog__choice">
              <input type="radio" name="payer" value={option} checked={choice === option} onChange={() => setChoice(option)} autoFocus={option === choice} />{' '}
              <strong>{option === 'assignment' ? `${payerChoiceLabels.assignment}: ${props.assignmentName}` : payerChoiceLabels[option]}</strong>
              <span className="muted"> — {explain[option]}</span>
            </label>
          ))}
        </fieldset>
        <label className="payer-dialog__remember">
          <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} /> Don’t ask again this session (Settings › Projects asks again)
        </label>
        <div className="confirm-dialog__actions">
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button--primary">
            Continue
          </button>
        </div>
      </form>
    </dialog>
  );
}
