// Distances, directions and market areas around the subject, with turf doing the geometry. All
// positions are GeoJSON order, [longitude, latitude].
import { bearing } from '@turf/bearing';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { distance } from '@turf/distance';
import { kinks } from '@turf/kinks';
import type { LonLat, MarketArea, MultiPolygonCoords, PolygonCoords } from './model.ts';

/** Great-circle distance in miles. */
export function distanceMiles(from: LonLat, to: LonLat): number {
  return distance(from, to, { units: 'miles' });
}

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

/** Two points closer than this (about 0.5 m) are the same place: no direction between them. */
const SAME_PLACE_MILES = 0.0003;

/**
 * The compass point (of eight) from `from` towards `to`: "N", "NE" …; null when they are the same
 * place (two lots of one tax square share its centroid).
 */
export function compassDirection(from: LonLat, to: LonLat): string | null {
  if (distanceMiles(from, to) < SAME_PLACE_MILES) return null;
  const degrees = (bearing(from, to) + 360) % 360;
  return COMPASS[Math.round(degrees / 45) % 8] ?? null;
}

/** Proximity as the grid prints it: "0.12 mi NE" (two decimals, as URAR grids do). */
export function proximityText(miles: number, direction: string | null): string {
  const text = `${miles.toFixed(2)} mi`;
  return direction ? `${text} ${direction}` : `${text} (same point as the subject)`;
}

/** A polygon or multipolygon as one list of polygons. */
export function areaPolygons(area: MarketArea): MultiPolygonCoords | null {
  if (area.kind === 'polygon') return [area.polygon];
  if (area.kind === 'layer') return area.multiPolygon;
  return null;
}

/** Whether the point is inside the (multi)polygon, holes excluded; a point on the boundary is inside. */
export function pointInPolygons(point: LonLat, polygons: MultiPolygonCoords): boolean {
  return booleanPointInPolygon(point, { type: 'MultiPolygon', coordinates: polygons });
}

/** Every ring ends where it starts (GeoJSON's rule; an open ring has no inside). */
export function ringsClosed(polygon: PolygonCoords): boolean {
  return polygon.every((ring) => {
    const first = ring[0];
    const last = ring[ring.length - 1];
    return first !== undefined && last !== undefined && first[0] === last[0] && first[1] === last[1];
  });
}

/** A ring without a point repeated in place (a double click while drawing), which is no crossing. */
const withoutRepeats = (ring: readonly LonLat[]): LonLat[] =>
  ring.filter((point, index) => index === 0 || point[0] !== ring[index - 1]![0] || point[1] !== ring[index - 1]![1]);

/** Where the polygon's outline crosses itself (or a hole crosses the outline); empty when it does not. */
export function selfIntersections(polygon: PolygonCoords): LonLat[] {
  const cleaned = polygon.map(withoutRepeats);
  return kinks({ type: 'Polygon', coordinates: cleaned }).features.map((feature) => feature.geometry.coordinates as LonLat);
}

/** Where two sides of a drawn outline cross: the sides by number (side 1 runs from corner 1 to corner 2) and the point. */
export interface OutlineCrossing {
  /** 0 for the outline, 1… for holes. */
  ring: number;
  sideA: number;
  sideB: number;
  at: LonLat;
}

/** Where segment p1→p2 crosses q1→q2 at an interior point of both; null when they do not cross. */
function segmentCrossing(p1: LonLat, p2: LonLat, q1: LonLat, q2: LonLat): LonLat | null {
  const d = (p2[0] - p1[0]) * (q2[1] - q1[1]) - (p2[1] - p1[1]) * (q2[0] - q1[0]);
  if (d === 0) return null;
  const t = ((q1[0] - p1[0]) * (q2[1] - q1[1]) - (q1[1] - p1[1]) * (q2[0] - q1[0])) / d;
  const u = ((q1[0] - p1[0]) * (p2[1] - p1[1]) - (q1[1] - p1[1]) * (p2[0] - p1[0])) / d;
  if (t <= 0 || t >= 1 || u <= 0 || u >= 1) return null;
  return [p1[0] + t * (p2[0] - p1[0]), p1[1] + t * (p2[1] - p1[1])];
}

/**
 * The sides of a drawn outline that cross one another (within each ring), numbered as the corners
 * were placed, so a person can be told which lines cross and where.
 */
export function outlineCrossings(polygon: PolygonCoords): OutlineCrossing[] {
  const crossings: OutlineCrossing[] = [];
  polygon.map(withoutRepeats).forEach((ring, ringIndex) => {
    const sides = ring.length - 1;
    for (let a = 0; a < sides; a++) {
      for (let b = a + 2; b < sides; b++) {
        // The first and last sides meet at the first corner: that is a shared corner, not a crossing.
        if (a === 0 && b === sides - 1) continue;
        const at = segmentCrossing(ring[a]!, ring[a + 1]!, ring[b]!, ring[b + 1]!);
        if (at) crossings.push({ ring: ringIndex, sideA: a + 1, sideB: b + 1, at });
      }
    }
  });
  return crossings;
}

/**
 * The smallest radius around the subject that covers the area, rounded up to 0.01 mile: the
 * farthest vertex, since no point of a polygon is farther from any point than its farthest vertex.
 */
export function coveringRadiusMiles(subject: LonLat, polygons: MultiPolygonCoords): number {
  let farthest = 0;
  for (const polygon of polygons) {
    // Holes lie inside the outline: only the outer ring can hold the farthest point.
    for (const vertex of polygon[0] ?? []) farthest = Math.max(farthest, distanceMiles(subject, vertex));
  }
  // The small allowance keeps an exact 0.5 from reading as 0.5000000001 and rounding up to 0.51.
  return Math.ceil(farthest * 100 - 1e-9) / 100;
}
