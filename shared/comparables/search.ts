// The comparable search before it is bought: the date window, what is wrong with the criteria (in
// words for a person: a search with problems is never sent, so nothing is charged for it), the exact
// v3 request (the same criteria always give the same bytes, so a search already bought is a free
// cache hit), one-click widening, and the search described in words for the screen and the report.
import { oddEffectiveDateWarnings } from './effective-date.ts';
import { calendarDateOf, formatDateTime } from '../format-date.ts';
import { isIsoDate } from '../service/common.ts';
import { areaPolygons, coveringRadiusMiles, pointInPolygons, ringsClosed, selfIntersections, outlineCrossings } from './geometry.ts';
import { areaLayerLabels, type CompSearchCriteria, type CompSearchRun, type LonLat, type MarketArea, type PolygonCoords } from './model.ts';
import { formatCount } from '../format/number.ts';

/** The service searches at most this far around the subject (V3RecordQuerySchema's radius_miles). */
export const MAX_RADIUS_MILES = 5;
export const MONTHS_BACK_RANGE = { min: 1, max: 120 } as const;
export const BAND_PCT_RANGE = { min: 1, max: 100 } as const;
/** One page of the answer: the service's largest (each page with results is a purchase). */
export const COMPARABLES_PAGE_SIZE = 100;

// ---------------------------------------------------------------------------------------------
// The date window

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const daysInMonth = (year: number, month: number): number => {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
};

/**
 * Sold from the same day `monthsBack` months before the effective date, to the effective date
 * (both included). A day the earlier month lacks is its last day: 2016-03-31 less one month is
 * 2016-02-29.
 */
export function searchWindow(effectiveDate: string, monthsBack: number): { fromDate: string; toDate: string } {
  if (!isIsoDate(effectiveDate)) throw new RangeError(`not a date (YYYY-MM-DD): ${effectiveDate}`);
  if (!Number.isInteger(monthsBack) || monthsBack < 0) throw new RangeError(`not a whole number of months: ${monthsBack}`);
  const [year, month, day] = effectiveDate.split('-').map(Number) as [number, number, number];
  const monthIndex = year * 12 + (month - 1) - monthsBack;
  const fromYear = Math.floor(monthIndex / 12);
  const fromMonth = (monthIndex % 12) + 1;
  const fromDay = Math.min(day, daysInMonth(fromYear, fromMonth));
  return { fromDate: `${pad(fromYear, 4)}-${pad(fromMonth)}-${pad(fromDay)}`, toDate: effectiveDate };
}

// ---------------------------------------------------------------------------------------------
// Problems (block the search) and warnings (shown, do not block)

export interface CriteriaContext {
  effectiveDate: string;
  subject: { lonLat: LonLat } | null;
  /** The earliest and latest dated sale the service holds, when known. */
  salesCoverage: { earliest: string | null; latest: string | null } | null;
  /** Today where Plat runs (YYYY-MM-DD), for a far-future or distant-past effective date; absent: not judged. */
  today?: string;
}

const miles = (value: number) => `${Number(value.toFixed(2))} mi`;

/** What the area is called in a sentence: "The drawn area", "Ward 2". */
function areaName(area: MarketArea): string {
  if (area.kind === 'polygon') return area.label.trim() ? `The drawn area “${area.label.trim()}”` : 'The drawn area';
  if (area.kind === 'layer') return area.label.trim() || `${areaLayerLabels[area.layer]} ${area.featureId}`;
  return 'The radius';
}

function radiusProblems(radiusMiles: number): string[] {
  if (!Number.isFinite(radiusMiles) || radiusMiles <= 0) return ['The radius must be more than 0 miles.'];
  if (radiusMiles > MAX_RADIUS_MILES) {
    return [`The radius can be at most ${MAX_RADIUS_MILES} miles (the service searches up to ${MAX_RADIUS_MILES} miles around the subject).`];
  }
  return [];
}

const degrees = ([lon, lat]: LonLat) => `${Math.abs(lat).toFixed(5)}° ${lat >= 0 ? 'N' : 'S'}, ${Math.abs(lon).toFixed(5)}° ${lon >= 0 ? 'E' : 'W'}`;

/**
 * Why a drawn outline cannot be a market area, where it crosses, and how to fix it (by mouse and
 * from the keyboard): a self-crossing outline has no clear inside, so no sale can be said to be in it.
 */
