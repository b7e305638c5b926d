import { describe, expect, it } from 'vitest';
import { distance } from '@turf/distance';
import { MarketAreaSchema, type ComparablesMapSpec } from '../../../shared/comparables/model.ts';
import {
  APPROXIMATE_LOCATION,
  areaIdentity,
  boundsOf,
  extentKey,
  fanOffsets,
  frameSentence,
  legendRows,
  locationBoundsOf,
  mapData,
  pickedArea,
  pointHoverLines,
  ringOf,
  subjectHoverLines,
  type MapPoint,
} from './map-data.ts';

const SUBJECT: [number, number] = [-77.047037, 38.912976];

const point = (id: string, lonLat: [number, number], role: MapPoint['role'], number: number | null = null): MapPoint => ({
  id,
  lonLat,
  role,
  label: `${id.toUpperCase()} ST NW`,
  number,
  tag: number === null ? null : String(number),
  approximate: true,
  details: ['Sold for $1,250,000', 'Sold 2016-05-02', '$611 per sq ft', 'Source: DC OTR · 2017-02-05'],
});

const spec = (overrides: Partial<ComparablesMapSpec> = {}): ComparablesMapSpec => ({
  subject: { lonLat: SUBJECT, label: '1708 21ST ST NW', approximate: true, tag: 'S' },
  points: [
    point('a', [-77.045755, 38.911535], 'candidate'),
    point('b', [-77.042524, 38.913704], 'flagged'),
    point('c', [-77.042524, 38.913704], 'not_used'),
    point('d', [-77.040085, 38.916617], 'chosen', 2),
    point('e', [-77.039864, 38.912229], 'chosen', 1),
  ],
  area: { kind: 'radius', radiusMiles: 0.5 },
  radiusMiles: 0.5,
  altText: 'Map of comparable sales around 1708 21ST ST NW.',
  ...overrides,
});

describe('mapData', () => {
  it('puts the subject, the ring and the chosen comps in the fixed source, the rest where they may cluster', () => {
    const data = mapData(spec());
    expect(data.fixed.features.map((f) => f.properties.kind)).toEqual(['ring', 'subject', 'sale', 'sale']);
    expect(data.fixed.features.filter((f) => f.properties.kind === 'sale').map((f) => (f.properties as { icon: string }).icon)).toEqual(['plat-comp-2', 'plat-comp-1']);
    expect(data.others.features.map((f) => [f.properties.id, f.properties.icon])).toEqual([
      ['a', 'plat-candidate'],
      ['b', 'plat-flagged'],
      ['c', 'plat-not-used'],
    ]);
  });

  it('writes the spec’s marks: the grid number on each comp’s square, S beside the subject', () => {
    const data = mapData(spec({ subject: { lonLat: SUBJECT, label: '1708 21ST ST NW', approximate: true, tag: 'S' } }));
    const subject = data.fixed.features.find((f) => f.properties.kind === 'subject')!;
    expect(subject.properties).toMatchObject({ kind: 'subject', tag: 'S' });
    const relabelled = mapData(spec({ points: [{ ...spec().points[4]!, number: 1, tag: '7' }] }));
    expect(relabelled.fixed.features.flatMap((f) => (f.properties.kind === 'sale' ? [f.properties.icon] : []))).toEqual(['plat-comp-7']);
  });

  it('draws chosen comps over flagged sales over candidates over the ones not used', () => {
    const keys = Object.fromEntries([...mapData(spec()).fixed.features, ...mapData(spec()).others.features].flatMap((f) => (f.properties.kind === 'sale' ? [[f.properties.id, f.properties.sortKey]] : [])));
    expect(keys['c']).toBeLessThan(keys['a']!);
    expect(keys['a']).toBeLessThan(keys['b']!);
    expect(keys['b']).toBeLessThan(keys['e']!);
    expect(keys['e']).toBeLessThan(keys['d']!);
  });

  it('outlines a drawn or picked area as well as the ring searched', () => {
    const polygon: [number, number][][] = [[[-77.05, 38.91], [-77.04, 38.91], [-77.04, 38.92], [-77.05, 38.91]]];
    const drawn = mapData(spec({ area: { kind: 'polygon', label: 'Dupont blocks', polygon }, radiusMiles: 0.62 }));
    expect(drawn.fixed.features.slice(0, 2).map((f) => [f.properties.kind, f.geometry.type])).toEqual([
      ['area', 'Polygon'],
      ['ring', 'Polygon'],
    ]);
    const picked = mapData(spec({ area: { kind: 'layer', layer: 'ward', featureId: 'Ward 2', label: '2', multiPolygon: [polygon] }, radiusMiles: 1.1 }));
    expect(picked.fixed.features[0]?.geometry.type).toBe('MultiPolygon');
  });
});

