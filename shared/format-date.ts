// Every date and time Plat prints goes through here, so all views agree. A calendar date is printed as
// `2014-01-22` and a moment as `2024-05-01 14:03:22` in the reader's local time. Publishers stamp
// plain dates as midnight UTC (`2014-01-22T00:00:00.000Z`): that is a calendar date, not a moment, and
// reading it as a moment would show 21 January anywhere west of Greenwich.

import { isIsoDate } from './service/common.ts';

/** Midnight UTC, the way publishers and databases write a plain date as a timestamp. */
const MIDNIGHT_UTC = /^(\d{4}-\d{2}-\d{2})T00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)$/;
/** An ISO date-time with a time zone (anything else is too vague to convert). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar date a value stands for (`YYYY-MM-DD`), when it is a plain date or midnight UTC; else null. */
export function calendarDateOf(value: string): string | null {
  const text = value.trim();
  const date = MIDNIGHT_UTC.exec(text)?.[1] ?? text;
  // The request schemas' own check: a YYYY-MM-DD whose day exists on the calendar.
  return isIsoDate(date) ? date : null;
}

/** `YYYY-MM-DD HH:MM:SS` in the reader's local time. */
function localDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * A date or date-time from the service or the core, for reading: a calendar date as itself, a moment
 * in local time. Null when the value is not a date Plat recognises (print it as it is).
 */
export function formatDateValue(value: string): string | null {
  const calendar = calendarDateOf(value);
  if (calendar !== null) return calendar;
  const text = value.trim();
  if (!DATE_TIME.test(text)) return null;
  const date = new Date(text.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : localDateTime(date);
}

/** The day of a date or moment (`YYYY-MM-DD`, a moment's in local time), for compact labels; else the text unchanged. */
export function formatDay(value: string): string {
  return formatDateValue(value)?.slice(0, 10) ?? value;
}

/** A date or moment for reading; text that is not a recognisable date is returned unchanged. */
export function formatDate(value: string): string {
  return formatDateValue(value) ?? value;
}

/** A moment (an ISO timestamp, epoch milliseconds or a Date) in local time; unreadable input as given. */
export function formatDateTime(value: string | number | Date): string {
  if (typeof value === 'string') {
    const text = value.trim();
    const date = DATE_TIME.test(text) ? new Date(text.replace(' ', 'T')) : null;
    return date && !Number.isNaN(date.getTime()) ? localDateTime(date) : formatDate(value);
  }
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : localDateTime(date);
}

/** Today as YYYY-MM-DD in the reader's own calendar (an appraiser's "today" is local, not UTC). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
