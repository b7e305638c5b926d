// The folding sections below the grid (prior sales, sales not used, adjustment support) and the plain
// tables they hold.
import type { ReactNode } from 'react';
import { isNumeric, type ColumnHeading } from '../../components/table-heading.ts';

/** One of the view's folding sections: its title with a line beside it, then what it holds. */
export function DetailsSection({ title, summary, open, children }: { title: string; summary: ReactNode; open?: boolean; children: ReactNode }) {
  return (
    <details className="comps-section comps-details" open={open}>
      <summary>
        <h2 className="comps-details__title">{title}</h2>
        <span className="muted">{summary}</span>
      </summary>
      {children}
    </details>
  );
}

/** A table in a folding section: its name for assistive technology, one header row (a numeric column's right-aligned like its cells), and the caller's rows. */
export function PlainTable({ label, columns, children }: { label: string; columns: readonly ColumnHeading[]; children: ReactNode }) {
  return (
    <table className="comps-table comps-table--plain" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column, at) => (
            <th key={at} scope="col" className={isNumeric(column) ? 'is-numeric' : undefined}>
              {isNumeric(column) ? column.label : column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
