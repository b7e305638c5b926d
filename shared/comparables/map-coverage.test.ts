// The "no basemap here" decision on a coverage shaped like the sample's (an outline with a diagonal
// edge, as DC's south-west side): a place inside the outline's bounding box but outside the outline
// gets the note. scripts/build-map-assets.test.ts runs the same decision on the committed coverage
// for 1708 21st St NW and 220 E Del Ray Av, Alexandria.
import { describe, expect, it } from 'vitest';
import { basemapCoverageOf, NO_BASEMAP_NOTE } from './map-coverage.ts';
import type { ComparablesMapSpec, LonLat, MultiPolygonCoords } from './model.ts';

// A diamond standing for DC: its box reaches over the corner where Alexandria is.
const coverage: MultiPolygonCoords = [
  [
    [
      [-77.04, 38.79],
      [-76.91, 38.89],
      [-77.04, 38.99],
      [-77.12, 38.93],
      [-77.04, 38.79],
    ],
  ],
];
const IN_DC: LonLat = [-77.047037, 38.912976];
const IN_THE_BOX_NOT_THE_OUTLINE: LonLat = [-77.1, 38.82];

const spec = (subject: LonLat | null, points: LonLat[]): ComparablesMapSpec => ({
  subject: subject ? { lonLat: subject, label: 'Subject', approximate: false, tag: 'S' } : null,
  points: points.map((lonLat, index) => ({ id: `p${index}`, lonLat, role: 'candidate', label: `Sale ${index}`, number: null, tag: null, approximate: false, details: [] })),
  area: null,
  radiusMiles: null,
  altText: 'Map.',
});

describe('basemapCoverageOf', () => {
  it('needs no note where the basemap is drawn', () => {
    expect(basemapCoverageOf(spec(IN_DC, [[-77.042524, 38.913704]]), coverage)).toEqual({ status: 'covered', places: 2, outside: 0, note: null });
  });

  it('says so where every place lies outside the outline, though inside its box', () => {
    const decided = basemapCoverageOf(spec(IN_THE_BOX_NOT_THE_OUTLINE, [[-77.11, 38.81]]), coverage);
    expect(decided).toEqual({ status: 'none', places: 2, outside: 2, note: NO_BASEMAP_NOTE });
    expect(decided.note).toBe('No basemap in the sample for this area: points are drawn on a blank background');
  });

  it('counts the places a map draws beyond the basemap', () => {
    const decided = basemapCoverageOf(spec(IN_DC, [IN_THE_BOX_NOT_THE_OUTLINE, [-77.042524, 38.913704]]), coverage);
    expect(decided).toMatchObject({ status: 'partial', places: 3, outside: 1 });
    expect(decided.note).toContain('1 of the 3 places');
  });

  it('needs no note when there is nothing to place', () => {
    expect(basemapCoverageOf(spec(null, []), coverage).status).toBe('covered');
  });
});
