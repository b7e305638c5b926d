// The other lots of a sale's deed beyond the comparables answer. The answer holds only the sales the
// search asked for (the subject's use code, within the radius), so a deed's parking space or vacant
// lot is often not in it. A v4 search of the sale records by that date and price (priced, shown first,
// charged once per page with results, kept with the assignment) names every lot the deed is recorded
// on. The search's field names come from the service's catalog (never assumed: one service writes
// `last_sale_price`, another `SALEPRICE`); a record is read by the catalog's map when the reader has
// it, else by its own field names. Nothing is guessed: a sale not checked says so, and a check that
// found only the sale's own lot says that.
import { fromV4Citation, documentCitation } from '../cited/citation.ts';
import type { Cite } from '../cited/citation-book.ts';
import { isRecord } from '../json-data.ts';
import { fieldForRole, readRole, roleNumber, roleSearchProblem, type RecordFieldMap } from '../service/record-fields.ts';
import { encodeSearchFilter } from '../service/v4.ts';
import type { ComparableSale, RelatedLot } from './model.ts';

/** DC's jurisdiction code: the roll's sales are DC's. */
export const LOT_CHECK_JURISDICTION = '11001' as const;
export const LOT_CHECK_KIND = 'sale';

/** The v4 search query (the IPC's wire parts) that names every lot a sale's deed is recorded on. */
export interface LotCheckQuery {
  jurisdiction: typeof LOT_CHECK_JURISDICTION;
  kind: string;
  filter: string;
  limit: number;
}

/** The search for a sale's other lots, or why it cannot be sent (said before any charge). */
export function lotCheckQuery(sale: Pick<ComparableSale, 'saleDate' | 'priceDollars'>, map: RecordFieldMap): { query: LotCheckQuery; problem: null } | { query: null; problem: string } {
  if (sale.saleDate === null || sale.priceDollars <= 0) return { query: null, problem: 'Only a dated sale with a price can be looked up by its date and price.' };
  const dateField = fieldForRole(map, 'sale_date');
  const priceField = fieldForRole(map, 'sale_price');
  if (dateField === null) return { query: null, problem: roleSearchProblem(map, 'sale_date', 'DC', 'date') ?? '' };
  if (priceField === null) return { query: null, problem: roleSearchProblem(map, 'sale_price', 'DC', 'price') ?? '' };
  const filter = encodeSearchFilter({
    conditions: [
      { field: dateField, op: 'eq', value: sale.saleDate },
      { field: priceField, op: 'eq', value: sale.priceDollars },
    ],
  });
  return { query: { jurisdiction: LOT_CHECK_JURISDICTION, kind: LOT_CHECK_KIND, filter, limit: 100 }, problem: null };
}

/** A kept v4 sale search (its envelope), with the field map of its kind when the reader has the catalog. */
export interface LotAnswer {
  envelope: unknown;
  map?: RecordFieldMap | null;
}

const sslKey = (ssl: string) => ssl.toUpperCase().replace(/\s+/g, ' ').trim();

/** The lots a kept search names for this deed (same recordation day and price), read by role. */
function recordsOfDeed(answer: LotAnswer, saleDate: string, price: number, cite: Cite): Array<RelatedLot & { sslKey: string | null }> {
  const envelope = answer.envelope;
  if (!isRecord(envelope) || envelope.status !== 'ok' || !isRecord(envelope.data) || !Array.isArray(envelope.data.items)) return [];
  const out: Array<RelatedLot & { sslKey: string | null }> = [];
  for (const item of envelope.data.items) {
    if (!isRecord(item) || item.kind !== LOT_CHECK_KIND || !isRecord(item.citation) || typeof item.record_ref !== 'string') continue;
    const read = (role: Parameters<typeof readRole>[1]) => readRole(item.data, role, answer.map ?? null);
    const date = read('sale_date');
    const day = date.status === 'found' ? String(date.value).slice(0, 10) : null;
    if (day !== saleDate || roleNumber(read('sale_price')) !== price) continue;
    const ssl = read('ssl');
    const address = read('address');
    const useCode = read('use_code');
    const sslText = ssl.status === 'found' ? String(ssl.value) : null;
    const citation = cite(documentCitation(fromV4Citation(item.citation, { recordRef: item.record_ref })));
    out.push({
      candidateId: null,
      address: address.status === 'found' ? String(address.value) : `Lot of record ${item.record_ref} (no address in the record)`,
      ssl: sslText,
      recordRef: item.record_ref,
      useCode: useCode.status === 'found' ? String(useCode.value) : null,
      citationIds: [citation],
      sslKey: sslText === null ? null : sslKey(sslText),
    });
  }
  return out;
}

/**
 * What the kept searches say of a sale's deed: null when none of them looked it up (not checked);
 * else the other lots they name (empty: only the sale's own lot carries that date and price). Its own
 * lot is known by its SSL, else by its address.
 */
export function lotsFromChecks(
  sale: Pick<ComparableSale, 'saleDate' | 'priceDollars' | 'address'>,
  ownSsl: string | null,
  answers: readonly LotAnswer[],
  cite: Cite,
): RelatedLot[] | null {
  if (sale.saleDate === null || sale.priceDollars <= 0) return null;
  const found = answers.flatMap((answer) => recordsOfDeed(answer, sale.saleDate!, sale.priceDollars, cite));
  // Only a search that returned this sale's own record (or any record of the deed) speaks of it.
  if (found.length === 0) return null;
  const own = ownSsl === null ? null : sslKey(ownSsl);
  const seen = new Set<string>();
  const others: RelatedLot[] = [];
  for (const { sslKey: key, ...lot } of found) {
    const isOwn = own !== null ? key === own : lot.address.toUpperCase() === sale.address.toUpperCase();
    const id = key ?? lot.recordRef;
    if (isOwn || seen.has(id)) continue;
    seen.add(id);
    others.push(lot);
  }
  return others;
}
