// The Search view: three tabs (Records, Properties, Resolve). ←/→, Home and End move between tabs
// when a tab has focus (ARIA tabs with automatic activation). Each tab keeps what was typed and its
// last results in the search store, so switching tabs or opening an entity loses nothing.
import { useRef, type KeyboardEvent } from 'react';
import { PropertiesTab } from './PropertiesTab.tsx';
import { RecordsTab } from './RecordsTab.tsx';
import { ResolveTab } from './ResolveTab.tsx';
import { searchTabs, useSearchStore, type SearchTab } from './search-store.ts';
import './search.css';

const panels: Record<SearchTab, () => React.ReactElement> = {
  records: RecordsTab,
  properties: PropertiesTab,
  resolve: ResolveTab,
};

export function SearchView() {
  const tab = useSearchStore((state) => state.tab);
  const setTab = useSearchStore((state) => state.setTab);
  const listRef = useRef<HTMLDivElement>(null);

  const onKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = searchTabs.findIndex((entry) => entry.id === tab);
    let next: number;
    if (event.key === 'ArrowRight') next = (index + 1) % searchTabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + searchTabs.length) % searchTabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = searchTabs.length - 1;
    else return;
    event.preventDefault();
    const target = searchTabs[next];
    if (!target) return;
    setTab(target.id);
    listRef.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  };

  const Panel = panels[tab];
  return (
    <section className="search-view" aria-label="Search">
      <div className="search-tabs" role="tablist" aria-label="Search by" ref={listRef}>
        {searchTabs.map((entry) => (
          <button
            key={entry.id}
            type="button"
            role="tab"
            id={`search-tab-${entry.id}`}
            aria-selected={entry.id === tab}
            aria-controls={`search-panel-${entry.id}`}
            tabIndex={entry.id === tab ? 0 : -1}
            className="search-tabs__tab"
            onClick={() => setTab(entry.id)}
            onKeyDown={onKey}
          >
            {entry.label}
            <span className="search-tabs__hint">{tabHints[entry.id]}</span>
          </button>
        ))}
      </div>
      <div className="search-panel" role="tabpanel" id={`search-panel-${tab}`} aria-labelledby={`search-tab-${tab}`}>
        <Panel />
      </div>
    </section>
  );
}

const tabHints: Record<SearchTab, string> = {
  records: 'source records by field',
  properties: 'properties by fact',
  resolve: 'addresses and identifiers',
};
