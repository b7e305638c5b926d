import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readMapManifest, mapAttribution } from '../renderer/components/map/map-manifest.ts';
import { MultiPolygonCoordsSchema } from '../shared/comparables/model.ts';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { BASEMAP_TILES, GLYPHS } from '../renderer/components/map/map-manifest.ts';
import { pointInPolygons } from '../shared/comparables/geometry.ts';
import { basemapCoverageOf, NO_BASEMAP_NOTE } from '../shared/comparables/map-coverage.ts';
import type { ComparablesMapSpec, LonLat } from '../shared/comparables/model.ts';
import { FONT_LICENCE_FILE, FONT_SOURCES, LAYER_SOURCES, assessmentNeighborhoodNames, basemapTileCoords, buildMapAssets, roundGeometry, roundLine, roundPolygon, simplified, streetLabel, tileOf } from './build-map-assets.ts';

const square = (x: number, y: number, size: number) => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];
const collection = (features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', features });
const feature = (properties: Record<string, unknown>, geometry: unknown) => ({ type: 'Feature', properties, geometry });

/** One small input file per layer the build reads, shaped like ../shared/data's. */
function writeFixture(dir: string): void {
  const files: Record<string, string> = {
    'region/dc_md_va_counties.geojson': collection([
      feature({ geoid: '11001', name: 'District of Columbia', state: 'DC', dmv_core: true }, { type: 'Polygon', coordinates: [square(-77.1, 38.8, 0.2)] }),
      feature({ geoid: '24001', name: 'Allegany', state: 'MD', dmv_core: false }, { type: 'Polygon', coordinates: [square(-78.9, 39.6, 0.2)] }),
    ]),
    'dc/geo/dc_boundary.geojson': collection([
      feature({ OBJECTID: 1, CITY_NAME: 'Washington', WEB_URL: 'http://www.dc.gov' }, { type: 'Polygon', coordinates: [square(-77.1, 38.8, 0.2)] }),
    ]),
    'dc/basemap/parks.geojson': collection([
      feature({ name: 'Dupont Circle', use: 'CIRCLE', agency: 'NPS' }, { type: 'MultiPolygon', coordinates: [[square(-77.0435, 38.9095, 0.001)]] }),
      // Smaller than the rounding: it collapses to a point and is left out.
      feature({ name: 'Speck', use: 'TRIANGLE', agency: 'DPR' }, { type: 'Polygon', coordinates: [square(-77.000001, 38.900001, 0.000001)] }),
    ]),
    'dc/basemap/water_lines.geojson': collection([
      feature({ kind: 'Stream' }, { type: 'LineString', coordinates: [[-77.0389281, 38.9852894], [-77.0389282, 38.9852893], [-77.038835, 38.985363]] }),
    ]),
    'dc/basemap/major_roads.geojson': collection([
      feature({ name: 'Connecticut Ave', street_type: 'AVE', quadrant: 'NW', functional_class: 'Principal Arterial' }, { type: 'LineString', coordinates: [[-77.039694, 38.903194], [-77.040014, 38.903749]] }),
    ]),
    'dc/basemap/streets_lenfant.geojson': collection([feature({ name: '21ST ST' }, { type: 'LineString', coordinates: [[-77.047, 38.91], [-77.047, 38.915]] })]),
    'dc/basemap/metro_lines.geojson': collection([feature({ line: 'red' }, { type: 'MultiLineString', coordinates: [[[-77.02, 38.97], [-77.03, 38.96]]] })]),
    'dc/basemap/metro_stations.geojson': collection([feature({ name: 'Dupont Circle', lines: 'red' }, { type: 'Point', coordinates: [-77.043414, 38.909576] })]),
    'dc/geo/dc_wards_2012.geojson': collection([
      feature({ OBJECTID: 2, WARD: 2, NAME: 'Ward 2', REP_NAME: 'Jack Evans', REP_PHONE: '(202) 724-8058' }, { type: 'Polygon', coordinates: [square(-77.06, 38.89, 0.03)] }),
    ]),
    'dc/geo/dc_neighborhood_clusters.geojson': collection([
      feature({ OBJECTID: 1, WEB_URL: 'http://planning.dc.gov/', NAME: 'Cluster 6', NBH_NAMES: 'Dupont Circle, Connecticut Avenue/K Street' }, { type: 'Polygon', coordinates: [square(-77.05, 38.9, 0.02)] }),
    ]),
    'dc/geo/dc_zip_codes.geojson': collection([
      feature({ ZIPCODE: 20009, TYPE: 'STANDARD', NAME: ' ' }, { type: 'Polygon', coordinates: [square(-77.05, 38.91, 0.02)] }),
      feature({ ZIPCODE: 20405, TYPE: 'UNIQUE', NAME: 'GENERAL SERVICES ADMINISTRATION' }, { type: 'Polygon', coordinates: [square(-77.043, 38.896, 0.001)] }),
      feature({ ZIPCODE: 20013, TYPE: 'POST OFFICE BOX', NAME: 'NATIONAL CAPITOL POST OFFICE' }, { type: 'Polygon', coordinates: [square(-77.009, 38.898, 0.001)] }),
    ]),
    'dc/basemap/assessment_neighborhoods.geojson': collection([
      feature({ nbhd: '040' }, { type: 'Polygon', coordinates: [square(-77.05, 38.9, 0.03)] }),
      feature({ nbhd: '001' }, { type: 'Polygon', coordinates: [square(-77.09, 38.93, 0.02)] }),
    ]),
  };
  // The OTR roll names its rows' neighbourhood: 120 square centroids inside 040.
  const rows = ['ssl,neighborhood,square_lat,square_lon'];
  for (let i = 0; i < 120; i++) rows.push(`${i},OLD CITY II,${38.905 + (i % 10) * 0.001},${-77.045 + Math.floor(i / 10) * 0.001}`);
  files['dc/otr_real_property_old_city_ii.csv'] = `${rows.join('\n')}\n`;
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), body);
  }
}

