// The assignment's fields, one form for starting an assignment and for changing its details: each
// with its label, a hint where the meaning is not obvious, and its own error.
import { useId, type ReactNode } from 'react';
import type { AssignmentDraft, DraftErrors } from './assignment-model.ts';
import { effectiveDateWarnings } from '../../../shared/comparables/effective-date.ts';
import { localToday } from '../../../shared/format-date.ts';
import { useSalesCoverage } from '../../platform/comparables-queries.ts';

export function AssignmentFields(props: { draft: AssignmentDraft; errors: DraftErrors; onChange: (draft: AssignmentDraft) => void; withCap: boolean }) {
  const { draft, errors } = props;
  const set = (key: keyof AssignmentDraft) => (value: string) => props.onChange({ ...draft, [key]: value });
  // Said while typing, never refused: the date is the appraiser's, and the text typed stays as typed.
  const { coverage } = useSalesCoverage();
  const dateWarnings = errors.effectiveDate === undefined ? effectiveDateWarnings(draft.effectiveDate, coverage, localToday()) : [];
  return (
    <div className="assignment-fields">
      <Field label="Name" error={errors.name}>
        {(id, describedBy) => <input id={id} className="assignment-input" value={draft.name} maxLength={200} aria-invalid={errors.name !== undefined} aria-describedby={describedBy} onChange={(event) => set('name')(event.target.value)} />}
      </Field>
      <Field label="Effective date" hint="YYYY-MM-DD. Comparables and “as of” are judged against it." error={errors.effectiveDate} warnings={dateWarnings}>
        {(id, describedBy) => (
          <input
            id={id}
            className="assignment-input assignment-input--date"
            value={draft.effectiveDate}
            placeholder="YYYY-MM-DD"
            inputMode="numeric"
            aria-invalid={errors.effectiveDate !== undefined}
            aria-describedby={describedBy}
            onChange={(event) => set('effectiveDate')(event.target.value)}
          />
        )}
      </Field>
      <Field label="Intended use" error={errors.intendedUse}>
        {(id, describedBy) => (
          <input id={id} className="assignment-input" value={draft.intendedUse} placeholder="e.g. mortgage lending decision" aria-invalid={errors.intendedUse !== undefined} aria-describedby={describedBy} onChange={(event) => set('intendedUse')(event.target.value)} />
        )}
      </Field>
      <Field label="Client" error={errors.client}>
        {(id, describedBy) => <input id={id} className="assignment-input" value={draft.client} aria-invalid={errors.client !== undefined} aria-describedby={describedBy} onChange={(event) => set('client')(event.target.value)} />}
      </Field>
      <Field label="Reference" hint="The client’s file or order number." error={errors.reference}>
        {(id, describedBy) => <input id={id} className="assignment-input" value={draft.reference} aria-invalid={errors.reference !== undefined} aria-describedby={describedBy} onChange={(event) => set('reference')(event.target.value)} />}
      </Field>
      {props.withCap && (
        <Field label="Cap" hint="Optional: the most this assignment may spend. Empty for no cap." error={errors.cap}>
          {(id, describedBy) => (
            <span className="assignment-usd">
              <span aria-hidden="true">$</span>
              <input id={id} className="assignment-input assignment-input--usd" value={draft.cap} inputMode="decimal" placeholder="No cap" aria-invalid={errors.cap !== undefined} aria-describedby={describedBy} onChange={(event) => set('cap')(event.target.value)} />
            </span>
          )}
        </Field>
      )}
      <Field label="Notes" error={errors.notes} wide>
        {(id, describedBy) => <textarea id={id} className="assignment-input assignment-input--notes" rows={3} value={draft.notes} aria-invalid={errors.notes !== undefined} aria-describedby={describedBy} onChange={(event) => set('notes')(event.target.value)} />}
      </Field>
    </div>
  );
}

function Field(props: {
  label: string;
  hint?: string;
  error: string | undefined;
  warnings?: readonly string[];
  wide?: boolean;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const warningId = `${id}-warning`;
  const warned = (props.warnings?.length ?? 0) > 0;
  const describedBy = [props.hint ? hintId : null, props.error ? errorId : null, warned ? warningId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`assignment-field${props.wide ? ' assignment-field--wide' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      {props.children(id, describedBy)}
      {props.hint && (
        <p id={hintId} className="assignment-field__hint">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={errorId} className="assignment-field__error" role="alert">
          {props.error}
        </p>
      )}
      {warned && (
        <div id={warningId} className="assignment-field__warning" role="status" data-testid="effective-date-warning">
          {props.warnings?.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      )}
    </div>
  );
}