export function selfCrossingProblem(polygon: PolygonCoords): string {
  const crossings = outlineCrossings(polygon);
  const shown = crossings.slice(0, 3).map((c) => `${c.ring > 0 ? `in hole ${c.ring}, ` : ''}side ${c.sideA} crosses side ${c.sideB} at ${degrees(c.at)}`);
  const more = crossings.length > shown.length ? ` and ${crossings.length - shown.length} more` : '';
  const where = shown.length > 0 ? ` (sides numbered from the first corner placed: ${shown.join('; ')}${more})` : '';
  return (
    `The drawn area crosses itself${where}, so it has no clear inside and cannot be a market area. ` +
    'Draw it again with the corners placed in order around the area (Draw on the map, then Escape starts over), or, from the keyboard, choose Radius or an area from the Market area list.'
  );
}

function areaProblems(area: MarketArea, subject: LonLat | null): string[] {
  if (area.kind === 'radius') return radiusProblems(area.radiusMiles);
  const polygons = areaPolygons(area) ?? [];
  const name = areaName(area);
  if (area.kind === 'polygon') {
    if (!ringsClosed(area.polygon)) return [`${name} is not closed: finish the outline where it started.`];
    // Official boundaries chosen from a layer are taken as published; only a drawn outline is checked.
    if (selfIntersections(area.polygon).length > 0) return [selfCrossingProblem(area.polygon)];
  }
  if (subject === null) return [];
  const reach = coveringRadiusMiles(subject, polygons);
  if (reach > MAX_RADIUS_MILES) {
    const what = area.kind === 'polygon' ? 'draw a smaller area' : 'choose a smaller area';
    return [
      `${name} reaches ${miles(reach)} from the subject; the service searches at most ${MAX_RADIUS_MILES} miles around it: ${what}, or search a radius.`,
    ];
  }
  return [];
}

function effectiveDateProblems(criteria: CompSearchCriteria, ctx: CriteriaContext): string[] {
  const date = ctx.effectiveDate.trim();
  if (date === '') return ['The assignment has no effective date: set it in the assignment (the sale period ends there).'];
  if (!isIsoDate(date)) return [`The effective date “${date}” is not a date (YYYY-MM-DD): set it in the assignment.`];
  const earliest = ctx.salesCoverage?.earliest ?? null;
  if (earliest !== null && date < earliest) {
    return [
      `The effective date ${date} is before every dated sale the service holds (the earliest is ${earliest}): no sale can fall in the ${criteria.monthsBack} months before it. Set a later effective date in the assignment.`,
    ];
  }
  return [];
}

/**
 * Why the search cannot be sent, each a sentence for a person; empty when it can. Nothing is charged
 * for a search with problems: the view shows them and does not send it.
 */
export function criteriaProblems(criteria: CompSearchCriteria, ctx: CriteriaContext): string[] {
  const problems: string[] = [];
  if (ctx.subject === null) {
    problems.push(
      'The subject has no location in the records, so there is nothing to search around: comparables are searched by distance from the subject. Buy the subject report if it is not bought yet, or choose a property the records locate.',
    );
  }
  problems.push(...areaProblems(criteria.area, ctx.subject?.lonLat ?? null));
  const months = criteria.monthsBack;
  if (!Number.isInteger(months) || months < MONTHS_BACK_RANGE.min || months > MONTHS_BACK_RANGE.max) {
    problems.push(`The sale period must be a whole number of months from ${MONTHS_BACK_RANGE.min} to ${MONTHS_BACK_RANGE.max}.`);
  }
  const band = criteria.livingAreaBandPct;
  if (!Number.isFinite(band) || band < BAND_PCT_RANGE.min || band > BAND_PCT_RANGE.max) {
    problems.push(`The living-area band must be from ${BAND_PCT_RANGE.min} to ${BAND_PCT_RANGE.max} % of the subject's living area.`);
  }
  problems.push(...effectiveDateProblems(criteria, ctx));
  return problems;
}

/**
 * What the appraiser should know before buying a search that can run: the subject outside its own
 * market area, a period with no dated sale in it. Shown beside the search; it is still sent.
 */
