// "Accept copied values…": the sample copied this row's characteristic from another house (synthetic),
// so it drives no adjustment until the appraiser accepts it, for the whole grid, the subject or one
// comp, with a written reason (kept in the workfile, printed in the report and exported). Earlier
// acceptances of the row are listed and can be withdrawn.
import { useId, useState } from 'react';
import type { ComparablesAnalysis, ComparablesWorkfile, GridRowKey } from '../../../shared/comparables/model.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { isCopied } from '../../../shared/comparables/synthetic-use.ts';
import { DialogFormActions, ActReasonField, useModalDialog } from '../../components/Dialog.tsx';
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
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { title: useId(), scope: useId(), reason: useId(), error: useId() };
  const dialogRef = useModalDialog(row !== null, () => {
    setScope(WHOLE_GRID);
    setReason('');
    setProblem(null);
  });
  const label = row === null ? '' : (analysis.set.subject?.values[row].label ?? row);
  const copied = row === null ? [] : copiedIn(analysis, row);
  const names = new Map<string | null, string>([[null, 'The whole grid'], ...copied.map((entry): [string, string] => [entry.id, entry.name])]);
  const accepted = row === null ? [] : (workfile.syntheticAccepted ?? []).filter((act) => act.row === row);

  const accept = () => {
    if (row === null) return;
    const checked = checkAcceptReason(reason);
    if (!checked.ok) {
      setProblem(checked.error);
      return;
    }
    props.onAccept({ row, compId: scope === WHOLE_GRID ? null : scope, reason: checked.value });
  };

  return (
    <dialog ref={dialogRef} className="confirm-dialog comps-copied" aria-labelledby={ids.title} onClose={props.onClose}>
      <h2 id={ids.title}>Accept copied values: {label}</h2>
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
      <form
        onSubmit={(event) => {
          event.preventDefault();
          accept();
        }}
      >
        <label htmlFor={ids.scope} className="reason-dialog__label">
          Accept for
        </label>
        <select id={ids.scope} className="input comps-copied__scope" value={scope} onChange={(event) => setScope(event.target.value)}>
          <option value={WHOLE_GRID}>The whole grid</option>
          {copied.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
            </option>
          ))}
        </select>
        <ActReasonField
          id={ids.reason}
          label="Reason (required, printed in the report)"
          value={reason}
          onChange={setReason}
          problem={problem}
          problemId={ids.error}
        />
        <DialogFormActions onCancel={props.onClose} busy={false} label="Accept copied values" busyLabel="Saving…" />
      </form>
    </dialog>
  );
}
