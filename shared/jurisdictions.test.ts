import { describe, expect, it } from 'vitest';
import {
  countiesOf,
  findJurisdiction,
  JurisdictionCodeSchema,
  jurisdictionCodes,
  jurisdictionName,
  jurisdictions,
  stateOf,
} from './jurisdictions.ts';

describe('jurisdictions', () => {
  it('lists every code of the spec once: 3 states and 31 county-level codes', () => {
    expect(jurisdictions).toHaveLength(34);
    expect(new Set(jurisdictions.map((j) => j.code)).size).toBe(34);
    expect(jurisdictions.filter((j) => j.kind === 'state').map((j) => j.code)).toEqual(['11', '24', '51']);
    expect(countiesOf('24')).toHaveLength(24);
    expect(countiesOf('51').map((j) => j.code)).toEqual(['51013', '51059', '51107', '51510', '51600', '51610']);
    expect(countiesOf('11').map((j) => j.code)).toEqual(['11001']);
  });

  it('names them as the Census does', () => {
    expect(jurisdictionName('11')).toBe('District of Columbia');
    expect(jurisdictionName('11001')).toBe('District of Columbia');
    expect(jurisdictionName('24')).toBe('Maryland');
    expect(jurisdictionName('24031')).toBe('Montgomery County, MD');
    expect(jurisdictionName('24033')).toBe("Prince George's County, MD");
    expect(jurisdictionName('24005')).toBe('Baltimore County, MD');
    expect(jurisdictionName('24510')).toBe('Baltimore city, MD');
    expect(jurisdictionName('24037')).toBe("St. Mary's County, MD");
    expect(jurisdictionName('51')).toBe('Virginia');
    expect(jurisdictionName('51013')).toBe('Arlington County, VA');
    expect(jurisdictionName('51059')).toBe('Fairfax County, VA');
    expect(jurisdictionName('51107')).toBe('Loudoun County, VA');
    expect(jurisdictionName('51510')).toBe('Alexandria city, VA');
    expect(jurisdictionName('51600')).toBe('Fairfax city, VA');
    expect(jurisdictionName('51610')).toBe('Falls Church city, VA');
    expect(findJurisdiction('51610')).toMatchObject({ censusName: 'Falls Church city', stateAbbreviation: 'VA', kind: 'county' });
  });

  it('finds the state of a county, and a state is its own state', () => {
    expect(stateOf('24510').code).toBe('24');
    expect(stateOf('51600').name).toBe('Virginia');
    expect(stateOf('11').code).toBe('11');
  });

  it('validates codes against the set, not just the shape', () => {
    for (const code of jurisdictionCodes) expect(JurisdictionCodeSchema.parse(code)).toBe(code);
    expect(JurisdictionCodeSchema.safeParse('24007').success).toBe(false); // no such Maryland county
    expect(JurisdictionCodeSchema.safeParse('51061').success).toBe(false); // Fauquier: not covered
    expect(JurisdictionCodeSchema.safeParse('36').success).toBe(false);
    expect(findJurisdiction('99999')).toBeUndefined();
  });
});
