// A labelled field: its label above the control, then the hint, a warning and the error, each named by
// the control's aria-describedby when shown. `TextField` is the common case, a one-line text input.
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import './field.css';

/** ids for a control's hint, warning and error, and the aria-describedby that names whichever are shown. */
export function fieldIds(id: string, shown: { hint?: boolean; error?: boolean; warning?: boolean }) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const warningId = `${id}-warning`;
  const describedBy = [shown.hint ? hintId : null, shown.warning ? warningId : null, shown.error ? errorId : null].filter(Boolean).join(' ');
  return { hintId, errorId, warningId, describedBy: describedBy === '' ? undefined : describedBy };
}

interface FieldText {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** A value that is accepted but has a consequence the person must know. */
  warning?: string | null;
  wide?: boolean;
}

/** A field around any control (a select, a dollar input, a text input beside a unit). */
export function Field(props: FieldText & { children: ReactNode }) {
  const { hintId, errorId, warningId } = fieldIds(props.id, {});
  return (
    <div className={`field${props.wide ? ' field--wide' : ''}`}>
      <label className="field__label" htmlFor={props.id}>
        {props.label}
      </label>
      <div className="field__control">{props.children}</div>
      {props.hint && (
        <p className="field__hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.warning && (
        <p className="field__warning" id={warningId} role="status">
          {props.warning}
        </p>
      )}
      {props.error && (
        <p className="field__error" id={errorId} role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

type InputAttributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'aria-invalid' | 'aria-describedby'>;

/** A labelled text input: invalid while it has an error, described by what the field shows. */
export function TextField(props: FieldText & InputAttributes & { inputClassName?: string; inputRef?: Ref<HTMLInputElement> }) {
  const { id, label, hint, error, warning, wide, inputClassName, inputRef, ...input } = props;
  const invalid = error !== null && error !== undefined;
  const { describedBy } = fieldIds(id, { hint: Boolean(hint), error: invalid, warning: Boolean(warning) });
  return (
    <Field id={id} label={label} hint={hint} error={error} warning={warning} wide={wide}>
      <input
        ref={inputRef}
        id={id}
        className={inputClassName ? `input ${inputClassName}` : 'input'}
        type="text"
        autoComplete="off"
        {...input}
        aria-invalid={invalid}
        aria-describedby={describedBy}
      />
    </Field>
  );
}
