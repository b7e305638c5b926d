// The map's style: a calm, low-contrast basemap built from the offline layers in assets/map (served
// under /map/: vector tiles cut at build time for DC, GeoJSON for the rest), street names at street
// zooms, then the market area, the radius ring and the sales on top. No tile server and no sprite:
// every symbol is an icon drawn by map-icons.ts, and the words are drawn from glyphs built at build
// time (assets/map/glyphs, from an npm font), so nothing is fetched from outside Plat. Light and dark
// share the layers; only the paint differs.
import type { ExpressionSpecification, LayerSpecification, SourceSpecification, StyleSpecification, SymbolLayerSpecification } from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';
import type { AreaLayer } from '../../../shared/comparables/model.ts';
import type { MapTheme } from './map-types.ts';
import { areaLayerFiles, areaLayerIdProperty, ICON, type MapData } from './map-data.ts';
import { BASEMAP_TILES, GLYPHS, type MapLayerId } from './map-manifest.ts';
import { ROLE_COLOURS } from './map-icons.ts';

export interface BasemapPalette {
  outside: string;
  land: string;
  boundary: string;
  county: string;
  park: string;
  water: string;
  roadCasing: string;
  road: string;
  freeway: string;
  street: string;
  metro: string;
  station: string;
  stationEdge: string;
  pickLine: string;
  pickHover: string;
  ring: string;
  /** Street names: the design system's muted text, haloed in the land's colour. */
  label: string;
  labelHalo: string;
  /** The subject's "S": the design system's text colour on a paper halo. */
  tag: string;
  tagHalo: string;
}

export const basemapPalettes: Record<MapTheme, BasemapPalette> = {
  light: {
    outside: '#eceef1',
    land: '#f8f8f6',
    boundary: '#a3aab5',
    county: '#c9ced6',
    park: '#dfe9d8',
    water: '#9dbbd6',
    roadCasing: '#d2d6dc',
    road: '#ffffff',
    freeway: '#f4efe3',
    street: '#dde0e5',
    metro: '#a99bbd',
    station: '#ffffff',
    stationEdge: '#8d7fa3',
    pickLine: '#5b6372',
    pickHover: '#2f5fd0',
    ring: '#4b5361',
    label: '#5b6372',
    labelHalo: '#f8f8f6',
    tag: '#1c2027',
    tagHalo: '#ffffff',
  },
  dark: {
    outside: '#141619',
    land: '#1d2024',
    boundary: '#5d6470',
    county: '#363b44',
    park: '#1f2b22',
    water: '#3a5a78',
    roadCasing: '#111316',
    road: '#3b4049',
    freeway: '#4a4638',
    street: '#2e3239',
    metro: '#6e6286',
    station: '#1d2024',
    stationEdge: '#9a8cb4',
    pickLine: '#a2a9b5',
    pickHover: '#8aabf7',
    ring: '#b7bec9',
    label: '#a2a9b5',
    labelHalo: '#1d2024',
    tag: '#e3e6eb',
    tagHalo: '#0d0f12',
  },
};

/** Source ids: the basemap file, and the spec's data. */
export const SOURCE = {
  basemap: 'plat-basemap',
  counties: 'plat-counties',
  fixed: 'plat-fixed',
  others: 'plat-others',
  highlight: 'plat-highlight',
  pick: 'plat-pick',
} as const;

/** Layer ids the component listens on or changes. */
export const LAYER = {
  pickFill: 'plat-pick-fill',
  pickLine: 'plat-pick-line',
  areaFill: 'plat-area-fill',
  clusters: 'plat-clusters',
  others: 'plat-others',
  sales: 'plat-sales',
  subject: 'plat-subject',
  subjectTag: 'plat-subject-tag',
  highlight: 'plat-highlight',
  /** Street names along the L'Enfant streets and the major roads. */
  streetLabels: 'street-labels',
  roadLabels: 'road-labels',
} as const;

