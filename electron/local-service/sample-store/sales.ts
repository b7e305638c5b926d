// Sales near a point (comparables): every dated OTR sale and undated CAMA sale with a point, sorted by
// latitude once, searched by bounding box and then exact distance.
import { METERS_PER_MILE, distanceMeters, equalityKey } from '../sample-keys.ts';
import type { SaleNear, SalesNearQuery } from './interface.ts';
import { SampleStoreError } from './interface.ts';
import { cellOf, pointOf, OverRows } from './rows.ts';
import type { DecodedRow } from './rows.ts';

interface SaleIndex {
  /** Sorted by latitude; the facts a comparable search filters on, read once from the rows. */
  entries: Array<{
    lat: number; lon: number; recNo: number; row: DecodedRow; undated: boolean; price: number; date: string | null;
    dateNumber: number; market: boolean; useCode: string | null; useKey: string | null;
  }>;
}

export class SaleFinder extends OverRows {
  private saleIndex: SaleIndex | null = null;

  index(): SaleIndex {
    if (this.saleIndex) return this.saleIndex;
    const entries: SaleIndex['entries'] = [];
    for (const [kind, undated] of [['sale', false], ['residential_characteristics', true]] as const) {
      const table = this.reader.kindTable(kind);
      table.rows.forEach((row, i) => {
        const point = pointOf(row);
        if (!point) return;
        const v = this.reader.rowValues(row);
        const price = Number(undated ? v['PRICE'] : v['last_sale_price']);
        const date = undated ? null : typeof v['last_sale_recordation_date'] === 'string' ? v['last_sale_recordation_date'] : null;
        const useCode = undated ? v['USECODE'] : v['use_code'];
        entries.push({
          lat: point.lat, lon: point.lon, recNo: table.recNos[i] ?? 0, row, undated, price, date,
          dateNumber: date === null ? 0 : Number(date.slice(0, 10).replace(/-/g, '')),
          market: undated ? v['QUALIFIED'] === 'Q' : price > 0,
          useCode: typeof useCode === 'string' ? useCode : null,
          useKey: equalityKey(useCode ?? null),
        });
      });
    }
    entries.sort((a, b) => a.lat - b.lat || a.recNo - b.recNo);
    this.saleIndex = { entries };
    return this.saleIndex;
  }

  salesNear(query: SalesNearQuery): SaleNear[] {
    const { lat, lon, radiusMiles } = query;
    if (![lat, lon, radiusMiles].every(Number.isFinite) || radiusMiles <= 0 || radiusMiles > 25) {
      throw new SampleStoreError('invalid_argument', 'lat and lon must be numbers and radiusMiles between 0 and 25');
    }
    const limit = query.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new SampleStoreError('invalid_argument', 'limit must be an integer from 1 to 500');
    const radiusM = radiusMiles * METERS_PER_MILE;
    // Bounding box first (latitude by binary search, then longitude), exact distance after.
    const dLat = radiusM / 111_320;
    const dLon = radiusM / (111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
    const { entries } = this.index();
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((entries[mid]?.lat ?? 0) < lat - dLat) lo = mid + 1;
      else hi = mid;
    }
    const dated = query.fromDate !== undefined || query.toDate !== undefined;
    const useKeys = query.useCodes ? new Set(query.useCodes.map((c) => equalityKey(c))) : null;
    const hits: number[] = [];
    const distances: number[] = [];
    for (let i = lo; i < entries.length; i++) {
      const e = entries[i];
      if (!e || e.lat > lat + dLat) break;
      if (Math.abs(e.lon - lon) > dLon) continue;
      if (e.undated && (!query.includeUndated || (dated && !query.undatedDespiteDates))) continue;
      if (query.marketOnly && !e.market) continue;
      if (query.minPriceDollars !== undefined && e.price < query.minPriceDollars) continue;
      if (query.maxPriceDollars !== undefined && e.price > query.maxPriceDollars) continue;
      // An undated sale still here was asked for despite the dates: the window cannot hold or exclude it.
      if (query.fromDate !== undefined && !e.undated && (e.date === null || e.date < query.fromDate)) continue;
      if (query.toDate !== undefined && !e.undated && (e.date === null || e.date.slice(0, 10) > query.toDate)) continue;
      if (useKeys && !useKeys.has(e.useKey)) continue;
      const distance = distanceMeters(lat, lon, e.lat, e.lon);
      if (distance > radiusM) continue;
      hits.push(i);
      distances.push(distance);
    }
    // Nearest first; at one distance (OTR sales share their square's centroid) the latest sale first.
    // A native sort of packed (centimetres, index) keys finds the nearest; only the page, widened to
    // its whole last tie group, is ordered with the full comparator.
    const packed = new Float64Array(hits.length);
    const slot = 1 << 20; // more than the sample's sales; 40 km in centimetres times this stays below 2^53
    for (let k = 0; k < hits.length; k++) packed[k] = Math.round((distances[k] ?? 0) * 100) * slot + k;
    packed.sort();
    let window = Math.min(limit, packed.length);
    const cutoff = Math.floor((packed[window - 1] ?? 0) / slot);
    while (window < packed.length && Math.floor((packed[window] ?? 0) / slot) === cutoff) window++;
    const order = Array.from(packed.subarray(0, window), (key) => key % slot);
    order.sort((a, b) => {
      const ea = entries[hits[a] ?? 0];
      const eb = entries[hits[b] ?? 0];
      return Math.round((distances[a] ?? 0) * 100) - Math.round((distances[b] ?? 0) * 100) || (eb?.dateNumber ?? 0) - (ea?.dateNumber ?? 0) || (ea?.recNo ?? 0) - (eb?.recNo ?? 0);
    });
    return order.slice(0, limit).map((k) => {
      const e = entries[hits[k] ?? 0];
      if (!e) throw new Error('sale index out of range');
      const source = this.reader.sourceOfRec(e.recNo);
      const ref = this.reader.recordRefOf(e.recNo);
      return {
        record_ref: ref,
        source_id: source.source.source_id,
        kind: source.source.kind,
        property_id: e.undated ? null : (e.row.q.map((no) => this.reader.entityIdOf(no)).find((id) => id.startsWith('prop_')) ?? null),
        sale_date: e.date,
        price_dollars: e.price,
        market_sale: e.market,
        use_code: e.useCode,
        address: e.undated ? null : typeof cellOf(e.row, 'address') === 'string' ? String(cellOf(e.row, 'address')) : null,
        location: { lat: e.lat, lon: e.lon, precision: source.source.location_precision },
        distance_miles: (distances[k] ?? 0) / METERS_PER_MILE,
        citation: { ...source.citation, record_ref: ref },
      };
    });
  }
}
