import { useRef, type KeyboardEvent } from 'react';
import type { GraphTab } from './graph-store.ts';

const TABS: Array<{ id: GraphTab; label: string }> = [
  { id: 'drawing', label: 'Drawing' },
  { id: 'table', label: 'Table' },
  { id: 'runsheet', label: 'Runsheet' },
];

/** ARIA tabs: one tab stop, ←/→/Home/End move between them. */
export function GraphTabs({ tab, onChange }: { tab: GraphTab; onChange: (tab: GraphTab) => void }) {
  const listRef = useRef<HTMLDivElement>(null);
  const index = TABS.findIndex((candidate) => candidate.id === tab);
  const go = (next: number) => {
    const target = TABS[(next + TABS.length) % TABS.length];
    if (!target) return;
    onChange(target.id);
    listRef.current?.querySelector<HTMLButtonElement>(`#graph-tab-${target.id}`)?.focus();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'ArrowLeft') go(index - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(TABS.length - 1);
    else return;
    event.preventDefault();
  };
  return (
    <div className="graph-tabs" role="tablist" aria-label="Graph shown as" ref={listRef} onKeyDown={onKey}>
      {TABS.map((candidate) => (
        <button
          key={candidate.id}
          id={`graph-tab-${candidate.id}`}
          type="button"
          role="tab"
          className="graph-tabs__tab"
          aria-selected={candidate.id === tab}
          aria-controls={`graph-panel-${candidate.id}`}
          tabIndex={candidate.id === tab ? 0 : -1}
          onClick={() => onChange(candidate.id)}
        >
          {candidate.label}
        </button>
      ))}
    </div>
  );
}