/**
 * Street names appear at street zooms only: a major road's from a neighbourhood's scale, every
 * street's from a few blocks'. Below these the names would be clutter (and collide away anyway).
 */
export const LABEL_MIN_ZOOM = { roads: 13.5, streets: 14.5 } as const;

/** Groups sales closer than this many pixels when zoomed out, up to this zoom. */
const CLUSTER_RADIUS = 36;
const CLUSTER_MAX_ZOOM = 14;

export interface MapStyleOptions {
  theme: MapTheme;
  /** Absolute URL of the folder holding the layer files (`…/map/`): the worker fetches them. */
  assetBase: string;
  data: MapData;
  /** Group sales when zoomed out (the screen); the printed image shows every sale. */
  cluster: boolean;
  /** The area layer being picked from, if any. */
  pickLayer?: AreaLayer | null;
}

const zoomed = (stops: Array<[number, number]>): ExpressionSpecification => ['interpolate', ['exponential', 1.5], ['zoom'], ...stops.flat()];

type SymbolLayout = NonNullable<SymbolLayerSpecification['layout']>;

/** Every symbol is drawn, overlapping or not: a hidden sale would be a sale the appraiser cannot see. */
const symbolLayout: SymbolLayout = {
  'icon-allow-overlap': true,
  'icon-ignore-placement': true,
  'icon-offset': ['get', 'offset'],
};

/** A layer of the basemap tiles (each dataset is a layer in every tile it reaches). */
const tiled = (layer: MapLayerId) => ({ source: SOURCE.basemap, 'source-layer': layer });

function basemapLayers(p: BasemapPalette): LayerSpecification[] {
  return [
    { id: 'background', type: 'background', paint: { 'background-color': p.outside } },
    { id: 'counties-line', type: 'line', source: SOURCE.counties, paint: { 'line-color': p.county, 'line-width': 1 } },
    { id: 'dc-land', type: 'fill', ...tiled('dc_boundary'), paint: { 'fill-color': p.land } },
    { id: 'parks', type: 'fill', ...tiled('parks'), paint: { 'fill-color': p.park } },
    { id: 'water-lines', type: 'line', ...tiled('water_lines'), paint: { 'line-color': p.water, 'line-width': zoomed([[11, 0.6], [16, 2]]) } },
    {
      id: 'streets',
      type: 'line',
      ...tiled('streets_lenfant'),
      minzoom: 12,
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': p.street, 'line-width': zoomed([[12, 0.5], [15, 2], [18, 8]]) },
    },
    {
      id: 'roads-casing',
      type: 'line',
      ...tiled('major_roads'),
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': p.roadCasing, 'line-width': zoomed([[10, 1.2], [14, 4], [18, 16]]) },
    },
    {
      id: 'roads',
      type: 'line',
      ...tiled('major_roads'),
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: {
        'line-color': ['match', ['get', 'functional_class'], 'Other Freeway and Expressway', p.freeway, p.road],
        'line-width': zoomed([[10, 0.6], [14, 2.6], [18, 12]]),
      },
    },
    { id: 'dc-boundary', type: 'line', ...tiled('dc_boundary'), paint: { 'line-color': p.boundary, 'line-width': 1.2, 'line-dasharray': [4, 2] } },
    { id: 'metro-lines', type: 'line', ...tiled('metro_lines'), paint: { 'line-color': p.metro, 'line-width': zoomed([[10, 1], [15, 2.5]]), 'line-dasharray': [3, 1.5] } },
    streetLabelLayer(LAYER.streetLabels, 'streets_lenfant', LABEL_MIN_ZOOM.streets, p),
    streetLabelLayer(LAYER.roadLabels, 'major_roads', LABEL_MIN_ZOOM.roads, p),
    {
      id: 'metro-stations',
      type: 'circle',
      ...tiled('metro_stations'),
      minzoom: 11,
      paint: { 'circle-color': p.station, 'circle-stroke-color': p.stationEdge, 'circle-stroke-width': 1.5, 'circle-radius': zoomed([[11, 2], [16, 5]]) },
    },
  ];
}

