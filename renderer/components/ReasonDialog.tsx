// The written reason a decision made in a dialog requires (kept with the assignment, printed in the
// report): its field; the form around it (what the decision needs besides, the reason, a refusal from
// the core, Cancel and the act); and the whole dialog of an act the appraiser records with a reason
// (a subject value chosen, a screened sale taken in, copied values accepted, a value chosen in the
// report), with its rule: nothing is recorded until the reason passes its check.
import { useId, useState, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { DialogFormActions, useModalDialog } from './Dialog.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';

/** A reason, checked: the text to record (trimmed), or the problem to show under the field. */
export type ReasonCheck = { ok: true; value: string } | { ok: false; error: string };

interface ReasonFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** The problem shown under the text; null when none is. */
  problem: string | null;
  problemId: string;
  /** Ids of what else describes the text (its character count). */
  describedBy?: string;
  /** What follows the text, above its problem (a character count). */
  follows?: ReactNode;
  classNames: { label: string; text: string; problem: string };
  textarea?: Pick<TextareaHTMLAttributes<HTMLTextAreaElement>, 'maxLength' | 'onBlur'>;
}

/** The reason's label, the text, what follows it, and the problem with it while one is shown. */
function ReasonField(props: ReasonFieldProps) {
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
      {props.follows}
      {props.problem && (
        <p id={props.problemId} className={props.classNames.problem} role="alert">
          {props.problem}
        </p>
      )}
    </>
  );
}

/** The field of a reason dialog (the design system's .reason-dialog): at most 2,000 characters, as the workfile keeps it. */
const REASON_DIALOG_LOOK = {
  classNames: { label: 'reason-dialog__label', text: 'reason-dialog__reason', problem: 'reason-dialog__error' },
  textarea: { maxLength: 2_000 },
} satisfies Pick<ReasonFieldProps, 'classNames' | 'textarea'>;

/**
 * A dialog's form that takes a decision with its written reason: what the form asks first
 * (`children`: a heading, the decision, what it applies to), the reason, what follows it (`after`), a
 * refusal from the core (`error`), then Cancel and the act, which says it is busy while `act.busy`.
 * The dialog checks the reason itself on submit; the browser does not.
 */
export function ReasonForm(props: {
  onSubmit: () => void;
  children?: ReactNode;
  reason: Pick<ReasonFieldProps, 'label' | 'value' | 'onChange' | 'problem' | 'describedBy' | 'follows'>;
  /** The field's look; a reason dialog's unless given. */
  look?: Pick<ReasonFieldProps, 'classNames' | 'textarea'>;
  after?: ReactNode;
  error?: unknown;
  act: { label: string; busyLabel: string; busy?: boolean };
  onCancel: () => void;
}) {
  const ids = { reason: useId(), problem: useId() };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
      <ReasonField {...props.reason} {...(props.look ?? REASON_DIALOG_LOOK)} id={ids.reason} problemId={ids.problem} />
      {props.after}
      {props.error !== null && props.error !== undefined && <ErrorNotice error={props.error} compact />}
      <DialogFormActions onCancel={props.onCancel} busy={props.act.busy ?? false} label={props.act.label} busyLabel={props.act.busyLabel} />
    </form>
  );
}

/**
 * The dialog of an act the appraiser records with a written reason, shown modal while `open`. Each
 * opening starts with no reason and no problem (and runs `onOpen`, for what else the dialog asks);
 * the reason has the focus unless a control comes before it. On submit the reason is checked: a
 * problem is said under it (and, with `refocusOnProblem`, the focus goes back to it), else `onAct`
 * records the act with the checked reason. Escape or Cancel records nothing.
 */
export function ReasonDialog(props: {
  open: boolean;
  title: ReactNode;
  /** A class of the feature's own beside the design system's (its width, in --dialog-width). */
  className?: string;
  testId?: string;
  /** What the act is, above the form. */
  children?: ReactNode;
  /** What the form asks before the reason (what the act applies to). */
  fields?: ReactNode;
  /** The reason's label: it says the reason is required and where it is printed. */
  reasonLabel: string;
  after?: ReactNode;
  check: (reason: string) => ReasonCheck;
  onAct: (reason: string) => void;
  act: { label: string; busyLabel: string; busy?: boolean };
  error?: unknown;
  onCancel: () => void;
  onOpen?: () => void;
  refocusOnProblem?: boolean;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const dialogRef = useModalDialog(props.open, () => {
    setReason('');
    setProblem(null);
    props.onOpen?.();
  });
  const submit = () => {
    const checked = props.check(reason);
    if (!checked.ok) {
      setProblem(checked.error);
      if (props.refocusOnProblem) dialogRef.current?.querySelector('textarea')?.focus();
      return;
    }
    setProblem(null);
    props.onAct(checked.value);
  };
  const className = ['confirm-dialog confirm-dialog--wide reason-dialog', props.className].filter(Boolean).join(' ');
  return (
    <dialog ref={dialogRef} className={className} aria-labelledby={titleId} onClose={props.onCancel} data-testid={props.testId}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      <ReasonForm
        onSubmit={submit}
        reason={{ label: props.reasonLabel, value: reason, onChange: setReason, problem }}
        after={props.after}
        error={props.error}
        act={props.act}
        onCancel={props.onCancel}
      >
        {props.fields}
      </ReasonForm>
    </dialog>
  );
}
