// The app's views, in navigation order. Each has a keyboard shortcut (Ctrl/⌘ + digit); shortcuts stay
// with their view when one is added in between (Assignments came after the first eight).
export const views = [
  { id: 'search', label: 'Search', shortcut: 1, summary: 'Search one record kind in a jurisdiction by the source’s own fields.' },
  { id: 'owners', label: 'Owners', shortcut: 2, summary: 'Look up an owner name and every property it holds.' },
  { id: 'catalog', label: 'Catalog', shortcut: 3, summary: 'Published sources per jurisdiction, with record counts, dates and fields.' },
  { id: 'comparables', label: 'Comparables', shortcut: 4, summary: 'Comparable sales around a subject property, on a map.' },
  { id: 'graph', label: 'Graph', shortcut: 5, summary: 'Parcels, accounts, addresses, units and owners, and why they are linked.' },
  {
    id: 'assignments',
    label: 'Assignments',
    shortcut: 9,
    summary: 'Each assignment’s subject, effective date and client, with every answer bought for it and what it cost.',
  },
  { id: 'report', label: 'Report', shortcut: 6, summary: 'The subject report with every value cited, exported to PDF.' },
  { id: 'spend', label: 'Spend', shortcut: 7, summary: 'Every service call and what it cost, by project and date.' },
  { id: 'settings', label: 'Settings', shortcut: 8, summary: 'Service connection, API key, budgets and the cache.' },
] as const;

export type ViewId = (typeof views)[number]['id'];
export const isViewId = (value: string): value is ViewId => views.some((view) => view.id === value);

/** The view a Ctrl/⌘ + digit opens. */
export const viewForShortcut = (digit: number) => views.find((view) => view.shortcut === digit);
