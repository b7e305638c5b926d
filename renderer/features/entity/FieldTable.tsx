// Canonical fields (summary) or attributes (record): the best value with its citation, and every
// other value a source gave beside it, each cited, so conflicting sources are never silently merged.
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { CitedValue, UncitedValue } from '../../components/CitedValue.tsx';
import type { SummaryRow } from './entity-model.ts';

const columns: Column<SummaryRow>[] = [
  { id: 'field', header: 'Field', text: (row) => row.label, width: '22%' },
  {
    id: 'value',
    header: 'Best value',
    text: (row) => row.best?.text ?? row.raw ?? '',
    sortValue: (row) => (typeof row.best?.value === 'number' ? row.best.value : (row.best?.text ?? row.raw ?? null)),
    render: (row) => (row.best ? <CitedValue value={row.best} /> : <UncitedValue text={row.raw ?? '—'} />),
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
            </li>
          ))}
        </ul>
      ),
  },
];

export function FieldTable({ label, rows, empty }: { label: string; rows: SummaryRow[]; empty: string }) {
  return <DataTable label={label} columns={columns} rows={rows} rowKey={(row) => row.field} empty={empty} />;
}
