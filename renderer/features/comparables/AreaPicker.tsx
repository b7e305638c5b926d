// A ward, ZIP, neighborhood cluster or assessment neighborhood as the market area: picked on the map
// (click a feature), or, the same choice by keyboard, from the list of the layer's features (the map's
// own files, served with the app: nothing is fetched from the service or the internet).
import { useQuery } from '@tanstack/react-query';
import type { Geometry } from 'geojson';
import { areaLayerLabels, type AreaLayer, type MarketArea } from '../../../shared/comparables/model.ts';
import { isRecord } from '../../../shared/json-data.ts';
import { MAP_ASSET_BASE, type PickedArea } from '../../components/map/map-types.ts';
import { areaLayerFiles, pickedArea } from '../../components/map/map-data.ts';
import { mapAreaLayerQueryKey } from '../../platform/query-keys.ts';

async function loadAreas(layer: AreaLayer): Promise<PickedArea[]> {
  const response = await fetch(`${MAP_ASSET_BASE}${areaLayerFiles[layer]}.geojson`);
  if (!response.ok) throw new Error(`The map’s ${areaLayerLabels[layer].toLowerCase()} outlines could not be read (HTTP ${response.status}).`);
  const collection: unknown = await response.json();
  const features = isRecord(collection) && Array.isArray(collection.features) ? collection.features.filter(isRecord) : [];
  const areas = features
    .map((feature) => pickedArea(layer, { properties: isRecord(feature.properties) ? feature.properties : null, geometry: isRecord(feature.geometry) ? (feature.geometry as unknown as Geometry) : null }))
    .filter((area): area is PickedArea => area !== null);
  return areas.sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true }));
}

export function AreaPicker(props: {
  layer: AreaLayer;
  picked: Extract<MarketArea, { kind: 'layer' }> | null;
  picking: boolean;
  onPicking: (on: boolean) => void;
  onPicked: (area: PickedArea) => void;
}) {
  const { layer, picked, picking } = props;
  const areas = useQuery({ queryKey: mapAreaLayerQueryKey(layer), queryFn: () => loadAreas(layer), staleTime: Infinity });
  const name = areaLayerLabels[layer];
  return (
    <div className="comps-search__area-action">
      <div className="comps-field">
        <label className="comps-field__label" htmlFor={`comps-area-${layer}`}>
          {name}
        </label>
        <select
          id={`comps-area-${layer}`}
          className="input input--compact comps-search__area-select"
          value={picked?.featureId ?? ''}
          disabled={!areas.data}
          title={areas.error instanceof Error ? areas.error.message : undefined}
          onChange={(event) => {
            const area = areas.data?.find((candidate) => candidate.featureId === event.target.value);
            if (area) props.onPicked(area);
          }}
        >
          <option value="" disabled>
            {areas.isPending ? 'Loading…' : areas.isError ? 'List not available: pick on the map' : `Choose a ${name.toLowerCase()}…`}
          </option>
          {areas.data?.map((area) => (
            <option key={area.featureId} value={area.featureId}>
              {name} {area.label}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className={`button button--small${picking ? ' button--primary' : ''}`} aria-pressed={picking} onClick={() => props.onPicking(!picking)}>
        {picking ? 'Click an area on the map… (click to stop)' : 'Pick on the map'}
      </button>
    </div>
  );
}
