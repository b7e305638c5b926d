// Whether the sample's basemap covers what a comparables map draws: the one decision behind the
// note the screen's map and the printed map carry where there is nothing under the points. It is
// decided from the basemap's own coverage (the outline the map build writes into its manifest, DC's
// boundary in the sample), never from a jurisdiction's name: a sample with another city's basemap
// answers differently without a change here.
import { pointInPolygons } from './geometry.ts';
import type { ComparablesMapSpec, LonLat, MultiPolygonCoords } from './model.ts';

export type BasemapCoverageStatus = 'covered' | 'partial' | 'none';

export interface BasemapCoverageNote {
  status: BasemapCoverageStatus;
  /** Places drawn (the subject and every sale) and how many lie outside the basemap. */
  places: number;
  outside: number;
  /** What the map says about it, or null when the basemap is under every place. */
  note: string | null;
}

export const NO_BASEMAP_NOTE = 'No basemap in the sample for this area: points are drawn on a blank background';

/** The spec's places against the basemap's coverage; a map with nothing to place needs no note. */
export function basemapCoverageOf(spec: ComparablesMapSpec, coverage: MultiPolygonCoords): BasemapCoverageNote {
  const places: LonLat[] = [...(spec.subject ? [spec.subject.lonLat] : []), ...spec.points.map((point) => point.lonLat)];
  const outside = places.filter((place) => !pointInPolygons(place, coverage)).length;
  if (outside === 0) return { status: 'covered', places: places.length, outside, note: null };
  if (outside === places.length) return { status: 'none', places: places.length, outside, note: NO_BASEMAP_NOTE };
  return {
    status: 'partial',
    places: places.length,
    outside,
    note: `The sample's basemap does not reach ${outside} of the ${places.length} places drawn: those are on a blank background`,
  };
}
