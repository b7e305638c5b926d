import { graphNodeKindLabels, type GraphNodeKind } from '../../../shared/graph/graph-spec.ts';
import { relationLabel } from '../../../shared/graph/relations.ts';
import { useGraphStore } from './graph-store.ts';

/** The kinds of entity and of link drawn, each with a box to hide it. */
export function GraphFilters({ kinds, relations }: { kinds: Array<{ value: string; label: string; count: number }>; relations: Array<{ value: string; label: string; count: number }> }) {
  const hiddenKinds = useGraphStore((state) => state.hiddenKinds);
  const hiddenRelations = useGraphStore((state) => state.hiddenRelations);
  const toggleKind = useGraphStore((state) => state.toggleKind);
  const toggleRelation = useGraphStore((state) => state.toggleRelation);
  const showAll = useGraphStore((state) => state.showAll);
  const hidden = hiddenKinds.length + hiddenRelations.length;
  // Hidden kinds and relations stay listed (with nothing drawn) so they can be shown again.
  const kindRows = [...kinds, ...hiddenKinds.filter((kind) => !kinds.some((row) => row.value === kind)).map((kind) => ({ value: kind, label: graphNodeKindLabels[kind], count: 0 }))];
  const relationRows = [...relations, ...hiddenRelations.filter((value) => !relations.some((row) => row.value === value)).map((value) => ({ value, label: relationLabel(value, 'out'), count: 0 }))];
  return (
    <div className="graph-filters cluster" role="group" aria-label="Filters">
      <fieldset>
        <legend>Entities</legend>
        {kindRows.map((row) => (
          <label key={row.value}>
            <input type="checkbox" checked={!hiddenKinds.includes(row.value as GraphNodeKind)} onChange={() => toggleKind(row.value as GraphNodeKind)} /> {row.label}
            {row.count > 0 && <span className="muted"> {row.count}</span>}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Links</legend>
        {relationRows.map((row) => (
          <label key={row.value}>
            <input type="checkbox" checked={!hiddenRelations.includes(row.value)} onChange={() => toggleRelation(row.value)} /> {row.label}
            {row.count > 0 && <span className="muted"> {row.count}</span>}
          </label>
        ))}
      </fieldset>
      {hidden > 0 && (
        <button type="button" className="button button--small" onClick={showAll}>
          Show everything
        </button>
      )}
    </div>
  );
}
