// A ComparablesMapSpec as the map's layers draw it: GeoJSON for the subject, the sales by role, the
// market area and the radius ring; the bounds to fit; the legend's rows; the hover lines; and a picked
// area in the workfile's shape. Pure, so the screen and the offscreen image draw the same thing and
// tests can check it without a browser.
import { circle } from '@turf/circle';
import type { Feature, FeatureCollection, Geometry, MultiPolygon, Point, Polygon } from 'geojson';
import { areaLayerLabels, type AreaLayer, type ComparablesMapSpec, type LonLat, type MapPointRole, type MultiPolygonCoords, type PolygonCoords } from '../../../shared/comparables/model.ts';
import { mapRoleLabels as roleLabels } from '../../../shared/comparables/map-spec.ts';
import type { PickedArea } from './map-types.ts';
import type { MapLayerId } from './map-manifest.ts';

export type MapPoint = ComparablesMapSpec['points'][number];

/** Icon image ids (drawn at run time by map-icons.ts: the map has no sprite; its glyphs are for words). */
export const ICON = {
  subject: 'plat-subject',
  candidate: 'plat-candidate',
  flagged: 'plat-flagged',
  notUsed: 'plat-not-used',
  halo: 'plat-halo',
  highlight: 'plat-highlight',
  /** `plat-comp-<n>`: a chosen comp's numbered square. */
  compPrefix: 'plat-comp-',
  /** `plat-cluster-<count>`: a group of sales with its count (maplibre's abbreviated count, "1.2k"). */
  clusterPrefix: 'plat-cluster-',
} as const;

const roleIcon: Record<Exclude<MapPointRole, 'chosen'>, string> = {
  candidate: ICON.candidate,
  flagged: ICON.flagged,
  not_used: ICON.notUsed,
};

/** Drawing order: the sales set aside below, then candidates, flagged ones, chosen comps on top. */
const roleSortKey: Record<MapPointRole, number> = { not_used: 0, candidate: 1, flagged: 2, chosen: 3 };

/** The approximate-location ring and the focus ring, scaled to the symbol they surround. */
const HALO_SIZE: Record<MapPointRole | 'subject', number> = { subject: 1.5, chosen: 1.25, candidate: 0.95, flagged: 1, not_used: 0.8 };
const HIGHLIGHT_SIZE: Record<MapPointRole | 'subject', number> = { subject: 1.05, chosen: 0.95, candidate: 0.75, flagged: 0.8, not_used: 0.65 };

type Offset = [number, number];

interface SymbolProperties {
  approximate: boolean;
  /** Screen offset in pixels: sales that share a location (two lots of one tax square) are fanned out around it. */
  offset: Offset;
  haloSize: number;
  /** icon-offset is scaled by icon-size, so each ring has its own. */
  haloOffset: Offset;
  highlightSize: number;
  highlightOffset: Offset;
}

export interface PointProperties extends SymbolProperties {
  kind: 'sale';
  id: string;
  role: MapPointRole;
  icon: string;
  sortKey: number;
}

export interface SubjectProperties extends SymbolProperties {
  kind: 'subject';
  label: string;
  /** The spec's mark written beside the star ("S"). */
  tag: string;
}

export type FixedProperties = PointProperties | SubjectProperties | { kind: 'area' } | { kind: 'ring' };

export interface MapData {
  /** The market area, the ring, the subject and the chosen comps: one source, never clustered. */
  fixed: FeatureCollection<Point | Polygon | MultiPolygon, FixedProperties>;
  /** Every other sale (candidates, flagged, not used): clustered when zoomed out on screen. */
  others: FeatureCollection<Point, PointProperties>;
}

/** Steps of the ring's polygon: smooth at any zoom the map allows. */
const RING_STEPS = 128;

/** The radius ring (the search's own radius, or the area's for a radius area), or null. */
export function ringOf(spec: ComparablesMapSpec): Feature<Polygon> | null {
  const radius = spec.radiusMiles ?? (spec.area?.kind === 'radius' ? spec.area.radiusMiles : null);
  if (!spec.subject || radius === null || !(radius > 0)) return null;
  return circle(spec.subject.lonLat, radius, { steps: RING_STEPS, units: 'miles' });
}

/** Symbols a little apart: the comp square is the widest at 18 px, with its rim. */
const FAN_GAP_PX = 22;
/** The subject's star is larger: sales sharing its square sit further out. */
const FAN_MIN_AROUND_SUBJECT_PX = 20;

