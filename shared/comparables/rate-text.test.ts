// Rates read one way on screen and on paper: the unit's words, fixed decimals, a real minus sign, and
// the number "Accept" stores is the one shown (rounded half away from zero on both sides).
import { describe, expect, it } from 'vitest';
import { formatShareOfPrice } from '../format/percent.ts';
import { estimateNumberText, rateNumberText, rateText, rateWithInterval, roundRate } from './rate-text.ts';

describe('rates in words', () => {
  it('gives each rate in its own unit', () => {
    expect(rateText('glaPerSqft', 150)).toBe('$150 per sq ft');
    expect(rateText('perYearOfAge', -1667)).toBe('−$1,667 per year');
    expect(rateText('perBath', 12_500)).toBe('$12,500 per bath');
    expect(rateText('timePctPerMonth', 0.25)).toBe('0.25 % per month');
    expect(rateText('timePctPerMonth', -0.371)).toBe('−0.37 % per month');
    expect(rateText('timePctPerMonth', 0.5)).toBe('0.50 % per month');
    expect(rateWithInterval('glaPerSqft', { value: 851.2, ciLow: 60.6, ciHigh: 1641.5 })).toBe('$851 per sq ft ($61 per sq ft to $1,642 per sq ft)');
  });

  it('writes a rate’s number with fixed decimals and a real minus sign, not "-2.26 %"', () => {
    expect(rateNumberText('timePctPerMonth', -2.26)).toBe('−2.26 %');
    expect(rateNumberText('timePctPerMonth', 0.5)).toBe('0.50 %');
    expect(rateNumberText('glaPerSqft', -150)).toBe('−$150');
    // A rate the appraiser typed with cents keeps them (the workings compute with it); an estimate is rounded as "Accept" stores it.
    expect(rateNumberText('glaPerSqft', 152.5)).toBe('$152.50');
    expect(rateText('glaPerSqft', 1027.32)).toBe('$1,027.32 per sq ft');
    expect(estimateNumberText('perBedroom', -107_315.4)).toBe('−$107,315');
  });

  it('rounds for "Accept" exactly as it shows: half away from zero, on the decimal form', () => {
    // Math.round took −1102.5 to −1102 while the printed rate read −$1,103.
    expect(roundRate('perYearOfAge', -1102.5)).toBe(-1103);
    expect(estimateNumberText('perYearOfAge', -1102.5)).toBe('−$1,103');
    expect(rateWithInterval('perYearOfAge', { value: -1102.5, ciLow: null, ciHigh: null })).toBe('−$1,103 per year');
    expect(roundRate('timePctPerMonth', -0.125)).toBe(-0.13);
    expect(roundRate('timePctPerMonth', 1.005)).toBe(1.01);
    expect(roundRate('timePctPerMonth', -0.001)).toBe(0);
    for (const value of [-0.125, 1.005, -2.255, 0.495]) expect(estimateNumberText('timePctPerMonth', value)).toBe(rateNumberText('timePctPerMonth', value));
  });

  it('writes a share of the sale price to one decimal, a whole percent included', () => {
    expect(formatShareOfPrice(-11.84)).toBe('−11.8 %');
    expect(formatShareOfPrice(-12)).toBe('−12.0 %');
    expect(formatShareOfPrice(25.6)).toBe('25.6 %');
    expect(formatShareOfPrice(-0.01)).toBe('0.0 %');
  });
});
