// A value with the chip that says where it came from; a synthetic value is marked in words as well
// as by its chip, so it is never mistaken for a public record.
import { CitationChip } from './CitationChip.tsx';
import type { CitedValue as CitedValueModel } from './cited-value.ts';
import './cited-value.css';

export function CitedValue({ value }: { value: CitedValueModel }) {
  return (
    <span className={`cited-value${value.synthetic ? ' cited-value--synthetic' : ''}`}>
      <span className="cited-value__text">{value.text}</span>
      {value.synthetic && <span className="cited-value__flag">synthetic</span>}
      <CitationChip citation={value.citation}>{value.note && <p className="cited-value__note">{value.note}</p>}</CitationChip>
    </span>
  );
}

/** A value the service gave in a shape Plat does not read: shown as given, and said to be uncited. */
export function UncitedValue({ text }: { text: string }) {
  return (
    <span className="cited-value">
      <span className="cited-value__text">{text}</span>
      <span className="cited-value__flag cited-value__flag--uncited">no citation given</span>
    </span>
  );
}