const layerFeatures = (outDir: string, file: string) =>
  (JSON.parse(readFileSync(path.join(outDir, file), 'utf8')) as { features: Array<{ properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } }> }).features;

describe('rounding', () => {
  it('rounds to 5 decimals and drops a position equal to the one before', () => {
    expect(roundLine([[-77.0389281, 38.9852894], [-77.0389282, 38.9852893], [-77.038835, 38.985363]], 'x')).toEqual([
      [-77.03893, 38.98529],
      [-77.03884, 38.98536],
    ]);
  });

  it('drops a ring that collapses, and the polygon with its outer ring', () => {
    const hole = square(-77.0000001, 38.9000001, 0.0000001);
    expect(roundPolygon([square(-77, 38.9, 0.01), hole], 'x')).toEqual([square(-77, 38.9, 0.01)]);
    expect(roundPolygon([hole], 'x')).toBeNull();
  });

  it('makes a one-part multi geometry single and says where a bad position is', () => {
    expect(roundGeometry({ type: 'MultiLineString', coordinates: [[[-77, 38], [-77.1, 38.1]]] }, 'x')).toEqual({ type: 'LineString', coordinates: [[-77, 38], [-77.1, 38.1]] });
    expect(() => roundGeometry({ type: 'LineString', coordinates: [[-77, 'north']] }, 'parks feature 3')).toThrow(/parks feature 3: a position is not \[longitude, latitude\]/);
  });
});

describe('simplification', () => {
  it('drops a point less than a metre off the line and keeps one that bends it', () => {
    const line = { type: 'LineString' as const, coordinates: [[-77.05, 38.91], [-77.04, 38.910004], [-77.03, 38.91], [-77.02, 38.92]] };
    expect(simplified(line)).toEqual({ type: 'LineString', coordinates: [[-77.05, 38.91], [-77.03, 38.91], [-77.02, 38.92]] });
  });

  it('drops a hole with no area and keeps the outline', () => {
    const sliver = [[-77.04, 38.905], [-77.039, 38.905], [-77.038, 38.905], [-77.04, 38.905]];
    expect(simplified({ type: 'Polygon', coordinates: [square(-77.05, 38.9, 0.02), sliver] })).toEqual({ type: 'Polygon', coordinates: [square(-77.05, 38.9, 0.02)] });
  });
});

