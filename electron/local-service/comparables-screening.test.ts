// Sale screening on the real roll (assets/sample-data/sample.db), read through the comparables answer
// of both services (the embedded one, and the independent dialect with its own codes and money): the
// multi-parcel deeds of issue 21 flagged with their other lots named and cited, kept out of the
// regression unless taken in with a reason, and an unchosen unscreened sale "not chosen by the appraiser".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CitationBook } from '../../shared/cited/citation-book.ts';
import { readCandidates } from '../../shared/comparables/candidates.ts';
import { DEFAULT_CRITERIA, emptyComparablesWorkfile, type ComparableSale, type CompSearchCriteria } from '../../shared/comparables/model.ts';
import { analysisExclusion, notUsedEntries, takeInNeeded } from '../../shared/comparables/screening.ts';
import { comparablesRequestBody } from '../../shared/comparables/search.ts';
import { LOT_CHECK_JURISDICTION, LOT_CHECK_KIND, lotCheckQuery } from '../../shared/comparables/lot-check.ts';
import { recordFieldMap } from '../../shared/service/record-fields.ts';
import type { V4CatalogItem } from '../../shared/service/v4.ts';
import { startSecondService, type SecondService } from './second-service-kit.ts';

const EFFECTIVE = '2017-01-01';
let services: Record<'embedded' | 'independent', SecondService>;

beforeAll(async () => {
  services = { embedded: await startSecondService({ dialect: 'embedded' }), independent: await startSecondService({ dialect: 'independent' }) };
});
afterAll(async () => {
  await Promise.all(Object.values(services).map((svc) => svc.close()));
});

let keys = 0;
async function answer(svc: SecondService, path: string, json: unknown): Promise<Record<string, unknown>> {
  const res = await svc.call(path, { json, idempotencyKey: `screening-${++keys}` });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body as Record<string, unknown>;
}

/** The subject report and every page of the search Plat would send for these criteria, read and screened. */
async function search(dialect: keyof typeof services, address: string, criteria: CompSearchCriteria, lotAnswers: unknown[] = []) {
  const svc = services[dialect];
  const resolved = (await answer(svc, '/api/v2/resolutions', {
    items: [{ client_id: 'a', subject_kind: 'address', entity_kind: 'property', area_uid: 'area_us_dc', identifiers: [{ scheme: 'address', value: address }] }],
  })) as { data: { items: Array<{ candidates: Array<{ entity_ref: string; property_ref?: string }> }> } };
  const first = resolved.data.items[0]!.candidates[0]!;
  const ref = first.property_ref ?? first.entity_ref;
  const subject = (await answer(svc, '/api/v3/record-queries', { mode: 'report', projection: 'report_subject_v1', subject_property_ref: ref })) as {
    data: { items: Array<{ sections: { identity: { use_code: string } } }> };
  };
  const useCode = subject.data.items[0]!.sections.identity.use_code;
  const pages: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = (await answer(svc, '/api/v3/record-queries', comparablesRequestBody(ref, criteria, EFFECTIVE, useCode, cursor))) as { meta: { next_cursor?: string } };
    pages.push(page);
    cursor = page.meta.next_cursor;
  } while (cursor !== undefined);
  const book = new CitationBook();
  const set = readCandidates(pages, { subject: null, criteria, effectiveDate: EFFECTIVE, subjectUseCode: useCode, lotAnswers: lotAnswers.map((envelope) => ({ envelope })) }, book.cite);
  return { set, book };
}

const at = (candidates: readonly ComparableSale[], address: string) => candidates.filter((sale) => sale.address.toUpperCase().startsWith(address));

