// The evidence a PDF carries: one row per printed value (chosen values and their alternatives, in
// print order, the comparables section's and then the title research's after the subject's), with its
// field key (so a value can be compared later with what Plat then holds), its status and its full
// citations. Written as citations.json (the rows) and citations.csv.
import type { ReportDocument } from './document.ts';
import type { CitedValue, ValueStatus } from '../cited/value.ts';
import type { Derivation } from '../cited/derivation.ts';
import { csvField } from '../csv.ts';
import { citationText } from '../cited/citation.ts';
import { comparablesValues } from './comparables-section.ts';
import { titleResearchValues } from './title-research-section.ts';

type NumberedCitation = ReportDocument['citations'][number];

export interface CitationRow {
  /** The value's field key (`ownership.owner_name`, `permit.B1210493.record_date`). */
  field: string;
  label: string;
  section: string;
  /** `value`: the chosen value; `alternative`: another source's value printed beside it. */
  role: 'value' | 'alternative';
  /** For an alternative, its key (what an appraiser's choice names). */
  alternativeKey: string | null;
  /** The value exactly as printed. */
  printed: string;
  status: ValueStatus;
  derivedFrom: string | null;
  limitation: string | null;
  /** Who chose this value over its alternatives, and why (null when the sources agree). */
  choice: string | null;
  /** The endnote numbers printed after the value. */
  markers: number[];
  citations: NumberedCitation[];
  /** For a value computed by a named rule: the rule and its inputs (Verify computes it again). */
  derivation?: Derivation;
}

export function citationRows(doc: ReportDocument): CitationRow[] {
  const byId = new Map(doc.citations.map((citation) => [citation.id, citation]));
  // In endnote order, as the pages print a value's markers (report-model.ts markersFor): Verify finds a value by its markers.
  const cited = (ids: readonly string[]) => ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])).sort((a, b) => a.number - b.number);
  const rows: CitationRow[] = [];
  const add = (section: string, value: CitedValue) => {
    const citations = cited(value.citationIds);
    rows.push({
      field: value.field,
      label: value.label,
      section,
      role: 'value',
      alternativeKey: null,
      printed: value.display,
      status: value.status,
      derivedFrom: value.derivedFrom,
      limitation: value.limitation,
      choice: value.choice ? `${value.choice.by === 'appraiser' ? 'Appraiser' : 'Plat'}: ${value.choice.reason}` : null,
      markers: citations.map((c) => c.number),
      citations,
      ...(value.derivation ? { derivation: value.derivation } : {}),
    });
    for (const alternative of value.alternatives) {
      const altCitations = cited(alternative.citationIds);
      rows.push({
        field: value.field,
        label: value.label,
        section,
        role: 'alternative',
        alternativeKey: alternative.key,
        printed: alternative.display,
        status: alternative.status,
        derivedFrom: null,
        limitation: alternative.note,
        choice: null,
        markers: altCitations.map((c) => c.number),
        citations: altCitations,
      });
    }
  };
  for (const section of doc.sections) {
    for (const value of section.values) add(section.title, value);
    for (const table of section.tables) {
      for (const row of table.rows) for (const column of table.columns) if (row[column.key]) add(section.title, row[column.key]!);
    }
  }
  // The comparables section prints after the subject's sections: its grid, the sales not used, the prior sales.
  if (doc.comparables) for (const value of comparablesValues(doc.comparables)) add(doc.comparables.title, value);
  // Then the title research: the owner portfolio's holdings and total, the runsheet's entries.
  if (doc.titleResearch) for (const value of titleResearchValues(doc.titleResearch)) add(doc.titleResearch.title, value);
  return rows;
}

const CSV_COLUMNS = [
  'field', 'label', 'section', 'role', 'alternative_key', 'printed', 'status', 'derived_from', 'limitation', 'choice', 'markers',
  'publisher', 'dataset', 'as_of', 'source_id', 'record_ref', 'release_id', 'sha256', 'official_url', 'synthetic', 'citation',
] as const;

/** One field of RFC 4180: quoted when it holds a comma, quote or line break; quotes doubled. */

/** The rows as RFC 4180 CSV (CRLF line ends, a header row); a value with several citations joins each citation column with " | ". */
export function citationsCsv(rows: readonly CitationRow[]): string {
  const join = (row: CitationRow, pick: (citation: NumberedCitation) => string | number | boolean | null) =>
    row.citations.map((citation) => {
      const value = pick(citation);
      return value === null ? '' : String(value);
    }).join(' | ');
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const fields = [
      row.field,
      row.label,
      row.section,
      row.role,
      row.alternativeKey ?? '',
      row.printed,
      row.status,
      row.derivedFrom ?? '',
      row.limitation ?? '',
      row.choice ?? '',
      row.markers.join(' '),
      join(row, (c) => c.publisher),
      join(row, (c) => c.dataset),
      join(row, (c) => c.asOf),
      join(row, (c) => c.sourceId),
      join(row, (c) => c.recordRef),
      join(row, (c) => c.releaseId),
      join(row, (c) => c.sha256),
      join(row, (c) => c.officialUrl),
      join(row, (c) => c.synthetic),
      join(row, (c) => `[${c.number}] ${citationText(c)}`),
    ];
    lines.push(fields.map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
