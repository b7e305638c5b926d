// Every table of the report: its scrolling frame, its name for assistive technology, an optional
// caption, and one header row; the body is the caller's.
import type { ReactNode } from 'react';
import { isNumeric, type ColumnHeading } from '../../components/table-heading.ts';

/** A numeric column's heading is right-aligned like its cells. */
export { numeric } from '../../components/table-heading.ts';

export function ReportTableFrame({
  label,
  caption,
  className,
  columns,
  before,
  colgroup,
  after,
  children,
}: {
  label: string;
  caption?: ReactNode;
  /** Classes beside `report-table` on the frame. */
  className?: string;
  columns: readonly ColumnHeading[];
  /** What stands in the frame above the table (the links' warnings). */
  before?: ReactNode;
  colgroup?: ReactNode;
  /** What stands in the frame below the table (its note). */
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={className ? `report-table ${className}` : 'report-table'}>
      {before}
      <table aria-label={label}>
        {caption !== undefined && <caption>{caption}</caption>}
        {colgroup}
        <thead>
          <tr>
            {columns.map((column, at) =>
              isNumeric(column) ? (
                <th key={at} scope="col" className="report-num">
                  {column.label}
                </th>
              ) : (
                <th key={at} scope="col">
                  {column}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
      {after}
    </div>
  );
}
