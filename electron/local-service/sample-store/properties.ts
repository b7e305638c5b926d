// Property search and aggregation (v2, v3): every property with its facts in one index, built on first
// use from its defining row, its records and its synthetic characteristics.
import { AREA_CODES, AREA_DC, equalityKey } from '../sample-keys.ts';
import type { AreaUid } from '../sample-keys.ts';
import type { CellValue, PointLocation, PropertyAggregation, PropertyField, PropertyFilter, PropertyGroup, PropertySearch, PropertySummary, StoredProperty } from './interface.ts';
import { SampleStoreError } from './interface.ts';
import { cellOf, compareKeys, OverRows } from './rows.ts';
import type { DecodedRow, EntityRow } from './rows.ts';

export interface PropertyIndexEntry extends StoredProperty {
  /** Position in the property index. */
  index: number;
  entityNo: number;
  area: AreaUid;
  attributes: Record<PropertyField, CellValue>;
  /** Records the attributes came from (refs are formatted only for results). */
  recNos: number[];
  location: PointLocation | null;
}

const PROPERTY_FIELDS = new Set<string>([
  'address', 'owner_name', 'ssl', 'account_no', 'use_code', 'land_use', 'zoning', 'neighborhood', 'sub_neighborhood', 'homestead',
  'assessed_value_dollars', 'last_sale_price_dollars', 'last_sale_date', 'lat', 'lon', 'imputed_year_built', 'imputed_bedrooms',
  'imputed_full_bathrooms', 'imputed_gross_building_area_sqft', 'imputed_land_area_sqft',
]);

export class PropertyIndex extends OverRows {
  private propertyIndex: PropertyIndexEntry[] | null = null;
  private readonly byArea = new Map<string, readonly PropertyIndexEntry[]>();
  /** Equality keys of one property field, by index position, built on first filter on the field. */
  private readonly propertyEqKeys = new Map<PropertyField, Array<string | null>>();

  properties(): PropertyIndexEntry[] {
    if (this.propertyIndex) return this.propertyIndex;
    const out: PropertyIndexEntry[] = [];
    const statement = this.reader.db.prepare(
      "SELECT entity_no, area, primary_row_no, precision, location_rec_no FROM entities WHERE prefix = 'prop' ORDER BY entity_no",
    );
    statement.setReturnArrays(true);
    const imputedBySsl = new Map<string, { row: DecodedRow; recNo: number }>();
    const synthetic = this.reader.sourceById.get('plat_synthetic_characteristics');
    if (synthetic) {
      const table = this.reader.kindTable(synthetic.source.kind);
      table.rows.forEach((row, i) => imputedBySsl.set(String(cellOf(row, 'ssl')), { row, recNo: table.recNos[i] ?? 0 }));
    }
    // The property's defining row and its records give every attribute (one row per property).
    for (const kind of ['ownership', 'assessment', 'sale', 'parcel']) this.reader.kindTable(kind);
    // Streamed: every property's row at once would be garbage that outlives the young generation.
    for (const [entityNo, area, primaryRowNo, precision, locationRecNo] of statement.iterate() as unknown as Iterable<[number, number, number, number | null, number | null]>) {
      const e: EntityRow = {
        entity_no: entityNo, uuid: new Uint8Array(0), prefix: 'prop', area, primary_row_no: primaryRowNo, valid_from: 0,
        precision, location_rec_no: locationRecNo,
      };
      const row = this.reader.row(e.primary_row_no);
      const v = this.reader.rowValues(row);
      const recNos = this.reader.recordsOfRow(row.no);
      const str = (x: CellValue | undefined): CellValue => (x === undefined ? null : x);
      const attributes: Record<PropertyField, CellValue> = {
        address: str(v['address']), owner_name: str(v['owner']), ssl: str(v['ssl']), account_no: str(v['account_no']),
        use_code: str(v['use_code']), land_use: str(v['land_use']), zoning: str(v['zoning']), neighborhood: str(v['neighborhood']),
        sub_neighborhood: str(v['sub_neighborhood']), homestead: str(v['homestead']), assessed_value_dollars: str(v['assessment_2016']),
        last_sale_price_dollars: null, last_sale_date: null, lat: null, lon: null,
        imputed_year_built: null, imputed_bedrooms: null, imputed_full_bathrooms: null, imputed_gross_building_area_sqft: null, imputed_land_area_sqft: null,
      };
      // Sale facts only where a sale record exists (a row without a recordation date has no sale).
      if (recNos.some((recNo) => this.reader.sourceOfRec(recNo).source.kind === 'sale')) {
        attributes.last_sale_price_dollars = str(v['last_sale_price']);
        attributes.last_sale_date = str(v['last_sale_recordation_date']);
      }
      const imputed = typeof v['ssl'] === 'string' ? imputedBySsl.get(v['ssl']) : undefined;
      // Copied at its final length: an array pushed to (or spread) keeps room for about twenty numbers.
      const sourceRecNos = imputed ? recNos.concat(imputed.recNo) : recNos.slice();
      if (imputed) {
        attributes.imputed_year_built = cellOf(imputed.row, 'AYB');
        attributes.imputed_bedrooms = cellOf(imputed.row, 'BEDRM');
        attributes.imputed_full_bathrooms = cellOf(imputed.row, 'BATHRM');
        attributes.imputed_gross_building_area_sqft = cellOf(imputed.row, 'GBA');
        attributes.imputed_land_area_sqft = cellOf(imputed.row, 'LANDAREA');
      }
      const location = this.reader.entityPoint(e);
      if (location) {
        attributes.lat = location.lat;
        attributes.lon = location.lon;
      }
      out.push({ index: out.length, entityNo: e.entity_no, area: (AREA_CODES[e.area - 1] ?? AREA_DC) as AreaUid, attributes: Object.freeze(attributes), recNos: sourceRecNos, location });
    }
    this.propertyIndex = out;
    return out;
  }

