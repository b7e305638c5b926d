// One filter row of the Records and Properties forms: the field, the operator, the value, its remove
// button and its problem line. Each form says which fields and operators it offers.
import type { ReactNode } from 'react';
import { SelectOptions } from '../../components/SelectOptions.tsx';

/** The value, remove button and problem line that end every filter row. */
interface FilterValueProps {
  /** 1-based position, for the labels ("Filter 2 value"). */
  n: number;
  value: string;
  type: string | undefined;
  /** What the placeholder says for text fields. */
  textHint: string;
  problem: string | undefined;
  problemId: string;
  onValue: (value: string) => void;
  onRemove: () => void;
}

/** What a form gives each of its filter rows: the draft, its place, its problem, and how to change or remove it. */
export interface FilterRowProps<D> {
  draft: D;
  index: number;
  problem: string | undefined;
  onChange: (patch: Partial<D>) => void;
  onRemove: () => void;
}

export function FilterRow<Op extends string>(props: {
  row: FilterRowProps<{ id: string; field: string; op: Op; value: string }>;
  /** Names the problem line's id ("property" → property-filter-problem-…). */
  idPrefix: string;
  /** The field select's options after "Field…". */
  fieldOptions: ReactNode;
  onField: (field: string) => void;
  operators: readonly Op[];
  operatorLabel: Readonly<Record<Op, string>>;
  onOp: (op: string) => void;
  /** The chosen field's type, for the value's placeholder. */
  type: string | undefined;
  /** What the placeholder says for text fields. */
  textHint: string;
}) {
  const { row, fieldOptions, onField, operators, operatorLabel, onOp } = props;
  const { draft } = row;
  const n = row.index + 1;
  const value: FilterValueProps = {
    n,
    value: draft.value,
    type: props.type,
    textHint: props.textHint,
    problem: row.problem,
    problemId: `${props.idPrefix}-filter-problem-${draft.id}`,
    onValue: (text) => row.onChange({ value: text }),
    onRemove: row.onRemove,
  };
  return (
    <div className="filter-row">
      <select className="input filter-row__field" aria-label={`Filter ${n} field`} value={draft.field} onChange={(event) => onField(event.target.value)}>
        <option value="">Field…</option>
        {fieldOptions}
      </select>
      <select className="input filter-row__op" aria-label={`Filter ${n} operator`} value={draft.op} onChange={(event) => onOp(event.target.value)}>
        <SelectOptions items={operators} label={(candidate) => operatorLabel[candidate]} />
      </select>
      <FilterValue {...value} />
    </div>
  );
}

function FilterValue(props: FilterValueProps) {
  return (
    <>
      <input
        className="input filter-row__value"
        aria-label={`Filter ${props.n} value`}
        value={props.value}
        placeholder={props.type === 'number' ? 'a number' : props.type === 'date' ? 'YYYY-MM-DD' : props.textHint}
        aria-invalid={props.problem ? true : undefined}
        aria-describedby={props.problem ? props.problemId : undefined}
        onChange={(event) => props.onValue(event.target.value)}
      />
      <button type="button" className="button button--small" aria-label={`Remove filter ${props.n}`} onClick={props.onRemove}>
        Remove
      </button>
      {props.problem && (
        <span className="search-problem filter-row__problem" id={props.problemId}>
          {props.problem}
        </span>
      )}
    </>
  );
}
