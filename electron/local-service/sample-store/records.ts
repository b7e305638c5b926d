// Record search (v4): records of one kind, filtered on the publisher's fields, in rec_no order and
// paged. The equality and ordered indexes of a kind's field are built on the first filter on it.
import { equalityKey } from '../sample-keys.ts';
import type { FieldType, RecordPage, RecordSearch, SampleRecord } from './interface.ts';
import { SampleStoreError } from './interface.ts';
import { cellOf, compareKeys, OverRows } from './rows.ts';
import type { DecodedRow, KindTable } from './rows.ts';

const MAX_FILTERS = 5;

export class RecordFinder extends OverRows {
  /** Per kind table and field: value key → positions, and positions sorted by value. */
  private readonly eq = new Map<KindTable, Map<string, Map<string, number[]>>>();
  private readonly ordered = new Map<KindTable, Map<string, { positions: Int32Array; keys: Array<number | string> }>>();

  getRecord(recordRef: string): SampleRecord | null {
    const recNo = this.reader.recNoOfRef(recordRef);
    return recNo === null ? null : this.reader.buildRecord(recNo, recordRef);
  }

  getRecords(recordRefs: readonly string[]): SampleRecord[] {
    const out: SampleRecord[] = [];
    for (const ref of recordRefs) {
      const record = this.getRecord(ref);
      if (record) out.push(record);
    }
    return out;
  }

  recordsAbout(entityId: string, filter: { kind?: string; sourceId?: string } = {}): SampleRecord[] {
    const entity = this.reader.entityRow(entityId);
    if (!entity) return [];
    return this.reader.recordNosAbout(entity)
      .filter((recNo) => {
        const s = this.reader.sourceOfRec(recNo).source;
        return (filter.kind === undefined || s.kind === filter.kind) && (filter.sourceId === undefined || s.source_id === filter.sourceId);
      })
      .map((recNo) => this.reader.buildRecord(recNo));
  }

  private eqIndex(table: KindTable, field: string): Map<string, number[]> {
    let byField = this.eq.get(table);
    if (!byField) this.eq.set(table, (byField = new Map()));
    let index = byField.get(field);
    if (index) return index;
    index = new Map();
    for (let i = 0; i < table.rows.length; i++) {
      const key = equalityKey(cellOf(table.rows[i], field));
      if (key === null) continue;
      let list = index.get(key);
      if (!list) index.set(key, (list = []));
      list.push(i);
    }
    // A pushed-to array keeps room for about twenty positions; most keys have one or two.
    for (const [key, list] of index) index.set(key, list.slice());
    byField.set(field, index);
    return index;
  }

  private orderedIndex(table: KindTable, field: string, type: FieldType): { positions: Int32Array; keys: Array<number | string> } {
    let byField = this.ordered.get(table);
    if (!byField) this.ordered.set(table, (byField = new Map()));
    let index = byField.get(field);
    if (index) return index;
    const entries: Array<{ i: number; key: number | string }> = [];
    for (let i = 0; i < table.rows.length; i++) {
      const v = cellOf(table.rows[i], field);
      if (type === 'number' && typeof v === 'number') entries.push({ i, key: v });
      else if (type === 'date' && typeof v === 'string') entries.push({ i, key: v });
    }
    entries.sort((a, b) => compareKeys(a.key, b.key) || a.i - b.i);
    index = { positions: Int32Array.from(entries.map((e) => e.i)), keys: entries.map((e) => e.key) };
    byField.set(field, index);
    return index;
  }

