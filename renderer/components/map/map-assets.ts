// The offline map's files, served next to the renderer under /map/ (vite.config.ts copies
// assets/map there): the manifest that cites each layer, and a layer's full GeoJSON when a picked
// area needs its exact outline (the map's own tiles are clipped and simplified for drawing).
import type { FeatureCollection } from 'geojson';
import { MAP_ASSET_BASE } from './map-types.ts';
import { readMapManifest, type MapLayerId, type MapManifest } from './map-manifest.ts';

/** The folder's absolute URL, for the map's worker (it fetches the layers itself). */
export function mapAssetBase(): string {
  return new URL(MAP_ASSET_BASE, window.location.href).href;
}

async function fetchJson(file: string, what: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(file, mapAssetBase()));
  } catch (error) {
    throw new Error(`The map's ${what} could not be read (${(error as Error).message}).`, { cause: error });
  }
  if (!response.ok) throw new Error(`The map's ${what} is missing (${response.status} for ${MAP_ASSET_BASE}${file}): rebuild with \`npm run map-assets\` and \`npm run build\`.`);
  try {
    return await response.json();
  } catch {
    throw new Error(`The map's ${what} (${MAP_ASSET_BASE}${file}) is not JSON: rebuild it with \`npm run map-assets\`.`);
  }
}

let manifest: Promise<MapManifest> | null = null;

/** The manifest, read once per page (a failed read is tried again next time). */
export function loadMapManifest(): Promise<MapManifest> {
  manifest ??= fetchJson('manifest.json', 'layer list').then((json) => {
    const read = readMapManifest(json);
    if (!read.ok) throw new Error(read.message);
    return read.manifest;
  });
  manifest.catch(() => {
    manifest = null;
  });
  return manifest;
}

const layers = new Map<MapLayerId, Promise<FeatureCollection>>();

/** A layer's features as built (full outlines), read once per page. */
export function loadMapLayer(id: MapLayerId): Promise<FeatureCollection> {
  let layer = layers.get(id);
  if (!layer) {
    layer = fetchJson(`${id}.geojson`, `${id.replace(/_/g, ' ')} layer`).then((json) => {
      const collection = json as Partial<FeatureCollection>;
      if (collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) throw new Error(`The map's ${id.replace(/_/g, ' ')} layer is not a GeoJSON FeatureCollection.`);
      return collection as FeatureCollection;
    });
    layers.set(id, layer);
    layer.catch(() => layers.delete(id));
  }
  return layer;
}
