// The app's views, in navigation order. Each has a keyboard shortcut (Ctrl/⌘ + digit): its place in
// the sidebar, so the shortcuts read 1 to 9 from the top and cannot drift from the order.
const viewList = [
  { id: 'search', label: 'Search', summary: 'Search one record kind in a jurisdiction by the source’s own fields.' },
  { id: 'owners', label: 'Owners', summary: 'Look up an owner name and every property it holds.' },
  { id: 'catalog', label: 'Catalog', summary: 'Published sources per jurisdiction, with record counts, dates and fields.' },
  { id: 'comparables', label: 'Comparables', summary: 'Comparable sales around a subject property, on a map.' },
  { id: 'graph', label: 'Graph', summary: 'Parcels, accounts, addresses, units and owners, and why they are linked.' },
  {
    id: 'assignments',
    label: 'Assignments',
    summary: 'Each assignment’s subject, effective date and client, with every answer bought for it and what it cost.',
  },
  { id: 'report', label: 'Report', summary: 'The subject report with every value cited, exported to PDF.' },
  { id: 'spend', label: 'Spend', summary: 'Every service call and what it cost, by project and date.' },
  { id: 'settings', label: 'Settings', summary: 'Service connection, API key, budgets and the cache.' },
] as const;

export type ViewId = (typeof viewList)[number]['id'];

export const views = viewList.map((view, index) => ({ ...view, shortcut: index + 1 }));
/** The view shown first (and when none is chosen). */
export const firstView = { ...viewList[0], shortcut: 1 };
export const isViewId = (value: string): value is ViewId => views.some((view) => view.id === value);

/** The view a Ctrl/⌘ + digit opens. */
export const viewForShortcut = (digit: number) => views.find((view) => view.shortcut === digit);
