// The build's model: rows, records, entities and edges as drafts numbered in build order, and the
// graph the per-source builders add entities and links to.
import { PRECISION_CODES } from '../../electron/local-service/sample-keys.ts';
import type {
  AreaUid,
  EntityPrefix,
  IdentifierScheme,
  LinkMethod,
  LocationPrecision,
  Predicate,
} from '../../electron/local-service/sample-keys.ts';
import type { CellValue, DatasetSpec } from './datasets.ts';
import { entityId } from './ids.ts';
import type { SourceSpec } from './sources.ts';

export interface Row {
  no: number;
  dataset: DatasetSpec;
  /** Row's own key within its dataset, for record refs. */
  key: string;
  values: Record<string, CellValue>;
  q: Set<number>;
}

export interface RecordDraft {
  no: number;
  ref: string;
  source: SourceSpec;
  row: Row;
  lat: number | null;
  lon: number | null;
}

export interface EntityDraft {
  no: number;
  id: string;
  prefix: EntityPrefix;
  area: AreaUid;
  primaryRow: Row;
  precision: LocationPrecision | null;
  locationRec: RecordDraft | null;
  identifiers: Array<{ scheme: IdentifierScheme; value: string }>;
  identifierKeys: Set<string>;
  validFrom: string;
}

export interface EdgeDraft {
  subject: EntityDraft;
  predicate: Predicate;
  object: EntityDraft | RecordDraft;
  method: LinkMethod;
  confidence: number;
  sources: Set<RecordDraft>;
  basis: string | null;
}

export const code = <T>(list: readonly T[], value: T): number => {
  const index = list.indexOf(value);
  if (index < 0) throw new Error(`no code for ${String(value)}`);
  return index + 1;
};
export const dateNumber = (isoDate: string): number => Number(isoDate.slice(0, 10).replace(/-/g, ''));

/** How a link was made: the method, its confidence and, for an address match, the address. */
export interface LinkHow {
  method: LinkMethod;
  confidence: number;
  basis?: string;
}

export const sameRow = { method: 'same_row', confidence: 1 } as const;
export const sslMatch = { method: 'ssl_match', confidence: 1 } as const;

export interface SampleGraph {
  entities: EntityDraft[];
  entityByKey: Map<string, EntityDraft>;
  edges: Map<string, EdgeDraft>;
  /** The entity of `key`, made on first sight; either way the row is about it. */
  entity: (prefix: EntityPrefix, key: string, area: AreaUid, row: Row) => EntityDraft;
  identify: (e: EntityDraft, scheme: IdentifierScheme, value: string | null) => void;
  /** Takes the record's point unless the entity already has one of equal or better precision. */
  locate: (e: EntityDraft, rec: RecordDraft | undefined, precision: LocationPrecision) => void;
  link: (subject: EntityDraft, predicate: Predicate, object: EntityDraft | RecordDraft, how: LinkHow, sources: Array<RecordDraft | undefined>) => void;
}

export function createSampleGraph(): SampleGraph {
  const entities: EntityDraft[] = [];
  const entityByKey = new Map<string, EntityDraft>();
  const entity = (prefix: EntityPrefix, key: string, area: AreaUid, row: Row): EntityDraft => {
    let e = entityByKey.get(key);
    if (!e) {
      e = {
        no: entities.length + 1, id: entityId(prefix, key), prefix, area, primaryRow: row,
        precision: null, locationRec: null, identifiers: [], identifierKeys: new Set(), validFrom: '9999-12-31',
      };
      entities.push(e);
      entityByKey.set(key, e);
    }
    row.q.add(e.no);
    return e;
  };
  const identify = (e: EntityDraft, scheme: IdentifierScheme, value: string | null) => {
    if (value === null || value === '') return;
    const k = `${scheme}\u0000${value}`;
    if (e.identifierKeys.has(k)) return;
    e.identifierKeys.add(k);
    e.identifiers.push({ scheme, value });
  };
  const locate = (e: EntityDraft, rec: RecordDraft | undefined, precision: LocationPrecision) => {
    if (!rec || rec.lat === null || rec.lon === null) return;
    if (e.precision !== null && code(PRECISION_CODES, e.precision) >= code(PRECISION_CODES, precision)) return;
    e.precision = precision;
    e.locationRec = rec;
  };
  const edges = new Map<string, EdgeDraft>();
  const link = (
    subject: EntityDraft, predicate: Predicate, object: EntityDraft | RecordDraft, how: LinkHow,
    sources: Array<RecordDraft | undefined>,
  ) => {
    const objectRef = 'id' in object ? object.id : object.ref;
    const key = `${subject.id}|${predicate}|${objectRef}`;
    let edge = edges.get(key);
    if (!edge) {
      edge = { subject, predicate, object, method: how.method, confidence: how.confidence, sources: new Set(), basis: how.basis ?? null };
      edges.set(key, edge);
    }
    for (const s of sources) if (s) edge.sources.add(s);
  };
  return { entities, entityByKey, edges, entity, identify, locate, link };
}
