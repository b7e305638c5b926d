// What is odd about an assignment's effective date, said where it is typed (the assignment's field)
// and beside the comparables search, before anything is bought: a date outside the sales the
// service's catalog says it holds (only when the catalog says; a service that does not is not
// guessed at), and a date far in the future or in the distant past. Warnings, never refusals: the
// date is the appraiser's.
import { isIsoDate } from '../service/common.ts';

/** The sale dates the catalog states (either end may be missing). */
export interface SalesCoverage {
  earliest: string | null;
  latest: string | null;
}

/** An effective date more than this many years after today is far in the future. */
export const FAR_FUTURE_YEARS = 2;
/** An effective date more than this many years before today is in the distant past. */
export const DISTANT_PAST_YEARS = 75;

const shiftYears = (day: string, years: number): string => `${String(Number(day.slice(0, 4)) + years).padStart(4, '0')}${day.slice(4)}`;

/** Far-future or distant-past dates, judged against `today` (YYYY-MM-DD, the local day); nothing for text that is not a date. */
export function oddEffectiveDateWarnings(date: string, today: string): string[] {
  const day = date.trim();
  if (!isIsoDate(day) || !isIsoDate(today)) return [];
  if (day > shiftYears(today, FAR_FUTURE_YEARS)) {
    return [`The effective date ${day} is more than ${FAR_FUTURE_YEARS} years after today (${today}): is the year right? An appraisal speaks for a current or past date, or a near prospective one.`];
  }
  if (day < shiftYears(today, -DISTANT_PAST_YEARS)) {
    return [`The effective date ${day} is more than ${DISTANT_PAST_YEARS} years before today (${today}): is the year right?`];
  }
  return [];
}

/**
 * Where the effective date lies against the sales the catalog states: before the first (no sale can
 * be in the period before it) or after the last (a search finds no dated sale near it). Nothing when
 * the catalog states no coverage.
 */
export function coverageEffectiveDateWarnings(date: string, coverage: SalesCoverage | null): string[] {
  const day = date.trim();
  if (!isIsoDate(day) || coverage === null) return [];
  if (coverage.earliest !== null && day < coverage.earliest) {
    return [`The effective date ${day} is before the first sale the service holds (${coverage.earliest}): a comparables search would find no dated sale before it.`];
  }
  if (coverage.latest !== null && day > coverage.latest) {
    return [
      `The effective date ${day} is after the last sale the service holds (${coverage.latest}): a comparables search for the months before it finds no dated sale, and would still be charged for what it lists. Set the date the appraisal speaks for, or expect only undated sales.`,
    ];
  }
  return [];
}

/** Every warning for an effective date, in the order they are shown. */
export function effectiveDateWarnings(date: string, coverage: SalesCoverage | null, today: string): string[] {
  return [...oddEffectiveDateWarnings(date, today), ...coverageEffectiveDateWarnings(date, coverage)];
}
