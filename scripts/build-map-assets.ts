// Builds the offline map's layers and their manifest (assets/map) from the public GeoJSON files in
// ../shared/data. The basemap inside DC (DC's boundary, parks, water lines, major roads, L'Enfant
// streets, metro) is cut into vector tiles (basemap/{z}/{x}/{y}.pbf, a layer per dataset): the map's
// worker then decodes the few tiles in view rather than parsing and cutting the whole basemap on each
// first draw (most of that draw under software GL). The county outlines around DC are one small
// GeoJSON; each area a market area can be picked from (wards, neighbourhood clusters, ZIPs,
// assessment neighbourhoods) is a GeoJSON of its own, read only while picking, whole, so a picked
// area's outline is exact. The street layers keep their names (drawn along the streets at street
// zooms) in glyphs this build draws from Source Sans 3 in its npm package (glyphs/{font}/{range}.pbf,
// Latin only); the manifest also carries the basemap's coverage (DC's outline, coarsely), from which
// the map says where the sample has no basemap. Run with `npm run map-assets` (optionally `--from DIR`, `--out DIR`);
// `npm run sample-data` runs it too. Coordinates are rounded to 5 decimals (about 1 m; the
// tax-square locations drawn on top are good to about 100 m) and repeated points dropped, then lines
// and outlines are simplified within about 1 m (Douglas-Peucker, @turf/simplify); only the properties
// the map draws or picks by are kept; features and tiles are written in a fixed order: the same input
// files give the same bytes. The simplification also keeps every ward, cluster, ZIP and assessment
// neighbourhood outline within the market area's limits (a ring of at most 5,000 positions:
// shared/comparables/model.ts). The renderer build (vite.config.ts) serves this folder under /map/.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import simplify from '@turf/simplify';
import { parse } from 'csv-parse/sync';
import { BASEMAP_TILES, GLYPHS, type MapFileEntry, type MapLayerEntry, type MapLayerId, type MapManifest } from '../renderer/components/map/map-manifest.ts';
import { dataBuildDirs } from './data-build-args.ts';
import { cutBasemapTiles, type Kept } from './build-map-assets/tiles.ts';
import { writeFontGlyphs } from './build-map-assets/fonts.ts';
import { basemapCoverage } from './build-map-assets/coverage.ts';

export { basemapTileCoords, tileOf } from './build-map-assets/tiles.ts';
export { FONT_LICENCE_FILE, FONT_SOURCES } from './build-map-assets/fonts.ts';

export const COORDINATE_DECIMALS = 5;
/** Degrees: 0.00001° is 1.1 m north-south and 0.9 m east-west at DC's latitude. */
export const SIMPLIFY_TOLERANCE = 0.00001;

type Position = [number, number];
export type Properties = Record<string, string | number | boolean>;

export interface Geometry {
  type: 'Point' | 'LineString' | 'MultiLineString' | 'Polygon' | 'MultiPolygon';
  coordinates: unknown;
}
interface Feature {
  type: 'Feature';
  properties: Record<string, unknown> | null;
  geometry: Geometry | null;
}

// ---------------------------------------------------------------------------------------------
// The sources, as ../shared/data/README.md states them

/** benbalter/dc-maps copied these layers from opendata.dc.gov; its commit is the copy's date. */
const DC_MAPS = {
  origin: 'GitHub benbalter/dc-maps, commit 8bb880d2b759e7de124fff85addc410664a9c4c9 (2016-08-16), copied from opendata.dc.gov',
  asOf: '2016-08-16',
  licence: 'None stated by the source repository; DC open data, published by the District of Columbia on opendata.dc.gov',
};

