// The row reader every topic module reads through: sources and datasets, rows decoded once (cells in
// the dataset's field order, short strings shared), records and their refs, entity ids and points.
// Rows, records of a kind and entity metadata are loaded on first use and kept: the topic modules'
// indexes point into them.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  ENTITY_ID_PATTERN,
  IDENTIFIER_SCHEMES,
  POINT_FIELDS,
  PRECISION_CODES,
  RECORD_REF_PATTERN,
  permitSslKey,
  rowPoint,
  uuidToBytes,
} from '../sample-keys.ts';
import { SYNTHETIC_DATASET_NAME, SYNTHETIC_DATASET_NAME_BEFORE, type EntityPrefix } from '../sample-keys.ts';
import type {
  CellValue,
  Citation,
  EntityIdentifier,
  EntityLocation,
  FieldType,
  PointLocation,
  SampleRecord,
  SampleSource,
  SourceCitation,
} from './interface.ts';

/** A stored row: its cells in the dataset's field order (objects are built only for output). */
export interface DecodedRow {
  no: number;
  dataset: string;
  cells: readonly CellValue[];
  /** Field name → cell index, shared by the dataset's rows. */
  fields: ReadonlyMap<string, number>;
  q: readonly number[];
}

/** A row's value of one field; null when empty or when the row's dataset has no such field. */
export function cellOf(row: DecodedRow | undefined, field: string): CellValue {
  if (!row) return null;
  const i = row.fields.get(field);
  return i === undefined ? null : (row.cells[i] ?? null);
}

/** A row's own point (POINT_FIELDS of its dataset), or null. */
export function pointOf(row: DecodedRow): { lat: number; lon: number } | null {
  const fields = POINT_FIELDS[row.dataset];
  if (!fields) return null;
  return rowPoint(row.dataset, { [fields[0]]: cellOf(row, fields[0]), [fields[1]]: cellOf(row, fields[1]) });
}

export interface SourceInfo {
  no: number;
  source: SampleSource;
  dataset: string;
  first: number;
  last: number;
  citation: SourceCitation;
  fieldTypes: Map<string, FieldType>;
}

export interface EntityRow {
  entity_no: number;
  uuid: Uint8Array;
  prefix: string;
  area: number;
  primary_row_no: number;
  valid_from: number;
  precision: number | null;
  location_rec_no: number | null;
}

export interface EdgeRow {
  subject_no: number;
  predicate: number;
  object: number;
  method: number;
  confidence: number;
  source_rec_nos: string;
  basis: string | null;
}

/** All records of one kind, decoded once. */
export interface KindTable {
  recNos: Int32Array;
  sources: SourceInfo[];
  /** Index into `sources` per position. */
  sourceOf: Uint8Array;
  rows: DecodedRow[];
}

const ENTITY_PREFIX_LIST: readonly EntityPrefix[] = ['prop', 'parc', 'acct', 'addr', 'unit'];

/** A topic module: it reads through the row reader and owns the indexes of its topic. */
export class OverRows {
  protected readonly reader: RowReader;

  constructor(reader: RowReader) {
    this.reader = reader;
  }
}

export class RowReader {
  readonly db: DatabaseSync;
  readonly sourceInfos: SourceInfo[];
  readonly sourceById: Map<string, SourceInfo>;
  private readonly datasetFields = new Map<string, string[]>();
  private readonly datasetFieldIndex = new Map<string, ReadonlyMap<string, number>>();
  /** Per dataset, an object with every field set to null: cloning it gives output objects one shared, fast shape. */
  private readonly datasetTemplates = new Map<string, Readonly<Record<string, CellValue>>>();
  private readonly datasetRanges: Array<{ dataset: string; first: number; last: number }> = [];
  readonly statements: {
    row: StatementSync;
    recordByUuid: StatementSync;
    entityByUuid: StatementSync;
    identifiers: StatementSync;
    rowsOfEntity: StatementSync;
    edgesOut: StatementSync;
    edgesIn: StatementSync;
    linksOut: StatementSync;
    linksIn: StatementSync;
  };
  /** Decoded rows by row_no: every row is decoded at most once. */
  private readonly rowCache: Array<DecodedRow | undefined>;
  /** Rows not decoded yet: at none, interning has nothing left to share with and its table goes. */
  private undecodedRows: number;
  private readonly kindTables = new Map<string, KindTable>();
  private recRows: Int32Array | null = null;
  /** 16 bytes per record: the uuid of its ref, formatted on demand (strings would cost 400 bytes each). */
  private recUuids: Buffer | null = null;
  /** Short repeated cell strings ("Warm Cool", "OLD CITY II") shared instead of stored once per row. */
  private readonly interned = new Map<string, string>();
  private entityMetaCache: { prefix: Uint8Array; area: Uint8Array; uuids: Buffer } | null = null;

