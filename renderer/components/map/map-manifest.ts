// What `npm run map-assets` writes beside the map's layers (assets/map/manifest.json), and how the
// map reads it: every basemap layer says who published it, which dataset, as of when, where the copy
// came from and what licence the source states. The map's attribution and the report's caption cite
// these, so the basemap is as cited as the values drawn on it.
import { z } from 'zod';

export const mapLayerIds = [
  'counties',
  'dc_boundary',
  'parks',
  'water_lines',
  'major_roads',
  'streets_lenfant',
  'metro_lines',
  'metro_stations',
  'wards',
  'neighborhood_clusters',
  'zip_codes',
  'assessment_neighborhoods',
] as const;
export type MapLayerId = (typeof mapLayerIds)[number];

/**
 * The drawn basemap inside DC as vector tiles cut at build time (one small file per tile, each
 * holding a layer per dataset): the map's worker decodes the few tiles in view instead of parsing and
 * cutting the whole basemap on every first draw. Above `maxzoom` the tiles are overzoomed; outside
 * `bounds` (DC's extent, padded) there are none: the county outlines, a small GeoJSON, give the
 * context around DC.
 */
export const BASEMAP_TILES = {
  template: 'basemap/{z}/{x}/{y}.pbf',
  minzoom: 9,
  maxzoom: 13,
  /** Tile units per tile side: at z13 half a metre. */
  extent: 8192,
  bounds: [-77.13, 38.78, -76.9, 39.006] as [number, number, number, number],
} as const;

/**
 * The map's glyphs (street names, the subject's "S"): signed-distance-field PBFs built from a font
 * shipped in an npm package (scripts/build-map-assets/glyphs.ts), one folder per font, one file per
 * range of 256 code points; only Latin is built. `fontstack` is the name the style's text-font uses.
 */
export const GLYPHS = {
  template: 'glyphs/{fontstack}/{range}.pbf',
  regular: 'SourceSans3-Regular',
  semibold: 'SourceSans3-Semibold',
} as const;

const fileName = z.string().regex(/^[a-z_]+\.geojson$|^basemap\/\{z\}\/\{x\}\/\{y\}\.pbf$|^glyphs\/[A-Za-z0-9-]+\/\{range\}\.pbf$/);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const MapLayerEntrySchema = z.object({
  id: z.enum(mapLayerIds),
  /** The file holding the layer's features: its own GeoJSON, or the basemap tiles (a layer in each). */
  file: fileName,
  title: z.string().min(1),
  geometry: z.enum(['point', 'line', 'polygon']),
  /** Features kept (for a tiled layer: before cutting into tiles, and only those reaching DC's extent). */
  features: z.number().int().min(0),
  publisher: z.string().min(1),
  /** The publisher's short name for the map's attribution line ("DC GIS / OCTO"). */
  publisherShort: z.string().min(1),
  dataset: z.string().min(1),
  /** The copy's date: the source repository's commit date, or the edition year when there is no commit. */
  asOf: z.string().min(4),
  origin: z.string().min(1),
  licence: z.string().min(1),
  /** What the build kept of the source (features, properties), in words. */
  kept: z.string(),
  input: z.object({ path: z.string(), sha256, bytes: z.number().int().min(0) }),
});
export type MapLayerEntry = z.infer<typeof MapLayerEntrySchema>;

const MapFileEntrySchema = z.object({
  file: fileName,
  /** For the tiles: all of them together, and the hash of their paths and bytes in order. */
  bytes: z.number().int().min(0),
  sha256,
  layers: z.array(z.enum(mapLayerIds)).min(1),
  tiles: z.number().int().min(1).optional(),
});
export type MapFileEntry = z.infer<typeof MapFileEntrySchema>;

const MapFontEntrySchema = z.object({
  /** The style's text-font name and the glyph folder. */
  fontstack: z.string().regex(/^[A-Za-z0-9-]+$/),
  /** The glyph files: `glyphs/<fontstack>/{range}.pbf`. */
  file: fileName,
  family: z.string().min(1),
  /** Where the font came from: the npm package and version, and its file. */
  origin: z.string().min(1),
  licence: z.string().min(1),
  copyright: z.string().min(1),
  /** The ranges built ("0-255"), each a file. */
  ranges: z.array(z.string().regex(/^\d+-\d+$/)).min(1),
  glyphs: z.number().int().min(1),
  bytes: z.number().int().min(0),
  sha256,
  input: z.object({ path: z.string(), sha256, bytes: z.number().int().min(0) }),
});
export type MapFontEntry = z.infer<typeof MapFontEntrySchema>;

/**
 * Where the drawn basemap (streets, parks, water) exists: DC's outline (a coarse copy of the
 * dc_boundary layer, within about 50 m). Outside it the tiles hold nothing, and the map says so.
 */
const BasemapCoverageSchema = z.object({
  layer: z.enum(mapLayerIds),
  simplifyToleranceDegrees: z.number().min(0),
  multiPolygon: z.array(z.array(z.array(z.tuple([z.number(), z.number()])).min(4)).min(1)).min(1),
});
export type BasemapCoverage = z.infer<typeof BasemapCoverageSchema>;

export const MapManifestSchema = z.object({
  schemaVersion: z.literal(2),
  generator: z.string(),
  coordinateDecimals: z.number().int().min(0).max(8),
  /** Lines and outlines were simplified within this many degrees (Douglas-Peucker). */
  simplifyToleranceDegrees: z.number().min(0),
  layers: z.array(MapLayerEntrySchema).min(1),
  files: z.array(MapFileEntrySchema).min(1),
  fonts: z.array(MapFontEntrySchema).min(1),
  basemapCoverage: BasemapCoverageSchema,
});
export type MapManifest = z.infer<typeof MapManifestSchema>;

/** The manifest from its JSON, or a message a person can act on. */
export function readMapManifest(json: unknown): { ok: true; manifest: MapManifest } | { ok: false; message: string } {
  const parsed = MapManifestSchema.safeParse(json);
  if (parsed.success) return { ok: true, manifest: parsed.data };
  const first = parsed.error.issues[0];
  return {
    ok: false,
    message: `The map's layer list (map/manifest.json) is not in the expected form${first ? ` at ${first.path.join('.') || 'the top'}: ${first.message}` : ''}. Rebuild it with \`npm run map-assets\`.`,
  };
}

/**
 * The attribution line: the publishers of the drawn layers, each once, grouped by the copy's date in
 * the manifest's order ("US Census Bureau (2017) · DC GIS / OCTO, DDOT, … (2016-08-16)").
 */
export function mapAttribution(manifest: MapManifest, layers: readonly MapLayerId[] = mapLayerIds): string {
  const groups = new Map<string, string[]>();
  for (const layer of manifest.layers) {
    if (!layers.includes(layer.id)) continue;
    let publishers = groups.get(layer.asOf);
    if (!publishers) groups.set(layer.asOf, (publishers = []));
    if (!publishers.includes(layer.publisherShort)) publishers.push(layer.publisherShort);
  }
  return [...groups].map(([asOf, publishers]) => `${publishers.join(', ')} (${asOf})`).join(' · ');
}
