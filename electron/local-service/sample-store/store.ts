// The read-only store over the embedded sample data (assets/sample-data/sample.db, built by
// scripts/build-sample-data.ts). Operations (v4, v3, v2) answer from it; it knows nothing of HTTP,
// envelopes or prices. Every method is synchronous (node:sqlite), so an operation runs in one turn
// of the event loop. Point look-ups go to SQLite indexes; searches, spatial queries, owner and
// address look-ups use in-memory indexes, each owned by its topic module and built lazily on first
// use (tens of milliseconds once), so a query never parses thousands of JSON rows. Every value
// handed out carries its citation. This file opens the database and puts the topics together.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { AREA_ALEXANDRIA, AREA_DC, AREA_JURISDICTION, SAMPLE_SCHEMA_VERSION } from '../sample-keys.ts';
import type { AreaUid } from '../sample-keys.ts';
import type { AreaSummary, SampleSource, SampleStore, StoreInfo } from './interface.ts';
import { SampleStoreError } from './interface.ts';
import { DerivedColumns } from './derived-columns.ts';
import { Entities } from './entities.ts';
import { FactCollector } from './facts.ts';
import { OwnerDirectory } from './owners.ts';
import { PropertyIndex } from './properties.ts';
import { RecordFinder } from './records.ts';
import { Relationships } from './relationships.ts';
import { Resolver } from './resolution.ts';
import { RowReader } from './rows.ts';
import { SaleFinder } from './sales.ts';

/** assets/sample-data/sample.db of this checkout (or, bundled, of the working directory). */
export function defaultSampleDbPath(): string {
  const here = typeof import.meta.url === 'string' ? path.dirname(fileURLToPath(import.meta.url)) : null;
  return here ? path.resolve(here, '../../../assets/sample-data/sample.db') : path.resolve('assets/sample-data/sample.db');
}

/** Opens the sample database read-only. Throws SampleStoreError when it is missing or of another schema version. */
export function openSampleStore(dbPath: string = defaultSampleDbPath()): SampleStore {
  if (!existsSync(dbPath)) {
    throw new SampleStoreError('missing_database', `no sample database at ${dbPath}; run \`npm run sample-data\``);
  }
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    if (Number(row?.value) !== SAMPLE_SCHEMA_VERSION) {
      throw new SampleStoreError('schema_mismatch', `sample database schema ${row?.value ?? 'unknown'} is not ${SAMPLE_SCHEMA_VERSION}; run \`npm run sample-data\``);
    }
    return new SqliteSampleStore(db, dbPath);
  } catch (error) {
    db.close();
    throw error;
  }
}

class SqliteSampleStore implements SampleStore {
  readonly path: string;
  private readonly reader: RowReader;
  private readonly records: RecordFinder;
  private readonly entities: Entities;
  private readonly relations: Relationships;
  private readonly owners: OwnerDirectory;
  private readonly resolver: Resolver;
  private readonly properties: PropertyIndex;
  private readonly sales: SaleFinder;
  private readonly derived: DerivedColumns;
  private readonly facts: FactCollector;

  constructor(db: DatabaseSync, dbPath: string) {
    this.path = dbPath;
    this.reader = new RowReader(db);
    this.records = new RecordFinder(this.reader);
    this.owners = new OwnerDirectory(this.reader);
    this.relations = new Relationships(this.reader, this.owners);
    this.resolver = new Resolver(this.reader);
    this.properties = new PropertyIndex(this.reader);
    this.sales = new SaleFinder(this.reader);
    this.derived = new DerivedColumns(this.reader);
    this.facts = new FactCollector(this.reader, this.derived);
    this.entities = new Entities(this.reader, this.facts);
  }

  close(): void {
    if (this.reader.db.isOpen) this.reader.db.close();
  }