  constructor(db: DatabaseSync) {
    this.db = db;
    const datasets = db.prepare('SELECT dataset, fields, first_row_no, last_row_no FROM datasets ORDER BY first_row_no').all() as Array<{
      dataset: string; fields: string; first_row_no: number; last_row_no: number;
    }>;
    for (const d of datasets) {
      const fields = JSON.parse(d.fields) as string[];
      this.datasetFields.set(d.dataset, fields);
      this.datasetFieldIndex.set(d.dataset, new Map(fields.map((name, i) => [name, i])));
      this.datasetTemplates.set(d.dataset, JSON.parse(JSON.stringify(Object.fromEntries(fields.map((name) => [name, null])))) as Record<string, CellValue>);
      this.datasetRanges.push({ dataset: d.dataset, first: d.first_row_no, last: d.last_row_no });
    }
    this.rowCache = new Array<DecodedRow | undefined>(datasets.reduce((max, d) => Math.max(max, d.last_row_no), 0) + 1).fill(undefined);
    this.undecodedRows = datasets.reduce((n, d) => n + (d.last_row_no - d.first_row_no + 1), 0);
    const sources = db.prepare('SELECT source_no, dataset, first_rec_no, last_rec_no, body FROM sources ORDER BY source_no').all() as Array<{
      source_no: number; dataset: string; first_rec_no: number; last_rec_no: number; body: string;
    }>;
    this.sourceInfos = sources.map((s) => {
      const stored = JSON.parse(s.body) as SampleSource;
      // A sample.db built before the dataset was named by what the build does said "nearest": read as the name it has now.
      const source = deepFreeze(stored.dataset === SYNTHETIC_DATASET_NAME_BEFORE ? { ...stored, dataset: SYNTHETIC_DATASET_NAME } : stored);
      const citation: SourceCitation = Object.freeze({
        source_id: source.source_id, publisher: source.publisher, dataset: source.dataset, as_of: source.as_of,
        release_id: source.release_id, sha256: source.sha256, official_url: source.official_url, synthetic: source.synthetic,
      });
      return {
        no: s.source_no, source, dataset: s.dataset, first: s.first_rec_no, last: s.last_rec_no, citation,
        fieldTypes: new Map(source.fields.map((field) => [field.name, field.type])),
      };
    });
    this.sourceById = new Map(this.sourceInfos.map((s) => [s.source.source_id, s]));
    this.statements = {
      row: db.prepare('SELECT data, q FROM source_rows WHERE row_no = ?'),
      recordByUuid: db.prepare('SELECT rec_no, row_no FROM records WHERE uuid = ?'),
      entityByUuid: db.prepare('SELECT * FROM entities WHERE uuid = ?'),
      identifiers: db.prepare('SELECT scheme, value FROM identifiers WHERE entity_no = ? ORDER BY ord'),
      rowsOfEntity: db.prepare('SELECT row_no FROM row_entities WHERE entity_no = ? ORDER BY row_no'),
      edgesOut: db.prepare('SELECT * FROM edges WHERE subject_no = ?'),
      // `object > 0` lets SQLite use the partial index (it cannot prove it of a bound parameter).
      edgesIn: db.prepare('SELECT * FROM edges WHERE object = ? AND object > 0 ORDER BY subject_no, predicate'),
      linksOut: db.prepare('SELECT predicate, object, confidence FROM edges WHERE subject_no = ? AND object > 0'),
      linksIn: db.prepare('SELECT subject_no, predicate, confidence FROM edges WHERE object = ? AND object > 0 ORDER BY subject_no, predicate'),
    };
    this.statements.linksOut.setReturnArrays(true);
    this.statements.linksIn.setReturnArrays(true);
  }