describe('assessment neighbourhood names', () => {
  const polygons = [
    { type: 'Feature' as const, properties: { nbhd: '040' }, geometry: { type: 'Polygon' as const, coordinates: [square(-77.05, 38.9, 0.03)] } },
    { type: 'Feature' as const, properties: { nbhd: '026' }, geometry: { type: 'Polygon' as const, coordinates: [square(-77.08, 38.9, 0.02)] } },
  ];
  const inside = (n: number, name: string, x = -77.04) => Array.from({ length: n }, (_, i) => ({ lonLat: [x, 38.901 + i * 0.0001] as [number, number], name }));

  it('names a code when nearly every centroid inside it says so', () => {
    expect(assessmentNeighborhoodNames(polygons, [...inside(200, 'OLD CITY II'), ...inside(5, 'GEORGETOWN')])).toEqual(new Map([['040', 'OLD CITY II']]));
  });

  it('leaves a code unnamed when its centroids disagree or are few', () => {
    expect(assessmentNeighborhoodNames(polygons, [...inside(150, 'OLD CITY II'), ...inside(50, 'OLD CITY I')]).size).toBe(0);
    expect(assessmentNeighborhoodNames(polygons, inside(99, 'GEORGETOWN', -77.07)).size).toBe(0);
  });
});

describe('streetLabel', () => {
  it('spells a name as the street signs do', () => {
    expect(streetLabel('21ST ST')).toBe('21st St');
    expect(streetLabel('PENNSYLVANIA AVE')).toBe('Pennsylvania Ave');
    expect(streetLabel('M ST')).toBe('M St');
    expect(streetLabel('13 1/2 ST')).toBe('13 1/2 St');
    expect(streetLabel('NEW YORK AVE NW')).toBe('New York Ave NW');
    // Mixed case is already as published.
    expect(streetLabel('MacArthur Blvd')).toBe('MacArthur Blvd');
    expect(streetLabel('  ')).toBeNull();
    expect(streetLabel(null)).toBeNull();
  });
});

