// Quiet but always there: a small chip beside a value that opens the full source on click or Enter.
import { useLayoutEffect, useRef, useState } from 'react';
import { formatDate } from '../../shared/format-date.ts';
import { citationLabel, type CitationView } from '../../shared/cited/citation.ts';
import { useDismiss } from './use-dismiss.ts';
import './citation-chip.css';

/** `marker` replaces the chip's text with a numbered endnote marker (the report: "3" opens endnote 3). */
export function CitationChip({ citation, children, marker }: { citation: CitationView; children?: React.ReactNode; marker?: string }) {
  // Tables show a chip on every row, so a closed chip is kept small: its document listeners live in
  // the panel, which exists only while open (a passive effect per row doubled a 100-row render).
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLSpanElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const label = marker ?? citationLabel(citation);
  return (
    <span className="chip citation" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className={`chip__button citation__chip${marker !== undefined ? ' citation__chip--marker' : ''}${citation.synthetic ? ' citation__chip--synthetic' : ''}`}
        aria-expanded={open}
        aria-haspopup="dialog"
        // The name starts with the visible text, so speech users can say what they see (WCAG 2.5.3).
        aria-label={`${label}: source ${citation.publisher ?? 'unknown'}${citation.asOf ? `, as of ${formatDate(citation.asOf)}` : ''}${citation.synthetic ? ' (synthetic, not a public record)' : ''}`}
        onClick={() => setOpen((value) => !value)}
      >
        {label}
      </button>
      {open && (
        <CitationPanel citation={citation} rootRef={rootRef} onClose={close}>
          {children}
        </CitationPanel>
      )}
    </span>
  );
}

function CitationPanel(props: {
  citation: CitationView;
  rootRef: React.RefObject<HTMLSpanElement | null>;
  onClose: (refocus: boolean) => void;
  children?: React.ReactNode;
}) {
  const { citation, rootRef, onClose, children } = props;
  useDismiss(rootRef, true, onClose);
  const panelRef = useRef<HTMLDivElement>(null);
  const place = usePlacementInWindow(panelRef, rootRef);
  return (
    <div
      ref={panelRef}
      className={`chip__panel citation__panel${place.above ? ' citation__panel--above' : ''}`}
      style={place.shift === 0 ? undefined : { transform: `translateX(${-place.shift}px)` }}
      role="dialog"
      aria-label="Source of this value"
    >
      {citation.synthetic && <p className="citation__synthetic">Synthetic value made for Plat’s sample — not a public record.</p>}
      <dl>
        <dt>Publisher</dt>
        <dd>{citation.publisher ?? '—'}</dd>
        <dt>Dataset</dt>
        <dd>{citation.dataset ?? '—'}</dd>
        <dt>As of</dt>
        <dd>{citation.asOf ? formatDate(citation.asOf) : '—'}</dd>
        {citation.sourceId && (
          <>
            <dt>Source id</dt>
            <dd className="mono">{citation.sourceId}</dd>
          </>
        )}
        {citation.recordRef && (
          <>
            <dt>Record</dt>
            <dd className="mono">{citation.recordRef}</dd>
          </>
        )}
        {citation.releaseId != null && (
          <>
            <dt>Release</dt>
            <dd className="mono">{String(citation.releaseId)}</dd>
          </>
        )}
        {citation.sha256 && (
          <>
            <dt>SHA-256</dt>
            <dd className="mono citation__hash">{citation.sha256}</dd>
          </>
        )}
        {Object.entries(citation.extra ?? {})
          .filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object')
          .map(([key, value]) => (
            <span key={key} className="citation__extra">
              <dt>{key.replace(/_/g, ' ')}</dt>
              <dd>{typeof value === 'string' ? formatDate(value) : String(value)}</dd>
            </span>
          ))}
      </dl>
      {citation.officialUrl?.startsWith('https://') && (
        <a href={citation.officialUrl} target="_blank" rel="noreferrer noopener">
          Open the publisher’s page
        </a>
      )}
      {children}
    </div>
  );
}

/**
 * Keeps the open panel inside the window: a chip near the right edge opens its panel leftwards, and
 * one near the bottom opens it above, so no source is read half cut off.
 */
function usePlacementInWindow(
  panelRef: React.RefObject<HTMLDivElement | null>,
  anchorRef: React.RefObject<HTMLSpanElement | null>,
): { shift: number; above: boolean } {
  const [place, setPlace] = useState({ shift: 0, above: false });
  useLayoutEffect(() => {
    const panel = panelRef.current?.getBoundingClientRect();
    const anchor = anchorRef.current?.getBoundingClientRect();
    if (!panel || !anchor) return;
    const margin = 8;
    const overflow = panel.right - (window.innerWidth - margin);
    const shift = overflow > 0 ? Math.max(0, Math.min(overflow, panel.left - margin)) : 0;
    const above = panel.bottom > window.innerHeight - margin && anchor.top - panel.height - 4 > margin;
    setPlace({ shift, above });
  }, [panelRef, anchorRef]);
  return place;
}
