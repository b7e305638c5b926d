// Confirm or cut one link, always with a note saying why (it is kept with the assignment and printed
// in the report). A note that is missing or too long is said beside the field; a refusal from the
// core (a full disk) is shown in the dialog and the note typed is kept.
import { useId, useState } from 'react';
import { NOTE_MAX, type GraphDecisionKind } from '../../../shared/graph/decisions.ts';
import { useModalDialog } from '../../components/Dialog.tsx';
import { ReasonForm } from '../../components/ReasonDialog.tsx';

export interface DecisionRequest {
  edgeKey: string;
  /** The link in words ("1620 Q ST NW — owned by → ABDOLLAH POOZESH"). */
  title: string;
  decision: GraphDecisionKind;
  /** The note of the decision it replaces, to start from. */
  note: string;
  /** For a lead: what to check before deciding. */
  warning: string | null;
}

export function noteProblem(note: string): string | null {
  const trimmed = note.trim();
  if (trimmed === '') return 'Write a note: say why you confirm or cut this link (a deed, a tax bill, a call).';
  if (trimmed.length > NOTE_MAX) return `Shorten the note to ${NOTE_MAX} characters (it has ${trimmed.length}).`;
  return null;
}

export function DecisionDialog(props: { request: DecisionRequest | null; onSave: (decision: GraphDecisionKind, note: string) => Promise<void>; onClose: () => void }) {
  const { request } = props;
  const [decision, setDecision] = useState<GraphDecisionKind>('cut');
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const ref = useModalDialog(request !== null, () => {
    setDecision(request?.decision ?? 'cut');
    setNote(request?.note ?? '');
    setTouched(false);
    setFailure(null);
  });
  const ids = { title: useId(), count: useId() };
  const problem = noteProblem(note);

  const submit = async () => {
    setTouched(true);
    if (problem !== null || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await props.onSave(decision, note.trim());
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={ref} className="confirm-dialog graph-decision" aria-labelledby={ids.title} onClose={props.onClose} data-testid="graph-decision-dialog">
      <ReasonForm
        onSubmit={() => void submit()}
        reason={{
          label: 'Note (required: kept with the assignment and printed in the report)',
          value: note,
          onChange: setNote,
          problem: touched ? problem : null,
          describedBy: ids.count,
          follows: (
            <p id={ids.count} className="muted graph-decision__count">
              {note.trim().length} of {NOTE_MAX} characters
            </p>
          ),
        }}
        look={{ classNames: { label: 'graph-decision__label', text: 'input graph-decision__note', problem: 'graph-decision__problem' }, textarea: { onBlur: () => setTouched(true) } }}
        error={failure}
        act={{ label: decision === 'cut' ? 'Cut the link' : 'Confirm the link', busyLabel: 'Saving…', busy }}
        onCancel={props.onClose}
      >
        <h2 id={ids.title}>{decision === 'cut' ? 'Cut this link' : 'Confirm this link'}</h2>
        <p className="graph-decision__link">{request?.title}</p>
        {request?.warning && <p className="graph-decision__warning">{request.warning}</p>}
        <fieldset className="graph-decision__choice bare-fieldset stack gap-1">
          <legend>Decision</legend>
          <label>
            <input type="radio" name="graph-decision" value="confirmed" checked={decision === 'confirmed'} onChange={() => setDecision('confirmed')} /> Confirm: the
            records I checked support it
          </label>
          <label>
            <input type="radio" name="graph-decision" value="cut" checked={decision === 'cut'} onChange={() => setDecision('cut')} /> Cut: it does not hold; leave it
            out of my conclusions
          </label>
        </fieldset>
      </ReasonForm>
    </dialog>
  );
}
