// A searchable select over the service's jurisdictions (ARIA combobox with a listbox): type part of a
// name, a state abbreviation or a code; ↑/↓ to move, Enter to choose, Escape to put the choice back.
import { useId, useMemo, useRef, useState } from 'react';
import { findJurisdiction, type JurisdictionCode } from '../../../shared/jurisdictions.ts';
import { matchJurisdictions } from './jurisdiction-match.ts';

export function JurisdictionPicker(props: { value: string; onChange: (code: JurisdictionCode) => void; id?: string }) {
  const generatedId = useId();
  const inputId = props.id ?? `${generatedId}-input`;
  const listId = `${generatedId}-list`;
  const selectedName = findJurisdiction(props.value)?.name ?? '';
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);

  const typed = text ?? '';
  const options = useMemo(() => matchJurisdictions(text === null ? '' : typed), [text, typed]);
  const activeOption = open ? options[Math.min(active, options.length - 1)] : undefined;

  const choose = (code: JurisdictionCode) => {
    props.onChange(code);
    setText(null);
    setOpen(false);
  };
  const cancel = () => {
    setText(null);
    setOpen(false);
  };
  const move = (delta: number) => {
    if (!open) setOpen(true);
    const next = Math.max(0, Math.min(options.length - 1, (open ? active : -1) + delta));
    setActive(next);
    listRef.current?.querySelectorAll('li')[next]?.scrollIntoView({ block: 'nearest' });
  };

  return (
    <span className="combo">
      <input
        id={inputId}
        className="input combo__input"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOption ? `${listId}-${activeOption.code}` : undefined}
        autoComplete="off"
        spellCheck={false}
        value={text ?? selectedName}
        placeholder="State or county"
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={(event) => event.target.select()}
        onClick={() => setOpen(true)}
        onBlur={cancel}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') move(1);
          else if (event.key === 'ArrowUp') move(-1);
          else if (event.key === 'Enter' && open && activeOption) choose(activeOption.code);
          else if (event.key === 'Escape' && (open || text !== null)) cancel();
          else return;
          // Handled here: not a form submission, not the view's Escape.
          event.preventDefault();
          event.stopPropagation();
        }}
      />
      {open && (
        <ul className="combo__list" id={listId} role="listbox" ref={listRef} aria-label="Jurisdictions">
          {options.length === 0 && <li className="combo__empty" role="presentation">No jurisdiction matches “{typed}”.</li>}
          {options.map((option) => (
            <li
              key={option.code}
              id={`${listId}-${option.code}`}
              role="option"
              aria-selected={option.code === activeOption?.code}
              className={`combo__option${option.code === activeOption?.code ? ' is-active' : ''}`}
              // Chosen before the input's blur would close the list.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(option.code);
              }}
            >
              <span>{option.name}</span>
              <span className="combo__meta">
                {option.kind === 'state' ? 'state' : option.stateAbbreviation} · <span className="mono">{option.code}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
