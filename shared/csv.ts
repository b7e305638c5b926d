// One CSV field encoder (RFC 4180) for every file Plat writes: the ledger export and the citations
// attached to a report. A text cell that starts like a formula (= + - @, tab, CR) gets an apostrophe,
// so a spreadsheet shows it as text instead of running it.
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
