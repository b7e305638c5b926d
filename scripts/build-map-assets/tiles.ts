// The basemap's vector tiles: which tiles cover BASEMAP_TILES' bounds, and each tile cut from the
// basemap layers.
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { BASEMAP_TILES, type MapLayerId } from '../../renderer/components/map/map-manifest.ts';
import type { Geometry, Properties } from '../build-map-assets.ts';

export type Kept = { properties: Properties; geometry: Geometry };

/** Web Mercator tile column and row of a position at zoom z. */
export function tileOf(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const rad = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return [Math.min(n - 1, Math.max(0, x)), Math.min(n - 1, Math.max(0, y))];
}

/** Every tile of BASEMAP_TILES' zooms over its bounds, in order: zoom, then column, then row. */
export function basemapTileCoords(): Array<[number, number, number]> {
  const [west, south, east, north] = BASEMAP_TILES.bounds;
  const coords: Array<[number, number, number]> = [];
  for (let z = BASEMAP_TILES.minzoom; z <= BASEMAP_TILES.maxzoom; z++) {
    const [x0, y0] = tileOf(west, north, z);
    const [x1, y1] = tileOf(east, south, z);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) coords.push([z, x, y]);
  }
  return coords;
}

/**
 * The tiles, each a vector tile with one layer per dataset that reaches it (an empty file where none
 * does, so the map never asks for a tile that is not there). geojson-vt cuts them as maplibre would
 * from the GeoJSON; its simplification is kept within about a pixel at z17, four zooms past the last tile.
 */
export function cutBasemapTiles(layers: Map<MapLayerId, Kept[]>): Array<{ path: string; body: Uint8Array }> {
  const indexes = [...layers].map(([id, features]) => ({
    id,
    index: new GeoJSONVT(
      { type: 'FeatureCollection', features: features.map((f) => ({ type: 'Feature', properties: f.properties, geometry: f.geometry })) } as GeoJSON.FeatureCollection,
      { maxZoom: BASEMAP_TILES.maxzoom, indexMaxZoom: 0, extent: BASEMAP_TILES.extent, buffer: 128, tolerance: 1 },
    ),
  }));
  return basemapTileCoords().map(([z, x, y]) => {
    const tileLayers: Parameters<typeof fromGeojsonVt>[0] = {};
    for (const { id, index } of indexes) {
      const tile = index.getTile(z, x, y);
      if (tile && tile.features.length > 0) tileLayers[id] = tile;
    }
    const body = Object.keys(tileLayers).length > 0 ? fromGeojsonVt(tileLayers, { version: 2, extent: BASEMAP_TILES.extent }) : new Uint8Array(0);
    return { path: BASEMAP_TILES.template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y)), body };
  });
}
