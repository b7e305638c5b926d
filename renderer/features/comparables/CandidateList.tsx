// The sales the search returned, as a table that does everything the map does, by keyboard: ↑/↓,
// Home/End move between rows (the focused row's point is highlighted on the map), Space or Enter
// chooses or drops the sale, a header sorts, Ctrl/⌘+C copies a row and "Copy table" all of them.
// Flags are small badges in words (hover: Plat's screen in full); a multi-parcel sale names the other
// lots of its deed, each cited; a chosen sale shows its comp number.
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { formatDay } from '../../../shared/format-date.ts';
import { candidateFlagLabels, type CandidateFlag, type CandidateSet, type ComparableSale } from '../../../shared/comparables/model.ts';
import { SortableHeader, sortRows, sortToggled, toTsv, type Column, type TableSort } from '../../components/DataTable.tsx';
import { CitationChips, CitedCell, type CitationIndex } from './CitedCell.tsx';
import { relatedLotWords } from '../../../shared/comparables/screening.ts';
import { cautionFlags, flagShortLabels, rowAfterKey } from './comparables-model.ts';
import { candidatesEmptyText, type SearchOutcome } from '../../../shared/comparables/empty-words.ts';
import { formatCount } from '../../../shared/format/number.ts';

interface CandidateRow {
  candidate: ComparableSale;
  /** Its place in the service's answer (1 = first). */
  order: number;
  comp: number | null;
}


const valueText = (row: CandidateRow, key: 'proximity' | 'saleDate' | 'salePrice' | 'pricePerSqft' | 'gla') => {
  const value = row.candidate.values[key];
  return value.status === 'unavailable' ? '' : value.display;
};

const columns: Column<CandidateRow>[] = [
  { id: 'order', header: '#', text: (row) => String(row.order), sortValue: (row) => row.order, align: 'right' },
  {
    id: 'comp',
    header: 'Comp',
    text: (row) => (row.comp === null ? '' : String(row.comp)),
    sortValue: (row) => row.comp,
  },
  { id: 'address', header: 'Address', text: (row) => row.candidate.address },
  { id: 'distance', header: 'Distance', text: (row) => valueText(row, 'proximity'), sortValue: (row) => row.candidate.distanceMiles, align: 'right' },
  { id: 'date', header: 'Sold', text: (row) => (row.candidate.saleDate === null ? '' : formatDay(row.candidate.saleDate)), sortValue: (row) => row.candidate.saleDate },
  { id: 'price', header: 'Price', text: (row) => valueText(row, 'salePrice'), sortValue: (row) => row.candidate.priceDollars, align: 'right' },
  {
    id: 'ppsf',
    header: '$/sq ft',
    text: (row) => valueText(row, 'pricePerSqft'),
    sortValue: (row) => (row.candidate.numbers.gla ? row.candidate.priceDollars / row.candidate.numbers.gla : null),
    align: 'right',
  },
  { id: 'gla', header: 'GLA', text: (row) => valueText(row, 'gla'), sortValue: (row) => row.candidate.numbers.gla, align: 'right' },
  { id: 'flags', header: 'Flags', text: (row) => row.candidate.flags.map((flag) => candidateFlagLabels[flag]).join('; ') },
];

/** The columns drawn as their own cells (comp number and flags ride with the toggle and the address). */
const shown = ['order', 'address', 'distance', 'date', 'price', 'ppsf', 'gla'] as const;

