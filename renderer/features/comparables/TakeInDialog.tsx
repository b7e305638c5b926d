// "Take in anyway…": a sale Plat screened out (a multi-parcel deed, a duplicate record, a non-market
// sale, one outside the criteria) is chosen only with the appraiser's written reason, kept in the
// workfile (`takenIn`) and printed in the report. Keyboard first: the reason has the focus, Enter in
// the form's button takes it in, Escape or Cancel changes nothing.
import { useId, useState } from 'react';
import { DialogFormActions, ActReasonField, useModalDialog } from '../../components/Dialog.tsx';
import { checkTakeInReason } from './comparables-model.ts';

export interface TakeInRequest {
  id: string;
  address: string;
  /** Plat's screens, in words (names the other lots of a multi-parcel deed). */
  screens: string;
}

export function TakeInDialog(props: { request: TakeInRequest | null; onTakeIn: (reason: string) => void; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { title: useId(), reason: useId(), error: useId() };
  const dialogRef = useModalDialog(props.request !== null, () => {
    setReason('');
    setProblem(null);
  });
  const submit = () => {
    const checked = checkTakeInReason(reason);
    if (checked.error !== null) {
      setProblem(checked.error);
      // Back to the reason, so the appraiser types it without reaching for the pointer.
      dialogRef.current?.querySelector('textarea')?.focus();
      return;
    }
    props.onTakeIn(checked.reason);
  };
  return (
    <dialog ref={dialogRef} className="confirm-dialog comps-takein" aria-labelledby={ids.title} onClose={props.onCancel} data-testid="comps-take-in">
      <h2 id={ids.title}>Take in {props.request?.address ?? 'this sale'} anyway?</h2>
      <p>
        <strong>Screened out by Plat.</strong> {props.request?.screens}
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <ActReasonField
          id={ids.reason}
          label="Your reason (required; kept with the assignment and printed in the report)"
          value={reason}
          onChange={setReason}
          problem={problem}
          problemId={ids.error}
        />
        <p className="muted comps-takein__after">It goes into the grid and the regression flagged as it is, with your reason beside it.</p>
        <DialogFormActions onCancel={props.onCancel} busy={false} label="Take it in" busyLabel="Taking it in…" />
      </form>
    </dialog>
  );
}
