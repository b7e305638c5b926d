import { describe, expect, it } from 'vitest';
import { chargeMarkText, isUnreadableAnswer, unreadableAnswerText } from './spend-marks.ts';

const base = { chargeCheck: null, chargeHeader: null, reportedChargeMicroUsd: null, bookedChargeMicroUsd: 0, reconciled: true } as const;

describe('spend marks', () => {
  it('words a misreported charge header from what it said and what was booked', () => {
    expect(chargeMarkText(base)).toBeNull();
    expect(chargeMarkText({ ...base, chargeCheck: 'disagrees', reportedChargeMicroUsd: 300_000, bookedChargeMicroUsd: 100_000 })).toBe(
      'The service reported $0.30; its balance fell by $0.10: Plat booked $0.10',
    );
    expect(chargeMarkText({ ...base, chargeCheck: 'missing', bookedChargeMicroUsd: 25_000 })).toBe(
      'The service reported no charge; its balance fell by $0.025: Plat booked $0.025',
    );
  });

  it('tells an unreadable answer (a 2xx closed failed) from a plain failure and a success', () => {
    expect(isUnreadableAnswer({ kind: 'call', status: 'failed', httpStatus: 200 })).toBe(true);
    expect(isUnreadableAnswer({ kind: 'call', status: 'failed', httpStatus: 404 })).toBe(false);
    expect(isUnreadableAnswer({ kind: 'call', status: 'succeeded', httpStatus: 200 })).toBe(false);
    expect(unreadableAnswerText(100_000)).toBe('charged; the answer could not be read');
    expect(unreadableAnswerText(0)).toBe('the answer could not be read');
  });
});