/** A street layer's names written along its lines, upright, in the regular face. */
function streetLabelLayer(id: string, layer: MapLayerId, minzoom: number, p: BasemapPalette): LayerSpecification {
  return {
    id,
    type: 'symbol',
    ...tiled(layer),
    minzoom,
    filter: ['has', 'name'],
    layout: {
      'symbol-placement': 'line',
      'text-field': ['get', 'name'],
      'text-font': [GLYPHS.regular],
      'text-size': ['interpolate', ['linear'], ['zoom'], minzoom, 11, 18, 14],
      'text-max-angle': 30,
      'text-padding': 4,
      'symbol-spacing': 320,
    },
    paint: { 'text-color': p.label, 'text-halo-color': p.labelHalo, 'text-halo-width': 1.4, 'text-halo-blur': 0.4 },
  };
}

/** The outlines of the layer being picked from, with the hovered feature filled (feature-state). */
export function pickLayers(p: BasemapPalette): LayerSpecification[] {
  const hovered: ExpressionSpecification = ['boolean', ['feature-state', 'hover'], false];
  return [
    { id: LAYER.pickFill, type: 'fill', source: SOURCE.pick, paint: { 'fill-color': p.pickHover, 'fill-opacity': ['case', hovered, 0.16, 0.02] } },
    {
      id: LAYER.pickLine,
      type: 'line',
      source: SOURCE.pick,
      paint: { 'line-color': ['case', hovered, p.pickHover, p.pickLine], 'line-width': ['case', hovered, 2.5, 1.2] },
    },
  ];
}

const kind = (value: string): ExpressionSpecification => ['==', ['get', 'kind'], value];
const notCluster: ExpressionSpecification = ['!', ['has', 'point_count']];
const approximateHalo: SymbolLayout = {
  ...symbolLayout,
  'icon-image': ICON.halo,
  'icon-size': ['get', 'haloSize'],
  'icon-offset': ['get', 'haloOffset'],
};

function specLayers(p: BasemapPalette, cluster: boolean): LayerSpecification[] {
  const fixed = SOURCE.fixed;
  return [
    { id: LAYER.areaFill, type: 'fill', source: fixed, filter: kind('area'), paint: { 'fill-color': ROLE_COLOURS.area, 'fill-opacity': 0.1 } },
    { id: 'plat-area-line', type: 'line', source: fixed, filter: kind('area'), paint: { 'line-color': ROLE_COLOURS.area, 'line-width': 2.5 } },
    { id: 'plat-ring', type: 'line', source: fixed, filter: kind('ring'), paint: { 'line-color': p.ring, 'line-width': 1.75, 'line-dasharray': [3, 2] } },
    // Approximate-location rings under the symbols they surround.
    ...(cluster
      ? [{ id: 'plat-others-halo', type: 'symbol', source: SOURCE.others, filter: ['all', notCluster, ['==', ['get', 'approximate'], true]], layout: approximateHalo } satisfies LayerSpecification]
      : []),
    {
      id: 'plat-fixed-halo',
      type: 'symbol',
      source: fixed,
      filter: ['all', ['in', ['get', 'kind'], ['literal', ['sale', 'subject']]], ['==', ['get', 'approximate'], true]],
      layout: approximateHalo,
    },
    ...(cluster
      ? [
          {
            id: LAYER.clusters,
            type: 'symbol',
            source: SOURCE.others,
            filter: ['has', 'point_count'],
            layout: { ...symbolLayout, 'icon-offset': [0, 0], 'icon-image': ['concat', ICON.clusterPrefix, ['get', 'point_count_abbreviated']] },
          } satisfies LayerSpecification,
          {
            id: LAYER.others,
            type: 'symbol',
            source: SOURCE.others,
            filter: notCluster,
            layout: { ...symbolLayout, 'icon-image': ['get', 'icon'], 'symbol-sort-key': ['get', 'sortKey'] },
          } satisfies LayerSpecification,
        ]
      : []),
    { id: LAYER.sales, type: 'symbol', source: fixed, filter: kind('sale'), layout: { ...symbolLayout, 'icon-image': ['get', 'icon'], 'symbol-sort-key': ['get', 'sortKey'] } },
    { id: LAYER.subject, type: 'symbol', source: fixed, filter: kind('subject'), layout: { ...symbolLayout, 'icon-image': ICON.subject } },
    // The subject's mark ("S") at the star's upper right, always drawn, as the comps' numbers are.
    {
      id: LAYER.subjectTag,
      type: 'symbol',
      source: fixed,
      filter: kind('subject'),
      layout: {
        'text-field': ['get', 'tag'],
        'text-font': [GLYPHS.semibold],
        'text-size': 15,
        'text-anchor': 'bottom-left',
        'text-offset': [0.55, -0.35],
        'text-allow-overlap': true,
        'text-ignore-placement': true,
      },
      paint: { 'text-color': p.tag, 'text-halo-color': p.tagHalo, 'text-halo-width': 2 },
    },
    {
      id: LAYER.highlight,
      type: 'symbol',
      source: SOURCE.highlight,
      layout: { ...symbolLayout, 'icon-image': ICON.highlight, 'icon-size': ['get', 'highlightSize'], 'icon-offset': ['get', 'highlightOffset'] },
    },
  ];
}