/**
 * Pixel offsets that fan out symbols sharing one position (OTR sales are placed at their tax square's
 * centroid, so the lots of one square coincide). The map still places each at the same centroid; only
 * the symbols move apart on screen, in a ring around it (the subject, if there, stays in the middle).
 */
export function fanOffsets(spec: ComparablesMapSpec): Map<string, Offset> {
  const groups = new Map<string, string[]>();
  const subjectKey = spec.subject ? spec.subject.lonLat.join(',') : null;
  for (const point of [...spec.points].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const key = point.lonLat.join(',');
    const group = groups.get(key);
    if (group) group.push(point.id);
    else groups.set(key, [point.id]);
  }
  const offsets = new Map<string, Offset>();
  for (const [key, ids] of groups) {
    const withSubject = key === subjectKey;
    if (ids.length === 1 && !withSubject) continue;
    const n = ids.length;
    // The ring's radius: neighbours on it at least FAN_GAP_PX apart.
    const radius = Math.max(withSubject ? FAN_MIN_AROUND_SUBJECT_PX : FAN_GAP_PX / 2, n > 1 ? FAN_GAP_PX / (2 * Math.sin(Math.PI / n)) : 0);
    ids.forEach((id, index) => {
      const angle = -Math.PI / 2 + (index * 2 * Math.PI) / n;
      offsets.set(id, [Math.round(radius * Math.cos(angle) * 10) / 10 + 0, Math.round(radius * Math.sin(angle) * 10) / 10 + 0]);
    });
  }
  return offsets;
}

const scaled = (offset: Offset, size: number): Offset => [Math.round((offset[0] / size) * 10) / 10 + 0, Math.round((offset[1] / size) * 10) / 10 + 0];

function symbolProperties(role: MapPointRole | 'subject', approximate: boolean, offset: Offset): SymbolProperties {
  return {
    approximate,
    offset,
    haloSize: HALO_SIZE[role],
    haloOffset: scaled(offset, HALO_SIZE[role]),
    highlightSize: HIGHLIGHT_SIZE[role],
    highlightOffset: scaled(offset, HIGHLIGHT_SIZE[role]),
  };
}

export function pointFeature(point: MapPoint, offset: Offset = [0, 0]): Feature<Point, PointProperties> {
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: point.lonLat },
    properties: {
      kind: 'sale',
      id: point.id,
      role: point.role,
      // A chosen comp's square carries the spec's mark, the grid's column number.
      icon: point.role === 'chosen' ? `${ICON.compPrefix}${point.tag ?? point.number ?? 0}` : roleIcon[point.role],
      sortKey: roleSortKey[point.role] * 1000 + (point.number ?? 0),
      ...symbolProperties(point.role, point.approximate, offset),
    },
  };
}

export function mapData(spec: ComparablesMapSpec): MapData {
  const offsets = fanOffsets(spec);
  const fixed: Array<Feature<Point | Polygon | MultiPolygon, FixedProperties>> = [];
  const area = spec.area;
  if (area?.kind === 'polygon') fixed.push({ type: 'Feature', geometry: { type: 'Polygon', coordinates: area.polygon }, properties: { kind: 'area' } });
  if (area?.kind === 'layer') fixed.push({ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: area.multiPolygon }, properties: { kind: 'area' } });
  const ring = ringOf(spec);
  if (ring) fixed.push({ ...ring, properties: { kind: 'ring' } });
  if (spec.subject) {
    fixed.push({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: spec.subject.lonLat },
      properties: { kind: 'subject', label: spec.subject.label, tag: spec.subject.tag, ...symbolProperties('subject', spec.subject.approximate, [0, 0]) },
    });
  }
  const others: Array<Feature<Point, PointProperties>> = [];
  for (const point of spec.points) {
    const feature = pointFeature(point, offsets.get(point.id));
    if (point.role === 'chosen') fixed.push(feature);
    else others.push(feature);
  }
  return { fixed: { type: 'FeatureCollection', features: fixed }, others: { type: 'FeatureCollection', features: others } };
}

export type Bounds = [[number, number], [number, number]];

