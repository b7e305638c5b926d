// How one cited value reads in the report, on screen and on paper: the value, its status flag and its
// endnote markers (chips on screen, "[n]" links in print), what it was derived from, its alternatives
// and the choice between them; and a table of such values. The subject's sections and the
// comparables section print their values with these, so every value reads one way.
import type { ReactNode } from 'react';
import type { ReportTable } from '../../../shared/report/document.ts';
import type { AlternativeValue, CitedValue, Limitation } from '../../../shared/cited/value.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { citationView } from '../../../shared/cited/citation.ts';
import { CitationChip } from '../../components/CitationChip.tsx';
import { flagsStatus, markersFor, statusWords, type NumberedCitation } from './report-model.ts';
import { ReportTableFrame } from './ReportTableFrame.tsx';

export type ReportMode = 'screen' | 'print';

/** What a value needs to render: the mode, the endnotes by citation id, and (screen only) the appraiser's choice handlers. */
export interface ValueContext {
  mode: ReportMode;
  index: Map<string, NumberedCitation>;
  /** Screen only: the appraiser chose an alternative (asks for the reason). */
  onChooseAlternative?: (value: CitedValue, alternative: AlternativeValue) => void;
  /** Screen only: take the appraiser's choice back. */
  onClearChoice?: (value: CitedValue) => void;
  /** Fields whose choice is being saved. */
  busyField?: string | null;
}

/** A limitation, followed (like a value) by the markers of the source it is about; one about no source has none. */
export function LimitationItem({ limitation, context }: { limitation: Limitation; context: ValueContext }) {
  return (
    <li className="report-limitation">
      <span className="report-limitation__text">{limitation.text}</span>
      {limitation.citationIds.length > 0 && <Markers citationIds={limitation.citationIds} context={context} />}
    </li>
  );
}

/** The value as displayed, its status flag and its endnote markers. */
export function ValueLine({ value, context }: { value: Pick<CitedValue, 'display' | 'status' | 'citationIds' | 'limitation'>; context: ValueContext }) {
  if (value.status === 'unavailable') {
    return (
      <span className="report-value report-value--unavailable">
        <span className="report-flag report-flag--unavailable">Unavailable</span>
        {value.limitation ? <span className="report-value__why"> — {value.limitation}</span> : null}
      </span>
    );
  }
  return (
    <span className={`report-value report-value--${value.status}`}>
      <span className="report-value__text">{value.display}</span>
      {flagsStatus(value) && (
        <span className={`report-flag report-flag--${value.status}`} title={statusWords(value.status).description}>
          {statusWords(value.status).label}
        </span>
      )}
      <Markers citationIds={value.citationIds} context={context} />
    </span>
  );
}

export function Markers({ citationIds, context }: { citationIds: readonly string[]; context: ValueContext }) {
  const markers = markersFor(citationIds, context.index);
  if (markers.length === 0) return <span className="report-flag report-flag--uncited">no citation</span>;
  if (context.mode === 'print') {
    return (
      <span className="report-markers">
        {markers.map((citation) => (
          <a key={citation.number} className="report-marker" href={`#endnote-${citation.number}`}>
            [{citation.number}]
          </a>
        ))}
      </span>
    );
  }
  return (
    <span className="report-markers">
      {markers.map((citation) => (
        <CitationChip key={citation.number} citation={citationView(citation)} marker={String(citation.number)} />
      ))}
    </span>
  );
}

/** What sits under a value: what it was derived from, a caveat, and the alternatives with the choice. */
export function ValueDetails({ value, context }: { value: CitedValue; context: ValueContext }) {
  const notes: ReactNode[] = [];
  if (value.status === 'derived' && value.derivedFrom) notes.push(<p key="derived" className="report-value__note">Derived from {value.derivedFrom}</p>);
  if (value.status !== 'unavailable' && value.limitation) notes.push(<p key="limitation" className="report-value__note">{value.limitation}</p>);
  if (value.alternatives.length > 0) notes.push(<Alternatives key="alternatives" value={value} context={context} />);
  else if (value.choice?.by === 'appraiser') notes.push(<ChoiceNote key="choice" value={value} context={context} />);
  return notes.length > 0 ? <>{notes}</> : null;
}

function Alternatives({ value, context }: { value: CitedValue; context: ValueContext }) {
  const screen = context.mode === 'screen';
  return (
    <div className="report-alternatives" role="group" aria-label={`Other values for ${value.label}`}>
      <p className="report-alternatives__title">
        {value.alternatives.length === 1 ? 'Another source gives a different value' : `${value.alternatives.length} other sources give different values`}
      </p>
      <ul>
        {value.alternatives.map((alternative) => (
          <li key={alternative.key} className="report-alternatives__item cluster">
            <ValueLine value={{ ...alternative, limitation: alternative.note }} context={context} />
            {alternative.note && alternative.status !== 'unavailable' && <span className="report-value__note"> {alternative.note}</span>}
            {screen && context.onChooseAlternative && alternative.status !== 'unavailable' && (
              <button
                type="button"
                className="button button--small report-alternatives__use"
                disabled={context.busyField === value.field}
                onClick={() => context.onChooseAlternative?.(value, alternative)}
              >
                Use this value…
              </button>
            )}
          </li>
        ))}
      </ul>
      <ChoiceNote value={value} context={context} />
    </div>
  );
}

function ChoiceNote({ value, context }: { value: CitedValue; context: ValueContext }) {
  const choice = value.choice;
  if (!choice) return null;
  const byAppraiser = choice.by === 'appraiser';
  return (
    <p className={`report-choice${byAppraiser ? ' report-choice--appraiser' : ''}`}>
      <strong>{byAppraiser ? 'Appraiser’s choice' : 'Plat’s choice'}:</strong> {choice.reason}
      {byAppraiser && choice.at ? <span className="muted"> ({formatDateTime(choice.at)})</span> : null}
      {byAppraiser && context.mode === 'screen' && context.onClearChoice && (
        <>
          {' '}
          <button
            type="button"
            className="link-button"
            disabled={context.busyField === value.field}
            onClick={() => context.onClearChoice?.(value)}
          >
            Go back to Plat’s choice
          </button>
        </>
      )}
    </p>
  );
}

export function TableView({ table, context }: { table: ReportTable; context: ValueContext }) {
  return (
    <ReportTableFrame
      label={table.title}
      caption={table.title}
      columns={table.columns.map((column) => column.label)}
      after={table.note && table.rows.length > 0 && <p className="report-table__note muted">{table.note}</p>}
    >
      {table.rows.length === 0 ? (
        <tr>
          <td colSpan={table.columns.length} className="muted">
            {table.note ?? 'None in the sources.'}
          </td>
        </tr>
      ) : (
        table.rows.map((row, rowIndex) => (
          <tr key={rowIndex}>
            {table.columns.map((column) => {
              const cell = row[column.key];
              return <td key={column.key}>{cell ? <ValueLine value={cell} context={context} /> : <span className="muted">—</span>}</td>;
            })}
          </tr>
        ))
      )}
    </ReportTableFrame>
  );
}
