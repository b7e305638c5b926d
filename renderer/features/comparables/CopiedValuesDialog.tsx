// "Accept copied values…": the sample copied this row's characteristic from another house (synthetic),
// so it drives no adjustment until the appraiser accepts it, for the whole grid, the subject or one
// comp, with a written reason (kept in the workfile, printed in the report and exported). Earlier
// acceptances of the row are listed and can be withdrawn.
import { useId, useState } from 'react';
import type { ComparablesAnalysis, ComparablesWorkfile, GridRowKey } from '../../../shared/comparables/model.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { isCopied } from '../../../shared/comparables/synthetic-use.ts';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { checkAcceptReason } from './comparables-model.ts';
import './copied-values.css';

const WHOLE_GRID = '';

/** Who in the grid has a copied value in the row, in grid order: the subject, then each comp. */
export function copiedIn(analysis: ComparablesAnalysis, row: GridRowKey): Array<{ id: string; name: string }> {
  const subject = analysis.set.subject;
  const properties = [...(subject ? [{ property: subject, name: 'The subject' }] : []), ...analysis.chosen.map((comp, at) => ({ property: comp, name: `Comp ${at + 1}, ${comp.address}` }))];
  return properties.filter(({ property }) => isCopied(property, row)).map(({ property, name }) => ({ id: property.id, name }));
}

export function CopiedValuesDialog(props: {
  row: GridRowKey | null;
  analysis: ComparablesAnalysis;
  workfile: ComparablesWorkfile;
  onAccept: (act: { row: GridRowKey; compId: string | null; reason: string }) => void;
  onWithdraw: (row: GridRowKey, compId: string | null) => void;
  onClose: () => void;
}) {
  const { row, analysis, workfile } = props;
  const [scope, setScope] = useState(WHOLE_GRID);
  const scopeId = useId();
  const label = row === null ? '' : (analysis.set.subject?.values[row].label ?? row);
  const copied = row === null ? [] : copiedIn(analysis, row);
  const names = new Map<string | null, string>([[null, 'The whole grid'], ...copied.map((entry): [string, string] => [entry.id, entry.name])]);
  const accepted = row === null ? [] : (workfile.syntheticAccepted ?? []).filter((act) => act.row === row);

  return (
    <ReasonDialog
      open={row !== null}
      title={<>Accept copied values: {label}</>}
      className="comps-copied"
      fields={
        <>
          <label htmlFor={scopeId} className="reason-dialog__label">
            Accept for
          </label>
          <select id={scopeId} className="input comps-copied__scope" value={scope} onChange={(event) => setScope(event.target.value)}>
            <option value={WHOLE_GRID}>The whole grid</option>
            {copied.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </>
      }
      reasonLabel="Reason (required, printed in the report)"
      check={checkAcceptReason}
      onAct={(reason) => {
        if (row !== null) props.onAccept({ row, compId: scope === WHOLE_GRID ? null : scope, reason });
      }}
      act={{ label: 'Accept copied values', busyLabel: 'Saving…' }}
      onCancel={props.onClose}
      onOpen={() => setScope(WHOLE_GRID)}
    >
      <p className="muted">
        The sample copied {copied.length === 1 ? 'this value' : 'these values'} from another house (synthetic): {copied.map((entry) => entry.name).join('; ') || 'none in the grid now'}. A copied value drives no
        adjustment until you accept it; the acceptance and your reason are printed in the report and exported.
      </p>
      {accepted.length > 0 && (
        <ul className="comps-copied__accepted" aria-label="Accepted already">
          {accepted.map((act) => (
            <li key={act.compId ?? 'grid'}>
              <strong>{names.get(act.compId) ?? act.compId}</strong>: {act.reason} <span className="muted">({formatDateTime(act.at)})</span>{' '}
              <button type="button" className="link-button" onClick={() => props.onWithdraw(act.row, act.compId)}>
                Withdraw
              </button>
            </li>
          ))}
        </ul>
      )}
    </ReasonDialog>
  );
}
