// The basemap's coverage for the manifest: where the tiles draw a basemap (DC's outline, coarsely,
// within about 50 m), from which the map says where the sample has none (shared/comparables/map-coverage.ts).
import simplify from '@turf/simplify';
import type { BasemapCoverage } from '../../renderer/components/map/map-manifest.ts';
import type { Kept } from './tiles.ts';

type Position = [number, number];

export const COVERAGE_TOLERANCE = 0.0005;

/** `round`: the build's own rounding of a coordinate, so the outline's positions are written as the layers' are. */
export function basemapCoverage(boundary: Kept[], round: (value: number) => number): BasemapCoverage {
  const multiPolygon: Position[][][] = [];
  for (const { geometry } of boundary) {
    const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : []) as Position[][][];
    for (const polygon of polygons) {
      const outer = polygon[0];
      if (!outer) continue;
      const coarse = simplify({ type: 'Polygon', coordinates: [outer] }, { tolerance: COVERAGE_TOLERANCE, highQuality: true }) as { coordinates: Position[][] };
      const ring = coarse.coordinates[0]?.map(([lon, lat]) => [round(lon), round(lat)] as Position);
      if (ring && ring.length >= 4) multiPolygon.push([ring]);
    }
  }
  if (multiPolygon.length === 0) throw new Error("dc/geo/dc_boundary.geojson has no outline: the map could not tell where its basemap is drawn");
  return { layer: 'dc_boundary', simplifyToleranceDegrees: COVERAGE_TOLERANCE, multiPolygon };
}
