// A value with where it came from, as the entity page, the owner lookup and the find box show it:
// read from Plat's cited shape (`{value, citation, status?, synthetic?, note?}`, the shape of search
// facts, record attributes and summary entries), formatted one way (shared/report/format.ts).
import { summaryEntryOf } from '../../shared/service/summary-fields.ts';
import { fromV4Citation, type CitationView } from '../../shared/cited/citation.ts';
import { formatFieldValue } from '../../shared/report/format.ts';

export type SummaryScalar = string | number | boolean | null;

export interface CitedValue {
  value: SummaryScalar;
  text: string;
  citation: CitationView;
  synthetic: boolean;
  note: string | null;
}


/** A cited entry as a value to show: synthetic when its citation, status or flag says so. */
export function citedValue(field: string, entry: { value: SummaryScalar; citation: Record<string, unknown> } & Record<string, unknown>): CitedValue {
  const citation = fromV4Citation(entry.citation);
  const synthetic = citation.synthetic || entry.status === 'synthetic' || entry.synthetic === true;
  return {
    value: entry.value,
    text: formatFieldValue(field, entry.value),
    citation: { ...citation, synthetic },
    synthetic,
    note: typeof entry.note === 'string' ? entry.note : null,
  };
}

/** One cited value, or null when the entry is not in Plat's cited shape (never a made-up citation). */
export function citedFieldValue(field: string, entry: unknown): CitedValue | null {
  const parsed = summaryEntryOf(entry);
  return parsed ? citedValue(field, parsed) : null;
}
