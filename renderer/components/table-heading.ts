// A column's heading as the screens' plain tables and the report's tables list them: its words, or
// a numeric column's, whose heading each table aligns like its cells.
import type { ReactNode } from 'react';

export type ColumnHeading = ReactNode | { label: ReactNode; numeric: true };

export const numeric = (label: ReactNode): ColumnHeading => ({ label, numeric: true });

export const isNumeric = (column: ColumnHeading): column is { label: ReactNode; numeric: true } =>
  typeof column === 'object' && column !== null && 'numeric' in column;
