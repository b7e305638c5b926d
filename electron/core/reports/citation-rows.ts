// The rows of citations.json (shared/report citationRows) as verification compares them: each printed
// value (a chosen value, or an alternative printed beside it) keyed by its field, with its citations
// in words. Rows read from a PDF are untrusted: one that is not a row Plat writes has no view.
import { z } from 'zod';
import { CitationSchema, DerivationSchema, ValueStatusSchema } from '../../../shared/cited/value.ts';
import { citationText } from '../../../shared/cited/citation.ts';
import { citationsCsv, type CitationRow } from '../../../shared/report/build-subject-report.ts';
import type { PrintedValue, ReadRow } from './verify-report.ts';
import { csvRecords } from './csv-records.ts';

const RowSchema = z.object({
  field: z.string(),
  label: z.string(),
  section: z.string(),
  role: z.enum(['value', 'alternative']),
  alternativeKey: z.string().nullable(),
  printed: z.string(),
  status: ValueStatusSchema,
  derivedFrom: z.string().nullable(),
  limitation: z.string().nullable(),
  choice: z.string().nullable(),
  markers: z.array(z.number().int().min(1)),
  citations: z.array(CitationSchema.extend({ number: z.number().int().min(1) })),
  derivation: DerivationSchema.optional(),
});

type RowFields = Pick<CitationRow, 'field' | 'label' | 'role' | 'alternativeKey' | 'printed' | 'status' | 'citations'>;

/** A printed value: an alternative is its own value (`<field>#<alternative key>`), compared with the same alternative now. */
export function printedValueOf(row: RowFields): PrintedValue {
  const alternative = row.role === 'alternative';
  return {
    field: alternative ? `${row.field}#${row.alternativeKey ?? ''}` : row.field,
    label: alternative ? `${row.label} (alternative)` : row.label,
    printed: row.printed,
    status: row.status,
    printedLabel: row.label,
    markers: row.citations.map((citation) => citation.number),
    citation: row.citations.length === 0 ? 'No citation' : row.citations.map((citation) => `[${citation.number}] ${citationText(citation)}`).join(' · '),
  };
}

export function printedValuesOf(rows: readonly CitationRow[]): PrintedValue[] {
  return rows.map(printedValueOf);
}

/** The rows of a citations.json read from a PDF; null when it is not a list. */
export function rowsFromJson(json: unknown): ReadRow[] | null {
  if (!Array.isArray(json)) return null;
  return json.map((raw: unknown) => {
    const row = RowSchema.safeParse(raw);
    if (!row.success) return { raw, view: null, csv: null, derivation: null };
    return { raw, view: printedValueOf(row.data), csv: csvRecords(citationsCsv([row.data]))[1] ?? null, derivation: row.data.derivation ?? null };
  });
}
