// The rows of citations.json (shared/report citationRows) as verification compares them: each printed
// value (a chosen value, or an alternative printed beside it) keyed by its field, with its citations
// in words. Rows read from a PDF are untrusted: one that is not a row Plat writes has no view.
import { z } from 'zod';
import { CitationSchema, ValueStatusSchema } from '../../../shared/cited/value.ts';
import { citationText } from '../../../shared/cited/citation.ts';
import type { CitationRow } from '../../../shared/report/build-subject-report.ts';
import type { PrintedValue } from './verify-report.ts';

const RowSchema = z.object({
  field: z.string(),
  label: z.string(),
  role: z.enum(['value', 'alternative']),
  alternativeKey: z.string().nullable(),
  printed: z.string(),
  status: ValueStatusSchema,
  citations: z.array(CitationSchema.extend({ number: z.number().int().min(1) })),
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
    citation: row.citations.length === 0 ? 'No citation' : row.citations.map((citation) => `[${citation.number}] ${citationText(citation)}`).join(' · '),
  };
}

export function printedValuesOf(rows: readonly CitationRow[]): PrintedValue[] {
  return rows.map(printedValueOf);
}

/** The rows of a citations.json read from a PDF; null when it is not a list. */
export function rowsFromJson(json: unknown): { raw: unknown; view: PrintedValue | null }[] | null {
  if (!Array.isArray(json)) return null;
  return json.map((raw: unknown) => {
    const row = RowSchema.safeParse(raw);
    return { raw, view: row.success ? printedValueOf(row.data) : null };
  });
}