describe.each(['embedded', 'independent'] as const)('multi-parcel sales on the real roll (%s service)', (dialect) => {
  it('flags 1717 and 1719 Corcoran St NW ($1,650,000 on 2016-07-26) around 1708 21st St NW, each naming and citing the other', async () => {
    const { set, book } = await search(dialect, '1708 21ST ST NW', DEFAULT_CRITERIA);
    const [lot1717] = at(set.candidates, '1717 CORCORAN ST NW');
    const [lot1719] = at(set.candidates, '1719 CORCORAN ST NW');
    expect(lot1717?.priceDollars).toBe(1_650_000);
    expect(lot1717?.saleDate).toBe('2016-07-26');
    for (const [sale, other] of [
      [lot1717!, lot1719!],
      [lot1719!, lot1717!],
    ] as const) {
      expect(sale.flags).toContain('multi_parcel');
      expect(sale.screenedOut?.reason).toBe('multi_parcel');
      expect(sale.screenedOut?.note).toContain(other.address);
      expect(sale.relatedLots.map((lot) => lot.candidateId)).toEqual([other.id]);
      const cited = sale.relatedLots[0]!.citationIds;
      expect(cited.length).toBeGreaterThan(0);
      // Cited as the other lot's own recorded price is (its record, or the roll's release on the independent service).
      expect(cited).toEqual(expect.arrayContaining(other.values.salePrice.citationIds));
      expect(book.all().filter((citation) => cited.includes(citation.id)).map((citation) => citation.publisher)).toContain('DC Office of Tax and Revenue');
    }
    // The one deed the search sees: the other sales of this search are not multi-parcel.
    expect(set.candidates.filter((sale) => sale.flags.includes('multi_parcel')).map((sale) => sale.address).sort()).toEqual(['1717 CORCORAN ST NW', '1719 CORCORAN ST NW']);
    // The screen says what it cannot see: the search asked for the subject's use code only.
    expect(set.limitations.map((line) => line.text).join(' ')).toMatch(/Multi-parcel sales are found among the sales this search returned: it asked for use code 24 only/);
  });

  it('flags 1826 Corcoran St NW ($1,736,000 on two lots) when the search asks for any property type, naming the other lot', async () => {
    const { set } = await search(dialect, '1708 21ST ST NW', { ...DEFAULT_CRITERIA, sameUseCode: false });
    const lots = at(set.candidates, '1826 CORCORAN ST NW');
    expect(lots).toHaveLength(2);
    expect(new Set(lots.map((lot) => lot.recordRef)).size).toBe(2);
    for (const lot of lots) {
      const other = lots.find((sale) => sale !== lot)!;
      expect(lot.priceDollars).toBe(1_736_000);
      // Two lots at one address: a multi-parcel deed, not a duplicate record of one sale.
      expect(lot.flags).toContain('multi_parcel');
      expect(lot.flags).not.toContain('duplicate_record');
      expect(lot.relatedLots.map((related) => related.recordRef)).toEqual([other.recordRef]);
      expect(lot.relatedLots[0]!.citationIds.length).toBeGreaterThan(0);
      expect(lot.screenedOut?.note).toContain(`1826 CORCORAN ST NW (${lot.relatedLots[0]!.ssl !== null ? `SSL ${lot.relatedLots[0]!.ssl}` : 'record'}`);
    }
  });

  it('names the other lot of 1826 Corcoran St NW’s deed beyond the answer from a record search by its date and price, the field names from the catalog', async () => {
    const svc = services[dialect];
    // The default search asks for use code 24: the deed's other lot (use code 14, assessed $91,960) is not in the answer.
    const before = await search(dialect, '1708 21ST ST NW', DEFAULT_CRITERIA);
    const [lot] = at(before.set.candidates, '1826 CORCORAN ST NW');
    expect(lot?.flags).not.toContain('multi_parcel');
    expect(lot?.lotsChecked).toBe(false);
    const catalog = (await svc.call(`/api/v4/catalog?jurisdiction=${LOT_CHECK_JURISDICTION}`)).body as { data: { items: V4CatalogItem[] } };
    const map = recordFieldMap(catalog.data.items, LOT_CHECK_KIND);
    const planned = lotCheckQuery(lot!, map);
    expect(planned.problem).toBeNull();
    // The second service names its fields SALEDATE / SALEPRICE: taken from its catalog, not assumed.
    expect(Object.keys(JSON.parse(planned.query!.filter) as object)).toEqual(dialect === 'embedded' ? ['last_sale_recordation_date', 'last_sale_price'] : ['SALEDATE', 'SALEPRICE']);
    const params = new URLSearchParams({ ...planned.query!, limit: String(planned.query!.limit) });
    const res = await svc.call(`/api/v4/search?${params}`, { idempotencyKey: `screening-${++keys}` });
    expect(res.status).toBe(200);

    const { set, book } = await search(dialect, '1708 21ST ST NW', DEFAULT_CRITERIA, [res.body]);
    const [checked] = at(set.candidates, '1826 CORCORAN ST NW');
    expect(checked!.lotsChecked).toBe(true);
    expect(checked!.flags).toContain('multi_parcel');
    expect(checked!.screenedOut?.reason).toBe('multi_parcel');
    expect(checked!.relatedLots).toHaveLength(1);
    const other = checked!.relatedLots[0]!;
    expect(other).toMatchObject({ candidateId: null, address: '1826 CORCORAN ST NW', ssl: '0134    0158', useCode: '14' });
    expect(checked!.screenedOut?.note).toContain('1826 CORCORAN ST NW (SSL 0134    0158, use code 14)');
    const [citation] = book.all().filter((c) => other.citationIds.includes(c.id));
    expect(citation).toMatchObject({ publisher: 'DC Office of Tax and Revenue', recordRef: other.recordRef });
    // The search spoke only of this deed: another sale is not "checked".
    expect(set.candidates.filter((sale) => sale.lotsChecked).map((sale) => sale.address)).toEqual(['1826 CORCORAN ST NW']);
  });

  it('says a checked sale whose date and price no other lot carries is one lot, not multi-parcel', async () => {
    const svc = services[dialect];
    const before = await search(dialect, '1708 21ST ST NW', DEFAULT_CRITERIA);
    const single = before.set.candidates.find((sale) => sale.saleDate !== null && sale.priceDollars > 0 && sale.relatedLots.length === 0)!;
    const catalog = (await svc.call(`/api/v4/catalog?jurisdiction=${LOT_CHECK_JURISDICTION}`)).body as { data: { items: V4CatalogItem[] } };
    const planned = lotCheckQuery(single, recordFieldMap(catalog.data.items, LOT_CHECK_KIND));
    const res = await svc.call(`/api/v4/search?${new URLSearchParams({ ...planned.query!, limit: '100' })}`, { idempotencyKey: `screening-${++keys}` });
    const { set } = await search(dialect, '1708 21ST ST NW', DEFAULT_CRITERIA, [res.body]);
    const after = set.candidates.find((sale) => sale.id === single.id)!;
    expect(after.lotsChecked).toBe(true);
    expect(after.relatedLots).toEqual([]);
    expect(after.flags).not.toContain('multi_parcel');
  });

  it('keeps a multi-parcel sale out of the choice and the regression until the appraiser takes it in with a reason', async () => {
    const { set } = await search(dialect, '1708 21ST ST NW', DEFAULT_CRITERIA);
    const [lot1717] = at(set.candidates, '1717 CORCORAN ST NW');
    const workfile = emptyComparablesWorkfile();
    expect(takeInNeeded(lot1717!, workfile)).toMatch(/Multi-parcel sale/);
    const analyzed = (w: typeof workfile) => set.candidates.filter((sale) => analysisExclusion(sale, w) === null).map((sale) => sale.id);
    expect(analysisExclusion(lot1717!, workfile)).toMatch(/multi-parcel/);
    expect(analyzed(workfile)).not.toContain(lot1717!.id);
    const takenIn = { ...workfile, takenIn: { [lot1717!.id]: { reason: 'The deed conveys the house and its rear parking pad only.', at: '2026-11-27T21:00:00Z' } } };
    expect(takeInNeeded(lot1717!, takenIn)).toBeNull();
    expect(analysisExclusion(lot1717!, takenIn)).toBeNull();
    expect(analyzed(takenIn)).toContain(lot1717!.id);
  });

  it('lists a sale Plat did not screen and the appraiser did not choose as not chosen by the appraiser, with no reason made up', async () => {
    const { set } = await search(dialect, '1708 21ST ST NW', DEFAULT_CRITERIA);
    const plain = set.candidates.find((sale) => sale.screenedOut === null)!;
    const screened = set.candidates.find((sale) => sale.screenedOut?.reason === 'multi_parcel')!;
    const entries = notUsedEntries(set.candidates, emptyComparablesWorkfile());
    expect(entries.find((entry) => entry.candidate === plain)).toMatchObject({ by: 'not_chosen', reason: null, note: 'Not chosen by the appraiser.' });
    expect(entries.find((entry) => entry.candidate === screened)).toMatchObject({ by: 'plat', reason: 'multi_parcel' });
    const given = notUsedEntries(set.candidates, { ...emptyComparablesWorkfile(), notUsed: { [plain.id]: { reason: 'condition', note: 'Gut renovation' } } });
    expect(given.find((entry) => entry.candidate === plain)).toMatchObject({ by: 'appraiser', reason: 'condition' });
  });
});
