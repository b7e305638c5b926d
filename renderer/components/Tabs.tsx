// ARIA tabs: one tab stop for the row, ←/→/Home/End move between tabs and select them (automatic
// activation). The look is `.tabs` (tabs.css) unless a view names its own class prefix.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import './tabs.css';

export interface TabDefinition<Id extends string> {
  id: Id;
  label: ReactNode;
}

export function Tabs<Id extends string>(props: {
  label: string;
  idPrefix: string;
  tabs: readonly TabDefinition<Id>[];
  active: Id;
  onChange: (id: Id) => void;
  /** The list's class and, with `__tab`, each tab's (default `tabs`). */
  classPrefix?: string;
}) {
  const prefix = props.classPrefix ?? 'tabs';
  const listRef = useRef<HTMLDivElement>(null);
  const index = Math.max(0, props.tabs.findIndex((tab) => tab.id === props.active));

  const select = (next: number) => {
    const tab = props.tabs[(next + props.tabs.length) % props.tabs.length];
    if (!tab) return;
    props.onChange(tab.id);
    listRef.current?.querySelector<HTMLButtonElement>(`#${props.idPrefix}-tab-${tab.id}`)?.focus();
  };

  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') select(index + 1);
    else if (event.key === 'ArrowLeft') select(index - 1);
    else if (event.key === 'Home') select(0);
    else if (event.key === 'End') select(props.tabs.length - 1);
    else return;
    event.preventDefault();
  };

  return (
    <div role="tablist" aria-label={props.label} className={prefix} ref={listRef} onKeyDown={onKey}>
      {props.tabs.map((tab) => {
        const selected = tab.id === props.active;
        return (
          <button
            key={tab.id}
            id={`${props.idPrefix}-tab-${tab.id}`}
            type="button"
            role="tab"
            className={`${prefix}__tab`}
            aria-selected={selected}
            aria-controls={`${props.idPrefix}-panel-${tab.id}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => props.onChange(tab.id)}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

/** The panel of the active tab, labelled by its tab. */
export function TabPanel(props: { idPrefix: string; id: string; children: ReactNode; className?: string }) {
  return (
    <div
      role="tabpanel"
      id={`${props.idPrefix}-panel-${props.id}`}
      aria-labelledby={`${props.idPrefix}-tab-${props.id}`}
      className={props.className}
    >
      {props.children}
    </div>
  );
}
