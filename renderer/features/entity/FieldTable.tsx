// Canonical fields (summary) or attributes (record): the best value with its citation, and every
// other value a source gave beside it, each cited, so conflicting sources are never silently merged.
// An owner name opens that owner's other holdings in one click.
import type { ReactNode } from 'react';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { CitedValue, UncitedValue } from '../../components/CitedValue.tsx';
import { UnrecognisedAnswer } from '../../components/UnrecognisedAnswer.tsx';
import type { CitedValue as CitedValueModel } from '../../components/cited-value.ts';
import type { SummaryRow } from './entity-model.ts';
import type { SummaryUseOf } from '../../app/entity-slots.ts';

/** Opens the owner page of a published owner name. */
export type OpenOwner = (name: string) => void;

function OwnerLink({ field, value, onOwner }: { field: string; value: CitedValueModel; onOwner: OpenOwner | undefined }): ReactNode {
  if (field !== 'owner_name' || !onOwner || typeof value.value !== 'string' || value.value.trim() === '') return null;
  const name = value.value;
  return (
    <button type="button" className="button button--small field-table__owner" onClick={() => onOwner(name)} aria-label={`Other holdings of this owner, ${name}`}>
      Other holdings of this owner
    </button>
  );
}

/** Under a best value the active assignment does not use for its subject: the value it uses, and why. */
function AssignmentUse({ row, assignmentUse }: { row: SummaryRow; assignmentUse: SummaryUseOf | undefined }): ReactNode {
  const use = row.best && assignmentUse ? assignmentUse(row.field, row.best.value) : null;
  if (use === null) return null;
  return (
    <span className="field-table__assignment-use" role="note" data-testid={`summary-assignment-use-${row.field}`}>
      The assignment uses <strong>{use.display}</strong> (see Subject characteristics above){use.why ? <span className="muted">: {use.why}</span> : null}
    </span>
  );
}

function columns(onOwner: OpenOwner | undefined, assignmentUse: SummaryUseOf | undefined): Column<SummaryRow>[] {
  return [
    { id: 'field', header: 'Field', text: (row) => row.label, width: '22%' },
    {
      id: 'value',
      header: 'Best value',
      text: (row) => row.best?.text ?? row.raw ?? '',
      sortValue: (row) => (typeof row.best?.value === 'number' ? row.best.value : (row.best?.text ?? row.raw ?? null)),
      render: (row) =>
        row.best ? (
          <span className="field-table__value">
            <CitedValue value={row.best} />
            <OwnerLink field={row.field} value={row.best} onOwner={onOwner} />
            <AssignmentUse row={row} assignmentUse={assignmentUse} />
          </span>
        ) : row.published ? (
          <UnrecognisedAnswer part={`the “${row.label}” entry`} value={row.published.value} citations={row.published.citations} compact />
        ) : (
          <UncitedValue text={row.raw ?? '—'} />
        ),
      width: '38%',
    },
    {
      id: 'alternatives',
      header: 'Other values',
      text: (row) => row.alternatives.map((alternative) => `${alternative.text} (${alternative.citation.publisher ?? 'unknown source'})`).join('; '),
      sortValue: (row) => row.alternatives.length,
      render: (row) =>
        row.alternatives.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <ul className="field-table__alternatives">
            {row.alternatives.map((alternative, index) => (
              <li key={index}>
                <CitedValue value={alternative} />
                <OwnerLink field={row.field} value={alternative} onOwner={onOwner} />
              </li>
            ))}
          </ul>
        ),
    },
  ];
}

export function FieldTable(props: { label: string; rows: SummaryRow[]; empty: string; onOwner?: OpenOwner; assignmentUse?: SummaryUseOf }) {
  const { label, rows, empty, onOwner, assignmentUse } = props;
  return <DataTable label={label} columns={columns(onOwner, assignmentUse)} rows={rows} rowKey={(row) => row.field} empty={empty} />;
}