describe('buildMapAssets on a fixture', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'plat-map-assets-'));
  const fromDir = path.join(root, 'data');
  writeFixture(fromDir);
  const report = buildMapAssets({ fromDir, outDir: path.join(root, 'out') });
  const outDir = path.join(root, 'out');

  it('cuts the basemap into tiles, writes counties and each area layer as GeoJSON, and a manifest the map can read', () => {
    const read = readMapManifest(JSON.parse(readFileSync(report.manifestPath, 'utf8')));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.manifest.layers.map((layer) => layer.id)).toEqual(LAYER_SOURCES.map((source) => source.id));
    expect(read.manifest.files.map((file) => [file.file, file.layers])).toEqual([
      ['basemap/{z}/{x}/{y}.pbf', ['dc_boundary', 'parks', 'water_lines', 'major_roads', 'streets_lenfant', 'metro_lines', 'metro_stations']],
      ['counties.geojson', ['counties']],
      ['wards.geojson', ['wards']],
      ['neighborhood_clusters.geojson', ['neighborhood_clusters']],
      ['zip_codes.geojson', ['zip_codes']],
      ['assessment_neighborhoods.geojson', ['assessment_neighborhoods']],
    ]);
    const tiles = read.manifest.files[0]!;
    expect(tiles.tiles).toBe(basemapTileCoords().length);
    for (const file of read.manifest.files.slice(1)) expect(file.bytes).toBe(readFileSync(path.join(outDir, file.file)).length);
  });

  it('puts each dataset in the tiles it reaches, as a layer of its own with the properties the map draws by', () => {
    // The z13 tile of Dupont Circle holds the fixture's park, road, street, station and DC's outline.
    const [x, y] = tileOf(-77.0435, 38.9095, 13);
    const tile = new VectorTile(new PbfReader(readFileSync(path.join(outDir, `basemap/13/${x}/${y}.pbf`))));
    expect(Object.keys(tile.layers).sort()).toEqual(['dc_boundary', 'major_roads', 'metro_stations', 'parks', 'streets_lenfant']);
    expect(tile.layers['major_roads']?.feature(0).properties).toEqual({ functional_class: 'Principal Arterial', name: 'Connecticut Ave' });
    // The names the map writes along the streets, as signs spell them.
    expect(tile.layers['streets_lenfant']?.feature(0).properties).toEqual({ name: '21st St' });
    expect(tile.layers['metro_stations']?.feature(0).properties).toEqual({ name: 'Dupont Circle', lines: 'red' });
    expect(tile.layers['parks']?.feature(0).properties).toEqual({ agency: 'NPS' });
    expect(tile.layers['streets_lenfant']?.length).toBe(1);
    // Outside DC's extent there are no tiles; inside it a tile with nothing in it is an empty file.
    const [westX, northY] = tileOf(BASEMAP_TILES.bounds[0], BASEMAP_TILES.bounds[3], 13);
    expect(existsSync(path.join(outDir, `basemap/13/${westX - 1}/${northY}.pbf`))).toBe(false);
    expect(readFileSync(path.join(outDir, `basemap/13/${westX}/${northY}.pbf`)).length).toBe(0);
  });

  it('builds the Latin glyphs of each font from the npm package and says where they came from and under what licence', () => {
    const read = readMapManifest(JSON.parse(readFileSync(report.manifestPath, 'utf8')));
    if (!read.ok) throw new Error(read.message);
    expect(read.manifest.fonts.map((font) => [font.fontstack, font.ranges])).toEqual([
      [GLYPHS.regular, ['0-255', '256-511', '8192-8447']],
      [GLYPHS.semibold, ['0-255']],
    ]);
    for (const font of read.manifest.fonts) {
      expect(font.origin).toMatch(/^npm package source-sans@\d+\.\d+\.\d+ /);
      expect(font.licence).toContain('SIL Open Font License 1.1');
      expect(font.copyright).toContain('Adobe');
      const bytes = font.ranges.reduce((sum, range) => sum + readFileSync(path.join(outDir, 'glyphs', font.fontstack, `${range}.pbf`)).length, 0);
      expect(font.bytes).toBe(bytes);
    }
    expect(FONT_SOURCES.map((font) => font.fontstack)).toEqual([GLYPHS.regular, GLYPHS.semibold]);
    // The licence's text travels with the glyphs.
    const licence = JSON.parse(readFileSync(path.join(outDir, FONT_LICENCE_FILE), 'utf8')) as { text: string; package: string };
    expect(licence.text).toContain('SIL OPEN FONT LICENSE Version 1.1');
    expect(licence.package).toMatch(/^source-sans@/);
  });

  it("writes the basemap's coverage: DC's outline, for the map's note where there is none", () => {
    const read = readMapManifest(JSON.parse(readFileSync(report.manifestPath, 'utf8')));
    if (!read.ok) throw new Error(read.message);
    const coverage = read.manifest.basemapCoverage;
    expect(coverage.layer).toBe('dc_boundary');
    expect(pointInPolygons([-77.0, 38.9], coverage.multiPolygon)).toBe(true);
    expect(pointInPolygons([-77.2, 38.9], coverage.multiPolygon)).toBe(false);
  });

  it('cites each layer to its publisher, dataset, copy date and origin', () => {
    const read = readMapManifest(JSON.parse(readFileSync(report.manifestPath, 'utf8')));
    if (!read.ok) throw new Error(read.message);
    const parks = read.manifest.layers.find((layer) => layer.id === 'parks');
    expect(parks).toMatchObject({ publisherShort: 'DPR / NPS', asOf: '2016-08-16', features: 1, file: 'basemap/{z}/{x}/{y}.pbf' });
    expect(parks?.origin).toContain('8bb880d2b759e7de124fff85addc410664a9c4c9');
    expect(read.manifest.layers.find((layer) => layer.id === 'counties')).toMatchObject({ publisherShort: 'US Census Bureau', asOf: '2017' });
    expect(mapAttribution(read.manifest)).toBe('US Census Bureau (2017) · DC GIS / OCTO, DPR / NPS, DDOT, WMATA, DC OTR (2016-08-16)');
    expect(mapAttribution(read.manifest, ['parks', 'major_roads'])).toBe('DPR / NPS, DDOT (2016-08-16)');
  });

  it('keeps only the properties the map draws or picks by', () => {
    expect(layerFeatures(outDir, 'wards.geojson')[0]?.properties).toEqual({ WARD: 2, NAME: 'Ward 2' });
    expect(layerFeatures(outDir, 'neighborhood_clusters.geojson')[0]?.properties).toEqual({ NAME: 'Cluster 6', NBH_NAMES: 'Dupont Circle, Connecticut Avenue/K Street' });
    expect(layerFeatures(outDir, 'counties.geojson').map((f) => f.properties)).toEqual([{ geoid: '11001', name: 'District of Columbia', state: 'DC' }]);
  });

  it("keeps DC's delivery ZIPs as text codes and names the OTR neighbourhood", () => {
    expect(layerFeatures(outDir, 'zip_codes.geojson').map((f) => f.properties)).toEqual([{ ZIPCODE: '20009' }]);
    expect(layerFeatures(outDir, 'assessment_neighborhoods.geojson').map((f) => f.properties)).toEqual([{ nbhd: '040', otr_name: 'OLD CITY II' }, { nbhd: '001' }]);
  });

  it('gives the same bytes for the same input', () => {
    const again = buildMapAssets({ fromDir, outDir: path.join(root, 'again') });
    expect(readFileSync(again.manifestPath, 'utf8')).toBe(readFileSync(report.manifestPath, 'utf8'));
    for (const { file } of report.manifest.files.slice(1)) {
      expect(readFileSync(path.join(root, 'again', file)).equals(readFileSync(path.join(outDir, file)))).toBe(true);
    }
  });

  it('removes files an earlier build left behind', () => {
    const again = path.join(root, 'stale');
    mkdirSync(path.join(again, 'basemap/14/1/1'), { recursive: true });
    writeFileSync(path.join(again, 'parks.geojson'), '{}');
    writeFileSync(path.join(again, 'basemap/14/1/1/1.pbf'), '');
    buildMapAssets({ fromDir, outDir: again });
    expect(existsSync(path.join(again, 'parks.geojson'))).toBe(false);
    expect(existsSync(path.join(again, 'basemap/14'))).toBe(false);
    expect(existsSync(path.join(again, 'wards.geojson'))).toBe(true);
  });

  it('says which input is missing', () => {
    const empty = path.join(root, 'empty');
    mkdirSync(empty);
    expect(() => buildMapAssets({ fromDir: empty, outDir: path.join(root, 'none') })).toThrow(/region\/dc_md_va_counties\.geojson was not found/);
  });
});

