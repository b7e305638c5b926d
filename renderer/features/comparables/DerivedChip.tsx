// The quiet chip beside a figure the appraiser added (an adjustment, a net, an adjusted price, the
// indicated value): it opens how the figure was worked out, its rule and inputs as Verify will make it
// again, and every source it rests on. Its mark is drawn by CSS, so the figure's cell reads as the
// figure alone.
import { useRef, useState } from 'react';
import type { CitedValue } from '../../../shared/cited/value.ts';
import { citationText } from '../../../shared/cited/citation.ts';
import type { CitationIndex } from './CitedCell.tsx';
import { useDismiss } from '../../components/use-dismiss.ts';
import './derived-chip.css';

export function DerivedChip({ value, index }: { value: CitedValue; index: CitationIndex }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLSpanElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useDismiss(rootRef, open, (refocus) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  });
  if (value.status === 'unavailable') return null;
  const sources = value.citationIds.map((id) => index.get(id)).filter((entry) => entry !== undefined);
  return (
    <span className="chip derived-chip" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="chip__button derived-chip__button"
        aria-expanded={open}
        aria-haspopup="dialog"
        aria-label={`How it was worked out: ${value.label}`}
        title="Derived: how it was worked out"
        onClick={() => setOpen((was) => !was)}
      />
      {open && (
        <span className="chip__panel derived-chip__panel" role="dialog" aria-label={`How ${value.label} was worked out`}>
          <span className="derived-chip__line">
            <strong>{value.display}</strong> · derived
          </span>
          {value.derivedFrom && <span className="derived-chip__line">{value.derivedFrom}</span>}
          {value.derivation && (
            <span className="derived-chip__line derived-chip__rule">
              Rule <code>{value.derivation.rule}</code> of {value.derivation.inputs.map(String).join(', ') || 'no inputs'}
            </span>
          )}
          {sources.map((entry) => (
            <span key={entry.citation.id} className="derived-chip__line derived-chip__source">
              [{entry.number}] {citationText(entry.citation)}
            </span>
          ))}
        </span>
      )}
    </span>
  );
}
