// The Search view: three tabs (Records, Properties, Resolve). ←/→, Home and End move between tabs
// when a tab has focus (ARIA tabs with automatic activation). Each tab keeps what was typed and its
// last results in the search store, so switching tabs or opening an entity loses nothing.
import type { QueryClient } from '@tanstack/react-query';
import { TabPanel, Tabs } from '../../components/Tabs.tsx';
import { prefetchSourceCatalog } from '../../platform/source-catalog.ts';
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

const tabHints: Record<SearchTab, string> = {
  records: 'source records by field',
  properties: 'properties by fact',
  resolve: 'addresses and identifiers',
};

const tabs = searchTabs.map((entry) => ({
  id: entry.id,
  label: (
    <>
      {entry.label}
      <span className="search-tabs__hint">{tabHints[entry.id]}</span>
    </>
  ),
}));

/**
 * Asks for what the view shows first (the records form's kinds, from its jurisdiction's catalog)
 * before it renders: the app's first screen, whose answer is then on its way while the app starts.
 */
export function prefetchSearchView(queryClient: QueryClient): void {
  prefetchSourceCatalog(queryClient, useSearchStore.getState().records.form.jurisdiction);
}

export function SearchView() {
  const tab = useSearchStore((state) => state.tab);
  const setTab = useSearchStore((state) => state.setTab);
  const Panel = panels[tab];
  return (
    <section className="search-view stack gap-4" aria-label="Search">
      <Tabs label="Search by" idPrefix="search" classPrefix="search-tabs" tabs={tabs} active={tab} onChange={setTab} />
      <TabPanel idPrefix="search" id={tab} className="search-panel">
        <Panel />
      </TabPanel>
    </section>
  );
}
