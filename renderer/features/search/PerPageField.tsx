// The "Per page" field of a paged search (records and properties alike) and the line that says what
// is wrong with it. The two sit in different places (the field in the form's row, the problem under
// the row), so they are two components sharing one id for aria-describedby.
export function PerPageField(props: { idPrefix: string; value: string; problem: string | undefined; onChange: (value: string) => void }) {
  return (
    <label className="search-field search-field--narrow">
      <span className="search-field__label">Per page</span>
      <input
        className="input"
        inputMode="numeric"
        value={props.value}
        aria-invalid={props.problem ? true : undefined}
        aria-describedby={props.problem ? perPageProblemId(props.idPrefix) : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </label>
  );
}

export function PerPageProblem(props: { idPrefix: string; problem: string | undefined }) {
  if (!props.problem) return null;
  return (
    <p className="search-problem" id={perPageProblemId(props.idPrefix)}>
      {props.problem}
    </p>
  );
}

const perPageProblemId = (idPrefix: string) => `${idPrefix}-limit-problem`;
