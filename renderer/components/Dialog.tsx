// Modal dialogs: one way to open and close a <dialog> with state, a confirmation with Cancel first
// and focused, and the Cancel / submit footer of a form in a dialog. The written reason a decision
// made in a dialog requires is ReasonDialog.tsx's.
import { useEffect, useId, useRef, type ReactNode } from 'react';

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
