// One CSV field encoder (RFC 4180) for every file Plat writes: the ledger export, the runsheet, the
// comparables grid and the citations attached to a report. A text cell that starts like a formula
// gets an apostrophe, so a spreadsheet shows it as text instead of running it. "Starts like a
// formula" is wider than the first character: a spreadsheet trims leading white space (any kind,
// the no-break space included), reads full-width ＝＋－＠ as = + - @, and, set to split on `;` or
// tab, starts a new cell after one, so each part after such a separator is guarded too, and the
// cell is quoted so that it stays one cell.

const FORMULA_CHARACTER = '=+\\-@\uFF1D\uFF0B\uFF0D\uFF20';
/** A cell's start that a spreadsheet would run: a tab or CR (as before), or a formula character behind any white space. */
const FORMULA_START = new RegExp(`^(?:[\\t\\r]|\\s*[${FORMULA_CHARACTER}])`, 'u');
/** A separator a spreadsheet may split on, followed (behind white space that is not itself a separator) by a formula character. */
const FORMULA_AFTER_SEPARATOR = new RegExp(`([;\\t\\r\\n])(?=[^\\S\\t\\r\\n]*[${FORMULA_CHARACTER}])`, 'gu');

/** `text` as a spreadsheet shows it and never runs it (the apostrophes are what a person typing it would add). */
export function neutraliseFormulas(text: string): string {
  const guarded = FORMULA_START.test(text) ? `'${text}` : text;
  return guarded.replace(FORMULA_AFTER_SEPARATOR, "$1'");
}

export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = typeof value === 'string' ? neutraliseFormulas(value) : String(value);
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
