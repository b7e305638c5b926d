// The Settings view's building blocks: a titled section, a labelled field with its hint and error,
// and an outcome line (the confirmation dialog is components/Dialog.tsx's ConfirmDialog).
import type { ReactNode } from 'react';
import { splitNextStep } from './settings-model.ts';

export function SettingsSection(props: { id: string; title: string; description: ReactNode; children: ReactNode }) {
  const titleId = `${props.id}-title`;
  return (
    <section className="settings-section" id={props.id} aria-labelledby={titleId}>
      <header className="settings-section__header">
        <h2 id={titleId} tabIndex={-1}>
          {props.title}
        </h2>
        <p className="muted">{props.description}</p>
      </header>
      <div className="settings-section__body">{props.children}</div>
    </section>
  );
}

/** ids for a control's hint, warning and error, and the aria-describedby that names whichever are shown. */
export function fieldIds(id: string, shown: { hint?: boolean; error?: boolean; warning?: boolean }) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const warningId = `${id}-warning`;
  const describedBy = [shown.hint ? hintId : null, shown.warning ? warningId : null, shown.error ? errorId : null].filter(Boolean).join(' ');
  return { hintId, errorId, warningId, describedBy: describedBy === '' ? undefined : describedBy };
}

/** A field; `warning` is for a value that is accepted but has a consequence the person must know. */
export function Field(props: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  warning?: string | null;
  children: ReactNode;
  wide?: boolean;
}) {
  const { hintId, errorId, warningId } = fieldIds(props.id, {});
  return (
    <div className={`settings-field${props.wide ? ' settings-field--wide' : ''}`}>
      <label className="settings-field__label" htmlFor={props.id}>
        {props.label}
      </label>
      <div className="settings-field__control">{props.children}</div>
      {props.hint && (
        <p className="settings-field__hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.warning && (
        <p className="settings-field__warning" id={warningId} role="status">
          {props.warning}
        </p>
      )}
      {props.error && (
        <p className="settings-field__error" id={errorId} role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A dollar input with its "$" shown beside it, not inside the text. */
export function UsdInput(props: {
  id: string;
  value: string;
  onChange: (text: string) => void;
  invalid: boolean;
  describedBy: string | undefined;
  placeholder?: string;
}) {
  return (
    <span className="usd-input">
      <span className="usd-input__sign" aria-hidden="true">
        $
      </span>
      <input
        id={props.id}
        className="settings-input settings-input--money"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        value={props.value}
        placeholder={props.placeholder}
        aria-invalid={props.invalid}
        aria-describedby={props.describedBy}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </span>
  );
}

export type OutcomeTone = 'ok' | 'warning' | 'error' | 'info';

/** The result of an action, said once beside it: "Saved.", "The key works. Balance $24.98." */
export function Outcome(props: { tone: OutcomeTone; title?: string; children: ReactNode; testId?: string }) {
  return (
    <div
      className={`settings-outcome settings-outcome--${props.tone}`}
      role={props.tone === 'error' ? 'alert' : 'status'}
      data-testid={props.testId}
    >
      {props.title && <strong>{props.title} </strong>}
      {props.children}
    </div>
  );
}

/** The outcome of a check (a key test): what the core said, with its next step on its own line. */
export function CheckOutcome(props: { ok: boolean; title: string; message: string; testId?: string; tone?: OutcomeTone }) {
  const { detail, nextStep } = splitNextStep(props.message);
  return (
    <Outcome tone={props.tone ?? (props.ok ? 'ok' : 'error')} title={props.title} testId={props.testId}>
      {detail}
      {nextStep && (
        <span className="settings-outcome__next">
          <span className="settings-outcome__label">Next step:</span> {nextStep}
        </span>
      )}
    </Outcome>
  );
}