const emptyCollection: FeatureCollection = { type: 'FeatureCollection', features: [] };

/** The data each spec source holds: without clustering, every sale is in the fixed source. */
export function specSourceData(data: MapData, cluster: boolean): { fixed: FeatureCollection; others: FeatureCollection | null } {
  return cluster ? { fixed: data.fixed, others: data.others } : { fixed: { type: 'FeatureCollection', features: [...data.fixed.features, ...data.others.features] }, others: null };
}

export function mapStyle(options: MapStyleOptions): StyleSpecification {
  const p = basemapPalettes[options.theme];
  const sources: Record<string, SourceSpecification> = {
    // The template's braces stay as they are (a URL object would escape them).
    [SOURCE.basemap]: {
      type: 'vector',
      tiles: [`${options.assetBase}${BASEMAP_TILES.template}`],
      minzoom: BASEMAP_TILES.minzoom,
      maxzoom: BASEMAP_TILES.maxzoom,
      bounds: BASEMAP_TILES.bounds,
    },
    [SOURCE.counties]: { type: 'geojson', data: new URL('counties.geojson', options.assetBase).href },
  };
  const data = specSourceData(options.data, options.cluster);
  sources[SOURCE.fixed] = { type: 'geojson', data: data.fixed };
  if (data.others) sources[SOURCE.others] = { type: 'geojson', data: data.others, cluster: true, clusterRadius: CLUSTER_RADIUS, clusterMaxZoom: CLUSTER_MAX_ZOOM };
  sources[SOURCE.highlight] = { type: 'geojson', data: emptyCollection };
  const layers = basemapLayers(p);
  if (options.pickLayer) {
    sources[SOURCE.pick] = pickSource(options.pickLayer, options.assetBase);
    layers.push(...pickLayers(p));
  }
  layers.push(...specLayers(p, options.cluster));
  // The template's braces stay as they are, as for the tiles.
  return { version: 8, name: `Plat comparables (${options.theme})`, glyphs: `${options.assetBase}${GLYPHS.template}`, sources, layers };
}

/** The source of an area layer being picked from: its features keyed by their id property, for hover state. */
export function pickSource(layer: AreaLayer, assetBase: string): SourceSpecification {
  return { type: 'geojson', data: new URL(`${areaLayerFiles[layer]}.geojson`, assetBase).href, promoteId: areaLayerIdProperty[layer] };
}
