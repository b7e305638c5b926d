import { describe, expect, it } from 'vitest';
import { coverageEffectiveDateWarnings, effectiveDateWarnings, oddEffectiveDateWarnings } from './effective-date.ts';

// The coverage a catalog states: any years, read from the answer (these are not the sample's).
const coverage = { earliest: '1990-03-01', latest: '2005-06-30' };
const today = '2026-11-27';

describe('effective-date warnings', () => {
  it('warns for a date before the first sale or after the last one the catalog states', () => {
    expect(coverageEffectiveDateWarnings('1989-12-31', coverage)).toEqual([expect.stringContaining('before the first sale the service holds (1990-03-01)')]);
    expect(coverageEffectiveDateWarnings('2005-07-01', coverage)).toEqual([expect.stringContaining('after the last sale the service holds (2005-06-30)')]);
    expect(coverageEffectiveDateWarnings('2000-01-01', coverage)).toEqual([]);
  });

  it('says nothing about coverage when the catalog states none', () => {
    expect(coverageEffectiveDateWarnings('2026-11-27', null)).toEqual([]);
    expect(coverageEffectiveDateWarnings('2026-11-27', { earliest: null, latest: null })).toEqual([]);
    expect(effectiveDateWarnings('2026-11-27', null, today)).toEqual([]);
  });

  it('warns for dates far in the future or the distant past, whatever the coverage', () => {
    expect(oddEffectiveDateWarnings('2099-12-31', today)).toEqual([expect.stringContaining('more than 2 years after today (2026-11-27)')]);
    expect(oddEffectiveDateWarnings('1900-01-01', today)).toEqual([expect.stringContaining('more than 75 years before today')]);
    expect(oddEffectiveDateWarnings('2027-06-01', today)).toEqual([]);
    expect(oddEffectiveDateWarnings('not a date', today)).toEqual([]);
  });

  it('warns for today’s date (the default) when the last sale is years before it', () => {
    expect(effectiveDateWarnings(today, { earliest: '1964-12-22', latest: '2017-01-17' }, today)).toEqual([
      expect.stringContaining('after the last sale the service holds (2017-01-17)'),
    ]);
  });
});
