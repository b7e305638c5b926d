// The columns every table of projects shows the same way (the Spend view's spending by project, the
// Settings view's projects): what the project has spent, and its cap.
import { formatUsd } from '../../shared/money.ts';
import type { Column } from './DataTable.tsx';

/** "Spent" (from `spentOf`, micro-USD) and "Cap" ("No cap" when there is none), both sortable. */
export function spentAndCapColumns<R extends { capMicroUsd: number | null }>(spentOf: (row: R) => number): Column<R>[] {
  return [
    { id: 'spent', header: 'Spent', align: 'right', text: (row) => formatUsd(spentOf(row)), sortValue: spentOf },
    {
      id: 'cap',
      header: 'Cap',
      align: 'right',
      text: (row) => (row.capMicroUsd === null ? 'No cap' : formatUsd(row.capMicroUsd)),
      sortValue: (row) => row.capMicroUsd,
    },
  ];
}