  info(): StoreInfo {
    const counts: Record<string, number> = {};
    for (const table of ['sources', 'source_rows', 'records', 'entities', 'identifiers', 'row_entities', 'edges', 'owner_names', 'owners']) {
      counts[table] = (this.reader.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    }
    return { schema_version: SAMPLE_SCHEMA_VERSION, path: this.path, counts };
  }

  warm(): void {
    for (const kind of new Set(this.reader.sourceInfos.map((s) => s.source.kind))) this.reader.kindTable(kind);
    this.resolver.identifiers();
    this.owners.index();
    this.properties.properties();
    this.sales.index();
  }

  listSources(filter: { jurisdiction?: string; sourceId?: string; kind?: string } = {}): SampleSource[] {
    return this.reader.sourcesIn(filter.jurisdiction)
      .filter((s) => (filter.sourceId === undefined || s.source.source_id === filter.sourceId) && (filter.kind === undefined || s.source.kind === filter.kind))
      .map((s) => s.source);
  }

  getSource(sourceId: string): SampleSource | null {
    return this.reader.sourceById.get(sourceId)?.source ?? null;
  }

  kinds(jurisdiction?: string): string[] {
    return [...new Set(this.reader.sourcesIn(jurisdiction).map((s) => s.source.kind))];
  }

  areas(): AreaSummary[] {
    const counts = new Map<string, number>();
    for (const p of this.properties.properties()) counts.set(p.area, (counts.get(p.area) ?? 0) + 1);
    return [
      { area_uid: AREA_DC, ...AREA_JURISDICTION[AREA_DC], name: 'Washington, DC', properties: counts.get(AREA_DC) ?? 0 },
      { area_uid: AREA_ALEXANDRIA, ...AREA_JURISDICTION[AREA_ALEXANDRIA], name: 'Alexandria, VA', properties: counts.get(AREA_ALEXANDRIA) ?? 0 },
    ].map(({ county, ...rest }): AreaSummary => ({ ...rest, area_uid: rest.area_uid as AreaUid, jurisdiction: county }));
  }

  searchRecords: SampleStore['searchRecords'] = (search) => this.records.searchRecords(search);
  getRecord: SampleStore['getRecord'] = (recordRef) => this.records.getRecord(recordRef);
  getRecords: SampleStore['getRecords'] = (recordRefs) => this.records.getRecords(recordRefs);
  recordsAbout: SampleStore['recordsAbout'] = (entityId, filter) => this.records.recordsAbout(entityId, filter);
  getEntity: SampleStore['getEntity'] = (entityId) => this.entities.getEntity(entityId);
  missingEntityNote: SampleStore['missingEntityNote'] = (entityId) => this.entities.missingEntityNote(entityId);
  relationships: SampleStore['relationships'] = (entityId, options) => this.relations.relationships(entityId, options);
  connected: SampleStore['connected'] = (entityId, options) => this.relations.connected(entityId, options);
  traverse: SampleStore['traverse'] = (entityId, options) => this.relations.traverse(entityId, options);
  findOwners: SampleStore['findOwners'] = (name, options) => this.owners.findOwners(name, options);
  resolveAddress: SampleStore['resolveAddress'] = (text, options) => this.resolver.resolveAddress(text, options);
  resolveIdentifier: SampleStore['resolveIdentifier'] = (scheme, value, options) => this.resolver.resolveIdentifier(scheme, value, options);
  searchProperties: SampleStore['searchProperties'] = (search) => this.properties.searchProperties(search);
  propertiesIn: SampleStore['propertiesIn'] = (areaUid) => this.properties.propertiesIn(areaUid);
  propertyRefs: SampleStore['propertyRefs'] = (property) => this.properties.propertyRefs(property);
  aggregateProperties: SampleStore['aggregateProperties'] = (query) => this.properties.aggregateProperties(query);
  salesNear: SampleStore['salesNear'] = (query) => this.sales.salesNear(query);
  factsFor: SampleStore['factsFor'] = (entityId) => this.facts.factsFor(entityId);
  derivedColumns: SampleStore['derivedColumns'] = (recordRef) => this.derived.derivedColumns(recordRef);
  identifierProvenance: SampleStore['identifierProvenance'] = (entityId) => this.facts.identifierProvenance(entityId);
}
