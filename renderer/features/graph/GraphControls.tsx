// How far the graph reaches: the traversal settings from an entity, the area owner names are searched in from an owner.
import { useId } from 'react';
import { relationLabel } from '../../../shared/graph/relations.ts';
import { relationshipPredicates, type RelationshipPredicate } from '../../../shared/service/common.ts';
import type { TraversalSettings } from './graph-model.ts';
import { useGraphStore } from './graph-store.ts';
import { SelectOptions } from '../../components/SelectOptions.tsx';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { ownerCoverageRequest } from '../../components/owner-lookup.ts';
import type { CallOptions } from '../../platform/service-calls.ts';

const DEPTHS = [1, 2, 3] as const;
const CAP_OPTIONS = [25, 50, 100, 200].map((cap) => ({ value: cap, label: String(cap) }));
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
      <div className="graph-controls__body cluster">
        <SettingSelect
          id={ids.depth}
          label="Depth"
          value={settings.depth}
          options={DEPTHS.map((depth) => ({ value: depth, label: depth === 1 ? '1 link' : `up to ${depth} links` }))}
          onChange={(value) => setSettings({ depth: Number(value) as TraversalSettings['depth'] })}
        />
        <SettingSelect id={ids.direction} label="Direction" value={settings.direction} options={DIRECTIONS} onChange={(value) => setSettings({ direction: value as TraversalSettings['direction'] })} />
        <SettingSelect id={ids.nodes} label="Entities at most" value={settings.maxNodes} options={CAP_OPTIONS} onChange={(value) => setSettings({ maxNodes: Number(value) })} />
        <SettingSelect id={ids.edges} label="Links at most" value={settings.maxEdges} options={CAP_OPTIONS} onChange={(value) => setSettings({ maxEdges: Number(value) })} />
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

/** A labelled choice of one traversal setting. */
function SettingSelect<Value extends string | number>(props: { id: string; label: string; value: Value; options: ReadonlyArray<{ value: Value; label: string }>; onChange: (value: string) => void }) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} className="input input--compact" value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        <SelectOptions items={props.options} value={(option) => option.value} label={(option) => option.label} />
      </select>
    </>
  );
}

export function OwnerAreaControl({
  areas,
  areaUid,
  loading,
  unread = false,
  onRead,
}: {
  areas: Array<{ areaUid: string; name: string }>;
  areaUid: string | null;
  loading: boolean;
  /** The coverage may cost on this service and has not been bought: offered, priced. */
  unread?: boolean;
  onRead?: (options: CallOptions) => void;
}) {
  const setOwnerArea = useGraphStore((state) => state.setOwnerArea);
  const id = useId();
  if (loading) return <p className="muted">Reading where owner names are published…</p>;
  if (unread && onRead) {
    return (
      <div className="graph-controls__note">
        <ChargeButton operation="getCatalogFacet" request={ownerCoverageRequest} label="Read where owner names are published" what="the service’s coverage of owner names" primary={false} onRun={onRead} />
      </div>
    );
  }
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
        <SelectOptions items={areas} value={(area) => area.areaUid} label={(area) => area.name} />
      </select>
    </p>
  );
}
