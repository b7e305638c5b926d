// "Take in anyway…": a sale Plat screened out (a multi-parcel deed, a duplicate record, a non-market
// sale, one outside the criteria) is chosen only with the appraiser's written reason, kept in the
// workfile (`takenIn`) and printed in the report. Keyboard first: the reason has the focus, Enter in
// the form's button takes it in, Escape or Cancel changes nothing.
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { checkTakeInReason } from './comparables-model.ts';

export interface TakeInRequest {
  id: string;
  address: string;
  /** Plat's screens, in words (names the other lots of a multi-parcel deed). */
  screens: string;
}

export function TakeInDialog(props: { request: TakeInRequest | null; onTakeIn: (reason: string) => void; onCancel: () => void }) {
  return (
    <ReasonDialog
      open={props.request !== null}
      title={<>Take in {props.request?.address ?? 'this sale'} anyway?</>}
      className="comps-takein"
      testId="comps-take-in"
      reasonLabel="Your reason (required; kept with the assignment and printed in the report)"
      after={<p className="muted comps-takein__after">It goes into the grid and the regression flagged as it is, with your reason beside it.</p>}
      check={checkTakeInReason}
      onAct={props.onTakeIn}
      act={{ label: 'Take it in', busyLabel: 'Taking it in…' }}
      onCancel={props.onCancel}
      // Back to the reason, so the appraiser types it without reaching for the pointer.
      refocusOnProblem
    >
      <p>
        <strong>Screened out by Plat.</strong> {props.request?.screens}
      </p>
    </ReasonDialog>
  );
}
