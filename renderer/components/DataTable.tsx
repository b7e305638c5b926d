// The one table of the app: sortable by any column (click or Enter on the header), keyboard
// navigable (↑/↓, Home/End, Enter opens), and copyable (Ctrl/⌘+C copies the focused row, the
// "Copy table" button copies everything) as tab-separated text that pastes into a spreadsheet.
import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import './data-table.css';
import { neutraliseFormulas } from '../../shared/csv.ts';

export interface Column<Row> {
  id: string;
  header: string;
  /** Plain text for copying and (unless sortValue is given) sorting. */
  text: (row: Row) => string;
  /** What the cell shows; defaults to text(row). */
  render?: (row: Row) => ReactNode;
  sortValue?: (row: Row) => string | number | null;
  align?: 'left' | 'right';
  width?: string;
}

export interface DataTableProps<Row> {
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  onOpen?: (row: Row) => void;
  /** Shown instead of the body when there are no rows. */
  empty?: ReactNode;
  toolbar?: ReactNode;
  initialSort?: { columnId: string; direction: 'asc' | 'desc' };
  /** The row count in the toolbar; off where a heading above already counts the rows another way. */
  count?: boolean;
}

export type TableSort = { columnId: string; direction: 'asc' | 'desc' } | null;

/** The sort after a click on a column's header: that column ascending, or its other way when it is already the sort. */
export function sortToggled(current: TableSort, columnId: string): TableSort {
  return current?.columnId === columnId ? { columnId, direction: current.direction === 'asc' ? 'desc' : 'asc' } : { columnId, direction: 'asc' };
}

/** A column's header that sorts by it, saying which way it sorts now. */
export function SortableHeader({ header, align, width, direction, onSort }: { header: string; align?: 'left' | 'right'; width?: string; direction: 'asc' | 'desc' | null; onSort: () => void }) {
  return (
    <th
      scope="col"
      style={width ? { width } : undefined}
      className={align === 'right' ? 'is-numeric' : undefined}
      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
    >
      <button type="button" className="data-table__sort" onClick={onSort}>
        {header}
        <span className="data-table__arrow" aria-hidden="true">
          {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : ''}
        </span>
      </button>
    </th>
  );
}

/** Rows as tab-separated text for the clipboard: pasted into a spreadsheet, no cell runs as a formula. */
export function toTsv<Row>(columns: Column<Row>[], rows: Row[]): string {
  const clean = (value: string) => neutraliseFormulas(value.replace(/[\t\r\n]+/g, ' '));
  return [columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => c.text(row)))]
    .map((cells) => cells.map(clean).join('\t'))
    .join('\n');
}

export function sortRows<Row>(rows: Row[], column: Column<Row> | undefined, direction: 'asc' | 'desc'): Row[] {
  if (!column) return rows;
  const value = column.sortValue ?? column.text;
  const factor = direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    // Missing values sort last in either direction.
    if (va === null || va === '') return vb === null || vb === '' ? 0 : 1;
    if (vb === null || vb === '') return -1;
    if (typeof va === 'number' && typeof vb === 'number') return (va - vb) * factor;
    return String(va).localeCompare(String(vb), undefined, { numeric: true, sensitivity: 'base' }) * factor;
  });
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function DataTable<Row>({ label, columns, rows, rowKey, onOpen, empty, toolbar, initialSort, count = true }: DataTableProps<Row>) {
  const [sort, setSort] = useState<TableSort>(initialSort ?? null);
  const [focused, setFocused] = useState(0);
  const [copied, setCopied] = useState<string | null>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);

  const sorted = useMemo(
    () => (sort ? sortRows(rows, columns.find((c) => c.id === sort.columnId), sort.direction) : rows),
    [rows, columns, sort],
  );

  const flash = (message: string) => {
    setCopied(message);
    window.setTimeout(() => setCopied(null), 1800);
  };

  const focusRow = (index: number) => {
    const clamped = Math.max(0, Math.min(sorted.length - 1, index));
    setFocused(clamped);
    bodyRef.current?.querySelectorAll<HTMLTableRowElement>('tr')[clamped]?.focus();
  };

  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, row: Row, index: number) => {
    const mod = event.metaKey || event.ctrlKey;
    if (event.key === 'ArrowDown') focusRow(index + 1);
    else if (event.key === 'ArrowUp') focusRow(index - 1);
    else if (event.key === 'Home') focusRow(0);
    else if (event.key === 'End') focusRow(sorted.length - 1);
    else if (event.key === 'Enter' && onOpen) onOpen(row);
    else if (mod && event.key.toLowerCase() === 'c' && !window.getSelection()?.toString()) {
      void copyText(toTsv(columns, [row]).split('\n')[1] ?? '').then((ok) => flash(ok ? 'Row copied' : 'Copy failed'));
    } else return;
    event.preventDefault();
  };

  return (
    <div className="data-table">
      <div className="data-table__toolbar pane-bar">
        {count && (
          <span className="data-table__count">
            {rows.length} {rows.length === 1 ? 'row' : 'rows'}
          </span>
        )}
        {toolbar}
        <span className="data-table__spacer" />
        {copied && (
          <span className="data-table__copied" role="status">
            {copied}
          </span>
        )}
        <button
          type="button"
          className="button button--small"
          disabled={rows.length === 0}
          onClick={() => void copyText(toTsv(columns, sorted)).then((ok) => flash(ok ? `${sorted.length} rows copied` : 'Copy failed'))}
        >
          Copy table
        </button>
      </div>
      <div className="data-table__scroll">
        <table aria-label={label}>
          <thead>
            <tr>
              {columns.map((column) => (
                <SortableHeader
                  key={column.id}
                  header={column.header}
                  align={column.align}
                  width={column.width}
                  direction={sort?.columnId === column.id ? sort.direction : null}
                  onSort={() => setSort((current) => sortToggled(current, column.id))}
                />
              ))}
            </tr>
          </thead>
          <tbody ref={bodyRef}>
            {sorted.map((row, index) => (
              <tr
                key={rowKey(row)}
                tabIndex={index === focused ? 0 : -1}
                onFocus={() => setFocused(index)}
                onKeyDown={(event) => onRowKey(event, row, index)}
                onDoubleClick={onOpen ? () => onOpen(row) : undefined}
                className={onOpen ? 'is-openable' : undefined}
              >
                {columns.map((column) => (
                  <td key={column.id} className={column.align === 'right' ? 'is-numeric' : undefined}>
                    {column.render ? column.render(row) : column.text(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 && empty && <div className="data-table__empty">{empty}</div>}
      </div>
    </div>
  );
}