interface LayerSource {
  id: MapLayerId;
  /** Where it goes: the basemap tiles, a GeoJSON drawn always (counties), or an area layer's own GeoJSON. */
  output: 'tiles' | 'geojson';
  input: string;
  title: string;
  geometry: MapLayerEntry['geometry'];
  publisher: string;
  publisherShort: string;
  dataset: string;
  asOf: string;
  origin: string;
  licence: string;
  kept: string;
  /** The properties the map needs from one source feature, or null to leave the feature out. */
  properties: (source: Record<string, unknown>) => Properties | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const compact = (properties: Record<string, string | number | boolean | null>): Properties =>
  Object.fromEntries(Object.entries(properties).filter((entry): entry is [string, string | number | boolean] => entry[1] !== null));

/**
 * A street's name as its signs spell it: DDOT's L'Enfant centre lines are in capitals ("7TH ST",
 * "PENNSYLVANIA AVE"), its major roads in mixed case ("Connecticut Ave"); the labels read alike.
 * Quadrants stay capitals; ordinals are lower case after their digits ("21st").
 */
export function streetLabel(value: unknown): string | null {
  const name = text(value);
  if (name === null || name !== name.toUpperCase()) return name;
  return name
    .split(/\s+/)
    .map((word) => (/^(NW|NE|SW|SE)$/.test(word) ? word : /^\d/.test(word) ? word.toLowerCase() : `${word.charAt(0)}${word.slice(1).toLowerCase()}`))
    .join(' ');
}

export const LAYER_SOURCES: readonly LayerSource[] = [
  {
    id: 'counties',
    output: 'geojson',
    input: 'region/dc_md_va_counties.geojson',
    title: 'Counties and independent cities around DC',
    geometry: 'polygon',
    publisher: 'US Census Bureau (cartographic boundary files)',
    publisherShort: 'US Census Bureau',
    dataset: 'Cartographic boundary files, counties, 2017 edition (us-atlas counties-10m)',
    asOf: '2017',
    origin: 'npm package us-atlas@3.0.1, file counties-10m.json, converted from TopoJSON by the sample build',
    licence: 'US Census Bureau public data; the us-atlas package is ISC-licensed',
    kept: 'the counties and cities of the DC area (dmv_core): geoid, name, state',
    properties: (p) => (p['dmv_core'] === true ? compact({ geoid: text(p['geoid']), name: text(p['name']), state: text(p['state']) }) : null),
  },
  {
    id: 'dc_boundary',
    output: 'tiles',
    input: 'dc/geo/dc_boundary.geojson',
    title: 'District of Columbia boundary',
    geometry: 'polygon',
    publisher: 'DC GIS / Office of the Chief Technology Officer (OCTO)',
    publisherShort: 'DC GIS / OCTO',
    dataset: 'Washington DC Boundary',
    ...DC_MAPS,
    kept: 'the outline only',
    properties: () => ({}),
  },
  {
    id: 'parks',
    output: 'tiles',
    input: 'dc/basemap/parks.geojson',
    title: 'Parks and recreation areas, national parks',
    geometry: 'polygon',
    publisher: 'DC Department of Parks and Recreation (DPR) and National Park Service (NPS), via DC GIS / OCTO',
    publisherShort: 'DPR / NPS',
    dataset: 'Parks and Recreation Areas; National Parks',
    ...DC_MAPS,
    kept: 'the outlines and the managing agency (DPR or NPS)',
    properties: (p) => compact({ agency: text(p['agency']) }),
  },
  {
    id: 'water_lines',
    output: 'tiles',
    input: 'dc/basemap/water_lines.geojson',
    title: 'Water lines (streams, sea walls, piers)',
    geometry: 'line',
    publisher: 'DC GIS / Office of the Chief Technology Officer (OCTO)',
    publisherShort: 'DC GIS / OCTO',
    dataset: 'Hydrography (lines)',
    ...DC_MAPS,
    kept: 'the lines and their kind (Stream, Sea Wall, Dock or Pier, Jetty)',
    properties: (p) => compact({ kind: text(p['kind']) }),
  },
  {
    id: 'major_roads',
    output: 'tiles',
    input: 'dc/basemap/major_roads.geojson',
    title: 'Major roads',
    geometry: 'line',
    publisher: 'District Department of Transportation (DDOT), via DC GIS / OCTO',
    publisherShort: 'DDOT',
    dataset: 'Major Roads',
    ...DC_MAPS,
    kept: 'the centre lines, their functional class and name (drawn along the line at street zooms)',
    properties: (p) => compact({ functional_class: text(p['functional_class']), name: streetLabel(p['name']) }),
  },
  {
    id: 'streets_lenfant',
    output: 'tiles',
    input: 'dc/basemap/streets_lenfant.geojson',
    title: "Streets of the L'Enfant Plan area",
    geometry: 'line',
    publisher: 'District Department of Transportation (DDOT), via DC GIS / OCTO',
    publisherShort: 'DDOT',
    dataset: "L'Enfant Plan Street Centerlines",
    ...DC_MAPS,
    kept: 'the centre lines and their names, written as signs spell them ("7TH ST" as "7th St"), drawn along the line at street zooms',
    properties: (p) => compact({ name: streetLabel(p['name']) }),
  },
  {
    id: 'metro_lines',
    output: 'tiles',
    input: 'dc/basemap/metro_lines.geojson',
    title: 'Metrorail lines',
    geometry: 'line',
    publisher: 'Washington Metropolitan Area Transit Authority (WMATA), via DC GIS / OCTO',
    publisherShort: 'WMATA',
    dataset: 'Metro Lines',
    ...DC_MAPS,
    kept: 'the lines and their colour name',
    properties: (p) => compact({ line: text(p['line']) }),
  },
  {
    id: 'metro_stations',
    output: 'tiles',
    input: 'dc/basemap/metro_stations.geojson',
    title: 'Metrorail stations in DC',
    geometry: 'point',
    publisher: 'Washington Metropolitan Area Transit Authority (WMATA), via DC GIS / OCTO',
    publisherShort: 'WMATA',
    dataset: 'Metro Stations (District)',
    ...DC_MAPS,
    kept: 'the stations with their name and lines',
    properties: (p) => compact({ name: text(p['name']), lines: text(p['lines']) }),
  },
  {
    id: 'wards',
    output: 'geojson',
    input: 'dc/geo/dc_wards_2012.geojson',
    title: 'Wards (2012)',
    geometry: 'polygon',
    publisher: 'DC GIS / Office of the Chief Technology Officer (OCTO)',
    publisherShort: 'DC GIS / OCTO',
    dataset: 'Ward from 2012',
    ...DC_MAPS,
    kept: 'WARD and NAME (council members and contacts left out)',
    properties: (p) => compact({ WARD: typeof p['WARD'] === 'number' ? p['WARD'] : text(p['WARD']), NAME: text(p['NAME']) }),
  },
  {
    id: 'neighborhood_clusters',
    output: 'geojson',
    input: 'dc/geo/dc_neighborhood_clusters.geojson',
    title: 'Neighborhood clusters',
    geometry: 'polygon',
    publisher: 'DC Office of Planning, via DC GIS / OCTO',
    publisherShort: 'DC GIS / OCTO',
    dataset: 'Neighborhood Clusters',
    ...DC_MAPS,
    kept: 'NAME and NBH_NAMES',
    properties: (p) => compact({ NAME: text(p['NAME']), NBH_NAMES: text(p['NBH_NAMES']) }),
  },
  {
    id: 'zip_codes',
    output: 'geojson',
    input: 'dc/geo/dc_zip_codes.geojson',
    title: 'ZIP codes (DC delivery areas)',
    geometry: 'polygon',
    publisher: 'DC GIS / Office of the Chief Technology Officer (OCTO)',
    publisherShort: 'DC GIS / OCTO',
    dataset: 'Zip Codes',
    ...DC_MAPS,
    kept: "DC's standard delivery ZIPs (TYPE STANDARD): ZIPCODE; single-building (UNIQUE) and post-office-box ZIPs left out, since no market area is one building",
    properties: (p) => {
      if (p['TYPE'] !== 'STANDARD') return null;
      const zip = typeof p['ZIPCODE'] === 'number' ? String(p['ZIPCODE']) : text(p['ZIPCODE']);
      return zip && /^20[0-5]\d\d$/.test(zip) ? { ZIPCODE: zip } : null;
    },
  },
  {
    id: 'assessment_neighborhoods',
    output: 'geojson',
    input: 'dc/basemap/assessment_neighborhoods.geojson',
    title: 'OTR assessment neighborhoods',
    geometry: 'polygon',
    publisher: 'DC Office of Tax and Revenue (OTR), via DC GIS / OCTO',
    publisherShort: 'DC OTR',
    dataset: 'Assessment Neighborhoods',
    ...DC_MAPS,
    kept: 'nbhd (the OTR code); `otr_name` is added where the OTR tax roll names it (see the build script)',
    properties: (p) => compact({ nbhd: text(p['nbhd']) }),
  },
];

// ---------------------------------------------------------------------------------------------
// Geometry: simplification, rounding and repeated points

const scale = 10 ** COORDINATE_DECIMALS;
const round = (value: number): number => Math.round(value * scale) / scale;

function position(value: unknown, where: string): Position {
  if (!Array.isArray(value) || typeof value[0] !== 'number' || typeof value[1] !== 'number' || !Number.isFinite(value[0]) || !Number.isFinite(value[1])) {
    throw new Error(`${where}: a position is not [longitude, latitude]`);
  }
  // `+ 0` turns a rounded -0 into 0, so it is written as "0".
  return [round(value[0]) + 0, round(value[1]) + 0];
}

/** A line's positions rounded, with a position equal to the one before it dropped. */
export function roundLine(line: unknown, where: string): Position[] {
  if (!Array.isArray(line)) throw new Error(`${where}: a line is not a list of positions`);
  const out: Position[] = [];
  for (const value of line) {
    const next = position(value, where);
    const last = out[out.length - 1];
    if (!last || last[0] !== next[0] || last[1] !== next[1]) out.push(next);
  }
  return out;
}

/** A polygon's rings rounded; a ring that collapses below 4 positions is dropped (the outer ring: the polygon). */
export function roundPolygon(polygon: unknown, where: string): Position[][] | null {
  if (!Array.isArray(polygon)) throw new Error(`${where}: a polygon is not a list of rings`);
  const rings: Position[][] = [];
  for (const [index, ring] of polygon.entries()) {
    const rounded = roundLine(ring, where);
    if (rounded.length < 4) {
      if (index === 0) return null;
      continue;
    }
    rings.push(rounded);
  }
  return rings;
}

/** The geometry rounded, or null when nothing drawable is left. */
export function roundGeometry(geometry: Geometry | null, where: string): Geometry | null {
  if (!geometry) return null;
  switch (geometry.type) {
    case 'Point':
      return { type: 'Point', coordinates: position(geometry.coordinates, where) };
    case 'LineString': {
      const line = roundLine(geometry.coordinates, where);
      return line.length >= 2 ? { type: 'LineString', coordinates: line } : null;
    }
    case 'MultiLineString': {
      if (!Array.isArray(geometry.coordinates)) throw new Error(`${where}: a MultiLineString is not a list of lines`);
      const lines = geometry.coordinates.map((line) => roundLine(line, where)).filter((line) => line.length >= 2);
      if (lines.length === 0) return null;
      return lines.length === 1 ? { type: 'LineString', coordinates: lines[0] } : { type: 'MultiLineString', coordinates: lines };
    }
    case 'Polygon': {
      const polygon = roundPolygon(geometry.coordinates, where);
      return polygon ? { type: 'Polygon', coordinates: polygon } : null;
    }
    case 'MultiPolygon': {
      if (!Array.isArray(geometry.coordinates)) throw new Error(`${where}: a MultiPolygon is not a list of polygons`);
      const polygons = geometry.coordinates.map((polygon) => roundPolygon(polygon, where)).filter((polygon): polygon is Position[][] => polygon !== null);
      if (polygons.length === 0) return null;
      return polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0] } : { type: 'MultiPolygon', coordinates: polygons };
    }
    default:
      throw new Error(`${where}: geometry type ${String((geometry as { type: unknown }).type)} is not drawn by the map`);
  }
}

