// The sample's manifest (manifest.json): its inputs, table sizes and what it holds, by source, by
// entity kind and by link predicate.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SAMPLE_SCHEMA_VERSION } from '../../electron/local-service/sample-keys.ts';
import type { EntityDraft } from './model.ts';
import { SOURCES } from './sources.ts';
import type { BuiltSample } from './write-database.ts';

export interface SampleManifestCounts {
  manifestPath: string;
  recordsBySource: Record<string, number>;
  entitiesByKind: Record<string, number>;
  edgesByPredicate: Record<string, number>;
}

/** Writes `outDir/manifest.json` for a sample whose database has `tables`. */
export function writeSampleManifest(outDir: string, sample: BuiltSample, tables: Record<string, number>): SampleManifestCounts {
  const { inputs } = sample.inputs;
  const { sourceRanges } = sample.records;
  const { entities, edges } = sample.graph;
  const { ownerHoldings } = sample.dc;
  const count = <T>(items: Iterable<T>, keyOf: (item: T) => string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const item of items) out[keyOf(item)] = (out[keyOf(item)] ?? 0) + 1;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
  };
  const recordsBySource = Object.fromEntries(SOURCES.map((s) => {
    const range = sourceRanges.get(s.source_id) ?? { first: 0, last: -1 };
    return [s.source_id, range.last - range.first + 1];
  }));
  const entitiesByKind = count(entities, (e) => e.prefix);
  const edgesByPredicate = count(edges.values(), (e) => e.predicate);
  // Owner links are read from the owners table: every pair of accounts under one normalised name.
  const accountsByOwner = new Map<string, Set<EntityDraft>>();
  for (const h of ownerHoldings) {
    let set = accountsByOwner.get(h.ownerKey);
    if (!set) accountsByOwner.set(h.ownerKey, (set = new Set()));
    set.add(h.account);
  }
  let ownerLinks = 0;
  for (const set of accountsByOwner.values()) ownerLinks += (set.size * (set.size - 1)) / 2;
  edgesByPredicate['same_owner'] = ownerLinks;
  const manifest = {
    schema_version: SAMPLE_SCHEMA_VERSION,
    generator: 'scripts/build-sample-data.ts',
    database: 'sample.db',
    inputs,
    tables,
    records_by_source: recordsBySource,
    entities_by_kind: entitiesByKind,
    edges_by_predicate: edgesByPredicate,
  };
  const manifestPath = path.join(outDir, 'manifest.json');
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifestPath, recordsBySource, entitiesByKind, edgesByPredicate };
}
