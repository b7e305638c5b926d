// The subject and the candidates, read from real answers of the embedded service (the fixtures) and
// from edits of them that carry what the sample also holds (a DC CAMA sale: no date, unqualified).
import { describe, expect, it } from 'vitest';
import { screenSales } from './screening.ts';
import { CitationBook } from '../cited/citation-book.ts';
import { SYNTHETIC_PUBLISHER } from '../cited/citation.ts';
import type { CitedValue } from '../cited/value.ts';
import subjectFixture from '../report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import compsFixture from './fixtures/dc-1708-comps-2016.json' with { type: 'json' };
import undatedPage1 from './fixtures/dc-1708-comps-2016-with-undated.json' with { type: 'json' };
import undatedPage2 from './fixtures/dc-1708-comps-2016-with-undated-page-2.json' with { type: 'json' };
import { asIndependentDialect } from '../report/test-kit.ts';
import { choosableProblem, gridRowLabels, notUsedEntries, readCandidates, readSubject, type CandidateContext } from './candidates.ts';
import { DEFAULT_CRITERIA, emptyComparablesWorkfile, gridRowKeys, type CompSearchCriteria, type LonLat, type SubjectProperty } from './model.ts';
import { comparableSale, subjectProperty } from './test-kit.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests edit answers freely

const clone = <T>(value: T): T => structuredClone(value);
const compsEnvelope = (): Json => clone(compsFixture.envelope) as Json;
const answerItems = compsFixture.envelope.data.items as Json[];
const answerSources = compsFixture.envelope.data.sources as Json[];
const sourceOfRef = (ref: string) => answerSources.find((source) => (source.record_refs as string[]).includes(ref))?.source_id;

function setup(options: { criteria?: Partial<CompSearchCriteria>; effectiveDate?: string; pages?: unknown[]; subject?: SubjectProperty | null; subjectUseCode?: string | null } = {}) {
  const book = new CitationBook();
  const subject = options.subject === undefined ? readSubject(subjectFixture.subject, book.cite) : options.subject;
  const ctx: CandidateContext = {
    subject,
    criteria: { ...DEFAULT_CRITERIA, ...options.criteria },
    effectiveDate: options.effectiveDate ?? '2017-01-01',
    subjectUseCode: options.subjectUseCode === undefined ? '24' : options.subjectUseCode,
  };
  const set = readCandidates(options.pages ?? [compsEnvelope()], ctx, book.cite);
  const citation = (id: string) => {
    const found = book.all().find((c) => c.id === id);
    if (!found) throw new Error(`citation ${id} is not in the book`);
    return found;
  };
  return { book, subject, set, citation, byAddress: (address: string) => set.candidates.find((c) => c.address === address)! };
}

/** A DC CAMA sale as the embedded service answers one: no date, QUALIFIED U, real characteristics, no address. */
function camaEnvelope(): Json {
  const envelope = compsEnvelope();
  const item = envelope.data.items[1];
  const ref = 'rec_cama0001-0000-5000-8000-000000000001';
  item.property_ref = ref;
  item.record_ref = ref;
  item.location = { latitude: 38.9131, longitude: -77.0431, precision: 'cama_point', status: 'reported', method: 'as_published', source_refs: [ref] };
  delete item.sections.identity.address;
  delete item.sections.identity.ssl;
  item.sections.identity.property_ref = ref;
  item.sections.identity.source_refs = [ref];
  const transfer = item.sections.transfer;
  delete transfer.sale_date;
  transfer.sale_date_status = 'unavailable';
  transfer.price_dollars = 1_150_000;
  transfer.sale_type = 'cama_extract_sale';
  transfer.acceptance_code = 'non_market';
  transfer.acceptance_basis = 'CAMA QUALIFIED: Q (qualified) is a market sale, U (unqualified) is not.';
  transfer.source_refs = [ref];
  const profile = { ...item.characteristics, status: 'reported', source_refs: [ref], limitations: 'DC CAMA residential extract of about 2022.' };
  delete profile.derived_from;
  item.characteristics = profile;
  item.sections.building = profile;
  envelope.data.sources.push({
    source_id: 'dc_cama_residential',
    release_id: 20221120,
    sha256: 'a'.repeat(64),
    official_url: 'https://opendata.dc.gov/',
    publisher: 'DC Office of the Chief Technology Officer (DC GIS)',
    dataset: "Computer Assisted Mass Appraisal - Residential (from OTR's CAMA system)",
    as_of: '2022-11-20T00:00:00Z',
    synthetic: false,
    record_refs: [ref],
  });
  return envelope;
}