const simplifyOptions = { tolerance: SIMPLIFY_TOLERANCE, highQuality: true };

/** One polygon simplified ring by ring; a ring with no area left (turf refuses it) is dropped, the outer one with the polygon. */
function simplifiedPolygon(polygon: Position[][]): Position[][] | null {
  const rings: Position[][] = [];
  for (const [index, ring] of polygon.entries()) {
    try {
      const out = simplify({ type: 'Polygon', coordinates: [ring] }, simplifyOptions) as { coordinates: Position[][] };
      rings.push(out.coordinates[0] ?? ring);
    } catch {
      if (index === 0) return null;
    }
  }
  return rings;
}

/** A rounded geometry's lines and outlines simplified within SIMPLIFY_TOLERANCE; points as they are. */
export function simplified(geometry: Geometry | null): Geometry | null {
  if (!geometry) return null;
  switch (geometry.type) {
    case 'Point':
      return geometry;
    case 'LineString':
    case 'MultiLineString':
      return simplify(geometry as Parameters<typeof simplify>[0], simplifyOptions) as Geometry;
    case 'Polygon': {
      const polygon = simplifiedPolygon(geometry.coordinates as Position[][]);
      return polygon ? { type: 'Polygon', coordinates: polygon } : null;
    }
    case 'MultiPolygon': {
      const polygons = (geometry.coordinates as Position[][][]).map(simplifiedPolygon).filter((polygon): polygon is Position[][] => polygon !== null);
      return polygons.length > 0 ? { type: 'MultiPolygon', coordinates: polygons } : null;
    }
  }
}

