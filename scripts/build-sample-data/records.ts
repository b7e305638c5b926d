// Records: one per source row per kind, numbered source by source.
import { rowPoint } from '../../electron/local-service/sample-keys.ts';
import { recordRef } from './ids.ts';
import type { RecordDraft, Row } from './model.ts';
import { SOURCES } from './sources.ts';

export interface SampleRecords {
  records: RecordDraft[];
  sourceRanges: Map<string, { first: number; last: number }>;
  /** The record of `kind` made from `row`, if the row has one. */
  recordOf: (row: Row, kind: string) => RecordDraft | undefined;
}

export function numberRecords(rowsByDataset: Map<string, Row[]>): SampleRecords {
  const records: RecordDraft[] = [];
  const recordsByRow = new Map<Row, Map<string, RecordDraft>>();
  const sourceRanges = new Map<string, { first: number; last: number }>();
  const recordOf = (row: Row, kind: string): RecordDraft | undefined => recordsByRow.get(row)?.get(kind);
  const includeRow: Record<string, (row: Row) => boolean> = {
    dc_otr_assessment: (row) => row.values['assessment_2016'] !== null,
    dc_otr_sale: (row) => row.values['last_sale_recordation_date'] !== null,
  };
  SOURCES.forEach((source) => {
    const rows = rowsByDataset.get(source.dataset.id) ?? [];
    const first = records.length + 1;
    for (const row of rows) {
      if (includeRow[source.source_id] && !includeRow[source.source_id]?.(row)) continue;
      const point = rowPoint(source.dataset.id, row.values);
      const lat = point?.lat ?? null;
      const lon = point?.lon ?? null;
      const record: RecordDraft = { no: records.length + 1, ref: recordRef(source.source_id, row.key), source, row, lat, lon };
      records.push(record);
      let byKind = recordsByRow.get(row);
      if (!byKind) recordsByRow.set(row, (byKind = new Map()));
      byKind.set(source.kind, record);
    }
    sourceRanges.set(source.source_id, { first, last: records.length });
  });
  return { records, sourceRanges, recordOf };
}
