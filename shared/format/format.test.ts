import { describe, expect, it } from 'vitest';
import { formatDollarsAndCents, formatDollarsAsEntered, formatPublishedDollars, readPublishedDollars } from './dollars.ts';
import { isMoneyField, isSalePriceField, isYearField, valueKind } from './kind.ts';
import { formatCount, formatFixed, formatNumber, formatR2, formatSqft, groupThousands } from './number.ts';
import { formatPercent, formatPercentRate, formatShareOfPrice } from './percent.ts';
import { formatYear } from './year.ts';

describe('formatYear', () => {
  it('never groups a year, published as a number or as text', () => {
    expect(formatYear(1985)).toBe('1985');
    expect(formatYear('1985')).toBe('1985');
    expect(formatYear(' 1890 ')).toBe('1890');
    expect(formatYear('unknown')).toBe('unknown');
  });
});

describe('formatPublishedDollars', () => {
  it('keeps the cents the publisher gave, and adds none to a whole-dollar amount', () => {
    expect(formatPublishedDollars('18402.50')).toBe('$18,402.50');
    expect(formatPublishedDollars(18403)).toBe('$18,403');
    expect(formatPublishedDollars('18403')).toBe('$18,403');
    expect(formatPublishedDollars('18403.00')).toBe('$18,403.00');
    // A number loses its trailing zero on the wire: its cents are still two digits.
    expect(formatPublishedDollars(18402.5)).toBe('$18,402.50');
    expect(formatPublishedDollars('$1,302,760')).toBe('$1,302,760');
    expect(formatPublishedDollars(-250)).toBe('−$250');
    expect(formatPublishedDollars(0)).toBe('$0');
    expect(formatPublishedDollars(12_000_000_000)).toBe('$12,000,000,000');
  });

  it('prints an amount Plat computed to the cent', () => {
    expect(formatDollarsAndCents(772.5164)).toBe('$772.52');
    expect(formatDollarsAndCents(1234.5)).toBe('$1,234.50');
    expect(formatDollarsAndCents(-0.001)).toBe('$0.00');
  });

  it('returns text that is not an amount as published', () => {
    expect(formatPublishedDollars('not stated')).toBe('not stated');
    expect(readPublishedDollars('12,34')).toBeNull();
    expect(readPublishedDollars(Number.NaN)).toBeNull();
    expect(readPublishedDollars('18402.50')).toEqual({ dollars: 18402.5, negative: false, whole: '18402', cents: '50' });
  });
});

describe('formatPercent', () => {
  it('prints fixed decimals with a real minus sign', () => {
    expect(formatPercent('-2.26 %')).toBe('−2.26 %');
    expect(formatPercent(-2.256)).toBe('−2.26 %');
    expect(formatPercent(0.5)).toBe('0.50 %');
    expect(formatPercent(-11.84, 1)).toBe('−11.8 %');
    expect(formatPercent(1.005, 2)).toBe('1.01 %');
    // Rounded to zero, it has no sign.
    expect(formatPercent(-0.04, 1)).toBe('0.0 %');
    expect(formatPercent(3.1, 1, { signed: true })).toBe('+3.1 %');
    expect(formatPercent('n/a')).toBe('n/a');
  });
});

describe('numbers', () => {
  it('groups thousands, keeps at most the decimals asked for, and signs with a minus', () => {
    expect(groupThousands('1234567')).toBe('1,234,567');
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(formatNumber(717.045)).toBe('717.05');
    expect(formatNumber(-1500)).toBe('−1,500');
    expect(formatCount(1021)).toBe('1,021');
    expect(formatSqft(1546)).toBe('1,546 sq ft');
    expect(formatFixed(-167642.789, 2)).toBe('−167,642.79');
    expect(formatFixed(0.87, 3)).toBe('0.870');
    expect(formatFixed(-0.0001, 2)).toBe('0.00');
  });

  it('agrees with Intl en-US on grouping and rounding', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
    for (const value of [0, 1, 12.345, 999.995, 1000, 123456.789, 0.1 + 0.2, 98765432.1]) {
      expect(formatNumber(value)).toBe(intl.format(value));
    }
  });
});

describe('valueKind: which field holds what, decided by its name', () => {
  it('reads years by role, in any publisher’s spelling', () => {
    for (const field of ['year_built', 'effective_year_built', 'building.year_built', 'AYB', 'EYB', 'YR_RMDL', 'assessment_year', 'imputed_year_built', 'YEARBUILT']) {
      expect(isYearField(field), field).toBe(true);
      expect(valueKind(field), field).toBe('year');
    }
    expect(isYearField('years_owned')).toBe(false);
  });

  it('reads money by name, the independent dialect’s upper-case names too', () => {
    for (const field of ['last_sale_price', 'SALEPRICE', 'ASSESSMENT', 'assessment_2016', 'assessed_value', 'assessed_value_dollars', 'PRICE', 'FEES_PAID', 'FEESPAID']) {
      expect(isMoneyField(field), field).toBe(true);
    }
    expect(isSalePriceField('SALEPRICE')).toBe(true);
    expect(isSalePriceField('assessed_value')).toBe(false);
    expect(valueKind('assessment_year')).toBe('year');
    expect(valueKind('land_area_sqft')).toBe('area');
    expect(valueKind('ssl')).toBe('identifier');
    expect(valueKind('ACCOUNTNO')).toBe('identifier');
    expect(valueKind('OBJECTID')).toBe('identifier');
    expect(valueKind('permit_number')).toBe('identifier');
    expect(valueKind('latitude')).toBe('coordinate');
    expect(valueKind('bedrooms')).toBe('other');
    // A paid fee is money, not an identifier ending in "id".
    expect(valueKind('FEESPAID')).toBe('money');
  });
});

describe('the comparables’ numbers, one formatter each', () => {
  it('keeps the cents of an entered amount, grouped, and none on a whole one', () => {
    expect(formatDollarsAsEntered(1027.32)).toBe('$1,027.32');
    expect(formatDollarsAsEntered(152.5)).toBe('$152.50');
    expect(formatDollarsAsEntered(-1667)).toBe('−$1,667');
    expect(formatDollarsAsEntered(150.001)).toBe('$150');
  });

  it('writes shares of the price to one decimal and percent rates to two, with a real minus sign', () => {
    expect(formatShareOfPrice(-12)).toBe('−12.0 %');
    expect(formatPercentRate(-2.26)).toBe('−2.26 %');
    expect(formatPercentRate(0.5)).toBe('0.50 %');
  });

  it('writes R² to three decimals, a missing one as a dash', () => {
    expect(formatR2(0.8351)).toBe('0.835');
    expect(formatR2(0.8)).toBe('0.800');
    expect(formatR2(null)).toBe('—');
    expect(formatR2(Number.NaN)).toBe('—');
  });
});
