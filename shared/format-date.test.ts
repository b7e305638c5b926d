import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calendarDateOf, formatDate, formatDateTime, formatDateValue, formatDay } from './format-date.ts';

// West of Greenwich, where reading midnight UTC as a moment moves a date back a day. Node applies a
// change of TZ at once, so the test holds whatever zone the machine runs in.
beforeAll(() => {
  vi.stubEnv('TZ', 'America/Los_Angeles');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('formatDate', () => {
  it('runs in Los Angeles time', () => {
    expect(new Date('2014-01-22T00:00:00.000Z').getDate()).toBe(21);
  });

  it('prints a date stamped at midnight UTC as its calendar date, not the day before', () => {
    expect(formatDate('2014-01-22T00:00:00.000Z')).toBe('2014-01-22');
    expect(formatDate('2017-02-05T00:00:00Z')).toBe('2017-02-05');
    expect(formatDate('2017-02-05T00:00+00:00')).toBe('2017-02-05');
    expect(formatDate('2012-01-01')).toBe('2012-01-01');
  });

  it('prints a moment in local time', () => {
    expect(formatDate('2015-10-06T06:48:19.000Z')).toBe('2015-10-05 23:48:19');
    expect(formatDate('2024-05-01T14:03:22-04:00')).toBe('2024-05-01 11:03:22');
  });

  it('leaves text that is not a date as it is', () => {
    for (const text of ['', 'COMPLETED', '1811 3RD ST NE', '2014-02-30', '2014-13-01', '2014-01-22T10:00:00', '0059    3570']) {
      expect(formatDate(text)).toBe(text);
      expect(formatDateValue(text)).toBeNull();
    }
  });
});

describe('formatDay', () => {
  it('is the calendar date of a date, and the local day of a moment', () => {
    expect(formatDay('2014-01-22T00:00:00.000Z')).toBe('2014-01-22');
    expect(formatDay('2015-10-06T06:48:19.000Z')).toBe('2015-10-05');
    expect(formatDay('undated')).toBe('undated');
  });
});

describe('calendarDateOf', () => {
  it('is the date of a plain date or midnight UTC, and null for a moment', () => {
    expect(calendarDateOf('2016-02-29')).toBe('2016-02-29');
    expect(calendarDateOf('2015-02-29')).toBeNull();
    expect(calendarDateOf('2014-01-22T00:00:00.000Z')).toBe('2014-01-22');
    expect(calendarDateOf('2014-01-22T05:00:00.000Z')).toBeNull();
  });
});

describe('formatDateTime', () => {
  it('prints a served-at or ledger time in local time, midnight UTC included (it is a moment)', () => {
    expect(formatDateTime('2024-05-01T00:00:00.000Z')).toBe('2024-04-30 17:00:00');
    expect(formatDateTime(Date.UTC(2024, 4, 1, 21, 3, 22))).toBe('2024-05-01 14:03:22');
    expect(formatDateTime(new Date(Date.UTC(2024, 0, 1, 12)))).toBe('2024-01-01 04:00:00');
  });

  it('prints what it cannot read as given', () => {
    expect(formatDateTime('soon')).toBe('soon');
    expect(formatDateTime(Number.NaN)).toBe('NaN');
  });
});
