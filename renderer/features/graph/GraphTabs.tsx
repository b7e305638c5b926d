import { Tabs } from '../../components/Tabs.tsx';
import type { GraphTab } from './graph-store.ts';

const TABS: Array<{ id: GraphTab; label: string }> = [
  { id: 'drawing', label: 'Drawing' },
  { id: 'table', label: 'Table' },
  { id: 'runsheet', label: 'Runsheet' },
];

/** The graph's three ways of showing it, as the app's tabs. */
export function GraphTabs({ tab, onChange }: { tab: GraphTab; onChange: (tab: GraphTab) => void }) {
  return <Tabs label="Graph shown as" idPrefix="graph" tabs={TABS} active={tab} onChange={onChange} />;
}