describe('the committed assets', () => {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

  it("put 1708 21st St NW under the basemap and 220 E Del Ray Av, Alexandria, outside it, though inside the tiles' box", () => {
    const read = readMapManifest(JSON.parse(readFileSync(path.join(repoRoot, 'assets/map/manifest.json'), 'utf8')));
    if (!read.ok) throw new Error(read.message);
    const at = (subject: LonLat, sale: LonLat): ComparablesMapSpec => ({
      subject: { lonLat: subject, label: 'Subject', approximate: false, tag: 'S' },
      points: [{ id: 'a', lonLat: sale, role: 'chosen', label: 'Sale', number: 1, tag: '1', approximate: false, details: [] }],
      area: null,
      radiusMiles: null,
      altText: '',
    });
    const coverage = read.manifest.basemapCoverage.multiPolygon;
    expect(basemapCoverageOf(at([-77.047037, 38.912976], [-77.042524, 38.913704]), coverage)).toMatchObject({ status: 'covered', note: null });
    const delRay: LonLat = [-77.056767, 38.826365];
    const [west, south, east, north] = BASEMAP_TILES.bounds;
    expect(delRay[0] > west && delRay[0] < east && delRay[1] > south && delRay[1] < north).toBe(true);
    expect(basemapCoverageOf(at(delRay, [-77.059829, 38.817578]), coverage)).toMatchObject({ status: 'none', note: NO_BASEMAP_NOTE });
  });

  const dataDir = path.resolve(repoRoot, '../shared/data');
  it.skipIf(!existsSync(dataDir))('are what the build makes from ../shared/data, and small', () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'plat-map-assets-real-'));
    const report = buildMapAssets({ fromDir: dataDir, outDir });
    expect(report.totalBytes).toBeLessThan(6_000_000);
    expect(readFileSync(report.manifestPath, 'utf8')).toBe(readFileSync(path.join(repoRoot, 'assets/map/manifest.json'), 'utf8'));
    for (const [z, x, y] of basemapTileCoords()) {
      const tile = `basemap/${z}/${x}/${y}.pbf`;
      expect(readFileSync(path.join(repoRoot, 'assets/map', tile)).equals(readFileSync(path.join(outDir, tile))), tile).toBe(true);
    }
    for (const font of report.manifest.fonts) {
      for (const range of font.ranges) {
        const file = `glyphs/${font.fontstack}/${range}.pbf`;
        expect(readFileSync(path.join(repoRoot, 'assets/map', file)).equals(readFileSync(path.join(outDir, file))), file).toBe(true);
      }
    }
    expect(readFileSync(path.join(repoRoot, 'assets/map', FONT_LICENCE_FILE), 'utf8')).toBe(readFileSync(path.join(outDir, FONT_LICENCE_FILE), 'utf8'));
    // Every area a market area can be picked from fits the workfile's limits as it is.
    for (const file of ['wards.geojson', 'neighborhood_clusters.geojson', 'zip_codes.geojson', 'assessment_neighborhoods.geojson']) {
      for (const { geometry } of layerFeatures(outDir, file)) {
        const multiPolygon = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
        expect(MultiPolygonCoordsSchema.safeParse(multiPolygon).success).toBe(true);
      }
    }
  });
});
