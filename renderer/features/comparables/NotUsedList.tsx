// Every sale the search returned that is not in the grid stays listed as "analyzed, not used", as the
// UAD 3.6 URAR asks: screened out by Plat (its reason), the appraiser's own reason (from the list and
// a note, which they can take back), or simply not chosen by the appraiser: no reason is made up for
// that one, and the list asks for one.
import { formatDay } from '../../../shared/format-date.ts';
import { notUsedReasonLabels, notUsedReasons, type ComparablesWorkfile, type NotUsedEntry, type NotUsedReason } from '../../../shared/comparables/model.ts';
import { notUsedByLabels } from '../../../shared/comparables/screening.ts';
import { CitedCell, type CitationIndex } from './CitedCell.tsx';
import { clearNotUsedReason, setNotUsedReason } from './comparables-model.ts';
import { numeric } from '../../components/table-heading.ts';
import { DetailsSection, PlainTable } from './DetailsSection.tsx';
import { SelectOptions } from '../../components/SelectOptions.tsx';
import { notUsedEmptyText, type SearchOutcome } from '../../../shared/comparables/empty-words.ts';

type Edit = (change: (workfile: ComparablesWorkfile) => ComparablesWorkfile) => void;

export function NotUsedList({ entries, outcome, index, edit, onToggle }: { entries: NotUsedEntry[]; outcome: SearchOutcome; index: CitationIndex; edit: Edit; onToggle: (id: string) => void }) {
  const unexplained = entries.filter((entry) => entry.by === 'not_chosen').length;
  return (
    <DetailsSection
      title="Analyzed, not used"
      open={entries.length > 0 && entries.length <= 30}
      summary={
        <>
          {entries.length} {entries.length === 1 ? 'sale' : 'sales'}
          {unexplained > 0 ? ` · ${unexplained} not chosen, no reason given` : ''}
        </>
      }
    >
      {entries.length === 0 ? (
        <p className="muted">{notUsedEmptyText(outcome)}</p>
      ) : (
        <PlainTable label="Analyzed, not used" columns={['Address', 'Sold', numeric('Price'), 'Reason', 'Note', <span className="visually-hidden">Actions</span>]}>
          {entries.map((entry) => (
            <NotUsedRow key={entry.candidate.id} entry={entry} index={index} edit={edit} onToggle={onToggle} />
          ))}
        </PlainTable>
      )}
    </DetailsSection>
  );
}

function NotUsedRow({ entry, index, edit, onToggle }: { entry: NotUsedEntry; index: CitationIndex; edit: Edit; onToggle: (id: string) => void }) {
  const { candidate } = entry;
  // "Not chosen by the appraiser" is a fact, not a note worth keeping under the appraiser's reason.
  const keptNote = entry.by === 'not_chosen' ? '' : entry.note;
  const save = (reason: NotUsedReason, text: string) => edit((w) => setNotUsedReason(w, candidate.id, reason, text));
  const byWords = entry.by === 'plat' ? 'Plat’s screening' : entry.by === 'appraiser' ? 'yours' : 'not chosen';
  return (
    <tr>
      <th scope="row" className="comps-notused__address">
        {candidate.address}
      </th>
      <td>{candidate.saleDate === null ? <span className="muted">No date</span> : formatDay(candidate.saleDate)}</td>
      <td className="is-numeric">
        <CitedCell value={candidate.values.salePrice} index={index} />
      </td>
      <td>
        <select
          className="input input--compact"
          aria-label={`Reason ${candidate.address} was not used`}
          value={entry.reason ?? ''}
          onChange={(event) => {
            if (event.target.value !== '') save(event.target.value as NotUsedReason, keptNote);
          }}
        >
          {entry.reason === null && <option value="">{notUsedByLabels.not_chosen} — give a reason…</option>}
          <SelectOptions items={notUsedReasons} label={(reason) => notUsedReasonLabels[reason]} />
        </select>
        <span className={`comps-by comps-by--${entry.by}`} data-testid="comps-notused-by">
          {byWords}
        </span>
      </td>
      <td className="comps-notused__note">
        <input
          className="input input--compact"
          aria-label={`Note on ${candidate.address}`}
          maxLength={2_000}
          value={keptNote}
          placeholder={entry.by === 'not_chosen' ? entry.note : undefined}
          onChange={(event) => save(entry.reason ?? 'other', event.target.value)}
        />
      </td>
      <td className="comps-notused__actions">
        {entry.by === 'appraiser' && (
          <button
            type="button"
            className="button button--small"
            aria-label={`Use Plat’s reason for ${candidate.address}`}
            onClick={() => edit((w) => clearNotUsedReason(w, candidate.id))}
          >
            Plat’s reason
          </button>
        )}
        <button type="button" className="button button--small" aria-label={`Use ${candidate.address} as a comp`} onClick={() => onToggle(candidate.id)}>
          Use as comp
        </button>
      </td>
    </tr>
  );
}