/** The box around the subject, every sale, the area and the ring; null when there is nothing to place. */
export function boundsOf(spec: ComparablesMapSpec): Bounds | null {
  const positions: LonLat[] = [];
  if (spec.subject) positions.push(spec.subject.lonLat);
  for (const point of spec.points) positions.push(point.lonLat);
  const area = spec.area;
  const polygons: MultiPolygonCoords = area?.kind === 'polygon' ? [area.polygon] : area?.kind === 'layer' ? area.multiPolygon : [];
  for (const polygon of polygons) for (const position of polygon[0] ?? []) positions.push(position);
  for (const position of ringOf(spec)?.geometry.coordinates[0] ?? []) positions.push(position as LonLat);
  if (positions.length === 0) return null;
  let [west, south] = positions[0]!;
  let [east, north] = positions[0]!;
  for (const [lon, lat] of positions) {
    west = Math.min(west, lon);
    east = Math.max(east, lon);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  return [
    [west, south],
    [east, north],
  ];
}

/**
 * The printed location map's frame: the subject and every chosen comp, and nothing else, so the map
 * is drawn at the scale of the streets between them (other sales in that frame are drawn too). With
 * no comp chosen yet, everything the spec draws (boundsOf).
 */
export function locationBoundsOf(spec: ComparablesMapSpec): Bounds | null {
  const chosen = spec.points.filter((point) => point.role === 'chosen').map((point) => point.lonLat);
  if (!spec.subject || chosen.length === 0) return boundsOf(spec);
  const positions = [spec.subject.lonLat, ...chosen];
  const lons = positions.map(([lon]) => lon);
  const lats = positions.map(([, lat]) => lat);
  return [
    [Math.min(...lons), Math.min(...lats)],
    [Math.max(...lons), Math.max(...lats)],
  ];
}

/** What the printed map, framed on the comps (locationBoundsOf), leaves out, in words. */
export function frameSentence(chosen: number, outside: number): string {
  const comps = chosen === 1 ? 'the chosen comp' : `the ${chosen} chosen comps`;
  if (outside === 0) return `Framed on the subject and ${comps}; every sale of the search is in view.`;
  return `Framed on the subject and ${comps}; ${outside} other ${outside === 1 ? 'sale lies' : 'sales lie'} outside the frame (every sale is listed in the tables).`;
}

/**
 * What decides where the map looks: the subject, the area and the radius. The map fits itself when
 * this changes (a new search, a new area), not when a sale is chosen or dropped, and never because
 * the appraiser panned.
 */
export function extentKey(spec: ComparablesMapSpec): string {
  const area = spec.area;
  const areaKey = area === null ? null : area.kind === 'radius' ? ['radius', area.radiusMiles] : area.kind === 'polygon' ? ['polygon', area.polygon[0]?.length, area.polygon[0]?.[0]] : ['layer', area.layer, area.featureId];
  return JSON.stringify([spec.subject?.lonLat ?? null, spec.radiusMiles, areaKey, spec.subject ? null : spec.points.length]);
}

// ---------------------------------------------------------------------------------------------
// Words: hover lines and the legend

export const APPROXIMATE_LOCATION = 'Approximate location (tax-square centroid)';

/** The lines a hover (or the focused sale) shows: address, the spec's details, and "approximate" when it is. */
export function pointHoverLines(point: MapPoint): string[] {
  const role = point.role === 'chosen' && point.number !== null ? `Comp ${point.number}` : roleLabels[point.role];
  return [point.label, role, ...point.details, ...(point.approximate ? [APPROXIMATE_LOCATION] : [])];
}

export function subjectHoverLines(subject: NonNullable<ComparablesMapSpec['subject']>): string[] {
  return [subject.label, `Subject (${subject.tag})`, ...(subject.approximate ? [APPROXIMATE_LOCATION] : [])];
}

export type LegendKey = 'subject' | MapPointRole | 'approximate' | 'cluster' | 'area' | 'ring';

export interface LegendRow {
  key: LegendKey;
  label: string;
  /** How many are drawn (null for the area and the ring). */
  count: number | null;
}

/** The market area in words, for the legend ("Ward 2", "Drawn: Dupont blocks", "0.5-mile radius"). */
export function areaLegendLabel(spec: ComparablesMapSpec): string | null {
  const area = spec.area;
  if (area === null || area.kind === 'radius') return null;
  if (area.kind === 'polygon') return `Market area drawn${area.label ? `: ${area.label}` : ''}`;
  return `Market area: ${areaLayerLabels[area.layer]} ${area.label || area.featureId}`;
}

const miles = (value: number) => `${Number(value.toFixed(2))} mi`;

/**
 * The legend: the roles drawn, with counts, in the order of importance; then what the lines mean.
 * `clustered`: the screen groups sales when zoomed out (the printed image never does).
 */
export function legendRows(spec: ComparablesMapSpec, options: { clustered: boolean }): LegendRow[] {
  const counts: Record<MapPointRole, number> = { chosen: 0, candidate: 0, flagged: 0, not_used: 0 };
  let approximate = spec.subject?.approximate ? 1 : 0;
  for (const point of spec.points) {
    counts[point.role] += 1;
    if (point.approximate) approximate += 1;
  }
  const rows: LegendRow[] = [];
  if (spec.subject) rows.push({ key: 'subject', label: `Subject (${spec.subject.tag})`, count: 1 });
  for (const role of ['chosen', 'candidate', 'flagged', 'not_used'] as const) {
    if (counts[role] > 0) rows.push({ key: role, label: role === 'chosen' ? 'Chosen comp (grid number)' : roleLabels[role], count: counts[role] });
  }
  if (approximate > 0) rows.push({ key: 'approximate', label: 'Dashed ring: approximate location (tax-square centroid)', count: approximate });
  if (options.clustered && counts.candidate + counts.flagged + counts.not_used > 0) rows.push({ key: 'cluster', label: 'Nearby sales grouped (click to zoom in)', count: null });
  const areaLabel = areaLegendLabel(spec);
  if (areaLabel) rows.push({ key: 'area', label: areaLabel, count: null });
  const ring = ringOf(spec);
  if (ring) {
    const radius = spec.radiusMiles ?? (spec.area?.kind === 'radius' ? spec.area.radiusMiles : 0);
    rows.push({ key: 'ring', label: areaLabel ? `Radius searched: ${miles(radius)} around the subject` : `Market area: ${miles(radius)} around the subject`, count: null });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Area layers a market area can be picked from

/** The map layer (assets/map) each area layer is drawn from. */
export const areaLayerFiles: Record<AreaLayer, MapLayerId> = {
  ward: 'wards',
  zip: 'zip_codes',
  cluster: 'neighborhood_clusters',
  assessment_neighborhood: 'assessment_neighborhoods',
};

/** The property that identifies a feature of each area layer (kept by scripts/build-map-assets.ts). */
export const areaLayerIdProperty: Record<AreaLayer, string> = {
  ward: 'NAME',
  zip: 'ZIPCODE',
  cluster: 'NAME',
  assessment_neighborhood: 'nbhd',
};

const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null);

/**
 * A feature's id and label. The label reads after the layer's name, as the report and the view print
 * it (`${areaLayerLabels[layer]} ${label}`): Ward "2", ZIP code "20009", Neighborhood cluster
 * "6 (Dupont Circle, …)", Assessment neighborhood "040 (OLD CITY II)".
 */
export function areaIdentity(layer: AreaLayer, properties: Record<string, unknown>): { featureId: string; label: string } | null {
  switch (layer) {
    case 'ward': {
      const name = textOf(properties['NAME']) ?? (textOf(properties['WARD']) ? `Ward ${textOf(properties['WARD'])}` : null);
      return name ? { featureId: name, label: textOf(properties['WARD']) ?? name.replace(/^Ward\s+/i, '') } : null;
    }
    case 'zip': {
      const zip = textOf(properties['ZIPCODE']);
      return zip ? { featureId: zip, label: zip } : null;
    }
    case 'cluster': {
      const name = textOf(properties['NAME']);
      if (!name) return null;
      const neighbourhoods = textOf(properties['NBH_NAMES']);
      const number = name.replace(/^Cluster\s+/i, '');
      return { featureId: name, label: neighbourhoods ? `${number} (${neighbourhoods})` : number };
    }
    case 'assessment_neighborhood': {
      const code = textOf(properties['nbhd']);
      if (!code) return null;
      const name = textOf(properties['otr_name']);
      return { featureId: code, label: name ? `${code} (${name})` : code };
    }
  }
}

/** The picked feature as the workfile keeps it: a Polygon becomes a one-part MultiPolygon. */
export function pickedArea(layer: AreaLayer, feature: { properties: Record<string, unknown> | null; geometry: Geometry | null }): PickedArea | null {
  const identity = areaIdentity(layer, feature.properties ?? {});
  const geometry = feature.geometry;
  if (!identity || !geometry) return null;
  if (geometry.type === 'Polygon') return { layer, ...identity, multiPolygon: [geometry.coordinates as PolygonCoords] };
  if (geometry.type === 'MultiPolygon') return { layer, ...identity, multiPolygon: geometry.coordinates as MultiPolygonCoords };
  return null;
}
