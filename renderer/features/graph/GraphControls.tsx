// How far the graph reaches: the traversal settings from an entity, the area owner names are searched in from an owner.
import { useId } from 'react';
import { relationLabel } from '../../../shared/graph/relations.ts';
import { relationshipPredicates, type RelationshipPredicate } from '../../../shared/service/common.ts';
import type { TraversalSettings } from './graph-model.ts';
import { useGraphStore } from './graph-store.ts';

const DEPTHS = [1, 2, 3] as const;
const CAPS = [25, 50, 100, 200] as const;
const DIRECTIONS: Array<{ value: TraversalSettings['direction']; label: string }> = [
  { value: 'both', label: 'Both ways' },
  { value: 'out', label: 'Outward' },
  { value: 'in', label: 'Inward' },
];

export function TraversalControls({ settings }: { settings: TraversalSettings }) {
  const setSettings = useGraphStore((state) => state.setSettings);
  const ids = { depth: useId(), direction: useId(), nodes: useId(), edges: useId() };
  const asked = settings.predicates ?? [...relationshipPredicates];
  const togglePredicate = (predicate: RelationshipPredicate) => {
    const next = asked.includes(predicate) ? asked.filter((p) => p !== predicate) : [...asked, predicate];
    // Asking for none would draw nothing: the last one stays.
    if (next.length === 0) return;
    setSettings({ predicates: next.length === relationshipPredicates.length ? null : relationshipPredicates.filter((p) => next.includes(p)) });
  };
  return (
    <details className="graph-controls">
      <summary>
        Traversal: {settings.depth} {settings.depth === 1 ? 'step' : 'steps'}, {DIRECTIONS.find((d) => d.value === settings.direction)?.label.toLowerCase()},{' '}
        {settings.predicates === null ? 'every relation' : `${settings.predicates.length} of ${relationshipPredicates.length} relations`}, up to {settings.maxNodes} entities and{' '}
        {settings.maxEdges} links
      </summary>
      <div className="graph-controls__body">
        <label htmlFor={ids.depth}>Depth</label>
        <select id={ids.depth} className="input input--compact" value={settings.depth} onChange={(event) => setSettings({ depth: Number(event.target.value) as TraversalSettings['depth'] })}>
          {DEPTHS.map((depth) => (
            <option key={depth} value={depth}>
              {depth === 1 ? '1 link' : `up to ${depth} links`}
            </option>
          ))}
        </select>
        <label htmlFor={ids.direction}>Direction</label>
        <select id={ids.direction} className="input input--compact" value={settings.direction} onChange={(event) => setSettings({ direction: event.target.value as TraversalSettings['direction'] })}>
          {DIRECTIONS.map((direction) => (
            <option key={direction.value} value={direction.value}>
              {direction.label}
            </option>
          ))}
        </select>
        <label htmlFor={ids.nodes}>Entities at most</label>
        <select id={ids.nodes} className="input input--compact" value={settings.maxNodes} onChange={(event) => setSettings({ maxNodes: Number(event.target.value) })}>
          {CAPS.map((cap) => (
            <option key={cap} value={cap}>
              {cap}
            </option>
          ))}
        </select>
        <label htmlFor={ids.edges}>Links at most</label>
        <select id={ids.edges} className="input input--compact" value={settings.maxEdges} onChange={(event) => setSettings({ maxEdges: Number(event.target.value) })}>
          {CAPS.map((cap) => (
            <option key={cap} value={cap}>
              {cap}
            </option>
          ))}
        </select>
        <fieldset className="graph-controls__relations">
          <legend>Relations asked for</legend>
          {relationshipPredicates.map((predicate) => (
            <label key={predicate}>
              <input type="checkbox" checked={asked.includes(predicate)} onChange={() => togglePredicate(predicate)} /> {relationLabel(predicate, 'out')}
            </label>
          ))}
        </fieldset>
        <p className="muted graph-controls__note">The service’s same-owner links and Plat’s owner links come with any of these. Connected entities (v4) use the same depth.</p>
      </div>
    </details>
  );
}

export function OwnerAreaControl({ areas, areaUid, loading }: { areas: Array<{ areaUid: string; name: string }>; areaUid: string | null; loading: boolean }) {
  const setOwnerArea = useGraphStore((state) => state.setOwnerArea);
  const id = useId();
  if (loading) return <p className="muted">Reading where owner names are published (free)…</p>;
  const reach = 'From an owner the graph reaches two steps: its holdings, and the parcels or units they sit on; a holding’s Enter shows its other links.';
  if (areas.length <= 1) {
    return (
      <p className="muted graph-controls__note">
        {areas[0] ? `Owner names are searched in ${areas[0].name}. ${reach}` : 'The service lists no area whose rolls publish owner names.'}
      </p>
    );
  }
  return (
    <p className="graph-controls__note">
      <label htmlFor={id}>Owner names searched in </label>
      <select id={id} className="input input--compact" value={areaUid ?? ''} onChange={(event) => setOwnerArea(event.target.value)}>
        {areas.map((area) => (
          <option key={area.areaUid} value={area.areaUid}>
            {area.name}
          </option>
        ))}
      </select>
    </p>
  );
}
