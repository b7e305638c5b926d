// What the screen's map and the offscreen image both do to a live maplibre map: draw icons when the
// style first asks for them, put a spec's data into the sources, and recolour for a theme.
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';
import type { MapTheme } from './map-types.ts';
import { iconImage, iconPalette, isPlatIcon } from './map-icons.ts';
import type { MapData } from './map-data.ts';
import { mapStyle, SOURCE, specSourceData, type MapStyleOptions } from './map-style.ts';

/** Draws each icon the style asks for, at the map's pixel ratio, and remembers it for a theme change. */
export function installIcons(map: MapLibreMap, theme: () => MapTheme): Set<string> {
  const added = new Set<string>();
  map.setMissingStyleImageResolver((id) => {
    if (!isPlatIcon(id) || map.hasImage(id)) return;
    const pixelRatio = map.getPixelRatio();
    const image = iconImage(id, iconPalette(theme()), pixelRatio);
    if (!image) return;
    map.addImage(id, image, { pixelRatio });
    added.add(id);
  });
  return added;
}

export function setSourceData(map: MapLibreMap, sourceId: string, data: FeatureCollection): void {
  (map.getSource(sourceId) as GeoJSONSource | undefined)?.setData(data);
}

export function setSpecData(map: MapLibreMap, data: MapData, cluster: boolean): void {
  const sources = specSourceData(data, cluster);
  setSourceData(map, SOURCE.fixed, sources.fixed);
  if (sources.others) setSourceData(map, SOURCE.others, sources.others);
}

const NONE: FeatureCollection<never, never> = { type: 'FeatureCollection', features: [] };

/** The theme's paint on every layer the map has, and its icons redrawn: the view, the data and the sources stay. */
export function applyTheme(map: MapLibreMap, options: Omit<MapStyleOptions, 'data' | 'assetBase'>, icons: ReadonlySet<string>): void {
  const style = mapStyle({ ...options, assetBase: window.location.href, data: { fixed: NONE, others: NONE } });
  for (const layer of style.layers) {
    if (!map.getLayer(layer.id) || !('paint' in layer) || !layer.paint) continue;
    for (const [property, value] of Object.entries(layer.paint)) map.setPaintProperty(layer.id, property as Parameters<MapLibreMap['setPaintProperty']>[1], value);
  }
  const palette = iconPalette(options.theme);
  for (const id of icons) {
    const image = iconImage(id, palette, map.getPixelRatio());
    if (image) map.updateImage(id, image);
  }
}
