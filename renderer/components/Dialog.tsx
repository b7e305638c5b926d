// Modal dialogs: one way to open and close a <dialog> with state, a confirmation with Cancel first
// and focused, the written reason a decision made in a dialog requires, and the Cancel / submit
// footer of a form in a dialog.
import { useEffect, useId, useRef, type ReactNode, type TextareaHTMLAttributes } from 'react';

/**
 * A ref for a <dialog> that is shown modal while `open` and closed when it is not. `onOpen` runs
 * just before it is shown (to clear what the last opening left). Once closed (Escape, Cancel, done),
 * the focus goes back to the control that had it when the dialog opened, unless what the dialog did
 * has already put it somewhere else (a page it opened focuses its own heading).
 */
export function useModalDialog(open: boolean, onOpen?: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      onOpen?.();
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
    if (!open && opener.current) {
      const back = opener.current;
      opener.current = null;
      const focused = document.activeElement;
      const lost = focused === null || focused === document.body || dialog.contains(focused);
      if (lost && back instanceof HTMLElement && back.isConnected) back.focus();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of `open` opens or closes it
  }, [open]);
  return ref;
}

export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  /** The title's id; one of React's when left out. */
  titleId?: string;
  children: ReactNode;
  confirmLabel: ReactNode;
  /** 'danger' (default) for what cannot be undone, 'primary' for a purchase. */
  tone?: 'danger' | 'primary';
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useModalDialog(props.open);
  const generatedId = useId();
  const titleId = props.titleId ?? generatedId;
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby={titleId} onClose={props.onCancel}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      <div className="confirm-dialog__actions">
        {/* Cancel first and focused: Enter or Escape right away changes nothing. */}
        <button type="button" className="button" onClick={props.onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className={`button button--${props.tone ?? 'danger'}`} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/**
 * The reason a decision must be written with (kept with the assignment, printed in the report): its
 * label, the text, what follows it (a character count), and the problem with it while one is shown.
 */
export function ReasonField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** The problem shown under the text; null when none is. */
  problem: string | null;
  problemId: string;
  /** Ids of what else describes the text (its character count). */
  describedBy?: string;
  classNames: { label: string; text: string; problem: string };
  textarea?: Pick<TextareaHTMLAttributes<HTMLTextAreaElement>, 'maxLength' | 'onBlur'>;
  children?: ReactNode;
}) {
  const describedBy = [props.describedBy, props.problem ? props.problemId : null].filter(Boolean).join(' ');
  return (
    <>
      <label htmlFor={props.id} className={props.classNames.label}>
        {props.label}
      </label>
      <textarea
        id={props.id}
        className={props.classNames.text}
        rows={4}
        value={props.value}
        {...props.textarea}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.problem !== null}
        aria-describedby={describedBy === '' ? undefined : describedBy}
        autoFocus
      />
      {props.children}
      {props.problem && (
        <p id={props.problemId} className={props.classNames.problem} role="alert">
          {props.problem}
        </p>
      )}
    </>
  );
}

/** Cancel and the form's submit button, which says it is busy (and cannot be pressed) while `busy`. */
export function DialogFormActions(props: { onCancel: () => void; busy: boolean; label: string; busyLabel: string }) {
  return (
    <div className="confirm-dialog__actions">
      <button type="button" className="button" onClick={props.onCancel}>
        Cancel
      </button>
      <button type="submit" className="button button--primary" disabled={props.busy}>
        {props.busy ? props.busyLabel : props.label}
      </button>
    </div>
  );
}

/**
 * The reason an appraiser's act is recorded with, in a reason dialog (the design system's
 * .reason-dialog): a subject value chosen, a screened sale taken in, copied values accepted, a value
 * chosen in the report. At most 2,000 characters, as the workfile keeps it.
 */
export function ActReasonField(props: { id: string; label: string; value: string; onChange: (text: string) => void; problem: string | null; problemId: string }) {
  return <ReasonField {...props} classNames={REASON_DIALOG_CLASSES} textarea={{ maxLength: 2_000 }} />;
}

const REASON_DIALOG_CLASSES = { label: 'reason-dialog__label', text: 'reason-dialog__reason', problem: 'reason-dialog__error' };
