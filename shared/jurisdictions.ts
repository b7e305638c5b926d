// The jurisdiction codes the service accepts (spec, "Jurisdiction codes"): Census FIPS codes, two
// digits for a state, five for a county or independent city. Names are the Census Bureau's; `name`
// adds the state abbreviation to counties so that "Fairfax County, VA" and "Fairfax city, VA" read
// apart in lists.
import { z } from 'zod';

export const stateCodes = ['11', '24', '51'] as const;
export type StateCode = (typeof stateCodes)[number];
export type StateAbbreviation = 'DC' | 'MD' | 'VA';

export const jurisdictionCodes = [
  '11',
  '24',
  '51',
  '11001',
  '24001',
  '24003',
  '24005',
  '24009',
  '24011',
  '24013',
  '24015',
  '24017',
  '24019',
  '24021',
  '24023',
  '24025',
  '24027',
  '24029',
  '24031',
  '24033',
  '24035',
  '24037',
  '24039',
  '24041',
  '24043',
  '24045',
  '24047',
  '24510',
  '51013',
  '51059',
  '51107',
  '51510',
  '51600',
  '51610',
] as const;
export type JurisdictionCode = (typeof jurisdictionCodes)[number];

export const JurisdictionCodeSchema = z.enum(jurisdictionCodes, {
  error: 'must be one of the service jurisdiction codes (11, 24, 51 or a listed county code)',
});
export const StateCodeSchema = z.enum(stateCodes, { error: 'must be a state code: 11, 24 or 51' });

export interface Jurisdiction {
  code: JurisdictionCode;
  /** Display name: the state's name, or the Census county name with its state ("Montgomery County, MD"). */
  name: string;
  /** The Census Bureau's name without the state ("Montgomery County", "Baltimore city"). */
  censusName: string;
  kind: 'state' | 'county';
  stateCode: StateCode;
  stateAbbreviation: StateAbbreviation;
}

const states: Record<StateCode, { name: string; abbreviation: StateAbbreviation }> = {
  '11': { name: 'District of Columbia', abbreviation: 'DC' },
  '24': { name: 'Maryland', abbreviation: 'MD' },
  '51': { name: 'Virginia', abbreviation: 'VA' },
};

// Census names of the county-level codes. "city" in lower case is the Census form for Virginia's
// independent cities and for Baltimore city, which belong to no county.
const countyCensusNames: Record<Exclude<JurisdictionCode, StateCode>, string> = {
  '11001': 'District of Columbia',
  '24001': 'Allegany County',
  '24003': 'Anne Arundel County',
  '24005': 'Baltimore County',
  '24009': 'Calvert County',
  '24011': 'Caroline County',
  '24013': 'Carroll County',
  '24015': 'Cecil County',
  '24017': 'Charles County',
  '24019': 'Dorchester County',
  '24021': 'Frederick County',
  '24023': 'Garrett County',
  '24025': 'Harford County',
  '24027': 'Howard County',
  '24029': 'Kent County',
  '24031': 'Montgomery County',
  '24033': "Prince George's County",
  '24035': "Queen Anne's County",
  '24037': "St. Mary's County",
  '24039': 'Somerset County',
  '24041': 'Talbot County',
  '24043': 'Washington County',
  '24045': 'Wicomico County',
  '24047': 'Worcester County',
  '24510': 'Baltimore city',
  '51013': 'Arlington County',
  '51059': 'Fairfax County',
  '51107': 'Loudoun County',
  '51510': 'Alexandria city',
  '51600': 'Fairfax city',
  '51610': 'Falls Church city',
};

function stateCodeOf(code: JurisdictionCode): StateCode {
  return code.slice(0, 2) as StateCode;
}

/** Every jurisdiction the service accepts, states first, in the spec's order. */
export const jurisdictions: readonly Jurisdiction[] = jurisdictionCodes.map((code): Jurisdiction => {
  const stateCode = stateCodeOf(code);
  const state = states[stateCode];
  if (code.length === 2) {
    return { code, name: state.name, censusName: state.name, kind: 'state', stateCode, stateAbbreviation: state.abbreviation };
  }
  const censusName = countyCensusNames[code as Exclude<JurisdictionCode, StateCode>];
  // DC's single county-equivalent shares the District's name; "District of Columbia, DC" would stutter.
  const name = stateCode === '11' ? censusName : `${censusName}, ${state.abbreviation}`;
  return { code, name, censusName, kind: 'county', stateCode, stateAbbreviation: state.abbreviation };
});

const byCode = new Map<string, Jurisdiction>(jurisdictions.map((jurisdiction) => [jurisdiction.code, jurisdiction]));

export function isJurisdictionCode(code: string): code is JurisdictionCode {
  return byCode.has(code);
}

/** The jurisdiction with this code, or undefined for a code the service does not accept. */
export function findJurisdiction(code: string): Jurisdiction | undefined {
  return byCode.get(code);
}

function lookup(code: JurisdictionCode): Jurisdiction {
  const jurisdiction = byCode.get(code);
  if (!jurisdiction) throw new RangeError(`unknown jurisdiction code: ${code}`);
  return jurisdiction;
}

/** "Montgomery County, MD" for 24031, "Maryland" for 24, "District of Columbia" for 11 and 11001. */
export function jurisdictionName(code: JurisdictionCode): string {
  return lookup(code).name;
}

/** The state a jurisdiction lies in (a state is its own state). */
export function stateOf(code: JurisdictionCode): Jurisdiction {
  return lookup(stateCodeOf(lookup(code).code));
}

/** The county-level jurisdictions of a state, in code order. */
export function countiesOf(stateCode: StateCode): Jurisdiction[] {
  return jurisdictions.filter((jurisdiction) => jurisdiction.kind === 'county' && jurisdiction.stateCode === stateCode);
}
