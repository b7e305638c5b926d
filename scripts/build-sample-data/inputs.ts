// Reads the input files into numbered rows: dataset by dataset, in file order, so the same files
// give the same row numbers.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { DATASETS, str, typedCell } from './datasets.ts';
import type { CellValue, DatasetSpec } from './datasets.ts';
import type { Row } from './model.ts';

export interface InputFile {
  path: string;
  sha256: string;
  bytes: number;
}

export interface Inputs {
  inputs: InputFile[];
  rowsByDataset: Map<string, Row[]>;
  otrRows: Row[];
  permitRows: Row[];
  camaRows: Row[];
  squareRows: Row[];
  vaParcelRows: Row[];
  vaPointRows: Row[];
  /** Filled by the imputation, which numbers its rows after every input row. */
  syntheticRows: Row[];
  lastRowNo: number;
}

function readCsv(file: string): { header: string[]; rows: string[][] } {
  const rows = parse(readFileSync(file, 'utf8'), { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  const header = rows.shift();
  if (!header) throw new Error(`${file}: empty`);
  return { header, rows };
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Reads every input dataset from `fromDir`, checking each file's columns against its spec. */
export function readInputs(fromDir: string): Inputs {
  const inputs: InputFile[] = [];
  const rowsByDataset = new Map<string, Row[]>();
  let rowNo = 0;
  const loadDataset = (dataset: DatasetSpec, keyOf: (values: Record<string, CellValue>, index: number) => string): Row[] => {
    const file = path.join(fromDir, dataset.file);
    if (!existsSync(file)) throw new Error(`missing input ${file}`);
    inputs.push({ path: dataset.file, sha256: sha256(file), bytes: statSync(file).size });
    const { header, rows } = readCsv(file);
    const expected = dataset.fields.map((field) => field.name);
    if (header.join(',') !== expected.join(',')) {
      throw new Error(`${dataset.file}: columns ${header.join(',')} differ from the expected ${expected.join(',')}`);
    }
    const seen = new Map<string, number>();
    const out = rows.map((cells, index) => {
      const values: Record<string, CellValue> = {};
      dataset.fields.forEach((field, i) => {
        values[field.name] = typedCell(cells[i], field.type, `${dataset.file} row ${index + 2} ${field.name}`);
      });
      // Keys repeat only for rows published twice (Alexandria); the occurrence keeps each apart.
      const base = keyOf(values, index);
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      return { no: ++rowNo, dataset, key: count === 1 ? base : `${base}#${count}`, values, q: new Set<number>() };
    });
    rowsByDataset.set(dataset.id, out);
    return out;
  };

  const otrRows = loadDataset(DATASETS.otr, (v) => str(v['ssl_as_published']));
  const permitRows = loadDataset(DATASETS.permits, (v) => str(v['OBJECTID']));
  const camaRows = loadDataset(DATASETS.cama, (_v, index) => `row:${index + 1}`);
  const squareRows = loadDataset(DATASETS.squares, (v) => `${str(v['square'])}${str(v['suffix'])}`);
  const vaParcelRows = loadDataset(DATASETS.vaParcels, (v) => str(v['account_no']));
  const vaPointRows = loadDataset(DATASETS.vaPoints, (v) => str(v['objectid']));
  const syntheticRows: Row[] = [];
  rowsByDataset.set(DATASETS.synthetic.id, syntheticRows);
  return { inputs, rowsByDataset, otrRows, permitRows, camaRows, squareRows, vaParcelRows, vaPointRows, syntheticRows, lastRowNo: rowNo };
}