const shown = (value: CitedValue) => value.status !== 'unavailable';

describe('readSubject', () => {
  it('reads the subject column from report_subject_v1', () => {
    const { subject, citation } = setup();
    expect(subject).not.toBeNull();
    const s = subject!;
    expect(s.id).toBe('prop_080b9725-3c84-5ba1-ab8d-a3891860e65b');
    expect(s.address).toBe('1708 21ST ST NW');
    expect(s.location).toEqual({ lonLat: [-77.047037, 38.912976], approximate: true, precision: 'square_centroid' });
    expect(s.numbers).toEqual({ gla: 1200, bedrooms: 2, baths: 2.5, yearBuilt: 1905, gradeStep: 5, conditionStep: 3, landAreaSqft: 268 });
    expect(s.syntheticCharacteristics).toBe(true);
    expect(s.values.baths.display).toBe('2.1');
    expect(s.values.site).toMatchObject({ display: '268 sq ft', status: 'synthetic' });
    expect(s.values.dataSource.display).toBe('DC Office of Tax and Revenue record rec_23cf6780-2221-547e-b0e2-eaf741fda9ee, SSL 0065 0007');
    expect(citation(s.values.address.citationIds[0]!)).toMatchObject({ sourceId: 'dc_otr_ownership', recordRef: 'rec_23cf6780-2221-547e-b0e2-eaf741fda9ee' });
  });

  it('leaves the sale rows to the comps and lists the last sale as a prior sale, cited', () => {
    const { subject, citation } = setup();
    for (const row of ['salePrice', 'saleDate', 'saleType', 'pricePerSqft'] as const) {
      expect(subject!.values[row]).toMatchObject({ status: 'unavailable', limitation: expect.stringContaining('2013-12-17') });
    }
    expect(subject!.values.proximity.limitation).toBe('The subject itself.');
    expect(subject!.priorSales).toHaveLength(1);
    const prior = subject!.priorSales[0]!;
    expect([prior.date.display, prior.price.display]).toEqual(['2013-12-17', '$1,361,000']);
    expect(citation(prior.price.citationIds[0]!)).toMatchObject({ sourceId: 'dc_otr_sale', recordRef: 'rec_a138793c-c534-558a-bcaf-0f674173a83a', synthetic: false });
    expect(subject!.priorSalesNote).toMatch(/only each lot's last recorded sale \(OTR\).*no earlier transfers/);
  });

  it('gives nothing for an error or an unreadable answer', () => {
    const book = new CitationBook();
    expect(readSubject({ status: 'error', data: null, error: { code: 'not_found', message: 'x', retryable: false } }, book.cite)).toBeNull();
    expect(readSubject('not an answer', book.cite)).toBeNull();
    expect(readSubject({ status: 'ok', data: { items: [] } }, book.cite)).toBeNull();
  });
});

describe('readCandidates on the fixture', () => {
  it('lists the 14 sales in the answer’s order, with the answer’s totals', () => {
    const { set } = setup();
    expect(set.candidates.map((c) => c.id)).toEqual(answerItems.map((item) => item.record_ref));
    expect(set.candidates.map((c) => c.recordRef)).toEqual(answerItems.map((item) => item.record_ref));
    expect(set.total).toBe(14);
    expect(set.truncated).toBe(false);
    expect(set.nextCursor).toBeNull();
    expect(set.dataAsOf).toBe('sample_v1_20231105_d7b3abbd34f3');
    expect(set.subject?.address).toBe('1708 21ST ST NW');
  });

  it('gives every grid row, each shown value cited to a source and record of the answer', () => {
    const { set, citation } = setup();
    for (const sale of set.candidates) {
      expect(Object.keys(sale.values).sort()).toEqual([...gridRowKeys].sort());
      for (const row of gridRowKeys) {
        const value = sale.values[row];
        // DC CAMA publishes gross building area: the area rows say so wherever a value is shown.
        const measured = shown(value) && (row === 'gla' || row === 'pricePerSqft');
        expect(value.label).toBe(measured ? (row === 'gla' ? 'Gross building area (published; stands in for GLA)' : 'Sale price per sq ft of gross building area') : gridRowLabels[row]);
        if (!shown(value)) {
          expect(value.limitation).toBeTruthy();
          continue;
        }
        expect(value.citationIds.length).toBeGreaterThan(0);
        for (const id of value.citationIds) {
          const cited = citation(id);
          expect(answerSources.map((s) => s.source_id)).toContain(cited.sourceId);
          expect(sourceOfRef(cited.recordRef!)).toBe(cited.sourceId);
        }
      }
    }
  });

  it('marks synthetic characteristics synthetic, cited to the synthetic sample, never to OTR', () => {
    const { set, citation } = setup();
    const characteristicRows = ['style', 'quality', 'actualAge', 'condition', 'rooms', 'bedrooms', 'baths', 'gla', 'stories'] as const;
    for (const sale of set.candidates) {
      expect(sale.syntheticCharacteristics).toBe(true);
      expect(sale.flags).toContain('synthetic_characteristics');
      for (const row of characteristicRows) {
        const value = sale.values[row];
        expect(value.status).toBe('synthetic');
        for (const id of value.citationIds) {
          expect(citation(id)).toMatchObject({ synthetic: true, publisher: SYNTHETIC_PUBLISHER, sourceId: 'plat_synthetic_characteristics' });
        }
      }
      // The sale itself is OTR's, never the sample's.
      expect(citation(sale.values.salePrice.citationIds[0]!)).toMatchObject({ sourceId: 'dc_otr_sale', synthetic: false });
      expect(sale.values.salePrice.status).toBe('reported');
    }
  });

  it('says what the sample lacks', () => {
    const sale = setup().set.candidates[0]!;
    for (const row of ['site', 'heatingCooling', 'fireplaces', 'exterior', 'units'] as const) {
      expect(sale.values[row]).toMatchObject({ status: 'unavailable', limitation: 'Not in the sample.', citationIds: [] });
    }
    expect(sale.priorSales).toEqual([]);
    expect(sale.priorSalesNote).toBe("The sample holds only each lot's last recorded sale (OTR); no earlier transfers.");
  });

  it('derives distance and direction from the two locations, as the service measures them', () => {
    const { set, citation } = setup();
    set.candidates.forEach((sale, i) => {
      expect(Math.abs(sale.distanceMiles - answerItems[i]!.distance_miles)).toBeLessThan(0.001);
      expect(sale.values.proximity.status).toBe('derived');
      expect(sale.values.proximity.display).toBe(`${sale.distanceMiles.toFixed(2)} mi ${sale.direction}`);
      expect(sale.values.proximity.derivedFrom).toMatch(/tax square/);
      expect(sale.location?.approximate).toBe(true);
      expect(sale.flags).toContain('approximate_location');
      const sources = sale.values.proximity.citationIds.map((id) => citation(id).sourceId);
      expect(new Set(sources)).toEqual(new Set(['dc_gis_square_points']));
    });
    const q = set.candidates[0]!;
    expect([q.address, q.values.proximity.display]).toEqual(['2015 Q ST NW', '0.12 mi SE']);
    expect(set.candidates.find((c) => c.address === '1723 WILLARD ST NW')!.direction).toBe('NE');
  });

  it('derives price per square foot from the price and the living area, and says the area is synthetic', () => {
    const { byAddress, citation } = setup();
    const q = byAddress('2015 Q ST NW');
    expect(q.values.pricePerSqft).toMatchObject({ status: 'derived', raw: 772.52, display: '$772.52 per sq ft' });
    expect(q.values.pricePerSqft.derivedFrom).toBe('Sale price $2,350,000 ÷ gross building area (GBA) 3,042 sq ft, by Plat');
    expect(q.values.pricePerSqft.limitation).toMatch(/synthetic gross building area \(GBA\)/);
    expect(new Set(q.values.pricePerSqft.citationIds.map((id) => citation(id).sourceId))).toEqual(new Set(['dc_otr_sale', 'plat_synthetic_characteristics']));
    expect(byAddress('1807 RIGGS PL NW').values.pricePerSqft).toMatchObject({ status: 'unavailable', limitation: 'No market price to divide.' });
  });

  it('flags the four OTR price-0 sales as non-market or no price (never “not arm’s length” alone), never silently usable', () => {
    const { set } = setup();
    const nonMarket = set.candidates.filter((c) => !c.market).map((c) => c.address);
    expect(nonMarket).toEqual(['1807 RIGGS PL NW', '1735 RIGGS PL NW', '1736 U ST NW', '1732 WILLARD ST NW']);
    for (const sale of set.candidates.filter((c) => !c.market)) {
      expect(sale.flags).toContain('no_price');
      expect(sale.flags).not.toContain('non_market');
      expect(sale.screenedOut?.reason).toBe('non_market');
      expect(sale.values.saleType).toMatchObject({ display: 'Non-market or no price (OTR price 0)', status: 'derived' });
      expect(sale.values.saleType.derivedFrom).toMatch(/OTR writes a price of 0/);
      expect(sale.values.salePrice.display).toBe('$0 (non-market or no price)');
      expect(choosableProblem(sale, DEFAULT_CRITERIA)).toMatch(/^Non-market or no price: a sale recorded without a market price is not a comparable unless you say why\./);
    }
    expect(set.candidates[0]!.values.saleType.display).toBe('Arm’s length (market)');
  });

  it('screens nothing out by size on a copied area: the subject’s and the sales’ areas here are the sample’s copies', () => {
    // The subject's copied 1,200 sq ft would put every sale outside a ±20 % band; a copied value screens nothing out.
    const narrow = setup();
    expect(narrow.set.candidates.some((c) => c.flags.includes('outside_area_band'))).toBe(false);
    expect(narrow.set.candidates.some((c) => c.screenedOut?.reason === 'size')).toBe(false);
    const q = narrow.byAddress('2015 Q ST NW');
    expect(q.screens.find((screen) => screen.flag === 'size_not_compared')?.note).toBe(
      'Size not compared with the ±20 % band: the area of the subject and this sale is copied from another house (synthetic), and a copied value screens nothing out.',
    );
    expect(choosableProblem(q, DEFAULT_CRITERIA)).toBeNull();
  });

  it('screens by the living-area band on published areas', () => {
    const book = new CitationBook();
    const subject = subjectProperty({ id: 'subject', address: '1708 21ST ST NW', gla: 1_200, synthetic: false });
    const read = (id: string, gla: number, priceDollars: number) => ({ sale: comparableSale({ id, address: `${id} Q ST NW`, saleDate: '2016-06-01', priceDollars, gla, synthetic: false }), useCode: '24', ssl: null, location: null });
    const reads = [read('2015', 3_042, 2_350_000), read('1730', 1_300, 1_150_000)];
    screenSales(reads, { subject, criteria: DEFAULT_CRITERIA, effectiveDate: '2017-01-01', subjectUseCode: '24' }, book.cite);
    expect(reads[0]!.sale.screenedOut).toEqual({ reason: 'size', note: 'Gross living area 3,042 sq ft, outside 960–1,440 sq ft (±20 % of the subject’s 1,200 sq ft).' });
    expect(choosableProblem(reads[0]!.sale, DEFAULT_CRITERIA)).toMatch(/^Gross living area 3,042 sq ft, outside .* It does not fit the search’s criteria\.$/);
    expect(reads[1]!.sale.screenedOut).toBeNull();
    expect(reads[1]!.sale.flags).not.toContain('size_not_compared');
  });

  it('does not apply the band without the subject’s living area, and says so', () => {
    const { set } = setup({ subject: null, criteria: { livingAreaBandPct: 10 } });
    expect(set.candidates.some((c) => c.flags.includes('outside_area_band'))).toBe(false);
    expect(set.limitations.map((l) => l.text)).toContain('The subject’s living area is not known: the living-area band was not applied.');
    // The answer locates the subject itself: distances need no subject report.
    expect(set.candidates[0]!.values.proximity.display).toBe('0.12 mi SE');
  });

  it('screens sales outside the date window', () => {
    const { set, byAddress } = setup({ effectiveDate: '2016-12-01', criteria: { monthsBack: 6, livingAreaBandPct: 100 } });
    const outside = set.candidates.filter((c) => c.flags.includes('outside_window')).map((c) => c.saleDate);
    expect(outside.sort()).toEqual(['2016-01-19', '2016-04-07', '2016-05-04', '2016-12-12']);
    expect(byAddress('1730 18TH ST NW').screenedOut).toEqual({ reason: 'date', note: 'Sold 2016-12-12, outside the sale period 2016-06-01 to 2016-12-01.' });
    // Non-market comes first.
    expect(byAddress('1732 WILLARD ST NW').screenedOut?.reason).toBe('non_market');
  });

  it('screens another property type only when the same type is asked for', () => {
    const envelope = compsEnvelope();
    envelope.data.items[3].sections.identity.use_code = '11';
    const same = setup({ pages: [envelope], criteria: { livingAreaBandPct: 100 } });
    expect(same.byAddress('1730 18TH ST NW').screenedOut).toEqual({ reason: 'property_type', note: 'Use code 11; the subject’s is 24.' });
    const any = setup({ pages: [envelope], criteria: { livingAreaBandPct: 100, sameUseCode: false } });
    expect(any.byAddress('1730 18TH ST NW').flags).not.toContain('other_use_code');
    expect(any.byAddress('1730 18TH ST NW').screenedOut).toBeNull();
  });

  it('screens sales outside a drawn market area, and beyond a smaller radius', () => {
    const [lon, lat] = [-77.047037, 38.912976];
    // West of 18th St only (longitude -77.0425 or less).
    const polygon: LonLat[][] = [[[lon - 0.01, lat - 0.01], [-77.0425, lat - 0.01], [-77.0425, lat + 0.01], [lon - 0.01, lat + 0.01], [lon - 0.01, lat - 0.01]]];
    const { set } = setup({ criteria: { livingAreaBandPct: 100, area: { kind: 'polygon', label: 'West of 18th', polygon } } });
    for (const sale of set.candidates) {
      const outside = sale.location!.lonLat[0] > -77.0425;
      expect(sale.flags.includes('outside_market_area')).toBe(outside);
      if (outside && sale.market && sale.flags.length === 3) expect(sale.screenedOut).toEqual({ reason: 'proximity', note: 'Outside the market area.' });
    }
    expect(set.candidates.filter((c) => c.flags.includes('outside_market_area')).length).toBeGreaterThan(0);
    expect(set.candidates.filter((c) => !c.flags.includes('outside_market_area')).length).toBeGreaterThan(0);

    const near = setup({ criteria: { area: { kind: 'radius', radiusMiles: 0.3 } } });
    const beyond = near.set.candidates.filter((c) => c.flags.includes('outside_market_area'));
    expect(beyond.every((c) => c.distanceMiles > 0.3)).toBe(true);
    expect(beyond.map((c) => c.address)).toContain('1744 SWANN ST NW');
    expect(near.byAddress('1744 SWANN ST NW').screenedOut).toEqual({
      reason: 'proximity',
      note: 'Outside the market area: 0.38 mi from the subject, beyond the 0.3 mi radius.',
    });
  });

  it('cites the answer’s own sentences to the sources they are about', () => {
    const { set, citation } = setup();
    const cites = (start: string) => set.limitations.find((l) => l.text.startsWith(start))!.citationIds.map((id) => citation(id));
    expect(cites('OTR sale locations').map((c) => c.sourceId).sort()).toEqual(['dc_gis_square_points', 'dc_otr_sale']);
    expect(cites('OTR sales are each').map((c) => c.sourceId).sort()).toEqual(['dc_otr_sale', 'plat_synthetic_characteristics']);
    expect(cites('OTR sale locations').every((c) => c.recordRef === null)).toBe(true);
    // No CAMA sale came back: the sentence about CAMA cites no source of this answer.
    expect(cites('DC CAMA sales')).toEqual([]);
  });
});

describe('readCandidates: other answers', () => {
  it('reads a DC CAMA sale: no date, unqualified, real characteristics, no address', () => {
    const { set, citation } = setup({ pages: [camaEnvelope()], criteria: { livingAreaBandPct: 100 } });
    const sale = set.candidates[1]!;
    expect(sale.id).toBe('rec_cama0001-0000-5000-8000-000000000001');
    expect(sale.saleDate).toBeNull();
    expect(sale.market).toBe(false);
    expect(sale.flags).toEqual(expect.arrayContaining(['non_market', 'undated']));
    expect(sale.flags).not.toContain('approximate_location');
    expect(sale.flags).not.toContain('synthetic_characteristics');
    expect(sale.screenedOut?.reason).toBe('non_market');
    expect(sale.values.saleType.display).toBe('Unqualified (CAMA U)');
    expect(sale.values.saleType.derivedFrom).toMatch(/CAMA QUALIFIED/);
    expect(sale.values.saleDate).toMatchObject({ status: 'unavailable', limitation: 'DC CAMA publishes a price without a date: no sale date.' });
    expect(sale.values.address).toMatchObject({ status: 'unavailable', limitation: expect.stringMatching(/DC CAMA publishes no address/) });
    expect(sale.address).toMatch(/^DC CAMA sale rec_cama0001/);
    expect(sale.values.gla.status).toBe('reported');
    expect(citation(sale.values.gla.citationIds[0]!)).toMatchObject({ sourceId: 'dc_cama_residential', synthetic: false });
    expect(sale.values.dataSource.display).toBe('DC Office of the Chief Technology Officer (DC GIS) record rec_cama0001-0000-5000-8000-000000000001');
    expect(sale.priorSalesNote).toBe('DC CAMA publishes a price without a date; no transfer history.');
    expect(sale.values.proximity.limitation).toMatch(/Approximate/); // the subject is still a centroid
    expect(choosableProblem(sale, DEFAULT_CRITERIA)).toMatch(/Not arm’s length.*No sale date: it cannot be shown to have sold in the 12 months/);
    // Allowed non-market sales: the missing date is the reason.
    const allowed = setup({ pages: [camaEnvelope()], criteria: { livingAreaBandPct: 100, armsLengthOnly: false } });
    expect(allowed.set.candidates[1]!.screenedOut?.reason).toBe('no_date');
    expect(allowed.set.candidates[1]!.flags).toContain('non_market');
    // The sentence about CAMA now cites the CAMA source.
    const camaLine = set.limitations.find((l) => l.text.startsWith('DC CAMA sales'))!;
    expect(camaLine.citationIds.map((id) => citation(id).sourceId)).toEqual(['dc_cama_residential']);
  });

  it('reads the characteristics the service adds when present', () => {
    const envelope = compsEnvelope();
    const profile = envelope.data.items[0].characteristics;
    Object.assign(profile, { heating: 'Forced Air', cooling: 'Central air', fireplaces: 2, exterior_wall: 'Common Brick', units: 1, land_area_sqft: 1_610 });
    const sale = setup({ pages: [envelope] }).set.candidates[0]!;
    expect(sale.values.heatingCooling).toMatchObject({ display: 'Forced Air / Central air', status: 'synthetic' });
    expect(sale.values.fireplaces).toMatchObject({ display: '2', status: 'synthetic' });
    expect(sale.values.exterior.display).toBe('Common Brick');
    expect(sale.values.units.display).toBe('1');
    expect(sale.values.site).toMatchObject({ display: '1,610 sq ft', status: 'synthetic' });
    expect(sale.numbers.landAreaSqft).toBe(1_610);
  });

  it('will not show a value the answer does not cite', () => {
    const envelope = compsEnvelope();
    envelope.data.items[0].characteristics.source_refs = [];
    const sale = setup({ pages: [envelope] }).set.candidates[0]!;
    expect(sale.values.gla).toMatchObject({ status: 'unavailable', limitation: 'The answer gives this without citing a source.' });
    expect(sale.numbers.gla).toBeNull();
    expect(sale.screenedOut).toMatchObject({ reason: 'data' });
  });

  it('keeps a sale listed twice, marked duplicate with its own id', () => {
    const { set } = setup({ pages: [compsEnvelope(), compsEnvelope()] });
    expect(set.candidates).toHaveLength(28);
    const copies = set.candidates.slice(14);
    expect(copies.map((c) => c.id)).toEqual(answerItems.map((item) => `${item.record_ref}#2`));
    expect(new Set(set.candidates.map((c) => c.id)).size).toBe(28);
    for (const copy of copies) expect(copy.screenedOut).toEqual({ reason: 'duplicate', note: `A duplicate record of one sale: the same sale as ${copy.address} (record ${copy.recordRef}), listed first.` });
    for (const copy of copies) expect(copy.flags).toContain('duplicate_record');
    expect(choosableProblem(copies[0]!, DEFAULT_CRITERIA)).toMatch(/^Duplicate: A duplicate record of one sale: the same sale as 2015 Q ST NW/);
  });

  it('finds the same address, date and price under another record', () => {
    const envelope = compsEnvelope();
    const again = clone(envelope.data.items[0]);
    again.record_ref = 'rec_other';
    again.sections.identity.address = '2015  q st nw';
    envelope.data.items.push(again);
    const { set } = setup({ pages: [envelope] });
    expect(set.candidates[14]).toMatchObject({ id: 'rec_other', screenedOut: { reason: 'duplicate' } });
    // 1717 and 1719 Corcoran: same date and price, other addresses: not duplicates.
    expect(set.candidates.filter((c) => c.screenedOut?.reason === 'duplicate')).toHaveLength(1);
  });

  it('says a page is an error and keeps the others; reports further pages', () => {
    const first = compsEnvelope();
    first.meta.next_cursor = 'cursor-2';
    const error = { contract_version: 'svc-v3', status: 'error', data: null, error: { code: 'rate_limited', message: 'Too many requests', retryable: true }, meta: {} };
    const { set } = setup({ pages: [first, error] });
    expect(set.candidates).toHaveLength(14);
    expect(set.limitations.map((l) => l.text)).toContain('Page 2 of the answer is not usable (rate_limited: Too many requests): its sales are not listed.');
    // The page that failed can be asked for again: the last readable page's cursor stands.
    expect(set.nextCursor).toBe('cursor-2');

    const more = setup({ pages: [first] });
    expect(more.set.nextCursor).toBe('cursor-2');
    expect(more.set.limitations.map((l) => l.text)).toContain('14 of the 14 sales found are listed: the rest are on further pages, each a further purchase.');
  });

  it('reads nothing from no pages', () => {
    const { set } = setup({ pages: [] });
    expect(set).toMatchObject({ candidates: [], total: 0, nextCursor: null, dataAsOf: null });
  });
});

describe('readCandidates: the real answer with undated DC CAMA sales, two pages', () => {
  const pages = [clone(undatedPage1.envelope), clone(undatedPage2.envelope)];
  const camaRefs = new Set(
    [...undatedPage1.envelope.data.sources, ...undatedPage2.envelope.data.sources]
      .filter((source) => source.source_id === 'dc_cama_residential')
      .flatMap((source) => source.record_refs as string[]),
  );

  it('reads both pages in order, with the service’s total', () => {
    const { set } = setup({ pages });
    expect(set.total).toBe(179);
    expect(set.candidates).toHaveLength(179);
    expect(set.candidates.map((c) => c.recordRef)).toEqual([...undatedPage1.envelope.data.items, ...undatedPage2.envelope.data.items].map((item) => item.record_ref));
    expect(set.nextCursor).toBeNull();
    expect(setup({ pages: [pages[0]] }).set.nextCursor).toBe(undatedPage1.envelope.meta.next_cursor);
  });

  it('flags every CAMA sale undated, never usable by default, its real characteristics cited to CAMA', () => {
    const { set, citation } = setup({ pages });
    const cama = set.candidates.filter((c) => camaRefs.has(c.recordRef));
    expect(cama).toHaveLength(165);
    for (const sale of cama) {
      expect(sale.flags).toContain('undated');
      expect(sale.saleDate).toBeNull();
      expect(sale.screenedOut?.reason).toBe(sale.market ? 'no_date' : 'non_market');
      expect(sale.syntheticCharacteristics).toBe(false);
      for (const row of ['gla', 'quality', 'site', 'heatingCooling', 'fireplaces', 'exterior', 'units'] as const) {
        const value = sale.values[row];
        if (value.status === 'unavailable') continue;
        expect(value.status).toBe('reported');
        expect(value.citationIds.map((id) => citation(id).sourceId)).toEqual(['dc_cama_residential']);
      }
      expect(choosableProblem(sale, DEFAULT_CRITERIA)).toMatch(/No sale date/);
    }
    const first = cama[0]!;
    expect([first.values.heatingCooling.display, first.values.site.display, first.values.fireplaces.display]).toEqual(['Warm Cool / Central air', '1,307 sq ft', '5']);
    expect(first.values.quality.display).toBe('Exceptional-A');
    expect(first.numbers.gradeStep).toBe(8);
    // The dated OTR sales are the same 14 as without undated sales.
    expect(set.candidates.filter((c) => !camaRefs.has(c.recordRef)).map((c) => c.recordRef).sort()).toEqual(answerItems.map((item) => item.record_ref).sort());
  });

  it('keeps every id unique', () => {
    const { set } = setup({ pages });
    expect(new Set(set.candidates.map((c) => c.id)).size).toBe(179);
  });
});

describe('notUsedEntries', () => {
  it('lists every candidate not chosen with the appraiser’s reason, else Plat’s screen, else “not chosen by the appraiser” with no reason made up', () => {
    const { set, byAddress } = setup({ criteria: { livingAreaBandPct: 100 } });
    const workfile = emptyComparablesWorkfile();
    const fits = byAddress('1730 18TH ST NW');
    const alsoFits = byAddress('1739 19TH ST NW');
    const big = byAddress('2015 Q ST NW');
    workfile.chosen = [alsoFits.id];
    workfile.notUsed = { [big.id]: { reason: 'quality', note: 'Much larger, renovated.' } };
    const entries = notUsedEntries(set, workfile);
    expect(entries).toHaveLength(13);
    expect(entries.find((e) => e.candidate.id === alsoFits.id)).toBeUndefined();
    expect(entries.find((e) => e.candidate.id === big.id)).toMatchObject({ reason: 'quality', note: 'Much larger, renovated.', by: 'appraiser' });
    expect(entries.find((e) => e.candidate.id === fits.id)).toMatchObject({ reason: null, note: 'Not chosen by the appraiser.', by: 'not_chosen' });
    expect(entries.find((e) => e.candidate.address === '1807 RIGGS PL NW')).toMatchObject({ reason: 'non_market', by: 'plat' });
  });
});

describe("another service's citations: refs `<source_id>@<release_id>`, sources without record_refs", () => {
  it('cites every grid value of the subject and the sales to the publisher its source entry names', () => {
    const book = new CitationBook();
    const subject = readSubject(asIndependentDialect(subjectFixture.subject), book.cite);
    const ctx: CandidateContext = { subject, criteria: DEFAULT_CRITERIA, effectiveDate: '2017-01-01', subjectUseCode: '24' };
    const set = readCandidates([asIndependentDialect(compsFixture.envelope)], ctx, book.cite);
    expect(set.candidates.length).toBe(answerItems.length);
    const values = [subject!, ...set.candidates].flatMap((property) => Object.values(property.values));
    const cited = values.filter((value) => value.status !== 'unavailable');
    expect(cited.length).toBeGreaterThan(100);
    for (const citation of book.all()) expect(citation.publisher, `${citation.recordRef}`).not.toBeNull();
    const q = set.candidates.find((c) => c.address === '2015 Q ST NW')!;
    expect(new Set(q.values.salePrice.citationIds.map((id) => book.all().find((c) => c.id === id)?.sourceId))).toEqual(new Set(['dc_otr_sale']));
    expect(q.values.dataSource.display).toMatch(/^DC Office of Tax and Revenue record dc_otr_\w+@20170205/);
    // A market code published as it is (no basis given) is shown as published, not as Plat's or the service's reading.
    expect(q.values.saleType).toMatchObject({ raw: expect.stringMatching(/^01\b/), status: 'reported', derivedFrom: null });
  });
});

describe('sales coded by another service (DC-style acceptance codes)', () => {
  /** The fixture's sales recoded as the independent dialect codes them: 01 / MARKET at a price, 03 / OTHER otherwise. */
  function independentEnvelope(code: (price: number) => [string, string]): Json {
    const envelope = compsEnvelope();
    for (const item of envelope.data.items as Json[]) {
      const transfer = item.sections.transfer;
      [transfer.acceptance_code, transfer.sale_type] = code(Number(transfer.price_dollars));
    }
    return envelope;
  }

  it('screens every 01 / MARKET sale as market, as the embedded codes are', () => {
    const embedded = setup().set.candidates;
    const independent = setup({ pages: [independentEnvelope((price) => (price > 0 ? ['01', 'MARKET'] : ['03', 'OTHER']))] }).set.candidates;
    expect(independent.filter((sale) => sale.market).map((sale) => sale.recordRef)).toEqual(embedded.filter((sale) => sale.market).map((sale) => sale.recordRef));
    expect(independent.filter((sale) => sale.market).length).toBeGreaterThan(0);
    for (const sale of independent.filter((candidate) => candidate.market)) expect(sale.flags).not.toContain('non_market');
  });

  it('shows a 03 / OTHER sale with a price as published, not recognised: never “not arm’s length”, never screened out, asked about before use', () => {
    const { set } = setup({ pages: [independentEnvelope((price) => (price > 0 ? ['03', 'OTHER'] : ['03', 'OTHER']))] });
    const priced = set.candidates.filter((sale) => sale.priceDollars > 0);
    expect(priced.length).toBeGreaterThan(0);
    for (const sale of priced) {
      expect(sale.marketStatus).toBe('unknown');
      expect(sale.flags).toContain('market_unknown');
      expect(sale.flags).not.toContain('non_market');
      expect(sale.values.saleType).toMatchObject({ display: '03 / OTHER (not recognised by Plat)', status: 'reported', limitation: expect.stringMatching(/^Not recognised by Plat/) });
      expect(sale.screenedOut?.reason).not.toBe('non_market');
      expect(choosableProblem(sale, DEFAULT_CRITERIA)).toMatch(/^Market or not: 03 \/ OTHER \(not recognised by Plat\)\. Confirm/);
    }
    // Price 0 is still "non-market or no price", whatever the code.
    const zero = set.candidates.find((sale) => sale.priceDollars === 0);
    if (zero) expect(zero.values.saleType.display).toBe('Non-market or no price (price 0)');
  });
});