  sourcesIn(jurisdiction: string | undefined): SourceInfo[] {
    if (jurisdiction === undefined) return this.sourceInfos;
    return this.sourceInfos.filter((s) => s.source.jurisdiction === jurisdiction || s.source.state === jurisdiction);
  }

  datasetOfRow(rowNo: number): string {
    for (const range of this.datasetRanges) if (rowNo >= range.first && rowNo <= range.last) return range.dataset;
    throw new Error(`row ${rowNo} is in no dataset`);
  }

  row(rowNo: number): DecodedRow {
    const cached = this.rowCache[rowNo];
    if (cached) return cached;
    const raw = this.statements.row.get(rowNo) as { data: string; q: string } | undefined;
    if (!raw) throw new Error(`sample row ${rowNo} missing`);
    const dataset = this.datasetOfRow(rowNo);
    const fields = this.datasetFields.get(dataset) ?? [];
    const decoded = this.decodeRow(rowNo, dataset, fields, raw.data, raw.q);
    this.cacheRow(decoded);
    return decoded;
  }

  private cacheRow(row: DecodedRow): void {
    this.rowCache[row.no] = row;
    if (--this.undecodedRows === 0) this.interned.clear();
  }

  decodeRow(rowNo: number, dataset: string, fields: readonly string[], data: string, q: string): DecodedRow {
    const cells = JSON.parse(data) as CellValue[];
    for (let i = 0; i < fields.length; i++) {
      const v = cells[i];
      if (v === undefined) cells[i] = null;
      else if (typeof v === 'string' && v.length <= 24) {
        const shared = this.interned.get(v);
        if (shared === undefined) this.interned.set(v, v);
        else cells[i] = shared;
      }
    }
    return { no: rowNo, dataset, cells: Object.freeze(cells), fields: this.datasetFieldIndex.get(dataset) ?? new Map(), q: Object.freeze(JSON.parse(q) as number[]) };
  }

  /** The row as the publisher's field → value object, frozen: what a record's `data` is. */
  rowValues(row: DecodedRow): Readonly<Record<string, CellValue>> {
    const values: Record<string, CellValue> = { ...(this.datasetTemplates.get(row.dataset) ?? {}) };
    const fields = this.datasetFields.get(row.dataset) ?? [];
    for (let i = 0; i < fields.length; i++) values[fields[i] ?? ''] = row.cells[i] ?? null;
    return Object.freeze(values);
  }

  sourceOfRec(recNo: number): SourceInfo {
    for (const s of this.sourceInfos) if (recNo >= s.first && recNo <= s.last) return s;
    throw new Error(`record ${recNo} is in no source`);
  }

  /** rec_no → row_no and rec_no → record_ref for every record, loaded once. */
  recordRows(): Int32Array {
    if (this.recRows) return this.recRows;
    const last = this.sourceInfos.reduce((max, s) => Math.max(max, s.last), 0);
    // Rows as arrays and the uuid as hex text, streamed: a blob or an object per row, or every row at once, costs several times more.
    const statement = this.db.prepare('SELECT rec_no, row_no, hex(uuid) FROM records');
    statement.setReturnArrays(true);
    const rows = new Int32Array(last + 1);
    const uuids = Buffer.alloc((last + 1) * 16);
    for (const [recNo, rowNo, hex] of statement.iterate() as unknown as Iterable<[number, number, string]>) {
      rows[recNo] = rowNo;
      uuids.write(hex, recNo * 16, 16, 'hex');
    }
    this.recRows = rows;
    this.recUuids = uuids;
    return rows;
  }