describe('the ring', () => {
  it('is the radius searched, around the subject', () => {
    const ring = ringOf(spec({ radiusMiles: 0.75 }));
    const vertex = ring?.geometry.coordinates[0]?.[17] as [number, number];
    expect(distance(SUBJECT, vertex, { units: 'miles' })).toBeCloseTo(0.75, 3);
  });

  it('is not drawn without a subject or a radius', () => {
    expect(ringOf(spec({ subject: null }))).toBeNull();
    expect(ringOf(spec({ area: null, radiusMiles: null }))).toBeNull();
    expect(ringOf(spec({ radiusMiles: 0, area: null }))).toBeNull();
  });
});

describe('fanOffsets', () => {
  it('fans out sales at one tax-square centroid, leaving lone ones in place', () => {
    const offsets = fanOffsets(spec());
    expect(offsets.has('a')).toBe(false);
    const [b, c] = [offsets.get('b')!, offsets.get('c')!];
    expect(Math.hypot(b[0] - c[0], b[1] - c[1])).toBeGreaterThanOrEqual(21.9);
  });

  it('keeps the subject in the middle of the sales that share its square', () => {
    const offsets = fanOffsets(spec({ points: [point('x', SUBJECT, 'candidate'), point('y', SUBJECT, 'chosen', 1), point('z', SUBJECT, 'flagged')] }));
    for (const id of ['x', 'y', 'z']) expect(Math.hypot(...offsets.get(id)!)).toBeGreaterThanOrEqual(19.9);
  });

  it('scales each ring’s offset to its icon, so rings stay centred on their symbol', () => {
    const sale = mapData(spec()).others.features.find((f) => f.properties.id === 'b')!.properties;
    expect(sale.haloOffset[0] * sale.haloSize).toBeCloseTo(sale.offset[0], 0);
    expect(sale.highlightOffset[1] * sale.highlightSize).toBeCloseTo(sale.offset[1], 0);
  });
});

describe('bounds and fitting', () => {
  it('covers the subject, every sale and the whole ring', () => {
    const [[west, south], [east, north]] = boundsOf(spec())!;
    const ring = ringOf(spec())!.geometry.coordinates[0]!;
    for (const [lon, lat] of [...ring, SUBJECT, [-77.039864, 38.912229]] as Array<[number, number]>) {
      expect(lon).toBeGreaterThanOrEqual(west);
      expect(lon).toBeLessThanOrEqual(east);
      expect(lat).toBeGreaterThanOrEqual(south);
      expect(lat).toBeLessThanOrEqual(north);
    }
  });

  it('frames the printed location map on the subject and the chosen comps only', () => {
    // The ring reaches half a mile out; the subject and comps 1 and 2 lie within 0.45 mi of each other.
    expect(locationBoundsOf(spec())).toEqual([
      [-77.047037, 38.912229],
      [-77.039864, 38.916617],
    ]);
    const [[west], [east]] = boundsOf(spec())!;
    expect(east - west).toBeGreaterThan(2 * (-77.039864 - -77.047037));
    // Nothing chosen yet: everything the spec draws.
    const none = spec({ points: spec().points.filter((p) => p.role !== 'chosen') });
    expect(locationBoundsOf(none)).toEqual(boundsOf(none));
  });

  it('says what the framed picture leaves out', () => {
    expect(frameSentence(3, 6)).toBe('Framed on the subject and the 3 chosen comps; 6 other sales lie outside the frame (every sale is listed in the tables).');
    expect(frameSentence(1, 1)).toBe('Framed on the subject and the chosen comp; 1 other sale lies outside the frame (every sale is listed in the tables).');
    expect(frameSentence(2, 0)).toBe('Framed on the subject and the 2 chosen comps; every sale of the search is in view.');
  });

  it('has nothing to fit when nothing is placed', () => {
    expect(boundsOf(spec({ subject: null, points: [], area: null, radiusMiles: null }))).toBeNull();
  });

  it('refits for a new search or area, not for a sale chosen or dropped', () => {
    const before = spec();
    const chosen = spec({ points: before.points.map((p) => (p.id === 'a' ? { ...p, role: 'chosen' as const, number: 3 } : p)) });
    expect(extentKey(chosen)).toBe(extentKey(before));
    expect(extentKey(spec({ radiusMiles: 1, area: { kind: 'radius', radiusMiles: 1 } }))).not.toBe(extentKey(before));
  });
});