export function criteriaWarnings(criteria: CompSearchCriteria, ctx: CriteriaContext): string[] {
  const warnings: string[] = [];
  const polygons = areaPolygons(criteria.area);
  const subject = ctx.subject?.lonLat ?? null;
  if (polygons && subject && (criteria.area.kind === 'layer' || ringsClosed(polygons[0]!)) && !pointInPolygons(subject, polygons)) {
    warnings.push(
      `The subject is outside ${areaName(criteria.area).replace(/^The /, 'the ')}: sales are still searched around the subject, and those outside the area are listed as not used.`,
    );
  }
  if (ctx.today !== undefined) warnings.push(...oddEffectiveDateWarnings(ctx.effectiveDate, ctx.today));
  const latest = ctx.salesCoverage?.latest ?? null;
  if (latest !== null && isIsoDate(ctx.effectiveDate) && Number.isInteger(criteria.monthsBack) && criteria.monthsBack >= 1) {
    const { fromDate, toDate } = searchWindow(ctx.effectiveDate, criteria.monthsBack);
    if (fromDate > latest) {
      warnings.push(
        `No dated sale the service holds falls in ${fromDate} to ${toDate} (the latest is ${latest}): the search can only find sales without a date. Lengthen the period or set an earlier effective date in the assignment.`,
      );
    }
  }
  return warnings;
}

// ---------------------------------------------------------------------------------------------
// The request

/** The radius sent: the area's own, or the smallest around the subject covering the drawn or chosen area (null without a subject location). */
export function searchRadiusMiles(criteria: CompSearchCriteria, subjectLonLat: LonLat | null): number | null {
  const polygons = areaPolygons(criteria.area);
  if (polygons === null) return criteria.area.kind === 'radius' ? criteria.area.radiusMiles : null;
  return subjectLonLat === null ? null : coveringRadiusMiles(subjectLonLat, polygons);
}

export type ComparablesRequestBody = {
  mode: 'report';
  projection: 'report_comparables_v1';
  subject_property_ref: string;
  radius_miles: number;
  limit: number;
  filters: { sale: Array<{ field: string; value: string }>; property?: Array<{ field: string; value: string }> };
  cursor?: string;
};

/**
 * The v3 body for one page of the search. Built in one fixed key order so the same criteria give the
 * same bytes. Never `market_only`: non-market sales come back and are flagged, so they are seen and
 * never silently dropped. The living-area band is screened by Plat, not sent. A drawn or chosen area
 * needs the subject's location (its covering radius); check `criteriaProblems` first.
 */
export function comparablesRequestBody(
  subjectRef: string,
  criteria: CompSearchCriteria,
  effectiveDate: string,
  subjectUseCode: string | null,
  cursor?: string,
  subjectLonLat: LonLat | null = null,
): ComparablesRequestBody {
  const radius = searchRadiusMiles(criteria, subjectLonLat);
  if (radius === null) throw new Error('A drawn or chosen market area is searched around the subject: its location is needed for the radius.');
  const { fromDate, toDate } = searchWindow(effectiveDate, criteria.monthsBack);
  const useCode = subjectUseCode?.trim() ?? '';
  return {
    mode: 'report',
    projection: 'report_comparables_v1',
    subject_property_ref: subjectRef,
    radius_miles: radius,
    limit: COMPARABLES_PAGE_SIZE,
    filters: {
      sale: [
        { field: 'from_date', value: fromDate },
        { field: 'to_date', value: toDate },
        { field: 'include_undated', value: criteria.includeUndated ? 'true' : 'false' },
      ],
      ...(criteria.sameUseCode && useCode !== '' ? { property: [{ field: 'use_code', value: useCode }] } : {}),
    },
    ...(cursor === undefined ? {} : { cursor }),
  };
}

// ---------------------------------------------------------------------------------------------
// Widening, one click each

export const RADIUS_STEPS_MILES = [0.25, 0.5, 1, 1.5, 2, 3, 5] as const;
export const MONTHS_STEPS = [6, 12, 18, 24, 36, 60] as const;
export const BAND_STEPS_PCT = [10, 20, 30, 50] as const;

export interface WidenStep {
  key: 'radius' | 'months' | 'band';
  label: string;
  criteria: CompSearchCriteria;
}

const nextStep = (steps: readonly number[], current: number): number | null => steps.find((step) => step > current) ?? null;

/**
 * The next wider search in each dimension, from the appraisers' usual steps. A drawn or chosen area
 * has no radius to widen (its own outline decides), so it gets no radius step; a dimension already
 * at or past its last step gets none either.
 */