  /** The records of one row, in source order (at most one per source). */
  recordsOfRow(rowNo: number): number[] {
    const recRows = this.recordRows();
    const dataset = this.datasetOfRow(rowNo);
    const out: number[] = [];
    for (const s of this.sourceInfos) {
      if (s.dataset !== dataset) continue;
      // Records of a source follow row order, so a binary search finds the row's record.
      let lo = s.first;
      let hi = s.last;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const r = recRows[mid] ?? 0;
        if (r === rowNo) {
          out.push(mid);
          break;
        }
        if (r < rowNo) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    return out;
  }

  recordRefOf(recNo: number): string {
    this.recordRows();
    const uuids = this.recUuids;
    if (!uuids || recNo < 1 || (recNo + 1) * 16 > uuids.length) throw new Error(`record ${recNo} missing`);
    return uuidRef('rec', uuids, recNo * 16);
  }

  citation(recNo: number, recordRef?: string): Citation {
    const s = this.sourceOfRec(recNo);
    return { ...s.citation, record_ref: recordRef ?? this.recordRefOf(recNo) };
  }

  entityIdOf(entityNo: number): string {
    const { uuids } = this.entityMeta();
    if (entityNo < 1 || (entityNo + 1) * 16 > uuids.length) throw new Error(`entity ${entityNo} missing`);
    return uuidRef(this.prefixOfNo(entityNo), uuids, entityNo * 16);
  }

  buildRecord(recNo: number, recordRef?: string): SampleRecord {
    const source = this.sourceOfRec(recNo);
    const row = this.row(this.recordRows()[recNo] ?? 0);
    const ref = recordRef ?? this.recordRefOf(recNo);
    const point = pointOf(row);
    const data = this.rowValues(row);
    const ssl = source.source.kind === 'permit' ? permitSslKey(data) : null;
    return {
      record_ref: ref,
      kind: source.source.kind,
      source_id: source.source.source_id,
      jurisdiction: source.source.jurisdiction,
      published_at: source.source.as_of,
      citation: { ...source.citation, record_ref: ref },
      data,
      q_ids: row.q.map((no) => this.entityIdOf(no)),
      location: point ? { ...point, precision: source.source.location_precision } : null,
      limitations: ssl?.problem ? [ssl.problem] : [],
    };
  }

  recNoOfRef(recordRef: string): number | null {
    const m = RECORD_REF_PATTERN.exec(recordRef);
    if (!m) return null;
    const r = this.statements.recordByUuid.get(uuidToBytes(m[1] ?? '')) as { rec_no: number } | undefined;
    return r ? r.rec_no : null;
  }

  /** Records about an entity: its defining row's records first, then by row. */
  recordNosAbout(entity: EntityRow): number[] {
    const rows = (this.statements.rowsOfEntity.all(entity.entity_no) as Array<{ row_no: number }>).map((r) => r.row_no);
    rows.sort((a, b) => (a === entity.primary_row_no ? -1 : b === entity.primary_row_no ? 1 : a - b));
    return rows.flatMap((rowNo) => this.recordsOfRow(rowNo));
  }

  kindTable(kind: string): KindTable {
    const cached = this.kindTables.get(kind);
    if (cached) return cached;
    const sources = this.sourceInfos.filter((s) => s.source.kind === kind);
    const total = sources.reduce((n, s) => n + (s.last - s.first + 1), 0);
    const recNos = new Int32Array(total);
    const sourceOf = new Uint8Array(total);
    const rows: DecodedRow[] = new Array<DecodedRow>(total);
    const recRows = this.recordRows();
    let i = 0;
    sources.forEach((s, sourceIndex) => {
      // One range read per source: a record's rows are consecutive within its dataset.
      const firstRow = recRows[s.first] ?? 0;
      const lastRow = recRows[s.last] ?? 0;
      const fields = this.datasetFields.get(s.dataset) ?? [];
      const stmt = this.db.prepare('SELECT row_no, data, q FROM source_rows WHERE row_no BETWEEN ? AND ?');
      for (const raw of stmt.iterate(firstRow, lastRow) as Iterable<{ row_no: number; data: string; q: string }>) {
        if (!this.rowCache[raw.row_no]) this.cacheRow(this.decodeRow(raw.row_no, s.dataset, fields, raw.data, raw.q));
      }
      for (let recNo = s.first; recNo <= s.last; recNo++, i++) {
        recNos[i] = recNo;
        sourceOf[i] = sourceIndex;
        // Only rows of the range just read: a record never borrows a row decoded for another source.
        const rowNo = recRows[recNo] ?? 0;
        const row = rowNo >= firstRow && rowNo <= lastRow ? this.rowCache[rowNo] : undefined;
        if (!row) throw new Error(`record ${recNo}: row missing`);
        rows[i] = row;
      }
    });
    const table: KindTable = { recNos, sources, sourceOf, rows };
    this.kindTables.set(kind, table);
    return table;
  }

  entityRow(entityId: string): EntityRow | null {
    const m = ENTITY_ID_PATTERN.exec(entityId);
    if (!m) return null;
    const e = this.statements.entityByUuid.get(uuidToBytes(m[2] ?? '')) as EntityRow | undefined;
    if (!e || e.prefix !== m[1]) return null;
    return e;
  }

  /** The entity's point without building its citation. */
  entityPoint(e: EntityRow): PointLocation | null {
    if (e.location_rec_no === null || e.precision === null) return null;
    const row = this.row(this.recordRows()[e.location_rec_no] ?? 0);
    const point = pointOf(row);
    // A literal, not a spread: the property index keeps one per property, and a spread one carries a separate property array.
    return point ? { lat: point.lat, lon: point.lon, precision: PRECISION_CODES[e.precision - 1] ?? 'square_centroid' } : null;
  }

  entityLocation(e: EntityRow): EntityLocation | null {
    if (e.location_rec_no === null || e.precision === null) return null;
    const record = this.buildRecord(e.location_rec_no);
    if (!record.location) return null;
    return {
      lat: record.location.lat, lon: record.location.lon,
      precision: PRECISION_CODES[e.precision - 1] ?? 'square_centroid',
      record_ref: record.record_ref, citation: record.citation,
    };
  }

  /**
   * Kind, area and uuid of every entity by entity_no, loaded once: ids are formatted from it and
   * results filtered on it before they are built. The table itself is keyed by uuid, which is how
   * ids are looked up.
   */
  entityMeta(): { prefix: Uint8Array; area: Uint8Array; uuids: Buffer } {
    if (this.entityMetaCache) return this.entityMetaCache;
    const statement = this.db.prepare('SELECT entity_no, prefix, area, hex(uuid) FROM entities');
    statement.setReturnArrays(true);
    const last = (this.db.prepare('SELECT max(entity_no) AS last FROM entities').get() as { last: number | null }).last ?? 0;
    const rows = statement.iterate() as unknown as Iterable<[number, EntityPrefix, number, string]>;
    const prefix = new Uint8Array(last + 1);
    const area = new Uint8Array(last + 1);
    const uuids = Buffer.alloc((last + 1) * 16);
    for (const [no, entityPrefix, entityArea, hex] of rows) {
      prefix[no] = ENTITY_PREFIX_LIST.indexOf(entityPrefix);
      area[no] = entityArea;
      uuids.write(hex, no * 16, 16, 'hex');
    }
    this.entityMetaCache = { prefix, area, uuids };
    return this.entityMetaCache;
  }

  prefixOfNo(entityNo: number): EntityPrefix {
    return ENTITY_PREFIX_LIST[this.entityMeta().prefix[entityNo] ?? 0] ?? 'prop';
  }

  identifiersOf(e: EntityRow): EntityIdentifier[] {
    return (this.statements.identifiers.all(e.entity_no) as Array<{ scheme: number; value: string }>).map((i) => ({
      scheme: IDENTIFIER_SCHEMES[i.scheme - 1] ?? 'address',
      value: i.value,
    }));
  }
}

const HEX = Buffer.from('0123456789abcdef', 'latin1');
const refScratch = Buffer.alloc(64);

/**
 * `prefix_` and the 16-byte uuid at `at` as a lowercase 8-4-4-4-12 uuid, in one flat string. A
 * template of slices would be a tree of about nine string pieces (several hundred bytes per id), and
 * indexes keep tens of thousands of ids.
 */
function uuidRef(prefix: string, uuids: Buffer, at: number): string {
  let o = refScratch.write(prefix, 0, 'latin1');
  refScratch[o++] = 0x5f;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) refScratch[o++] = 0x2d;
    const byte = uuids[at + i] ?? 0;
    refScratch[o++] = HEX[byte >> 4] ?? 0;
    refScratch[o++] = HEX[byte & 15] ?? 0;
  }
  return refScratch.toString('latin1', 0, o);
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export const isoDate = (yyyymmdd: number): string => {
  const s = String(yyyymmdd);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
};

export function compareKeys(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
