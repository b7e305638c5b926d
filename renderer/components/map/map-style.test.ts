import { describe, expect, it } from 'vitest';
import type { LayerSpecification, SymbolLayerSpecification } from 'maplibre-gl';
import type { ComparablesMapSpec } from '../../../shared/comparables/model.ts';
import { ICON, mapData } from './map-data.ts';
import { isPlatIcon } from './map-icons.ts';
import { BASEMAP_TILES, GLYPHS, mapLayerIds } from './map-manifest.ts';
import { LABEL_MIN_ZOOM, LAYER, mapStyle, SOURCE } from './map-style.ts';

const spec: ComparablesMapSpec = {
  subject: { lonLat: [-77.047037, 38.912976], label: '1708 21ST ST NW', approximate: true, tag: 'S' },
  points: [
    { id: 'a', lonLat: [-77.045755, 38.911535], role: 'candidate', label: '2015 Q ST NW', number: null, tag: null, approximate: true, details: [] },
    { id: 'b', lonLat: [-77.042524, 38.913704], role: 'chosen', label: '1618 R ST NW', number: 1, tag: '1', approximate: true, details: [] },
  ],
  area: { kind: 'radius', radiusMiles: 0.5 },
  radiusMiles: 0.5,
  altText: 'Map.',
};

const style = (options: { theme?: 'light' | 'dark'; cluster?: boolean; pickLayer?: 'ward' | null } = {}) =>
  mapStyle({ theme: options.theme ?? 'light', assetBase: 'http://127.0.0.1:1234/map/', data: mapData(spec), cluster: options.cluster ?? true, pickLayer: options.pickLayer ?? null });

