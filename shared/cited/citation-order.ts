// Endnotes are numbered in the order a reader meets them: each part of the report lists the citation
// ids it prints, in print order, and an id keeps the place of its first use.
import type { CitedValue } from './value.ts';

/** A table of cited values (the report's tables): its cells are visited row by row, in column order. */
export interface CitedTable {
  columns: ReadonlyArray<{ key: string }>;
  rows: ReadonlyArray<Readonly<Record<string, CitedValue>>>;
}

export interface CitationOrder {
  /** The ids met so far, first use first. */
  readonly ids: string[];
  use: (ids: readonly string[]) => void;
  /** A printed value: its citations, then its alternatives'. */
  visit: (value: CitedValue) => void;
  /** A printed table: row by row, each row in column order. */
  visitTable: (table: CitedTable) => void;
}

export function citationOrder(): CitationOrder {
  const ids: string[] = [];
  const use = (more: readonly string[]) => {
    for (const id of more) if (!ids.includes(id)) ids.push(id);
  };
  const visit = (value: CitedValue) => {
    use(value.citationIds);
    for (const alternative of value.alternatives) use(alternative.citationIds);
  };
  const visitTable = (table: CitedTable) => {
    for (const row of table.rows) for (const column of table.columns) if (row[column.key]) visit(row[column.key]!);
  };
  return { ids, use, visit, visitTable };
}