  propertiesIn(areaUid: string): readonly StoredProperty[] {
    let list = this.byArea.get(areaUid);
    if (!list) this.byArea.set(areaUid, (list = this.properties().filter((p) => p.area === areaUid)));
    return list;
  }

  propertyRefs(property: StoredProperty): { entityRef: string; sourceRefs: string[] } {
    return { entityRef: this.reader.entityIdOf(property.entityNo), sourceRefs: property.recNos.map((recNo) => this.reader.recordRefOf(recNo)) };
  }

  /** Properties of an area that pass every filter, in entity order. */
  private matchProperties(areaUid: string, filters: readonly PropertyFilter[]): PropertyIndexEntry[] {
    for (const f of filters) {
      if (!PROPERTY_FIELDS.has(f.field)) throw new SampleStoreError('unknown_field', `unknown property field ${f.field}`);
    }
    // Each filter becomes one test with its operand prepared once.
    const tests = filters.map((f): ((entry: PropertyIndexEntry) => boolean) => {
      const field = f.field;
      switch (f.op) {
        case 'exists':
          return (p) => p.attributes[field] !== null;
        case 'eq': {
          const key = equalityKey(f.value ?? null);
          let keys = this.propertyEqKeys.get(field);
          if (!keys) {
            keys = this.properties().map((p) => equalityKey(p.attributes[field]));
            this.propertyEqKeys.set(field, keys);
          }
          const known = keys;
          return (p) => key !== null && known[p.index] === key;
        }
        case 'gte':
        case 'lte': {
          const bound = f.value;
          if (bound === null || bound === undefined || bound === '') throw new SampleStoreError('invalid_filter', `${f.op} on ${field} needs a value`);
          const numeric = Number(bound);
          const sign = f.op === 'gte' ? 1 : -1;
          return (p) => {
            const v = p.attributes[field];
            if (v === null) return false;
            const cmp = typeof v === 'number' ? v - numeric : compareKeys(String(v), String(bound));
            return !Number.isNaN(cmp) && cmp * sign >= 0;
          };
        }
        case 'contains':
        case 'prefix': {
          const needle = String(f.value ?? '').toUpperCase();
          const prefix = f.op === 'prefix';
          return (p) => {
            const v = p.attributes[field];
            if (v === null) return false;
            const text = String(v).toUpperCase();
            return prefix ? text.startsWith(needle) : text.includes(needle);
          };
        }
        default:
          throw new SampleStoreError('invalid_filter', `unknown operator ${String(f.op)}; use eq, gte, lte, contains, prefix or exists`);
      }
    });
    return this.properties().filter((p) => p.area === areaUid && tests.every((test) => test(p)));
  }

