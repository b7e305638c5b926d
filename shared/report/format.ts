// How a value reads, one way for every rendering: the entity page, the record tables, the report on
// screen, the PDF and the exported citation rows. What kind a field holds is decided by its name in
// shared/format/kind.ts; each kind has its formatter in shared/format/ (dates in shared/format-date.ts;
// micro-USD are Plat's own money and are formatted with formatUsd, never here). A value published as
// text keeps its text in the answer and the citation; only its display is formatted by its kind.
import { formatDate } from '../format-date.ts';
import { formatPublishedAmount, readPublishedDollars } from '../format/dollars.ts';
import { isMoneyField, isSalePriceField, valueKind } from '../format/kind.ts';
import { formatNumber, formatSqft } from '../format/number.ts';
import { formatYear } from '../format/year.ts';

/** What OTR's price 0 means, in its own words: not a sale at market, or a sale it has no price for. */
export const ZERO_PRICE_MEANING = 'non-market or no price';

/** Whether a publisher's column holds dollars (formatted with a $ in record tables): `SALEPRICE`, `assessment_2016`, `PRICE`… */
export const isPublishedDollarField = (field: string): boolean => isMoneyField(field);

/** A published number's value, whether written as a number or as its digits ("1546"); else null. */
function numberOf(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : null;
}

/** A dollar amount with the cents as published; a sale price of 0 says what OTR means by it. Null when not an amount. */
function moneyText(field: string, value: number | string): string | null {
  const amount = readPublishedDollars(value);
  if (amount === null) return null;
  const text = formatPublishedAmount(amount);
  return amount.dollars === 0 && isSalePriceField(field) ? `${text} (${ZERO_PRICE_MEANING})` : text;
}

/**
 * A value as a person reads it, by the kind its field holds: dollars with the cents as published
 * (not micro-USD), areas, years and identifiers (never grouped), coordinates as published, counts,
 * yes/no, dates as dates; "—" for nothing.
 */
export function formatFieldValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value !== 'number' && typeof value !== 'string') return compactJson(value);
  const kind = valueKind(field);
  if (kind === 'money') {
    const text = moneyText(field, value);
    if (text !== null) return text;
  } else if (kind === 'year') {
    return formatYear(value);
  } else if (kind === 'area') {
    const number = numberOf(value);
    if (number !== null) return formatSqft(number);
  } else if (kind === 'identifier' || kind === 'coordinate') {
    // A label or a position: exactly as published, a number neither grouped nor rounded.
    return typeof value === 'number' ? String(value) : value;
  }
  // Dates as dates (`2014-01-22T00:00:00.000Z` is 22 January wherever the reader is); other text as written.
  return typeof value === 'number' ? formatNumber(value) : formatDate(value);
}

/** A record table's cell: publishers' dollar columns with $ and grouping, years as years, dates as dates, other values as published, missing as empty. */
export function formatRecordCell(field: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'string') {
    const kind = valueKind(field);
    const text = kind === 'money' ? moneyText(field, value) : kind === 'year' ? formatYear(value) : null;
    if (text !== null) return text;
  }
  if (typeof value === 'string') return formatDate(value);
  return String(value);
}

/** A cell of a generic table: scalars as written, lists of scalars comma-joined, anything else as compact JSON. */
export function formatCellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) {
    return value.map((v) => (v === null ? '—' : String(v))).join(', ');
  }
  return compactJson(value);
}

function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A service word (`record_lot`, `last_recorded_sale`) as words: "record lot", "last recorded sale". */
export function humanizeCode(code: string): string {
  return code.replace(/_/g, ' ').trim();
}
