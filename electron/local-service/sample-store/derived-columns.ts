// The columns a publisher did not print (derived upstream by the sample build), each with the record
// it came from: tax-square centroids, canonical SSLs, Alexandria address-point matches.
import { DATASET_IDS } from '../sample-keys.ts';
import type { CellValue, DerivedColumn } from './interface.ts';
import { cellOf, OverRows } from './rows.ts';
import type { DecodedRow } from './rows.ts';

export class DerivedColumns extends OverRows {
  private squarePoints: Map<string, number> | null = null;
  private addressPoints: Map<string, number> | null = null;

  /** The DC GIS square point record of a tax square, by square and suffix. */
  private squarePointRec(square: CellValue, suffix: CellValue): number | null {
    if (!this.squarePoints) {
      const map = new Map<string, number>();
      const table = this.reader.kindTable('tax_square');
      table.rows.forEach((row, i) => map.set(`${String(cellOf(row, 'square') ?? '')}|${String(cellOf(row, 'suffix') ?? '')}`, table.recNos[i] ?? 0));
      this.squarePoints = map;
    }
    return this.squarePoints.get(`${String(square ?? '')}|${String(suffix ?? '')}`) ?? null;
  }

  /** The Alexandria address point record with this objectid. */
  private addressPointRec(objectId: CellValue): number | null {
    if (!this.addressPoints) {
      const map = new Map<string, number>();
      const table = this.reader.kindTable('address');
      table.rows.forEach((row, i) => map.set(String(cellOf(row, 'objectid')), table.recNos[i] ?? 0));
      this.addressPoints = map;
    }
    return objectId === null ? null : (this.addressPoints.get(String(objectId)) ?? null);
  }

  /**
   * The columns of a row its publisher did not print (shared/data's build_sample.py added them, and
   * their field descriptions say so): each with the record it came from and how, so no answer cites
   * them as the publisher's.
   */
  derivedColumnsOf(row: DecodedRow, recNo: number): Record<string, DerivedColumn> {
    const out: Record<string, DerivedColumn> = {};
    const self = () => ({ derived_from: this.reader.recordRefOf(recNo), citation: this.reader.citation(recNo) });
    const from = (rec: number | null) => (rec === null ? self() : { derived_from: this.reader.recordRefOf(rec), citation: this.reader.citation(rec) });
    if (row.dataset === DATASET_IDS.otr) {
      if (cellOf(row, 'square_lat') !== null || cellOf(row, 'square_lon') !== null) {
        const square = cellOf(row, 'square');
        const suffix = cellOf(row, 'suffix');
        const point = from(this.squarePointRec(square, suffix));
        const note = `The centroid of tax square ${String(square)}${suffix === null ? '' : String(suffix)} (DC GIS Square Points), not a point of this lot: approximate, a median of about 100 m from the lot. OTR publishes no coordinates.`;
        for (const column of ['square_lat', 'square_lon']) {
          if (cellOf(row, column) !== null) out[column] = { status: 'derived', method: 'tax_square_centroid', ...point, note };
        }
      }
      const published = cellOf(row, 'ssl_as_published');
      if (cellOf(row, 'ssl') !== null && cellOf(row, 'ssl') !== published) {
        out['ssl'] = { status: 'derived', method: 'canonical_ssl', ...self(), note: `The canonical form of the SSL OTR published as "${String(published)}".` };
      }
    } else if (row.dataset === DATASET_IDS.permits) {
      const canonical = cellOf(row, 'SSL_CANONICAL');
      if (canonical !== null && canonical !== cellOf(row, 'SSL')) {
        out['SSL_CANONICAL'] = { status: 'derived', method: 'canonical_ssl', ...self(), note: `The canonical form of the SSL the permit gives as "${String(cellOf(row, 'SSL'))}".` };
      }
    } else if (row.dataset === DATASET_IDS.vaParcels) {
      const objectId = cellOf(row, 'address_point_objectid');
      const point = from(this.addressPointRec(objectId));
      const note = `From the City of Alexandria address point ${String(objectId)} matched to this parcel by exact address; the parcel layer does not publish it.`;
      for (const column of ['zip', 'lat', 'lon', 'address_point_objectid']) {
        if (cellOf(row, column) !== null) out[column] = { status: 'derived', method: 'address_point_match', ...point, note };
      }
    }
    return out;
  }

  derivedColumns(recordRef: string): Record<string, DerivedColumn> {
    const recNo = this.reader.recNoOfRef(recordRef);
    if (recNo === null) return {};
    return this.derivedColumnsOf(this.reader.row(this.reader.recordRows()[recNo] ?? 0), recNo);
  }
}
