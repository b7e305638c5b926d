// The comparables map as data (ComparablesMapSpec): what the Comparables view's live map and the
// report's image both draw, with words for everything (hover lines, the legend table, the alt text),
// so a reader who cannot see the map, or a PDF printed where no map could be drawn, loses nothing.
import { citationLabel } from '../cited/citation.ts';
import type { Citation } from '../cited/value.ts';
import {
  areaLayerLabels,
  cautionFlags,
  type ComparableSale,
  type ComparablesAnalysis,
  type ComparablesMapSpec,
  type ComparablesWorkfile,
  type MapPointRole,
  type MarketArea,
} from './model.ts';


/** The subject's mark on the map and in its legend, as appraisal location maps letter it. */
export const SUBJECT_TAG = 'S';

/** A chosen comp's mark: its column number in the grid ("1", "2", …), the same on screen and in print. */
export const compTag = (number: number): string => String(number);

/** What a sale is on the map: a chosen comp, a sale the appraiser set aside, one the screening flags, or a plain candidate. */
export function mapRoleOf(candidate: ComparableSale, chosenIds: ReadonlySet<string>, workfile: Pick<ComparablesWorkfile, 'notUsed'>): MapPointRole {
  if (chosenIds.has(candidate.id)) return 'chosen';
  if (Object.hasOwn(workfile.notUsed, candidate.id)) return 'not_used';
  if (candidate.screenedOut !== null || candidate.flags.some((flag) => cautionFlags.has(flag))) return 'flagged';
  return 'candidate';
}

export const mapRoleLabels: Record<MapPointRole, string> = {
  chosen: 'Chosen comp',
  candidate: 'Candidate',
  flagged: 'Flagged by the screening',
  not_used: 'Analyzed, not used',
};

/** "0.12 mi NE" as the grid prints it, with "(approximate)" when either end is a tax-square centroid. */
export function distanceText(candidate: ComparableSale, subjectApproximate: boolean): string {
  const { proximity } = candidate.values;
  if (proximity.status === 'unavailable') return 'Distance not known';
  const approximate = subjectApproximate || candidate.location?.approximate === true;
  return `${proximity.display}${approximate ? ' (approximate)' : ''}`;
}

/** The citation label of the sale's price (who published it, as of when), for the hover lines. */
function sourceLine(candidate: ComparableSale, citations: ReadonlyMap<string, Citation>): string | null {
  const id = candidate.values.salePrice.citationIds[0] ?? candidate.values.saleDate.citationIds[0];
  const citation = id === undefined ? undefined : citations.get(id);
  return citation ? `Source: ${citationLabel(citation)}` : null;
}

function detailsOf(candidate: ComparableSale, subjectApproximate: boolean, citations: ReadonlyMap<string, Citation>): string[] {
  const { salePrice, saleDate, pricePerSqft } = candidate.values;
  const lines = [
    salePrice.status === 'unavailable' ? 'No sale price' : `Sold for ${salePrice.display}`,
    candidate.saleDate === null || saleDate.status === 'unavailable' ? 'No sale date' : `Sold ${saleDate.display}`,
    pricePerSqft.status === 'unavailable' ? null : pricePerSqft.display,
    distanceText(candidate, subjectApproximate),
    sourceLine(candidate, citations),
  ];
  return lines.filter((line): line is string => line !== null);
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function areaWords(area: MarketArea | null, radiusMiles: number | null): string {
  const radius = radiusMiles === null ? null : `${radiusMiles} mi`;
  if (area === null) return radius ? `within ${radius} of the subject (the ring)` : 'around the subject';
  if (area.kind === 'radius') return `within ${area.radiusMiles} mi of the subject (the ring)`;
  const name = area.kind === 'polygon' ? `the market area drawn by the appraiser${area.label ? ` (“${area.label}”)` : ''}` : `${areaLayerLabels[area.layer]} ${area.label || area.featureId}`;
  return `in ${name}, outlined${radius ? `, searched as the ${radius} around the subject that covers it (the ring)` : ''}`;
}

/** The map of an analysis: the subject, every candidate in its role, the market area and the ring searched. */
export function mapSpecFor(analysis: ComparablesAnalysis, workfile: ComparablesWorkfile): ComparablesMapSpec {
  const subject = analysis.set.subject;
  const subjectApproximate = subject?.location?.approximate === true;
  const chosenNumbers = new Map(analysis.chosen.map((comp, index) => [comp.id, index + 1]));
  const chosenIds = new Set(chosenNumbers.keys());
  const citations = new Map(analysis.citations.map((citation) => [citation.id, citation]));
  const points: ComparablesMapSpec['points'] = [];
  const unplaced: string[] = [];
  const roles: Record<MapPointRole, number> = { chosen: 0, candidate: 0, flagged: 0, not_used: 0 };
  let approximate = subjectApproximate;
  for (const candidate of analysis.set.candidates) {
    if (candidate.location === null) {
      unplaced.push(candidate.address);
      continue;
    }
    const role = mapRoleOf(candidate, chosenIds, workfile);
    roles[role] += 1;
    approximate ||= candidate.location.approximate;
    points.push({
      id: candidate.id,
      lonLat: candidate.location.lonLat,
      role,
      label: candidate.address,
      number: chosenNumbers.get(candidate.id) ?? null,
      tag: chosenNumbers.has(candidate.id) ? compTag(chosenNumbers.get(candidate.id)!) : null,
      approximate: candidate.location.approximate,
      details: detailsOf(candidate, subjectApproximate, citations),
    });
  }
  // Chosen comps last: drawn on top, and listed in column order.
  points.sort((a, b) => (a.number ?? 0) - (b.number ?? 0));
  const area = analysis.run?.criteria.area ?? null;
  const radiusMiles = analysis.run?.radiusMiles ?? null;

  const sentences = [
    subject?.location
      ? `Map of comparable sales around the subject, ${subject.address} (the star marked ${SUBJECT_TAG}), ${areaWords(area, radiusMiles)}.`
      : `Map of comparable sales ${areaWords(area, radiusMiles)}; the subject has no location to draw.`,
    points.length === 0
      ? 'No sale is drawn.'
      : `${count(points.length, 'sale')} drawn: ${[
          roles.chosen > 0 ? `${count(roles.chosen, 'chosen comp')} numbered 1 to ${roles.chosen} in grid order` : 'no comp chosen',
          `${count(roles.candidate, 'other candidate')}`,
          `${count(roles.flagged, 'sale')} flagged by the screening`,
          `${count(roles.not_used, 'sale')} the appraiser marked not used`,
        ].join(', ')}.`,
    unplaced.length > 0 ? `${count(unplaced.length, 'sale')} without a location ${unplaced.length === 1 ? 'is' : 'are'} not drawn (${unplaced.join('; ')}).` : null,
    approximate ? 'Locations of OTR sales are tax-square centroids (approximate), about 100 m from the lot.' : null,
  ];
  return {
    subject: subject?.location ? { lonLat: subject.location.lonLat, label: subject.address, approximate: subjectApproximate, tag: SUBJECT_TAG } : null,
    points,
    area,
    radiusMiles,
    altText: sentences.filter((sentence): sentence is string => sentence !== null).join(' '),
  };
}
