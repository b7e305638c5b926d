// How a large owner's holdings are grouped in the drawing (portfolio-groups.ts decides the groups).
import { useId } from 'react';
import { groupByLabels, groupByOptions, type GroupBy } from '../../../shared/graph/portfolio-groups.ts';

export function GroupControl({ by, onChange, groups, open, onCloseAll }: { by: GroupBy; onChange: (by: GroupBy) => void; groups: number; open: number; onCloseAll: () => void }) {
  const id = useId();
  return (
    <div className="graph-groups cluster" data-testid="graph-groups">
      <label htmlFor={id}>Group holdings by</label>
      <select id={id} value={by} onChange={(event) => onChange(event.target.value as GroupBy)}>
        {groupByOptions.map((option) => (
          <option key={option} value={option}>
            {groupByLabels[option]}
          </option>
        ))}
      </select>
      <span className="muted">
        {groups} {groups === 1 ? 'group' : 'groups'}: double-click one (or Enter) to open it.
      </span>
      {open > 0 && (
        <button type="button" className="button button--small" onClick={onCloseAll}>
          Close every group
        </button>
      )}
    </div>
  );
}