const geometryKind: Record<Geometry['type'], MapLayerEntry['geometry']> = {
  Point: 'point',
  LineString: 'line',
  MultiLineString: 'line',
  Polygon: 'polygon',
  MultiPolygon: 'polygon',
};

// ---------------------------------------------------------------------------------------------
// Assessment neighbourhood names: the polygons carry only OTR's code; the OTR tax roll in the sample
// names its rows' neighbourhood (OLD CITY II). A code gets that name when nearly every tax-square
// centroid inside its polygon says so; the centroids are approximate, so a few strays near an edge
// do not count against it, and a code with few centroids is left unnamed.

const NAME_MIN_POINTS = 100;
const NAME_MIN_SHARE = 0.95;

export function assessmentNeighborhoodNames(features: Feature[], points: Array<{ lonLat: Position; name: string }>): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  const polygons = features.flatMap((feature) => {
    const code = text(feature.properties?.['nbhd']);
    const geometry = feature.geometry;
    if (!code || !geometry || (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')) return [];
    const flat = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as Position[][][];
    const xs = flat.flatMap((polygon) => polygon[0]?.map((p) => p[0]) ?? []);
    const ys = flat.flatMap((polygon) => polygon[0]?.map((p) => p[1]) ?? []);
    const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as const;
    return [{ code, geometry: geometry as { type: 'Polygon' | 'MultiPolygon'; coordinates: Position[][] | Position[][][] }, box }];
  });
  for (const point of points) {
    const [x, y] = point.lonLat;
    const hit = polygons.find(
      ({ box, geometry }) =>
        x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3] &&
        booleanPointInPolygon(point.lonLat, geometry as Parameters<typeof booleanPointInPolygon>[1]),
    );
    if (!hit) continue;
    let byName = counts.get(hit.code);
    if (!byName) counts.set(hit.code, (byName = new Map()));
    byName.set(point.name, (byName.get(point.name) ?? 0) + 1);
  }
  const names = new Map<string, string>();
  for (const [code, byName] of counts) {
    const total = [...byName.values()].reduce((sum, n) => sum + n, 0);
    const [name, n] = [...byName.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    if (total >= NAME_MIN_POINTS && n / total >= NAME_MIN_SHARE) names.set(code, name);
  }
  return names;
}

function otrNeighborhoodPoints(fromDir: string): Array<{ lonLat: Position; name: string }> {
  const rows = parse(readFileSync(path.join(fromDir, 'dc/otr_real_property_old_city_ii.csv')), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  return rows.flatMap((row) => {
    const lon = Number(row['square_lon']);
    const lat = Number(row['square_lat']);
    const name = text(row['neighborhood']);
    return name && row['square_lon'] && row['square_lat'] && Number.isFinite(lon) && Number.isFinite(lat) ? [{ lonLat: [lon, lat] as Position, name }] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Files

export interface MapAssetsReport {
  manifestPath: string;
  manifest: MapManifest;
  totalBytes: number;
  ms: number;
}

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** The layer's file: a FeatureCollection with one feature per line (readable diffs, stable bytes). */
export function layerFileText(features: Array<{ properties: Properties; geometry: Geometry }>): string {
  const lines = features.map((feature) => JSON.stringify({ type: 'Feature', properties: feature.properties, geometry: feature.geometry }));
  return `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}\n`;
}

// ---------------------------------------------------------------------------------------------
// Build

export function buildMapAssets(options: { fromDir: string; outDir: string }): MapAssetsReport {
  const started = performance.now();
  const { fromDir, outDir } = options;
  mkdirSync(outDir, { recursive: true });
  const layers: MapLayerEntry[] = [];
  const geojsonFiles = new Map<string, { layer: MapLayerId; features: Kept[] }>();
  const tiled = new Map<MapLayerId, Kept[]>();

  for (const source of LAYER_SOURCES) {
    const inputPath = path.join(fromDir, source.input);
    let raw: Buffer;
    try {
      raw = readFileSync(inputPath);
    } catch {
      throw new Error(`${source.input} was not found under ${fromDir}: the map's ${source.title.toLowerCase()} layer is built from it (see ../shared/data/README.md)`);
    }
    let collection: { type?: unknown; features?: unknown };
    try {
      collection = JSON.parse(raw.toString('utf8')) as typeof collection;
    } catch (error) {
      throw new Error(`${source.input} is not JSON: ${(error as Error).message}`, { cause: error });
    }
    if (collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
      throw new Error(`${source.input} is not a GeoJSON FeatureCollection`);
    }
    const inputFeatures = collection.features as Feature[];
    const names = source.id === 'assessment_neighborhoods' ? assessmentNeighborhoodNames(inputFeatures, otrNeighborhoodPoints(fromDir)) : null;

    const features: Kept[] = [];
    for (const [index, feature] of inputFeatures.entries()) {
      const where = `${source.input} feature ${index + 1}`;
      const kept = source.properties(feature.properties ?? {});
      if (kept === null) continue;
      const geometry = simplified(roundGeometry(feature.geometry, where));
      if (!geometry) continue;
      if (geometryKind[geometry.type] !== source.geometry) {
        throw new Error(`${where}: a ${geometry.type} in the ${source.title.toLowerCase()} layer, which holds ${source.geometry}s`);
      }
      const name = names && typeof kept['nbhd'] === 'string' ? names.get(kept['nbhd']) : undefined;
      features.push({ properties: name ? { ...kept, otr_name: name } : kept, geometry });
    }
    const file = source.output === 'tiles' ? BASEMAP_TILES.template : `${source.id}.geojson`;
    if (source.output === 'tiles') tiled.set(source.id, features);
    else geojsonFiles.set(file, { layer: source.id, features });
    layers.push({
      id: source.id,
      file,
      title: source.title,
      geometry: source.geometry,
      features: features.length,
      publisher: source.publisher,
      publisherShort: source.publisherShort,
      dataset: source.dataset,
      asOf: source.asOf,
      origin: source.origin,
      licence: source.licence,
      kept: source.kept,
      input: { path: source.input, sha256: sha256(raw), bytes: raw.length },
    });
  }

  // Write each file beside its final name, then rename: a failed build leaves the old set whole.
  const files: MapFileEntry[] = [];
  const write = (relative: string, body: string | Uint8Array) => {
    const target = path.join(outDir, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(`${target}.tmp`, body);
    renameSync(`${target}.tmp`, target);
  };
  const tiles = cutBasemapTiles(tiled);
  const tilesDir = path.join(outDir, BASEMAP_TILES.template.split('/')[0] ?? 'basemap');
  // The tile set is replaced whole: a tile an earlier build wrote outside today's range would linger.
  rmSync(tilesDir, { recursive: true, force: true });
  const tilesHash = createHash('sha256');
  for (const tile of tiles) {
    write(tile.path, tile.body);
    tilesHash.update(`${tile.path}\n`).update(tile.body);
  }
  files.push({ file: BASEMAP_TILES.template, bytes: tiles.reduce((sum, tile) => sum + tile.body.length, 0), sha256: tilesHash.digest('hex'), layers: [...tiled.keys()], tiles: tiles.length });
  for (const [file, content] of geojsonFiles) {
    const body = layerFileText(content.features);
    write(file, body);
    files.push({ file, bytes: Buffer.byteLength(body), sha256: sha256(body), layers: [content.layer] });
  }
  // The glyphs, replaced whole like the tiles, and the font's licence beside them.
  rmSync(path.join(outDir, GLYPHS.template.split('/')[0] ?? 'glyphs'), { recursive: true, force: true });
  const fonts = writeFontGlyphs(write);
  // A layer file an earlier build wrote and this one did not is stale: the manifest no longer cites it.
  for (const stale of readdirSync(outDir)) {
    if (stale.endsWith('.geojson') && !geojsonFiles.has(stale)) rmSync(path.join(outDir, stale));
  }
  const manifest: MapManifest = {
    schemaVersion: 2,
    generator: 'scripts/build-map-assets.ts',
    coordinateDecimals: COORDINATE_DECIMALS,
    simplifyToleranceDegrees: SIMPLIFY_TOLERANCE,
    layers,
    files,
    fonts,
    basemapCoverage: basemapCoverage(tiled.get('dc_boundary') ?? [], round),
  };
  const manifestPath = path.join(outDir, 'manifest.json');
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return {
    manifestPath,
    manifest,
    totalBytes: files.reduce((sum, file) => sum + file.bytes, 0) + fonts.reduce((sum, font) => sum + font.bytes, 0),
    ms: Math.round(performance.now() - started),
  };
}

// ---------------------------------------------------------------------------------------------
// CLI

function main(argv: string[]): void {
  const { fromDir, outDir } = dataBuildDirs(argv, 'assets/map');
  const report = buildMapAssets({ fromDir, outDir });
  console.log(`map assets: ${path.relative(process.cwd(), outDir) || '.'} ${(report.totalBytes / 1e6).toFixed(2)} MB in ${report.ms} ms`);
  for (const file of report.manifest.files) {
    const what = file.tiles ? `${file.tiles} tiles` : '';
    console.log(`  ${file.file.padEnd(32)} ${(file.bytes / 1e3).toFixed(0).padStart(6)} kB ${what}: ${file.layers.join(', ')}`);
  }
  for (const font of report.manifest.fonts) {
    console.log(`  ${font.file.padEnd(32)} ${(font.bytes / 1e3).toFixed(0).padStart(6)} kB ${font.glyphs} glyphs: ${font.ranges.join(', ')}`);
  }
}

if (import.meta.main) main(process.argv.slice(2));
