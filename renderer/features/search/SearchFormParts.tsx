// What the Records and Properties forms share: their filters (change one, remove one, add one up to a
// limit) and the row of the priced button with what a search costs and what stops it.
import type { ReactNode, RefObject } from 'react';

/** A form's filter rows: change one, remove one (removing the last leaves one blank row), add a blank one. */
export function filterDraftEditor<D extends { id: string }>(filters: readonly D[], setFilters: (filters: D[]) => void, blank: () => D) {
  return {
    set: (id: string, patch: Partial<D>) => setFilters(filters.map((draft) => (draft.id === id ? { ...draft, ...patch } : draft))),
    remove: (id: string) => {
      const rest = filters.filter((draft) => draft.id !== id);
      setFilters(rest.length > 0 ? rest : [blank()]);
    },
    add: () => setFilters([...filters, blank()]),
  };
}

export function AddFilterButton(props: { count: number; max: number; onAdd: () => void }) {
  return (
    <button type="button" className="button button--small" disabled={props.count >= props.max} onClick={props.onAdd}>
      Add filter
    </button>
  );
}

/** What a filter row is given to change or remove its own draft. */
export interface FilterRowEdit<D> {
  set: (patch: Partial<D>) => void;
  remove: () => void;
}

/** A form's filters, all of which must hold: one row each (drawn by `row`), then "Add filter" up to `max`. */
export function SearchFilters<D extends { id: string }>(props: {
  /** What the legend says after "Filters", in brackets. */
  note: string;
  filters: readonly D[];
  setFilters: (filters: D[]) => void;
  blank: () => D;
  max: number;
  disabled?: boolean;
  row: (draft: D, index: number, edit: FilterRowEdit<D>) => ReactNode;
}) {
  const filters = filterDraftEditor(props.filters, props.setFilters, props.blank);
  return (
    <fieldset className="search-filters stack" disabled={props.disabled}>
      <legend>
        Filters <span className="muted">({props.note})</span>
      </legend>
      {props.filters.map((draft, index) =>
        props.row(draft, index, { set: (patch) => filters.set(draft.id, patch), remove: () => filters.remove(draft.id) }),
      )}
      <AddFilterButton count={props.filters.length} max={props.max} onAdd={filters.add} />
    </fieldset>
  );
}

/** The priced button's row (`hostRef` is where Enter in a field looks for the button), its note and the form's problems. */
export function SearchFormActions({
  hostRef,
  problems,
  note,
  children,
}: {
  hostRef: RefObject<HTMLDivElement | null>;
  problems: readonly string[] | undefined;
  /** How the search is charged, where the spec says so (v4 search); nothing where it does not. */
  note?: string;
  children: ReactNode;
}) {
  return (
    <div className="search-form__actions cluster gap-3" ref={hostRef}>
      {children}
      {note && <span className="muted search-form__note">{note}</span>}
      {problems && problems.length > 0 && (
        <span className="search-problem" role="status">
          {problems.join(' ')}
        </span>
      )}
    </div>
  );
}
