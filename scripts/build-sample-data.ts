// Builds the embedded service's sample database (assets/sample-data/sample.db) and its manifest
// from the real public-record files in ../shared/data. Run with `npm run sample-data` (optionally
// `--from DIR`, `--out DIR`). Deterministic: the same input files give the same rows, the same ids
// and the same row numbers, because every id is a name-based UUID over a source key and every
// number follows input order. See docs/service-notes.md, "Sample data", for the model.
//
// One module per step in scripts/build-sample-data/: the datasets and sources, reading the inputs,
// the synthetic characteristics, records, one builder per source (DC OTR, DC permits, Alexandria),
// then the database and the manifest.
import { statSync } from 'node:fs';
import path from 'node:path';
import { dataBuildDirs } from './data-build-args.ts';
import { buildAlexandria } from './build-sample-data/va-alexandria.ts';
import { buildDcOtr } from './build-sample-data/dc-otr.ts';
import { buildDcPermits } from './build-sample-data/dc-permits.ts';
import { readInputs } from './build-sample-data/inputs.ts';
import { writeSampleManifest } from './build-sample-data/manifest.ts';
import { createSampleGraph } from './build-sample-data/model.ts';
import { numberRecords } from './build-sample-data/records.ts';
import { imputeCharacteristics, linkImputedLots } from './build-sample-data/synthetic-characteristics.ts';
import { writeSampleDatabase } from './build-sample-data/write-database.ts';

export { entityId, entityKeys, recordRef } from './build-sample-data/ids.ts';
export { typedCell } from './build-sample-data/datasets.ts';

export interface BuildReport {
  dbPath: string;
  manifestPath: string;
  dbBytes: number;
  tables: Record<string, number>;
  recordsBySource: Record<string, number>;
  entitiesByKind: Record<string, number>;
  edgesByPredicate: Record<string, number>;
  ms: number;
}

/** Builds the sample database from `fromDir` into `outDir` (sample.db + manifest.json). */
export function buildSampleData(options: { fromDir: string; outDir: string }): BuildReport {
  const started = performance.now();
  const { fromDir, outDir } = options;
  const inputs = readInputs(fromDir);
  const imputedFor = imputeCharacteristics(inputs);
  const records = numberRecords(inputs.rowsByDataset);
  // Entities are numbered in the order the builders meet them: DC OTR, DC permits, Alexandria.
  const graph = createSampleGraph();
  const dc = buildDcOtr(inputs, graph, records);
  const placeholderKeys = buildDcPermits(inputs, graph, records, dc);
  buildAlexandria(inputs, graph, records);
  linkImputedLots(inputs.syntheticRows, imputedFor, dc);

  // valid_from: the earliest as_of of the records about an entity.
  for (const rec of records.records) {
    for (const no of rec.row.q) {
      const e = graph.entities[no - 1];
      if (e && rec.source.as_of < e.validFrom) e.validFrom = rec.source.as_of;
    }
  }

  const sample = { inputs, records, graph, dc, placeholderKeys };
  const { dbPath, tables } = writeSampleDatabase(outDir, sample);
  const { manifestPath, recordsBySource, entitiesByKind, edgesByPredicate } = writeSampleManifest(outDir, sample, tables);
  return {
    dbPath, manifestPath, dbBytes: statSync(dbPath).size, tables, recordsBySource, entitiesByKind, edgesByPredicate,
    ms: Math.round(performance.now() - started),
  };
}

// ---------------------------------------------------------------------------------------------
// CLI

function main(argv: string[]): void {
  const report = buildSampleData(dataBuildDirs(argv, 'assets/sample-data'));
  console.log(`sample data: ${path.relative(process.cwd(), report.dbPath)} ${(report.dbBytes / 1e6).toFixed(1)} MB in ${report.ms} ms`);
  console.log(JSON.stringify({ tables: report.tables, records_by_source: report.recordsBySource, entities_by_kind: report.entitiesByKind, edges_by_predicate: report.edgesByPredicate }, null, 2));
}

if (import.meta.main) main(process.argv.slice(2));
