// What kind of value a field holds, decided by its name in this one place, for every rendering
// (screen, PDF, CSV, citations.json). Names are compared without case or underscores, so a
// publisher's `SALEPRICE`, OTR's `last_sale_price` and Plat's `last_sale_price_dollars` read alike.

export type ValueKind = 'money' | 'year' | 'area' | 'identifier' | 'coordinate' | 'other';

/** `building.year_built` → `yearbuilt`, `YR_RMDL` → `yrrmdl`: the last path part, lower case, letters and digits only. */
export function fieldKey(field: string): string {
  return (field.split('.').pop() ?? field).toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Publishers' columns holding dollars, by their names (OTR, CAMA, DCRA and the services' canonical names). */
const MONEY_KEYS = new Set(['assessment2016', 'assessment', 'assessedvalue', 'feespaid', 'landvalue', 'improvementvalue']);
/** Publishers' year columns whose names do not say "year": CAMA's actual, effective and remodel years. */
const YEAR_KEYS = new Set(['ayb', 'eyb', 'yrrmdl']);

/** Whether a field holds a sale price, where OTR writes 0 for a transfer that was not a market sale or had no price. */
export function isSalePriceField(field: string): boolean {
  const key = fieldKey(field);
  return key.endsWith('price') || key.endsWith('pricedollars');
}

/** Whether a field holds dollars as published (not micro-USD): `*_dollars`, prices, assessments, fees. */
export function isMoneyField(field: string): boolean {
  const key = fieldKey(field);
  return key.endsWith('dollars') || isSalePriceField(field) || MONEY_KEYS.has(key);
}

/** Whether a field holds a year: `year_built`, `effective_year_built`, `assessment_year`, `AYB`, `EYB`, `YR_RMDL`. */
export function isYearField(field: string): boolean {
  const key = fieldKey(field);
  // "years" and "yearly" are counts and rates, not years.
  return YEAR_KEYS.has(key) || /year(?!s|ly)/.test(key);
}

/** Whether a field holds an area in square feet (`land_area_sqft`, `land_area_square_feet`). */
export function isSqftField(field: string): boolean {
  const key = fieldKey(field);
  return key.endsWith('sqft') || key.endsWith('squarefeet');
}

/** Identifiers whose names do not end in `_id`, `_no`, `_number`, `_ref` or `_code` (publishers' upper-case names included). */
const IDENTIFIER_KEYS = new Set(['ssl', 'sslcanonical', 'sslaspublished', 'objectid', 'accountno', 'usecode', 'zip', 'zipcode', 'square', 'suffix', 'lot', 'qid']);
/** Coordinates: published to the precision the publisher gave, never rounded to two decimals. */
const COORDINATE_KEYS = new Set(['latitude', 'longitude', 'lat', 'lon', 'lng']);

/** Whether a field holds an identifier (a number in it is a label: never grouped, "12345" not "12,345"). */
export function isIdentifierField(field: string): boolean {
  const last = field.split('.').pop() ?? field;
  return IDENTIFIER_KEYS.has(fieldKey(field)) || /(^|_)(id|no|number|ref|code)$/i.test(last);
}

/** The kind of value a field holds, by its name. */
export function valueKind(field: string): ValueKind {
  if (isMoneyField(field)) return 'money';
  if (isYearField(field)) return 'year';
  if (isSqftField(field)) return 'area';
  if (COORDINATE_KEYS.has(fieldKey(field))) return 'coordinate';
  if (isIdentifierField(field)) return 'identifier';
  return 'other';
}
