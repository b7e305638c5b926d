// Reads RFC 4180 CSV back into records, so "Verify a report" can compare citations.csv with
// citations.json row for row. Lenient where a writer may differ (a last line without CRLF, LF line
// ends); a quote that is never closed ends the text.
export function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let index = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (index < text.length) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      index++;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === ',') endField();
    else if (char === '\r' && text[index + 1] === '\n') {
      endRecord();
      index++;
    } else if (char === '\n') endRecord();
    else field += char;
    index++;
  }
  if (field !== '' || record.length > 0) endRecord();
  return records;
}
