// Years: a year is a label, not a quantity, so it is never grouped ("1985", never "1,985"), whether
// the publisher wrote it as a number or as text.

/** A year as published: 1985 and "1985" both read "1985"; text that is not a year stays as written. */
export function formatYear(value: number | string): string {
  return typeof value === 'number' ? String(value) : value.trim();
}