describe('words', () => {
  it('hovers a sale with its address, role, the spec’s lines and its approximate location', () => {
    expect(pointHoverLines(point('d', [-77.04, 38.91], 'chosen', 2))).toEqual([
      'D ST NW',
      'Comp 2',
      'Sold for $1,250,000',
      'Sold 2016-05-02',
      '$611 per sq ft',
      'Source: DC OTR · 2017-02-05',
      APPROXIMATE_LOCATION,
    ]);
    expect(pointHoverLines({ ...point('a', [-77.04, 38.91], 'flagged'), approximate: false })).toEqual([
      'A ST NW',
      'Flagged by the screening',
      'Sold for $1,250,000',
      'Sold 2016-05-02',
      '$611 per sq ft',
      'Source: DC OTR · 2017-02-05',
    ]);
    expect(subjectHoverLines({ lonLat: SUBJECT, label: '1708 21ST ST NW', approximate: true, tag: 'S' })).toEqual(['1708 21ST ST NW', 'Subject (S)', APPROXIMATE_LOCATION]);
  });

  it('lists what is drawn in the legend, with counts', () => {
    expect(legendRows(spec(), { clustered: true })).toEqual([
      { key: 'subject', label: 'Subject (S)', count: 1 },
      { key: 'chosen', label: 'Chosen comp (grid number)', count: 2 },
      { key: 'candidate', label: 'Candidate', count: 1 },
      { key: 'flagged', label: 'Flagged by the screening', count: 1 },
      { key: 'not_used', label: 'Analyzed, not used', count: 1 },
      { key: 'approximate', label: 'Dashed ring: approximate location (tax-square centroid)', count: 6 },
      { key: 'cluster', label: 'Nearby sales grouped (click to zoom in)', count: null },
      { key: 'ring', label: 'Market area: 0.5 mi around the subject', count: null },
    ]);
  });

  it('names a picked area in the legend and calls the ring the radius searched', () => {
    const rows = legendRows(spec({ area: { kind: 'layer', layer: 'zip', featureId: '20009', label: '20009', multiPolygon: [[[[-77.05, 38.91], [-77.04, 38.91], [-77.04, 38.92], [-77.05, 38.91]]]] }, radiusMiles: 1.25 }), { clustered: false });
    expect(rows.slice(-2)).toEqual([
      { key: 'area', label: 'Market area: ZIP code 20009', count: null },
      { key: 'ring', label: 'Radius searched: 1.25 mi around the subject', count: null },
    ]);
    expect(rows.some((row) => row.key === 'cluster')).toBe(false);
  });
});

describe('picking an area', () => {
  const square = [[[-77.05, 38.91], [-77.04, 38.91], [-77.04, 38.92], [-77.05, 38.92], [-77.05, 38.91]]];

  it('reads each layer’s id and a label that follows the layer’s name', () => {
    expect(areaIdentity('ward', { WARD: 2, NAME: 'Ward 2' })).toEqual({ featureId: 'Ward 2', label: '2' });
    expect(areaIdentity('zip', { ZIPCODE: '20009' })).toEqual({ featureId: '20009', label: '20009' });
    expect(areaIdentity('cluster', { NAME: 'Cluster 6', NBH_NAMES: 'Dupont Circle, Connecticut Avenue/K Street' })).toEqual({
      featureId: 'Cluster 6',
      label: '6 (Dupont Circle, Connecticut Avenue/K Street)',
    });
    expect(areaIdentity('assessment_neighborhood', { nbhd: '040', otr_name: 'OLD CITY II' })).toEqual({ featureId: '040', label: '040 (OLD CITY II)' });
    expect(areaIdentity('assessment_neighborhood', { nbhd: '001' })).toEqual({ featureId: '001', label: '001' });
    expect(areaIdentity('ward', {})).toBeNull();
  });

  it('gives the workfile a MultiPolygon it accepts, from a Polygon or a MultiPolygon', () => {
    const fromPolygon = pickedArea('ward', { properties: { WARD: 2, NAME: 'Ward 2' }, geometry: { type: 'Polygon', coordinates: square } });
    expect(fromPolygon).toEqual({ layer: 'ward', featureId: 'Ward 2', label: '2', multiPolygon: [square] });
    expect(MarketAreaSchema.safeParse({ kind: 'layer', ...fromPolygon }).success).toBe(true);
    const fromMulti = pickedArea('zip', { properties: { ZIPCODE: '20001' }, geometry: { type: 'MultiPolygon', coordinates: [square, square] } });
    expect(fromMulti?.multiPolygon).toHaveLength(2);
    expect(pickedArea('zip', { properties: { ZIPCODE: '20001' }, geometry: { type: 'Point', coordinates: [-77, 38.9] } })).toBeNull();
  });
});
