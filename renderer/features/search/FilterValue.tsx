// The value, remove button and problem line that end every filter row (records and properties).
export function FilterValue(props: {
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
}) {
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
