// What the catalog's coverage says a priced answer will lack for a property's jurisdiction, before it
// is bought: the one decision every priced confirmation reads (the subject report, the summary, the
// comparables search). Read from the v2 catalog's coverage rows by domain (ownership, assessment,
// sale, permit, building characteristics), whatever names the service gives their keys; a row may
// name its area only by a jurisdiction code (another service), which the jurisdictions facet maps to
// area ids. Where the coverage says nothing for the area, nothing is said: Plat does not guess.
import { isRecord } from '../json-data.ts';

export const gapDomains = ['ownership', 'assessment', 'sale', 'permit', 'characteristics'] as const;
export type GapDomain = (typeof gapDomains)[number];

export const gapDomainLabels: Record<GapDomain, string> = {
  ownership: 'owner names',
  assessment: 'assessed values',
  sale: 'sales',
  permit: 'permits',
  characteristics: 'building characteristics',
};

/** The priced answers whose contents depend on the coverage, and the domains each is made of. */
export type PricedAnswer = 'subject_report' | 'subject_summary' | 'comparables_search';
export const answerDomains: Record<PricedAnswer, readonly GapDomain[]> = {
  subject_report: ['ownership', 'assessment', 'sale', 'permit', 'characteristics'],
  subject_summary: ['ownership', 'assessment', 'sale'],
  comparables_search: ['sale', 'characteristics'],
};
const answerNames: Record<PricedAnswer, string> = {
  subject_report: 'the subject report',
  subject_summary: 'the summary',
  comparables_search: 'a comparables search',
};

export interface CoverageRow {
  areaUid: string | null;
  jurisdiction: string | null;
  domain: GapDomain;
  /** The coverage says the area has none of it. */
  none: boolean;
  name: string;
}

const AREA_KEYS = ['area_uid', 'area_id', 'area_ref', 'area'];
const JURISDICTION_KEYS = ['jurisdiction', 'jurisdiction_code', 'fips', 'county_fips', 'geoid'];
const DOMAIN_KEYS = ['domain_key', 'domain', 'coverage_domain', 'data_domain'];
const STATUS_KEYS = ['status', 'coverage_status', 'availability', 'coverage'];
const NAME_KEYS = ['name', 'label', 'jurisdiction_name', 'area_name'];
const NONE_STATUS = /^(none|unavailable|not[ _-]?available|not[ _-]?covered|no|absent|missing|no[ _-]?data)$/i;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '');
const firstText = (row: Record<string, unknown>, keys: readonly string[]): string => keys.map((key) => text(row[key])).find((value) => value !== '') ?? '';

/** The domain a service's domain key stands for (`building_characteristics` and `characteristics` are one). */
function gapDomainOf(key: string): GapDomain | null {
  const k = key.toLowerCase();
  if (/owner/.test(k)) return 'ownership';
  if (/assess/.test(k)) return 'assessment';
  if (/^sales?$|sale/.test(k)) return 'sale';
  if (/permit/.test(k)) return 'permit';
  if (/character|building/.test(k)) return 'characteristics';
  return null;
}

/** The coverage rows of a v2 catalog coverage answer's items, each about one area and one of the domains. */
export function readCoverageRows(items: readonly unknown[]): CoverageRow[] {
  const rows: CoverageRow[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const domain = gapDomainOf(firstText(item, DOMAIN_KEYS));
    const status = firstText(item, STATUS_KEYS);
    if (domain === null || status === '') continue;
    rows.push({
      areaUid: firstText(item, AREA_KEYS) || null,
      jurisdiction: firstText(item, JURISDICTION_KEYS) || null,
      domain,
      none: NONE_STATUS.test(status),
      name: firstText(item, NAME_KEYS),
    });
  }
  return rows;
}

/** Each area id's jurisdiction code, from the jurisdictions facet's items (`area_uids`, `area_uid` or `areas`). */
export function jurisdictionsByArea(items: readonly unknown[]): Map<string, string> {
  const byArea = new Map<string, string>();
  for (const item of items) {
    if (!isRecord(item)) continue;
    const jurisdiction = firstText(item, JURISDICTION_KEYS);
    const list = Array.isArray(item.area_uids) ? item.area_uids : Array.isArray(item.areas) ? item.areas : [item.area_uid ?? item.area_id];
    for (const entry of list) {
      const area = isRecord(entry) ? firstText(entry, AREA_KEYS) : text(entry);
      if (area !== '' && jurisdiction !== '') byArea.set(area, jurisdiction);
    }
  }
  return byArea;
}

export interface CoverageGap {
  answer: PricedAnswer;
  /** The domains the answer is made of that the coverage says the area has none of. */
  missing: GapDomain[];
  /** Whether most of the answer will be empty (more than half its domains missing, or a search's sales). */
  mostlyEmpty: boolean;
  /** The area as the coverage names it ("City of Alexandria"). */
  areaName: string;
  /** Said in the confirmation, before the charge. */
  sentence: string;
}

const list = (words: readonly string[]): string =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

/**
 * What `answer` will lack for the property in `areaUid`, as the coverage says: null when the
 * coverage says nothing for that area, or nothing is missing. Rows naming only a jurisdiction are
 * matched through `jurisdictions` (area id → code).
 */
export function coverageGap(
  rows: readonly CoverageRow[],
  areaUid: string,
  answer: PricedAnswer,
  jurisdictions: ReadonlyMap<string, string> = new Map(),
): CoverageGap | null {
  const code = jurisdictions.get(areaUid) ?? null;
  const mine = rows.filter((row) => (row.areaUid !== null ? row.areaUid === areaUid : code !== null && row.jurisdiction === code));
  if (mine.length === 0) return null;
  const needed = answerDomains[answer];
  // A domain the coverage lists as "none" and nowhere as held.
  const missing = needed.filter((domain) => mine.some((row) => row.domain === domain && row.none) && !mine.some((row) => row.domain === domain && !row.none));
  if (missing.length === 0) return null;
  const mostlyEmpty = answer === 'comparables_search' ? missing.includes('sale') : missing.length * 2 > needed.length;
  const areaName = mine.find((row) => row.name !== '')?.name ?? areaUid;
  const lacking = list(missing.map((domain) => gapDomainLabels[domain]));
  const consequence =
    answer === 'comparables_search'
      ? missing.includes('sale')
        ? 'the search can find no sale there.'
        : `its sales will carry no ${lacking}.`
      : mostlyEmpty
        ? `most of ${answerNames[answer]} will read “Unavailable”.`
        : `those parts of ${answerNames[answer]} will read “Unavailable”.`;
  return {
    answer,
    missing,
    mostlyEmpty,
    areaName,
    sentence: `The service’s catalog says it holds no ${lacking} for ${areaName}: ${consequence}`,
  };
}
