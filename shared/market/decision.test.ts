import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { emptyComparablesWorkfile } from '../comparables/model.ts';
import { comparableSale } from '../comparables/test-kit.ts';
import { acceptTimeTrend, declineTimeTrend, setTrendWindow, timeRateSupportText } from './decision.ts';
import { marketTrend } from './trend.ts';

const EFFECTIVE = '2017-01-01';
const dateBefore = (days: number) => new Date(Date.parse(`${EFFECTIVE}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const trendOf = (days: number[], prices: number[]) =>
  marketTrend({
    sales: days.map((d, at) => comparableSale({ id: `s${at}`, address: `${at} Test St NW`, saleDate: dateBefore(d), priceDollars: prices[at]! })),
    effectiveDate: EFFECTIVE,
    monthsRead: 12,
    cite: new CitationBook().cite,
  });
const RISING = trendOf([10, 25, 40, 70, 95, 120, 150, 190, 230, 260, 300, 350], [812_000, 790_000, 805_000, 770_000, 781_000, 760_000, 748_000, 752_000, 731_000, 725_000, 718_000, 702_000]);
const FEW = trendOf([10, 50, 90], [800_000, 790_000, 780_000]);

describe('the appraiser’s act on the time trend', () => {
  it('accepts a supported rate as the time adjustment, printed with its support', () => {
    const { workfile, problem } = acceptTimeTrend(emptyComparablesWorkfile(), RISING, '2026-11-27T22:00:00Z');
    expect(problem).toBeNull();
    expect(workfile.rates.timePctPerMonth).toBe(1.22);
    expect(workfile.rateSource.timePctPerMonth).toBe('suggestion');
    expect(workfile.marketTrend).toEqual({ windowMonths: 12, decision: { kind: 'accepted', pctPerMonth: 1.22, windowMonths: 12, at: '2026-11-27T22:00:00Z' } });
    expect(timeRateSupportText(workfile, RISING)).toBe(
      `Accepted by the appraiser on 2026-11-27: +1.22 % per month from the 12-month market trend. ${RISING.conclusion}`,
    );
  });

  it('refuses a rate the trend does not support, saying why', () => {
    const before = emptyComparablesWorkfile();
    const { workfile, problem } = acceptTimeTrend(before, FEW, 'now');
    expect(workfile).toBe(before);
    expect(problem).toBe('No time adjustment supported over 12 months: 3 sales in the 12-month window: at least 10 are needed.');
  });

  it('declines with a reason, withdrawing a time rate taken from the trend but never the appraiser’s own', () => {
    const accepted = acceptTimeTrend(emptyComparablesWorkfile(), RISING, 'then').workfile;
    const declined = declineTimeTrend(accepted, ' Too few recent sales. ', '2026-11-27T22:05:00Z');
    expect(declined.rates.timePctPerMonth).toBeNull();
    expect(declined.rateSource.timePctPerMonth).toBeUndefined();
    expect(declined.marketTrend?.decision).toEqual({ kind: 'declined', reason: 'Too few recent sales.', at: '2026-11-27T22:05:00Z' });
    const own = { ...accepted, rates: { ...accepted.rates, timePctPerMonth: 0.5 }, rateSource: { timePctPerMonth: 'appraiser' as const } };
    expect(declineTimeTrend(own, 'No.', 'now').rates.timePctPerMonth).toBe(0.5);
    expect(timeRateSupportText(declined, RISING)).toMatch(/^Declined by the appraiser on .*: “Too few recent sales.”/);
  });

  it('keeps the chosen window', () => {
    expect(setTrendWindow(emptyComparablesWorkfile(), 24).marketTrend).toEqual({ windowMonths: 24, decision: null });
  });
});