export function CandidateList(props: {
  set: CandidateSet;
  /** Whether a search ran and what it returned: what the list says when it lists nothing. */
  outcome: SearchOutcome;
  chosen: readonly string[];
  highlightedId: string | null;
  index: CitationIndex;
  onToggle: (id: string) => void;
  onHighlight: (id: string | null) => void;
}) {
  const { set, chosen, highlightedId, index, onToggle, onHighlight } = props;
  const [sort, setSort] = useState<TableSort>(null);
  const [focused, setFocused] = useState(0);
  const [copied, setCopied] = useState<string | null>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);

  const rows = useMemo<CandidateRow[]>(
    () =>
      set.candidates.map((candidate, position) => {
        const at = chosen.indexOf(candidate.id);
        return { candidate, order: position + 1, comp: at === -1 ? null : at + 1 };
      }),
    [set.candidates, chosen],
  );
  const sorted = useMemo(() => (sort ? sortRows(rows, columns.find((column) => column.id === sort.columnId), sort.direction) : rows), [rows, sort]);
  const focusIndex = Math.min(focused, Math.max(0, sorted.length - 1));

  const flash = (message: string) => {
    setCopied(message);
    window.setTimeout(() => setCopied(null), 1800);
  };
  const copy = (text: string, message: string) =>
    void navigator.clipboard.writeText(text).then(
      () => flash(message),
      () => flash('Copy failed'),
    );

  const focusRow = (at: number) => {
    setFocused(at);
    bodyRef.current?.querySelectorAll<HTMLTableRowElement>('tr')[at]?.focus();
  };

  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, row: CandidateRow, at: number) => {
    // Keys pressed on the row's own buttons and chips are theirs.
    if (event.target !== event.currentTarget) return;
    const next = rowAfterKey(event.key, at, sorted.length);
    if (next !== null) focusRow(next);
    else if (event.key === ' ' || event.key === 'Enter') onToggle(row.candidate.id);
    else if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'c' && !window.getSelection()?.toString()) {
      copy(toTsv(columns, [row]).split('\n')[1] ?? '', 'Row copied');
    } else return;
    event.preventDefault();
  };

  const flagged = set.candidates.filter((candidate) => candidate.flags.some((flag) => cautionFlags.has(flag))).length;
  return (
    <section className="comps-candidates" aria-labelledby="comps-candidates-title">
      <div className="comps-pane-head pane-bar">
        <h2 id="comps-candidates-title">Candidates</h2>
        <span className="muted comps-pane-head__count" data-testid="comps-candidate-count">
          {props.outcome.kind === 'none'
            ? 'No search yet'
            : `${set.candidates.length === set.total ? `${formatCount(set.total)} returned` : `${formatCount(set.candidates.length)} of ${formatCount(set.total)} returned`} · ${formatCount(chosen.length)} chosen · ${formatCount(flagged)} flagged`}
        </span>
        <span className="comps-spacer" />
        {copied && (
          <span className="comps-copy-status" role="status">
            {copied}
          </span>
        )}
        <button type="button" className="button button--small" disabled={rows.length === 0} onClick={() => copy(toTsv(columns, sorted), `${sorted.length} rows copied`)}>
          Copy table
        </button>
      </div>
      <div className="comps-candidates__scroll">
        <table className="comps-table comps-table--candidates" aria-label="Candidates" aria-describedby="comps-candidates-keys">
          <colgroup>
            <col className="comps-col--toggle" />
            <col className="comps-col--order" />
            <col className="comps-col--address" />
            <col className="comps-col--distance" />
            <col className="comps-col--date" />
            <col className="comps-col--price" />
            <col className="comps-col--ppsf" />
            <col className="comps-col--gla" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col" className="comps-table__toggle">
                <span className="visually-hidden">Choose or drop</span>
              </th>
              {shown.map((id) => {
                const column = columns.find((candidate) => candidate.id === id)!;
                return (
                  <SortableHeader
                    key={id}
                    header={column.header}
                    align={column.align}
                    direction={sort?.columnId === id ? sort.direction : null}
                    onSort={() => setSort((current) => sortToggled(current, id))}
                  />
                );
              })}
            </tr>
          </thead>
          <tbody
            ref={bodyRef}
            // The pointer passing over the list highlights a sale only while it is there: leaving, the
            // highlight goes back to the row with keyboard focus, or none (else its popup stays over the map).
            onMouseLeave={() => {
              const active = document.activeElement;
              const row = active instanceof HTMLElement && bodyRef.current?.contains(active) ? active.closest('tr') : null;
              onHighlight(row?.dataset.candidateId ?? null);
            }}
          >
            {sorted.map((row, at) => {
              const { candidate } = row;
              const classes = ['comps-row', row.comp !== null ? 'is-chosen' : '', candidate.id === highlightedId ? 'is-highlighted' : ''].filter(Boolean).join(' ');
              return (
                <tr
                  key={candidate.id}
                  className={classes}
                  tabIndex={at === focusIndex ? 0 : -1}
                  data-candidate-id={candidate.id}
                  // Plat's screening reason when it screened the sale out (choosing it then asks for a written reason).
                  data-screened-out={candidate.screenedOut?.reason}
                  // Where the map draws it, for tests that find the sale's symbol on the canvas.
                  data-lon={candidate.location?.lonLat[0]}
                  data-lat={candidate.location?.lonLat[1]}
                  onFocus={(event) => {
                    if (event.target !== event.currentTarget) return;
                    setFocused(at);
                    onHighlight(candidate.id);
                  }}
                  onMouseEnter={() => onHighlight(candidate.id)}
                  onKeyDown={(event) => onRowKey(event, row, at)}
                >
                  <td className="comps-table__toggle">
                    <button
                      type="button"
                      className={`comps-toggle${row.comp !== null ? ' comps-toggle--chosen' : ''}`}
                      tabIndex={-1}
                      aria-label={row.comp !== null ? `Drop comp ${row.comp}, ${candidate.address}` : `Choose ${candidate.address}`}
                      aria-pressed={row.comp !== null}
                      onClick={() => onToggle(candidate.id)}
                    >
                      {row.comp ?? '+'}
                    </button>
                  </td>
                  <td className="is-numeric muted">{row.order}</td>
                  <td className="comps-table__address">
                    <span className="comps-table__street" title={candidate.address}>
                      {candidate.address}
                    </span>
                    <Flags sale={candidate} />
                    <RelatedLots sale={candidate} index={index} />
                  </td>
                  <td className="is-numeric">{valueText(row, 'proximity') || '—'}</td>
                  <td className="comps-table__date">{candidate.saleDate === null ? <span className="muted">No date</span> : formatDay(candidate.saleDate)}</td>
                  <td className="is-numeric">
                    <CitedCell value={candidate.values.salePrice} index={index} />
                  </td>
                  <td className="is-numeric" title={valueText(row, 'pricePerSqft') || undefined}>
                    {valueText(row, 'pricePerSqft').replace(/\s*per sq ft$/, '') || '—'}
                  </td>
                  <td className="is-numeric">{valueText(row, 'gla') || '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {rows.length === 0 && <p className="comps-empty muted">{candidatesEmptyText(props.outcome)}</p>}
      </div>
      <p id="comps-candidates-keys" className="comps-keys muted">
        ↑/↓ move · Space or Enter chooses or drops · the focused sale is ringed on the map
      </p>
      {set.limitations.length > 0 && (
        <ul className="comps-limitations" aria-label="What the answer says it lacks">
          {set.limitations.map((limitation) => (
            <li key={limitation.text}>
              {limitation.text}
              <CitationChips ids={limitation.citationIds} index={index} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A sale's flags as small badges in words: those that need a second look stand out; the ones true of
 * nearly every OTR sale (an approximate location, synthetic characteristics) are one quiet line.
 */
function Flags({ sale }: { sale: ComparableSale }) {
  const { flags } = sale;
  if (flags.length === 0) return null;
  const caution = flags.filter((flag) => cautionFlags.has(flag));
  const quiet = flags.filter((flag) => !cautionFlags.has(flag));
  const noteOf = (flag: CandidateFlag) => sale.screens.find((screen) => screen.flag === flag)?.note ?? candidateFlagLabels[flag];
  return (
    <span className="comps-badges">
      {caution.map((flag) => (
        <span key={flag} className="comps-badge comps-badge--caution" title={noteOf(flag)} data-flag={flag}>
          {flagShortLabels[flag]}
        </span>
      ))}
      {quiet.length > 0 && (
        <span className="comps-badge comps-badge--quiet" title={quiet.map((flag) => candidateFlagLabels[flag]).join('; ')}>
          {quiet.map((flag) => flagShortLabels[flag]).join(' · ')}
        </span>
      )}
    </span>
  );
}

/** The other lots of a multi-parcel sale's deed, named, each cited to its recorded date and price. */
function RelatedLots({ sale, index }: { sale: ComparableSale; index: CitationIndex }) {
  if (sale.relatedLots.length === 0) return null;
  return (
    <span className="comps-related muted" data-testid="comps-related-lots">
      One deed with{' '}
      {sale.relatedLots.map((lot, at) => (
        <span key={lot.candidateId} className="comps-related__lot">
          {at > 0 ? '; ' : ''}
          <span title={relatedLotWords(lot)}>{lot.address}</span>
          <CitationChips ids={lot.citationIds} index={index} />
        </span>
      ))}
    </span>
  );
}
