// Modal dialogs: one way to open and close a <dialog> with state, a confirmation with Cancel first
// and focused, and the Cancel / submit footer of a form in a dialog.
import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A ref for a <dialog> that is shown modal while `open` and closed when it is not. `onOpen` runs
 * just before it is shown (to clear what the last opening left).
 */
export function useModalDialog(open: boolean, onOpen?: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      onOpen?.();
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
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
