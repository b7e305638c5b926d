import { describe, expect, it } from 'vitest';
import {
  outlineCrossings,
  compassDirection,
  coveringRadiusMiles,
  distanceMiles,
  pointInPolygons,
  proximityText,
  ringsClosed,
  selfIntersections,
} from './geometry.ts';
import type { LonLat, PolygonCoords } from './model.ts';
import { squareAround } from './test-kit.ts';

// 1708 21ST ST NW (its tax square's centroid) and 2015 Q ST NW, from the comparables fixture.
const subject: LonLat = [-77.047037, 38.912976];
const qStreet: LonLat = [-77.045755, 38.911535];

describe('distance and direction', () => {
  it('agrees with the service’s distance for a fixture sale', () => {
    expect(distanceMiles(subject, qStreet)).toBeCloseTo(0.121, 3);
  });

  it('names the compass point of eight', () => {
    expect(compassDirection(subject, qStreet)).toBe('SE');
    expect(compassDirection([0, 0], [0, 0.01])).toBe('N');
    expect(compassDirection([0, 0], [0.01, 0.01])).toBe('NE');
    expect(compassDirection([0, 0], [-0.01, 0])).toBe('W');
    expect(compassDirection([0, 0], [-0.001, -0.01])).toBe('S');
  });

  it('has no direction between two lots at one square centroid', () => {
    expect(compassDirection(subject, [...subject] as LonLat)).toBeNull();
    expect(proximityText(0, null)).toBe('0.00 mi (same point as the subject)');
    expect(proximityText(0.1211, 'SE')).toBe('0.12 mi SE');
  });
});

describe('market areas', () => {
  it('finds points inside, outside and in a hole', () => {
    const outer = squareAround([0, 0], 1)[0]!;
    const hole = squareAround([0, 0], 0.2)[0]!;
    expect(pointInPolygons([0.5, 0.5], [[outer]])).toBe(true);
    expect(pointInPolygons([1.5, 0], [[outer]])).toBe(false);
    expect(pointInPolygons([0, 0], [[outer, hole]])).toBe(false);
    expect(pointInPolygons([5, 5], [[outer], squareAround([5, 5], 0.1)])).toBe(true);
  });

  it('finds an outline that crosses itself, and not a plain one', () => {
    expect(selfIntersections(squareAround([0, 0], 1))).toEqual([]);
    const bowtie: PolygonCoords = [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]];
    const crossings = selfIntersections(bowtie);
    expect(crossings).toHaveLength(1);
    expect(crossings[0]![0]).toBeCloseTo(0.5);
    expect(crossings[0]![1]).toBeCloseTo(0.5);
  });

  it('does not take a point repeated by a double click for a crossing', () => {
    const doubled: PolygonCoords = [[[0, 0], [1, 0], [1, 0], [1, 1], [0, 1], [0, 0]]];
    expect(selfIntersections(doubled)).toEqual([]);
  });

  it('finds a hole that crosses the outline', () => {
    const polygon: PolygonCoords = [squareAround([0, 0], 1)[0]!, [[0.5, 0.5], [1.5, 0.5], [1.5, 0.6], [0.5, 0.6], [0.5, 0.5]]];
    expect(selfIntersections(polygon).length).toBeGreaterThan(0);
  });

  it('tells an open outline', () => {
    expect(ringsClosed(squareAround([0, 0], 1))).toBe(true);
    expect(ringsClosed([[[0, 0], [1, 0], [1, 1], [0, 1]]])).toBe(false);
  });

  it('covers a polygon with the distance to its farthest vertex, rounded up to 0.01 mi', () => {
    const area = squareAround(subject, 0.005);
    const corners = area[0]!.map((corner) => distanceMiles(subject, corner));
    const covering = coveringRadiusMiles(subject, [area]);
    expect(covering).toBe(Math.ceil(Math.max(...corners) * 100) / 100);
    expect(covering).toBeGreaterThanOrEqual(Math.max(...corners));
    expect(covering - Math.max(...corners)).toBeLessThan(0.01);
  });

  it('covers every polygon of a multipolygon, even one the subject is outside of', () => {
    const near = squareAround(subject, 0.001);
    const far = squareAround([subject[0] + 0.05, subject[1]], 0.001);
    const farthest = distanceMiles(subject, [subject[0] + 0.051, subject[1] + 0.001]);
    expect(coveringRadiusMiles(subject, [near, far])).toBe(Math.ceil(farthest * 100) / 100);
  });

  it('does not round an exact hundredth up', () => {
    // A vertex 0.5 mi due north, as distanceMiles measures it.
    const degreesPerMile = 1 / distanceMiles([0, 0], [0, 1]);
    const ring: PolygonCoords = [[[0, 0.5 * degreesPerMile], [0.001, 0], [-0.001, 0], [0, 0.5 * degreesPerMile]]];
    expect(coveringRadiusMiles([0, 0], [ring])).toBe(0.5);
  });
});

describe('outlineCrossings', () => {
  it('names the sides that cross and where, counting sides from the first corner', () => {
    const bowtie: PolygonCoords = [[[-77.05, 38.91], [-77.04, 38.92], [-77.04, 38.91], [-77.05, 38.92], [-77.05, 38.91]]];
    const crossings = outlineCrossings(bowtie);
    expect(crossings).toHaveLength(1);
    expect(crossings[0]).toMatchObject({ ring: 0, sideA: 1, sideB: 3 });
    expect(crossings[0]!.at[0]).toBeCloseTo(-77.045, 9);
    expect(crossings[0]!.at[1]).toBeCloseTo(38.915, 9);
  });
  it('finds none in a plain outline, whose first and last sides only meet at the first corner', () => {
    const square: PolygonCoords = [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]];
    expect(outlineCrossings(square)).toEqual([]);
  });
});