  searchRecords(search: RecordSearch): RecordPage {
    const limit = search.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new SampleStoreError('invalid_argument', 'limit must be an integer from 1 to 100');
    const filters = search.filters ?? [];
    if (filters.length > MAX_FILTERS) throw new SampleStoreError('invalid_filter', `at most ${MAX_FILTERS} field filters`);
    let after = 0;
    if (search.cursor !== undefined && search.cursor !== null) {
      const m = /^r([0-9a-z]{1,10})$/.exec(search.cursor);
      if (!m) throw new SampleStoreError('invalid_cursor', 'cursor is not one this store issued');
      after = parseInt(m[1] ?? '', 36);
    }
    const allowed = this.reader.sourcesIn(search.jurisdiction).filter(
      (s) => s.source.kind === search.kind && (search.sourceId === undefined || s.source.source_id === search.sourceId),
    );
    if (allowed.length === 0) return { items: [], total: 0, nextCursor: null };
    // A field must exist in at least one searched source, with a type its operator can compare.
    const typeOf = (field: string): FieldType => {
      for (const s of allowed) {
        const type = s.fieldTypes.get(field);
        if (type) return type;
      }
      throw new SampleStoreError('unknown_field', `no ${search.kind} source in this jurisdiction has a field named ${field}`);
    };
    const table = this.reader.kindTable(search.kind);
    const allowedIndexes = new Set(allowed.map((s) => table.sources.indexOf(s)));

    // Each filter offers an index slice (positions in rec_no order) and a direct test on a row. The
    // smallest slice drives the scan; the other filters are tested on its rows only.
    const plans = filters.map((filter) => {
      const type = typeOf(filter.field);
      if (filter.op === 'eq') {
        const key = equalityKey(filter.value);
        const positions = key === null ? this.nullPositions(table, filter.field) : (this.eqIndex(table, filter.field).get(key) ?? []);
        return { size: positions.length, eq: true, positions: () => positions, test: (row: DecodedRow) => equalityKey(cellOf(row, filter.field)) === key };
      }
      if (filter.op === 'gte') {
        if (type !== 'number' && type !== 'date') throw new SampleStoreError('invalid_filter', `gte needs a number or date field; ${filter.field} is a ${type}`);
        let bound: number | string;
        if (type === 'number') {
          bound = typeof filter.value === 'string' && filter.value.trim() !== '' ? Number(filter.value) : typeof filter.value === 'number' ? filter.value : NaN;
          if (!Number.isFinite(bound)) throw new SampleStoreError('invalid_filter', `gte on ${filter.field} needs a number`);
        } else {
          bound = String(filter.value ?? '');
          if (!/^\d{4}-\d{2}-\d{2}/.test(bound)) throw new SampleStoreError('invalid_filter', `gte on ${filter.field} needs an ISO date`);
        }
        const index = this.orderedIndex(table, filter.field, type);
        let lo = 0;
        let hi = index.keys.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (compareKeys(index.keys[mid] ?? '', bound) < 0) lo = mid + 1;
          else hi = mid;
        }
        const from = lo;
        const test = (row: DecodedRow) => {
          const v = cellOf(row, filter.field);
          return (type === 'number' ? typeof v === 'number' : typeof v === 'string') && compareKeys(v as number | string, bound) >= 0;
        };
        // A mask walked in position order yields the slice in rec_no order without sorting it.
        const positions = () => {
          const mask = new Uint8Array(table.rows.length);
          for (let k = from; k < index.positions.length; k++) mask[index.positions[k] ?? 0] = 1;
          const out: number[] = [];
          for (let i = 0; i < mask.length; i++) if (mask[i] === 1) out.push(i);
          return out;
        };
        return { size: index.keys.length - from, eq: false, positions, test };
      }
      throw new SampleStoreError('invalid_filter', `unknown operator ${String((filter as { op: unknown }).op)}; use eq or gte`);
    });
    // An equality slice is already in order, so it drives whenever there is one; the smallest wins.
    const cost = (plan: (typeof plans)[number]) => (plan.eq ? plan.size : table.rows.length + plan.size);
    const driver = plans.reduce<(typeof plans)[number] | null>((best, plan) => (best === null || cost(plan) < cost(best) ? plan : best), null);
    const others = plans.filter((plan) => plan !== driver);
    const accept = (i: number): boolean => {
      if (!allowedIndexes.has(table.sourceOf[i] ?? -1)) return false;
      const row = table.rows[i];
      return row !== undefined && others.every((plan) => plan.test(row));
    };

    const items: SampleRecord[] = [];
    let total = 0;
    let lastRecNo = 0;
    let more = false;
    const take = (i: number) => {
      const recNo = table.recNos[i] ?? 0;
      if (recNo <= after) return;
      if (items.length < limit) {
        items.push(this.reader.buildRecord(recNo));
        lastRecNo = recNo;
      } else {
        more = true;
      }
    };
    if (driver === null) {
      // No field filter: the total is the sources' sizes, and only the page is read.
      total = allowed.reduce((n, s) => n + (s.last - s.first + 1), 0);
      for (let i = lowerBound(table.recNos, after + 1); i < table.recNos.length && !more; i++) if (accept(i)) take(i);
    } else {
      for (const i of driver.positions()) {
        if (!accept(i)) continue;
        total++;
        take(i);
      }
    }
    return { items, total, nextCursor: more ? `r${lastRecNo.toString(36)}` : null };
  }

  private nullPositions(table: KindTable, field: string): number[] {
    const out: number[] = [];
    for (let i = 0; i < table.rows.length; i++) if (equalityKey(cellOf(table.rows[i], field)) === null) out.push(i);
    return out;
  }
}

function lowerBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
