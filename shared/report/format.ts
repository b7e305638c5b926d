// How a value reads, one way for every rendering: the entity page, the record tables, the report on
// screen, the PDF and the exported citation rows. Dates go through shared/format-date.ts; the
// publishers' whole-dollar amounts through shared/money.ts (micro-USD are Plat's own money and are
// formatted with formatUsd, never here).
import { formatDate } from '../format-date.ts';
import { formatDollars } from '../money.ts';

/** What OTR's price 0 means, in its own words: not a sale at market, or a sale it has no price for. */
export const ZERO_PRICE_MEANING = 'non-market or no price';

/** Publishers' columns holding whole dollars (`assessment_2016`, CAMA `PRICE`…), by their own names. */
const PUBLISHED_DOLLAR_FIELDS = new Set(['last_sale_price', 'assessment_2016', 'PRICE', 'FEES_PAID']);

/** Whether a publisher's column holds whole dollars (formatted with a $ in record tables). */
export const isPublishedDollarField = (field: string): boolean => PUBLISHED_DOLLAR_FIELDS.has(field);

/** Plat's and the service's canonical dollar fields end in `_dollars` (`assessed_value_dollars`). */
const isDollarField = (field: string): boolean => field.endsWith('_dollars') || isPublishedDollarField(field);
/** Sale prices, where OTR writes 0 for a transfer that was not a market sale or had no price. */
const isSalePriceField = (field: string): boolean => /(^|_)price(_dollars)?$/i.test(field);

const plainNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * A value as a person reads it, by what its field holds: dollars (whole dollars as published, not
 * micro-USD), areas, years, counts, yes/no, dates as dates; "—" for nothing.
 */
export function formatFieldValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number') {
    if (isDollarField(field)) {
      return value === 0 && isSalePriceField(field) ? `${formatDollars(0)} (${ZERO_PRICE_MEANING})` : formatDollars(value);
    }
    if (field.endsWith('_sqft') || field.endsWith('_square_feet')) return `${plainNumber.format(value)} sq ft`;
    if (field === 'year_built' || field.startsWith('year_') || field.endsWith('_year')) return String(value);
    // A coordinate to six places (about 10 cm): grouped or rounded to two it would point a kilometre off.
    if (field === 'latitude' || field === 'longitude') return value.toFixed(6);
    return plainNumber.format(value);
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  // Dates as dates (`2014-01-22T00:00:00.000Z` is 22 January wherever the reader is).
  if (typeof value === 'string') return formatDate(value);
  return compactJson(value);
}

/** A record table's cell: publishers' dollar columns with $ and grouping, dates as dates, other values as published, missing as empty. */
export function formatRecordCell(field: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && isPublishedDollarField(field)) return formatDollars(value);
  if (typeof value === 'object') return JSON.stringify(value);
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
