// The Settings view's building blocks: a titled section, a dollar field and an outcome line (the
// labelled field is components/TextField.tsx, the confirmation dialog components/Dialog.tsx).
import type { ReactNode } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field, fieldIds } from '../../components/TextField.tsx';
import { splitNextStep } from './settings-model.ts';

/** A section reads what it shows from one query; a failure to read it comes first, with a retry. */
export function SettingsSection(props: {
  id: string;
  title: string;
  description: ReactNode;
  reads: { isError: boolean; error: unknown; refetch: () => unknown };
  children: ReactNode;
}) {
  const { reads } = props;
  const titleId = `${props.id}-title`;
  return (
    <section className="settings-section" id={props.id} aria-labelledby={titleId}>
      <header className="settings-section__header">
        <h2 id={titleId} tabIndex={-1}>
          {props.title}
        </h2>
        <p className="muted">{props.description}</p>
      </header>
      <div className="settings-section__body stack gap-3">
        {reads.isError && <ErrorNotice error={reads.error} onRetry={() => void reads.refetch()} />}
        {props.children}
      </div>
    </section>
  );
}

/** A labelled dollar field, its "$" shown beside the input, not inside the text. */
export function UsdField(props: {
  id: string;
  label: string;
  hint: ReactNode;
  error: string | null;
  warning?: string | null;
  value: string;
  placeholder: string;
  onChange: (text: string) => void;
}) {
  const invalid = props.error !== null;
  const { describedBy } = fieldIds(props.id, { hint: true, error: invalid, warning: Boolean(props.warning) });
  return (
    <Field id={props.id} label={props.label} error={props.error} hint={props.hint} warning={props.warning}>
      <span className="usd-input">
        <span className="usd-input__sign" aria-hidden="true">
          $
        </span>
        <input
          id={props.id}
          className="input settings-input--money"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          value={props.value}
          placeholder={props.placeholder}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => props.onChange(event.target.value)}
        />
      </span>
    </Field>
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