describe('mapStyle', () => {
  it('fetches nothing but Plat’s own files: no tile server, no sprite, its own glyphs', () => {
    const s = style({ pickLayer: 'ward' });
    expect(s.glyphs).toBe('http://127.0.0.1:1234/map/glyphs/{fontstack}/{range}.pbf');
    expect(s.sprite).toBeUndefined();
    const urls = Object.values(s.sources).flatMap((source) => {
      if (source.type === 'vector') return source.tiles ?? [];
      const data = (source as { data: unknown }).data;
      return typeof data === 'string' ? [data] : [];
    });
    expect(urls).toEqual([
      'http://127.0.0.1:1234/map/basemap/{z}/{x}/{y}.pbf',
      'http://127.0.0.1:1234/map/counties.geojson',
      'http://127.0.0.1:1234/map/wards.geojson',
    ]);
  });

  it('names the streets along their lines, at street zooms only, in fonts the build made glyphs for', () => {
    const s = style();
    const symbol = (id: string) => s.layers.find((layer) => layer.id === id) as SymbolLayerSpecification;
    const streets = symbol(LAYER.streetLabels);
    const roads = symbol(LAYER.roadLabels);
    expect(streets).toMatchObject({ source: SOURCE.basemap, 'source-layer': 'streets_lenfant', minzoom: LABEL_MIN_ZOOM.streets });
    expect(roads).toMatchObject({ source: SOURCE.basemap, 'source-layer': 'major_roads', minzoom: LABEL_MIN_ZOOM.roads });
    for (const layer of [streets, roads]) {
      expect(layer.minzoom).toBeGreaterThanOrEqual(13.5);
      expect(layer.layout).toMatchObject({ 'symbol-placement': 'line', 'text-field': ['get', 'name'], 'text-font': [GLYPHS.regular] });
    }
    // Labels sit over the basemap and under the market area and the sales.
    const order = s.layers.map((layer) => layer.id);
    expect(order.indexOf(LAYER.streetLabels)).toBeGreaterThan(order.indexOf('streets'));
    expect(order.indexOf(LAYER.roadLabels)).toBeLessThan(order.indexOf(LAYER.areaFill));
    // The faces asked for (scripts/build-map-assets/glyphs.test.ts checks their glyphs are committed).
    const fonts = new Set(s.layers.flatMap((layer) => ((layer as LayerSpecification & { layout?: { 'text-font'?: string[] } }).layout?.['text-font'] ?? [])));
    expect([...fonts].sort()).toEqual([GLYPHS.regular, GLYPHS.semibold]);
  });

  it('writes the subject’s S beside its star, always, and the labels in calm colours in both themes', () => {
    const tag = style().layers.find((layer) => layer.id === LAYER.subjectTag) as SymbolLayerSpecification;
    expect(tag.layout).toMatchObject({ 'text-field': ['get', 'tag'], 'text-font': [GLYPHS.semibold], 'text-allow-overlap': true, 'text-ignore-placement': true });
    const paint = (theme: 'light' | 'dark') => (style({ theme }).layers.find((layer) => layer.id === LAYER.streetLabels) as SymbolLayerSpecification).paint;
    // The design system's muted text (renderer/design/tokens.css), haloed in the land's colour.
    expect(paint('light')).toMatchObject({ 'text-color': '#5b6372', 'text-halo-color': '#f8f8f6' });
    expect(paint('dark')).toMatchObject({ 'text-color': '#a2a9b5', 'text-halo-color': '#1d2024' });
  });

  it('asks for basemap tiles only where the build cut them', () => {
    expect(style().sources[SOURCE.basemap]).toMatchObject({ type: 'vector', minzoom: BASEMAP_TILES.minzoom, maxzoom: BASEMAP_TILES.maxzoom, bounds: BASEMAP_TILES.bounds });
  });

  it('draws every layer from a source it has, and the tiles’ layers from datasets the build puts in them', () => {
    const s = style({ pickLayer: 'ward' });
    for (const layer of s.layers) {
      if (layer.type === 'background') continue;
      expect(Object.keys(s.sources)).toContain(layer.source);
      if (layer.source === SOURCE.basemap) expect(mapLayerIds).toContain((layer as { 'source-layer'?: string })['source-layer']);
    }
  });

  it('uses only icons the map can draw', () => {
    const s = style();
    const literals = s.layers.flatMap((layer) => {
      const image = 'layout' in layer ? (layer.layout as Record<string, unknown> | undefined)?.['icon-image'] : undefined;
      return typeof image === 'string' ? [image] : [];
    });
    expect(literals.length).toBeGreaterThan(0);
    for (const id of literals) expect(isPlatIcon(id)).toBe(true);
    for (const feature of mapData(spec).fixed.features) {
      if (feature.properties.kind === 'sale') expect(isPlatIcon(feature.properties.icon)).toBe(true);
    }
    expect(isPlatIcon(`${ICON.clusterPrefix}1.2k`)).toBe(true);
    expect(isPlatIcon(`${ICON.compPrefix}12`)).toBe(true);
    expect(isPlatIcon('marker-15')).toBe(false);
  });

  it('clusters sales on screen and shows every one in the printed image', () => {
    const screen = style({ cluster: true });
    expect(screen.sources[SOURCE.others]).toMatchObject({ cluster: true });
    const image = style({ cluster: false });
    expect(image.sources[SOURCE.others]).toBeUndefined();
    const fixed = (image.sources[SOURCE.fixed] as unknown as { data: { features: Array<{ properties: { kind: string; id?: string } }> } }).data;
    expect(fixed.features.filter((f) => f.properties.kind === 'sale').map((f) => f.properties.id).sort()).toEqual(['a', 'b']);
  });

  it('shows a pick layer’s outlines only while picking', () => {
    expect(style().sources[SOURCE.pick]).toBeUndefined();
    expect(style({ pickLayer: 'ward' }).sources[SOURCE.pick]).toMatchObject({ data: 'http://127.0.0.1:1234/map/wards.geojson', promoteId: 'NAME' });
  });

  it('has the same layers in both themes, painted differently', () => {
    const light = style({ theme: 'light' });
    const dark = style({ theme: 'dark' });
    expect(dark.layers.map((layer) => layer.id)).toEqual(light.layers.map((layer) => layer.id));
    const background = (s: typeof light) => (s.layers.find((layer) => layer.id === 'background') as { paint: Record<string, unknown> }).paint['background-color'];
    expect(background(dark)).not.toBe(background(light));
  });
});