export function widenSteps(criteria: CompSearchCriteria): WidenStep[] {
  const steps: WidenStep[] = [];
  const area = criteria.area;
  if (area.kind === 'radius') {
    const next = nextStep(RADIUS_STEPS_MILES, area.radiusMiles);
    if (next !== null) {
      steps.push({ key: 'radius', label: `Radius ${area.radiusMiles} → ${next} mi`, criteria: { ...criteria, area: { kind: 'radius', radiusMiles: next } } });
    }
  }
  const months = nextStep(MONTHS_STEPS, criteria.monthsBack);
  if (months !== null) {
    steps.push({ key: 'months', label: `Sold within ${criteria.monthsBack} → ${months} months`, criteria: { ...criteria, monthsBack: months } });
  }
  const band = nextStep(BAND_STEPS_PCT, criteria.livingAreaBandPct);
  if (band !== null) {
    steps.push({ key: 'band', label: `Living area ±${criteria.livingAreaBandPct} → ±${band} %`, criteria: { ...criteria, livingAreaBandPct: band } });
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------
// The search in words


/** The living-area band around the subject's, in whole square feet (the screening uses the same bounds). */
export function livingAreaBand(subjectSqft: number, bandPct: number): { low: number; high: number } {
  return { low: Math.round(subjectSqft * (1 - bandPct / 100)), high: Math.round(subjectSqft * (1 + bandPct / 100)) };
}

/** The service states a snapshot name (`sample_v1_20231105_…`) or a date: said as what it is. */
function dataAsOfLine(dataAsOf: string | null): string {
  if (dataAsOf === null || dataAsOf.trim() === '') return 'Data as of: not stated by the service';
  const day = calendarDateOf(dataAsOf);
  return day ? `Data as of ${day}` : `Data as of the service's snapshot ${dataAsOf}`;
}

function areaLine(area: MarketArea, run: CompSearchRun | undefined): string {
  if (area.kind === 'radius') return `Within ${area.radiusMiles} mi of the subject`;
  const name = area.kind === 'polygon' ? areaName(area).replace(/^The /, 'the ') : `${area.label.trim() || area.featureId} (${areaLayerLabels[area.layer].toLowerCase()})`;
  const searched = run ? `, searched as ${run.radiusMiles} mi around the subject (the smallest radius covering it)` : '';
  return `Inside ${name}${searched}; sales outside it are listed as not used`;
}

/**
 * The search as run, line by line, for the screen and the report. `subject` gives the living area
 * the band is around and the use code matched (each said in general terms when unknown).
 */
export function describeCriteria(
  criteria: CompSearchCriteria,
  effectiveDate: string,
  run?: CompSearchRun,
  subject?: { livingAreaSqft: number | null; useCode: string | null } | null,
): string[] {
  const lines = [areaLine(criteria.area, run)];
  if (isIsoDate(effectiveDate) && Number.isInteger(criteria.monthsBack) && criteria.monthsBack >= 0) {
    const { fromDate, toDate } = searchWindow(effectiveDate, criteria.monthsBack);
    lines.push(`Sold ${fromDate} to ${toDate} (${criteria.monthsBack} months before the effective date)`);
  } else {
    lines.push(`Sold in the ${criteria.monthsBack} months before the effective date (not set)`);
  }
  const gla = subject?.livingAreaSqft ?? null;
  const pct = criteria.livingAreaBandPct;
  if (gla !== null && gla > 0) {
    const { low, high } = livingAreaBand(gla, pct);
    lines.push(`Living area ${formatCount(low)}–${formatCount(high)} sq ft (±${pct} % of the subject's ${formatCount(gla)})`);
  } else {
    lines.push(`Living area within ±${pct} % of the subject's`);
  }
  const useCode = subject?.useCode ?? null;
  if (!criteria.sameUseCode) lines.push('Any property type');
  else if (subject === undefined || subject === null) lines.push("Same property type as the subject (its use code)");
  else lines.push(useCode ? `Same property type as the subject (use code ${useCode})` : "Any property type (the subject's use code is not known)");
  lines.push(
    criteria.armsLengthOnly
      ? "Arm's-length (market) sales only; non-market sales are listed, flagged, not used"
      : "Non-market sales allowed (listed, flagged)",
  );
  lines.push(criteria.includeUndated ? 'Sales without a date (DC CAMA) listed, flagged, not used' : 'Dated sales only');
  if (run) {
    lines.push(`${formatCount(run.total)} sales found, ${formatCount(run.returned)} listed`);
    lines.push(`Ran ${formatDateTime(run.ranAt)}`);
    lines.push(dataAsOfLine(run.dataAsOf));
  }
  return lines;
}