  aggregateProperties(query: PropertyAggregation): PropertyGroup[] {
    const measure = query.measure ?? { op: 'count' as const };
    for (const field of [query.groupBy, measure.field]) {
      if (field !== undefined && !PROPERTY_FIELDS.has(field)) throw new SampleStoreError('unknown_field', `unknown property field ${field}`);
    }
    if (measure.op !== 'count' && measure.field === undefined) throw new SampleStoreError('invalid_argument', `${measure.op} needs a field`);
    const groups = new Map<string, { group: CellValue; values: number[]; count: number }>();
    for (const p of this.matchProperties(query.areaUid, query.filters ?? [])) {
      const group = query.groupBy === undefined ? null : p.attributes[query.groupBy];
      const key = JSON.stringify(group);
      let entry = groups.get(key);
      if (!entry) groups.set(key, (entry = { group, values: [], count: 0 }));
      entry.count++;
      const v = measure.field === undefined ? null : p.attributes[measure.field];
      if (typeof v === 'number') entry.values.push(v);
    }
    const value = (values: number[]): number | null => {
      if (measure.op === 'count') return null;
      if (values.length === 0) return null;
      const sorted = [...values].sort((a, b) => a - b);
      switch (measure.op) {
        case 'sum':
          return values.reduce((a, b) => a + b, 0);
        case 'avg':
          return values.reduce((a, b) => a + b, 0) / values.length;
        case 'min':
          return sorted[0] ?? null;
        case 'max':
          return sorted[sorted.length - 1] ?? null;
        case 'median': {
          const mid = sorted.length >> 1;
          return sorted.length % 2 === 1 ? (sorted[mid] ?? null) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
        }
        default:
          throw new SampleStoreError('invalid_argument', `unknown measure ${String(measure.op)}`);
      }
    };
    // Largest groups first, then by group value, so the order is the same every time.
    return [...groups.values()]
      .map((g) => ({ group: g.group, count: g.count, value: value(g.values), measured: g.values.length }))
      .sort((a, b) => b.count - a.count || compareKeys(String(a.group ?? ''), String(b.group ?? '')));
  }

  searchProperties(search: PropertySearch): { items: PropertySummary[]; total: number } {
    const limit = search.limit ?? 20;
    const offset = search.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new SampleStoreError('invalid_argument', 'limit must be an integer from 1 to 100');
    if (!Number.isInteger(offset) || offset < 0) throw new SampleStoreError('invalid_argument', 'offset must be a whole number');
    if (search.sort && !PROPERTY_FIELDS.has(search.sort.field)) throw new SampleStoreError('unknown_field', `unknown property field ${search.sort.field}`);
    let matches = this.matchProperties(search.areaUid, search.filters ?? []);
    if (search.sort) {
      const { field, direction } = search.sort;
      const sign = direction === 'desc' ? -1 : 1;
      // Values first, missing values last, then entity order: a stable, repeatable order for paging.
      matches = matches.sort((a, b) => {
        const x = a.attributes[field];
        const y = b.attributes[field];
        if (x === null || y === null) return x === y ? a.entityNo - b.entityNo : x === null ? 1 : -1;
        const cmp = typeof x === 'number' && typeof y === 'number' ? x - y : compareKeys(String(x), String(y));
        return cmp * sign || a.entityNo - b.entityNo;
      });
    }
    const items = matches.slice(offset, offset + limit).map((p) => {
      const { entityRef, sourceRefs } = this.propertyRefs(p);
      return { entity_id: entityRef, entity_kind: 'property' as const, area_uid: p.area, status: 'current' as const, attributes: p.attributes, source_refs: sourceRefs, location: p.location };
    });
    return { items, total: matches.length };
  }
}
