// Writes the sample database (sample.db): each table in build order, beside its final name, then
// renamed, so a failed build leaves the old database whole.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import {
  AREA_CODES,
  IDENTIFIER_SCHEMES,
  LINK_METHODS,
  PRECISION_CODES,
  PREDICATES,
  SAMPLE_SCHEMA_VERSION,
  uuidToBytes,
} from '../../electron/local-service/sample-keys.ts';
import { DATASETS } from './datasets.ts';
import type { DcIndex } from './dc-otr.ts';
import type { PlaceholderKey } from './dc-permits.ts';
import type { Inputs } from './inputs.ts';
import { code, dateNumber } from './model.ts';
import type { SampleGraph } from './model.ts';
import type { SampleRecords } from './records.ts';
import { SOURCES } from './sources.ts';

/** Everything the per-source builders made, ready to write. */
export interface BuiltSample {
  inputs: Inputs;
  records: SampleRecords;
  graph: SampleGraph;
  dc: DcIndex;
  placeholderKeys: Map<string, PlaceholderKey>;
}

/** Writes `outDir/sample.db`; returns its path and the row count of each table. */
export function writeSampleDatabase(outDir: string, sample: BuiltSample): { dbPath: string; tables: Record<string, number> } {
  const { inputs, rowsByDataset } = sample.inputs;
  const { records, sourceRanges } = sample.records;
  const { entities, edges } = sample.graph;
  const { ownerHoldings } = sample.dc;
  const { placeholderKeys } = sample;
  mkdirSync(outDir, { recursive: true });
  const dbPath = path.join(outDir, 'sample.db');
  const tmpPath = path.join(outDir, 'sample.db.tmp');
  rmSync(tmpPath, { force: true });
  const db = new DatabaseSync(tmpPath);
  try {
    db.exec(`
      PRAGMA journal_mode = OFF;
      PRAGMA synchronous = OFF;
      PRAGMA page_size = 4096;
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE datasets (
        dataset TEXT PRIMARY KEY, fields TEXT NOT NULL, first_row_no INTEGER NOT NULL, last_row_no INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE sources (
        source_no INTEGER PRIMARY KEY, source_id TEXT NOT NULL UNIQUE, dataset TEXT NOT NULL,
        first_rec_no INTEGER NOT NULL, last_rec_no INTEGER NOT NULL, body TEXT NOT NULL);
      -- Rows are numbered dataset by dataset (datasets.first_row_no..last_row_no). data: the row as a
      -- JSON array in the dataset's field order; q: JSON array of the entity_no the row is about.
      CREATE TABLE source_rows (row_no INTEGER PRIMARY KEY, data TEXT NOT NULL, q TEXT NOT NULL);
      -- A record is (source, row): its source is the one whose rec_no range holds it. Keyed by the
      -- ref's uuid (the store looks records up by ref and holds rec_no -> uuid in memory).
      CREATE TABLE records (uuid BLOB PRIMARY KEY, rec_no INTEGER NOT NULL, row_no INTEGER NOT NULL) WITHOUT ROWID;
      -- Keyed by the id's uuid (ids are looked up; the store holds entity_no -> uuid in memory).
      -- area, precision: codes (sample-keys.ts); valid_from: YYYYMMDD.
      CREATE TABLE entities (
        uuid BLOB PRIMARY KEY, entity_no INTEGER NOT NULL, prefix TEXT NOT NULL, area INTEGER NOT NULL,
        primary_row_no INTEGER NOT NULL, valid_from INTEGER NOT NULL, precision INTEGER, location_rec_no INTEGER) WITHOUT ROWID;
      -- scheme: code; ord keeps each entity's identifiers in the order the build met them.
      CREATE TABLE identifiers (
        entity_no INTEGER NOT NULL, ord INTEGER NOT NULL, scheme INTEGER NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (entity_no, ord)) WITHOUT ROWID;
      -- Which entities each row is about (the inverse of source_rows.q).
      CREATE TABLE row_entities (entity_no INTEGER NOT NULL, row_no INTEGER NOT NULL, PRIMARY KEY (entity_no, row_no)) WITHOUT ROWID;
      -- Clustered by subject. predicate, method: codes; object: an entity_no when positive, minus a
      -- rec_no when negative (permitted_by points at the permit record); basis: the normalised
      -- address of an address match. Owner links are not stored as edges: the store reads them from
      -- owners (every pair of accounts under one normalised owner name), which keeps a 157-account
      -- owner from costing 12,000 rows.
      CREATE TABLE edges (
        subject_no INTEGER NOT NULL, predicate INTEGER NOT NULL, object INTEGER NOT NULL, method INTEGER NOT NULL,
        confidence REAL NOT NULL, source_rec_nos TEXT NOT NULL, basis TEXT,
        PRIMARY KEY (subject_no, predicate, object)) WITHOUT ROWID;
      CREATE TABLE owner_names (owner_no INTEGER PRIMARY KEY, owner_key TEXT NOT NULL);
      CREATE TABLE owners (
        owner_no INTEGER NOT NULL, account_no INTEGER NOT NULL, property_no INTEGER NOT NULL, row_no INTEGER NOT NULL,
        PRIMARY KEY (owner_no, account_no, property_no, row_no)) WITHOUT ROWID;
    `);
    db.exec('BEGIN');
    const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    insertMeta.run('schema_version', String(SAMPLE_SCHEMA_VERSION));
    insertMeta.run('placeholder_ssl_keys', JSON.stringify([...placeholderKeys.values()].sort((a, b) => (a.ssl < b.ssl ? -1 : a.ssl > b.ssl ? 1 : 0))));
    const insertDataset = db.prepare('INSERT INTO datasets (dataset, fields, first_row_no, last_row_no) VALUES (?, ?, ?, ?)');
    for (const dataset of Object.values(DATASETS)) {
      const rows = rowsByDataset.get(dataset.id) ?? [];
      const nos = rows.map((row) => row.no);
      // Rows of a dataset are numbered consecutively, so a row's dataset is the range that holds it.
      if (nos.some((no, i) => i > 0 && no !== (nos[i - 1] ?? 0) + 1)) throw new Error(`${dataset.id}: rows not consecutive`);
      insertDataset.run(dataset.id, JSON.stringify(dataset.fields.map((field) => field.name)), nos[0] ?? 0, nos[nos.length - 1] ?? -1);
    }

    const inputByDataset = new Map(inputs.map((input) => [input.path, input]));
    const insertSource = db.prepare('INSERT INTO sources (source_no, source_id, dataset, first_rec_no, last_rec_no, body) VALUES (?, ?, ?, ?, ?, ?)');
    SOURCES.forEach((source, index) => {
      const range = sourceRanges.get(source.source_id) ?? { first: 0, last: -1 };
      const rows = records.slice(range.first - 1, range.last).map((r) => r.row);
      const input = inputByDataset.get(source.dataset.file);
      // The synthetic source is derived from the OTR and CAMA files: its hash covers both.
      const hash = input?.sha256 ?? createHash('sha256')
        .update(inputs.filter((i) => i.path === DATASETS.otr.file || i.path === DATASETS.cama.file).map((i) => i.sha256).join('\n'))
        .digest('hex');
      const body = {
        source_id: source.source_id,
        kind: source.kind,
        jurisdiction: source.jurisdiction,
        state: source.state,
        publisher: source.publisher,
        dataset: source.dataset_name,
        description: source.description,
        as_of: `${source.as_of}T00:00:00Z`,
        official_url: source.official_url,
        release_id: Number(source.as_of.replace(/-/g, '')),
        sha256: hash,
        records: range.last - range.first + 1,
        synthetic: source.synthetic,
        location_precision: source.location_precision,
        input_file: source.synthetic ? null : source.dataset.file,
        fields: source.dataset.fields.map((field) => ({
          name: field.name,
          type: field.type,
          description: field.description,
          example: rows.map((r) => r.values[field.name]).find((x) => x !== null && x !== undefined) ?? null,
        })),
      };
      insertSource.run(index + 1, source.source_id, source.dataset.id, range.first, range.last, JSON.stringify(body));
    });

    const insertRow = db.prepare('INSERT INTO source_rows (row_no, data, q) VALUES (?, ?, ?)');
    const allRows = [...rowsByDataset.values()].flat().sort((a, b) => a.no - b.no);
    for (const row of allRows) {
      const data = row.dataset.fields.map((field) => row.values[field.name] ?? null);
      insertRow.run(row.no, JSON.stringify(data), JSON.stringify([...row.q].sort((a, b) => a - b)));
    }
    const insertRecord = db.prepare('INSERT INTO records (uuid, rec_no, row_no) VALUES (?, ?, ?)');
    for (const r of records) insertRecord.run(uuidToBytes(r.ref.slice(4)), r.no, r.row.no);

    const insertEntity = db.prepare(
      'INSERT INTO entities (entity_no, uuid, prefix, area, primary_row_no, valid_from, precision, location_rec_no) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertIdentifier = db.prepare('INSERT INTO identifiers (entity_no, ord, scheme, value) VALUES (?, ?, ?, ?)');
    for (const e of entities) {
      insertEntity.run(
        e.no, uuidToBytes(e.id.slice(5)), e.prefix, code(AREA_CODES, e.area), e.primaryRow.no, dateNumber(e.validFrom),
        e.precision === null ? null : code(PRECISION_CODES, e.precision), e.locationRec?.no ?? null,
      );
      e.identifiers.forEach((i, ord) => insertIdentifier.run(e.no, ord, code(IDENTIFIER_SCHEMES, i.scheme), i.value));
    }

    const insertRowEntity = db.prepare('INSERT INTO row_entities (entity_no, row_no) VALUES (?, ?)');
    for (const row of allRows) for (const no of row.q) insertRowEntity.run(no, row.no);

    const ownerNo = new Map<string, number>();
    const insertOwnerName = db.prepare('INSERT INTO owner_names (owner_no, owner_key) VALUES (?, ?)');
    for (const key of [...new Set(ownerHoldings.map((h) => h.ownerKey))].sort()) {
      ownerNo.set(key, ownerNo.size + 1);
      insertOwnerName.run(ownerNo.size, key);
    }
    const insertOwner = db.prepare('INSERT OR IGNORE INTO owners (owner_no, account_no, property_no, row_no) VALUES (?, ?, ?, ?)');
    for (const h of ownerHoldings) insertOwner.run(ownerNo.get(h.ownerKey) ?? 0, h.account.no, h.property.no, h.row.no);

    const insertEdge = db.prepare(
      'INSERT INTO edges (subject_no, predicate, object, method, confidence, source_rec_nos, basis) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (const edge of edges.values()) {
      const sources = [...edge.sources].sort((a, b) => a.no - b.no);
      insertEdge.run(
        edge.subject.no, code(PREDICATES, edge.predicate), 'id' in edge.object ? edge.object.no : -edge.object.no,
        code(LINK_METHODS, edge.method), edge.confidence, JSON.stringify(sources.map((s) => s.no)), edge.basis,
      );
    }

    db.exec(`
      CREATE INDEX edges_object ON edges(object) WHERE object > 0;
    `);
    db.exec('COMMIT');
  } catch (error) {
    db.close();
    rmSync(tmpPath, { force: true });
    throw error;
  }

  const tables: Record<string, number> = {};
  for (const table of ['sources', 'source_rows', 'records', 'entities', 'identifiers', 'row_entities', 'edges', 'owner_names', 'owners']) {
    const row = db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
    tables[table] = row.n;
  }
  db.exec('ANALYZE');
  db.exec('VACUUM');
  db.close();
  renameSync(tmpPath, dbPath);
  return { dbPath, tables };
}
