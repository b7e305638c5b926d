// One cited value of the comparables (a grid cell, a candidate's price, a sale the regression used):
// the value as displayed, its status in words when it is not as published (derived, synthetic), and a
// numbered chip per source that opens the full citation. Hover shows the sources; so does focus on a
// chip (its name carries them, and a tip appears under it). An unavailable value says why.
import type { ReactNode } from 'react';
import type { Citation, CitedValue } from '../../../shared/cited/value.ts';
import { citationLabel, citationText, citationView } from '../../../shared/cited/citation.ts';
import { CitationChip } from '../../components/CitationChip.tsx';

/** The analysis's citations by id, numbered in the order the analysis lists them (the screen's endnotes). */
export type CitationIndex = ReadonlyMap<string, { citation: Citation; number: number }>;

export function citationIndexOf(citations: readonly Citation[]): CitationIndex {
  return new Map(citations.map((citation, index) => [citation.id, { citation, number: index + 1 }]));
}

/** The numbered chips of the sources a line cites (a limitation, a sale the regression used). */
export function CitationChips({ ids, index }: { ids: readonly string[]; index: CitationIndex }) {
  return ids.map((id) => {
    const entry = index.get(id);
    return entry ? <CitationChip key={id} citation={citationView(entry.citation)} marker={String(entry.number)} /> : null;
  });
}

const STATUS_WORDS = { derived: 'derived', synthetic: 'synthetic' } as const;

/** What hovering a value says: its status and each source in full. */
export function sourceText(value: Pick<CitedValue, 'status' | 'citationIds' | 'derivedFrom' | 'limitation'>, index: CitationIndex): string {
  if (value.status === 'unavailable') return `Unavailable: ${value.limitation ?? 'no source gives this value.'}`;
  const sources = value.citationIds.map((id) => index.get(id)).filter((entry) => entry !== undefined);
  const lines = [
    value.status === 'synthetic' ? 'Synthetic: made up for Plat’s sample, not a public record.' : null,
    value.status === 'derived' ? `Derived${value.derivedFrom ? ` from ${value.derivedFrom}` : ' by Plat or the service'}; not as published.` : null,
    ...sources.map((entry) => `[${entry.number}] ${citationText(entry.citation)}`),
    value.limitation,
  ];
  return lines.filter((line): line is string => line !== null && line !== '').join('\n');
}

export function CitedCell({ value, index, children }: { value: CitedValue; index: CitationIndex; children?: ReactNode }) {
  if (value.status === 'unavailable') {
    return (
      <span className="comps-value comps-value--unavailable" title={sourceText(value, index)}>
        {value.limitation && value.limitation.length <= 40 ? value.limitation.replace(/\.$/, '') : 'Unavailable'}
      </span>
    );
  }
  const sources = value.citationIds.map((id) => index.get(id)).filter((entry) => entry !== undefined);
  return (
    <span className={`comps-value comps-value--${value.status}`} title={sourceText(value, index)}>
      <span className="comps-value__text">{value.display}</span>
      {value.status !== 'reported' && <span className={`comps-flag comps-flag--${value.status}`}>{STATUS_WORDS[value.status]}</span>}
      {sources.length === 0 && <span className="comps-flag comps-flag--uncited">no citation</span>}
      {sources.map((entry) => (
        <span key={entry.citation.id} className="comps-value__source">
          <CitationChip citation={citationView(entry.citation)} marker={String(entry.number)}>
            {value.status === 'derived' && value.derivedFrom && <p className="cited-value__note">Derived from {value.derivedFrom}</p>}
            {value.limitation && <p className="cited-value__note">{value.limitation}</p>}
          </CitationChip>
          <span className="comps-value__tip" aria-hidden="true">
            {citationLabel(entry.citation)}
          </span>
        </span>
      ))}
      {children}
    </span>
  );
}
