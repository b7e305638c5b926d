// The report's comparables section, built into the subject report from the embedded service's real
// answers for 1708 21ST ST NW (its subject report and the comparables search around it, sold in 2016).
import { describe, expect, it } from 'vitest';
import comps2016 from '../comparables/fixtures/dc-1708-comps-2016.json' with { type: 'json' };
import { emptyComparablesWorkfile, gridRowKeys, rateKeys, type ComparablesWorkfile, type CompSearchRun } from '../comparables/model.ts';
import { ACCEPT_COPIED, comps2016Run } from '../comparables/test-kit.ts';
import { buildSubjectReport, type SubjectReportInput } from './build-subject-report.ts';
import { SYNTHETIC_PUBLISHER } from '../cited/citation.ts';
import { citationRows } from './citation-export.ts';
import { comparablesCitationOrder, comparablesValues, NO_COMPS_CHOSEN, NO_SEARCH, regressionFigureValues } from './comparables-section.ts';
import { ReportDocumentSchema, type ReportDocument } from './document.ts';
import { type CitedValue } from '../cited/value.ts';
import dc1708 from './fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import { dc1708Input } from './test-kit.ts';

const ids = comps2016.envelope.data.items.map((item) => item.record_ref);

const RUN: CompSearchRun = comps2016Run();

/** Five comps (1730 18TH, 2015 Q, 1638 19TH, 1826 CORCORAN, 1739 19TH), two rates, one sale set aside by the appraiser. */
const WORKFILE: ComparablesWorkfile = {
  ...emptyComparablesWorkfile(),
  searches: [RUN],
  chosen: [ids[3]!, ids[0]!, ids[1]!, ids[2]!, ids[5]!],
  rates: { ...emptyComparablesWorkfile().rates, glaPerSqft: 150, timePctPerMonth: 0.25 },
  rateSource: { glaPerSqft: 'appraiser', timePctPerMonth: 'suggestion' },
  weights: { [ids[3]!]: 'most', [ids[0]!]: 'less' },
  notUsed: { [ids[7]!]: { reason: 'size', note: 'Much larger than the subject.' } },
  reconciliation: { indicatedValueDollars: 1_300_000, comment: 'Most weight on comp 1, the closest in size.' },
  savedAt: '2026-11-23T22:00:00.000Z',
  syntheticAccepted: ACCEPT_COPIED,
};

function build(comparables: SubjectReportInput['comparables'], subject: unknown = dc1708.subject): ReportDocument {
  return buildSubjectReport(dc1708Input({ name: '1708 21st St appraisal', intendedUse: 'Mortgage lending decision' }, { subject, comparables }));
}

const withComps = () => build({ workfile: WORKFILE, pages: [comps2016.envelope] });
const section = (doc: ReportDocument) => {
  if (!doc.comparables) throw new Error('no comparables section');
  return doc.comparables;
};

describe('the comparables section of the report', () => {
  it('is absent until comparables work starts; then says what is missing', () => {
    expect(build(undefined).comparables).toBeNull();
    expect(build(null).comparables).toBeNull();
    expect(build({ workfile: emptyComparablesWorkfile(), pages: [] }).comparables).toBeNull();
    const started = build({ workfile: { ...emptyComparablesWorkfile(), savedAt: '2026-11-23T22:00:00.000Z' }, pages: [] });
    expect(() => ReportDocumentSchema.parse(started)).not.toThrow();
    expect(started.comparables).toMatchObject({ search: null, map: null, grid: null, support: null, notUsed: [], priorSales: null, missing: [NO_SEARCH] });
    const noneChosen = section(build({ workfile: { ...WORKFILE, chosen: [] }, pages: [comps2016.envelope] }));
    expect(noneChosen.grid).toBeNull();
    expect(noneChosen.missing).toEqual([NO_COMPS_CHOSEN]);
    expect(noneChosen.notUsed).toHaveLength(14);
  });

  it('says a search that returned no sales returned none: not “no comps chosen yet”, not “every sale is a chosen comp”', () => {
    const envelope = structuredClone(comps2016.envelope);
    envelope.data.items = [];
    envelope.data.total = 0;
    const empty = section(build({ workfile: { ...emptyComparablesWorkfile(), searches: [comps2016Run({ total: 0, returned: 0 })], savedAt: WORKFILE.savedAt }, pages: [envelope] }));
    expect(empty.missing).toEqual(['The search returned no sales, so no comparable sale is chosen: the sales comparison grid is empty.']);
    expect(empty.search!.notUsedEmpty).toBe('The search returned no sales: none was analyzed.');
    expect(JSON.stringify(empty)).not.toMatch(/Every sale the search returned|No comparable sales are chosen yet/);
    // Every sale listed chosen: said with the count, and only then.
    const allChosen = section(build({ workfile: { ...WORKFILE, chosen: ids, notUsed: {} }, pages: [comps2016.envelope] }));
    expect(allChosen.notUsed).toEqual([]);
    expect(allChosen.search!.notUsedEmpty).toBe('Every sale the search returned (14) is a chosen comp.');
    // A search that returned 14 sales whose answer is not kept: not "the search returned no sales".
    const unkept = section(build({ workfile: { ...WORKFILE, chosen: [], notUsed: {} }, pages: [] }));
    expect(unkept.missing[0]).toMatch(/^The sales of the last search are not kept with this assignment/);
    expect(unkept.support!.message).toMatch(/^The sales of the last search are not kept with this assignment/);
    expect(JSON.stringify(unkept)).not.toMatch(/returned no sales/);
  });

  it('is a valid part of the document, and the document stays a pure function of its input', () => {
    const doc = withComps();
    expect(() => ReportDocumentSchema.parse(doc)).not.toThrow();
    expect(ReportDocumentSchema.parse(doc).comparables).toEqual(doc.comparables);
    expect(withComps()).toEqual(doc);
  });

  it('prints the search as it was run, with the answer’s limitations cited', () => {
    const search = section(withComps()).search!;
    expect(search.lines).toContain('Sold 2016-01-01 to 2017-01-01 (12 months before the effective date)');
    expect(search.lines).toContain('Same property type as the subject (use code 24)');
    expect(search).toMatchObject({ ranAt: RUN.ranAt, dataAsOf: 'sample_v1_20231105_d7b3abbd34f3', total: 14, returned: 14 });
    const centroids = search.limitations.find((limitation) => /tax-square centroids/.test(limitation.text))!;
    expect(centroids.citationIds.length).toBeGreaterThan(0);
  });

  it('gives the grid: the subject and each comp per row, their adjustments, and the column summaries', () => {
    const grid = section(withComps()).grid!;
    expect(grid.columns.map((column) => [column.number, column.address, column.weight])).toEqual([
      [1, '1730 18TH ST NW', 'most'],
      [2, '2015 Q ST NW', 'less'],
      // A comp the appraiser gave no weight to yet has less.
      [3, '1638 19TH ST NW', 'less'],
      [4, '1826 CORCORAN ST NW', 'less'],
      [5, '1739 19TH ST NW', 'less'],
    ]);
    expect(grid.rows.map((row) => row.key)).toEqual([...gridRowKeys]);
    const row = (key: string) => grid.rows.find((r) => r.key === key)!;
    expect(row('address').subject.display).toBe('1708 21ST ST NW');
    expect(row('salePrice').comps.map((cell) => cell.value.display)).toEqual(['$1,330,000', '$2,350,000', '$1,230,000', '$1,736,000', '$1,400,000']);
    expect(row('salePrice').subject.status).toBe('unavailable');
    // 150 $/sq ft: the subject has 1,200 sq ft, 1730 18TH ST NW 2,016.
    expect(row('gla').comps[0]).toMatchObject({ adjustment: -122_400 });
    expect(row('gla').comps[0]?.working).toBeTruthy();
    expect(row('saleDate').comps.every((cell) => typeof cell.adjustment === 'number')).toBe(true);
    expect(row('address').comps.every((cell) => cell.adjustment === null)).toBe(true);
    grid.summary.forEach((summary, index) => {
      const adjustments = grid.rows.reduce((sum, r) => sum + (r.comps[index]?.adjustment ?? 0), 0);
      expect(summary.net, summary.compId).toBe(adjustments);
      expect(summary.adjustedPrice).toBe((row('salePrice').comps[index]?.value.raw as number) + summary.net);
    });
    const prices = grid.summary.filter((_, index) => grid.columns[index]?.weight !== 'none').map((s) => s.adjustedPrice);
    expect(grid.adjustedRange).toEqual({ low: Math.min(...prices), high: Math.max(...prices) });
    expect(grid.reconciliation).toMatchObject({ indicatedValueDollars: 1_300_000, comment: 'Most weight on comp 1, the closest in size.' });
  });

  it('gives each rate beside the regression’s suggestion, and the regression itself', () => {
    const { grid, support } = section(withComps());
    expect(grid!.rates.map((rate) => rate.key)).toEqual([...rateKeys]);
    expect(grid!.rates.find((rate) => rate.key === 'glaPerSqft')).toMatchObject({ value: 150, source: 'appraiser', unit: '$ per sq ft of gross building area' });
    expect(grid!.rates.find((rate) => rate.key === 'timePctPerMonth')).toMatchObject({ value: 0.25, source: 'suggestion' });
    expect(grid!.rates.find((rate) => rate.key === 'perBedroom')).toMatchObject({ value: null, source: null });
    expect(support!.n).toBeGreaterThan(0);
    for (const rate of grid!.rates) {
      const suggestion = support!.suggestions[rate.key];
      expect(rate.support?.value ?? null).toBe(suggestion.value);
    }
    expect(support!.salesUsed.every((sale) => sale.citationIds.length > 0)).toBe(true);
  });

  it('lists every sale not used with its reason, and the prior sales', () => {
    const { notUsed, priorSales } = section(withComps());
    expect(notUsed).toHaveLength(14 - 5);
    expect(notUsed.find((row) => row.id === ids[7])).toMatchObject({ reason: 'size', reasonLabel: 'Size (living area)', note: 'Much larger than the subject.', by: 'appraiser' });
    expect(notUsed.find((row) => row.id === ids[7])?.address.display).toBe('1744 SWANN ST NW');
    const zero = notUsed.find((row) => row.id === ids[4])!;
    expect(zero).toMatchObject({ reason: 'non_market', by: 'plat' });
    expect(zero.price.display).toBe('$0 (non-market or no price)');
    // The sample holds one sale per lot: the subject's last sale is its only prior sale; the note says the comps have none.
    expect(priorSales!.rows.map((row) => [row.property?.display, row.date?.display])).toEqual([['Subject: 1708 21ST ST NW', '2013-12-17']]);
    expect(priorSales!.note).toMatch(/last recorded sale/);
  });

  it('keeps Plat’s screens apart from the sales simply not chosen, names a multi-parcel deed’s other lot cited, and prints a take-in with its reason', () => {
    const corcoran = comps2016.envelope.data.items.filter((item) => /^171[79] CORCORAN/.test(String((item.sections as { identity: { address?: string } }).identity.address)));
    const [lot1717, lot1719] = [...corcoran].sort((a, b) => String(a.sections.identity.address).localeCompare(String(b.sections.identity.address)));
    const takenIn = { [lot1717!.record_ref]: { reason: 'A parking pad conveyed with the house.', at: '2026-11-27T21:00:00Z' } };
    // At ±100 % of the subject's living area, 1730 18th St NW and 1739 19th St NW fit every criterion.
    const run = comps2016Run({ criteria: { ...emptyComparablesWorkfile().criteria, livingAreaBandPct: 100 } });
    const doc = build({ workfile: { ...WORKFILE, searches: [run], chosen: [lot1717!.record_ref], takenIn }, pages: [comps2016.envelope] });
    const { notUsed, takenIn: printed } = section(doc);
    expect(printed).toEqual([{ id: lot1717!.record_ref, label: '1717 CORCORAN ST NW', words: expect.stringMatching(/^Screened out by Plat \(Multi-parcel sale.*taken in by the appraiser on 2026-11-27: “A parking pad conveyed with the house\.”$/) }]);
    const other = notUsed.find((row) => row.id === lot1719!.record_ref)!;
    expect(other).toMatchObject({ reason: 'multi_parcel', reasonLabel: 'Multi-parcel sale', by: 'plat' });
    expect(other.relatedLots).toEqual([{ words: expect.stringMatching(/^1717 CORCORAN ST NW \(SSL /), citationIds: expect.arrayContaining([expect.any(String)]) }]);
    expect(comparablesCitationOrder(section(doc))).toEqual(expect.arrayContaining(other.relatedLots[0]!.citationIds));
    // A sale Plat did not screen and the appraiser did not choose: no reason made up.
    const plain = notUsed.filter((row) => row.by === 'not_chosen');
    // (The sample's areas are copies: no sale is screened out by size, so the unscreened market sales are all here.)
    expect(plain.map((row) => row.label)).toEqual(expect.arrayContaining(['1730 18TH ST NW', '1739 19TH ST NW']));
    expect(plain.map((row) => row.label)).not.toContain('1719 CORCORAN ST NW');
    for (const row of plain) expect(row).toMatchObject({ reason: null, reasonLabel: 'Not chosen by the appraiser' });
    expect(ReportDocumentSchema.parse(doc)).toEqual(doc);
  });

  it('cites every value it prints, or says why it is unavailable', () => {
    const doc = withComps();
    const known = new Set(doc.citations.map((citation) => citation.id));
    const values = comparablesValues(section(doc));
    // The grid's cells (subject and 5 comps), 10 adjustments (time and living area on each comp), each
    // comp's net, net %, gross, gross % and adjusted price, the range, the indicated value, 2 rates;
    // the regression's figures; the 9 sales not used and the one prior sale, 4 values each; then the
    // market conditions (4 periods × 3 figures, 3 trends, 2 fits × rate and interval).
    expect(values.length).toBe(gridRowKeys.length * 6 + 10 + 5 * 5 + 1 + 1 + 2 + regressionFigureValues(section(doc).support).length + 9 * 4 + 1 * 4 + 19);
    for (const value of values) {
      if (value.status === 'unavailable') expect(value.limitation, value.field).toBeTruthy();
      else expect(value.citationIds.length, value.field).toBeGreaterThan(0);
      for (const id of value.citationIds) expect(known.has(id), `${value.field} → ${id}`).toBe(true);
    }
    expect(new Set(values.map((value) => value.field)).size).toBe(values.length);
  });

  it('cites synthetic characteristics to the synthetic sample and the sales to the OTR roll', () => {
    const doc = withComps();
    const byId = new Map(doc.citations.map((citation) => [citation.id, citation]));
    const synthetic = comparablesValues(section(doc)).filter((value: CitedValue) => value.status === 'synthetic');
    expect(synthetic.length).toBeGreaterThan(20);
    for (const value of synthetic) for (const id of value.citationIds) expect(byId.get(id), value.field).toMatchObject({ publisher: SYNTHETIC_PUBLISHER, synthetic: true });
    const prices = section(doc).grid!.rows.find((row) => row.key === 'salePrice')!.comps;
    for (const cell of prices) for (const id of cell.value.citationIds) expect(byId.get(id)).toMatchObject({ publisher: 'DC Office of Tax and Revenue', synthetic: false, sourceId: 'dc_otr_sale' });
  });

  it('numbers the endnotes in order of use: the subject’s sections first, then the comparables section', () => {
    const doc = withComps();
    const plain = build(null);
    expect(doc.citations.map((c) => c.number)).toEqual(doc.citations.map((_, index) => index + 1));
    // The subject's endnotes keep their numbers; the comparables section's new sources follow.
    expect(doc.citations.slice(0, plain.citations.length)).toEqual(plain.citations);
    const fresh = comparablesCitationOrder(section(doc)).filter((id) => !plain.citations.some((citation) => citation.id === id));
    expect(doc.citations.slice(plain.citations.length).map((citation) => citation.id)).toEqual(fresh);
    expect(fresh.length).toBeGreaterThan(10);
    // One book: the subject's sale record is one endnote wherever it is cited.
    const subjectSale = doc.sections.find((s) => s.id === 'transfer')!.values.find((v) => v.field === 'transfer.sale_date')!;
    expect(section(doc).priorSales!.rows[0]!.date!.citationIds).toEqual(subjectSale.citationIds);
    // The cover's "data as of" names the square points the comparables are located by.
    expect(doc.cover.dataAsOf.some((line) => line.startsWith('DC Office of the Chief Technology Officer (DC GIS), Square Points'))).toBe(true);
  });

  it('puts the comparables values in the citations file, after the subject’s, each with its own field', () => {
    const doc = withComps();
    const rows = citationRows(doc);
    const plainRows = citationRows(build(null));
    expect(rows.slice(0, plainRows.length)).toEqual(plainRows);
    const comps = rows.slice(plainRows.length);
    expect(comps).toHaveLength(comparablesValues(section(doc)).length);
    expect(comps.every((row) => row.section === 'Comparable sales' && /^(comparables|market)\./.test(row.field))).toBe(true);
    expect(comps.find((row) => row.field === `comparables.grid.${ids[3]}.salePrice`)).toMatchObject({ label: 'Comp 1: Sale price', printed: '$1,330,000', status: 'reported', markers: [expect.any(Number)] });
  });

  it('puts the indicated value in the citations file as the appraiser’s value, with its rule and inputs', () => {
    const doc = withComps();
    const row = citationRows(doc).find((r) => r.field === 'comparables.reconciliation.indicatedValue');
    const range = section(doc).grid!.adjustedRange!;
    expect(row).toMatchObject({ label: 'Indicated value by sales comparison', printed: '$1,300,000', status: 'derived', derivation: { rule: 'appraiser-value', inputs: [1_300_000, range.low, range.high] } });
    expect(row!.citations.map((citation) => citation.publisher)).toContain('The appraiser');
    expect(citationRows(doc).find((r) => r.field === `comparables.grid.${ids[3]}.gla.adjustment`)).toMatchObject({ printed: '−$122,400', status: 'derived', derivation: { rule: 'adjustment-rate-times-difference', inputs: [150, 1_200, 2_016] } });
  });

  it('adjusts nothing on a copied value until it is accepted, and prints each acceptance with who accepted it and why', () => {
    const copied = (syntheticAccepted: ComparablesWorkfile['syntheticAccepted']) => section(build({ workfile: { ...WORKFILE, syntheticAccepted }, pages: [comps2016.envelope] })).grid!;
    const none = copied(undefined);
    const gla = (grid: ReturnType<typeof copied>) => grid.rows.find((row) => row.key === 'gla')!.comps;
    expect(gla(none).map((cell) => cell.adjustment)).toEqual([null, null, null, null, null]);
    expect(gla(none)[0]!.value.status).toBe('synthetic');
    expect(none.summary[0]!.warnings).toContain('Gross building area (GBA): copied from another house (synthetic) for the subject and this comp, not accepted: no adjustment.');
    expect(none.copiedAccepted).toEqual([]);

    // The subject's living area is copied too: accepting the comp's alone still adjusts nothing.
    const compOnly = [{ row: 'gla' as const, compId: ids[0]!, reason: 'Measured at inspection: 2,020 sq ft.', at: '2026-11-27T20:00:00.000Z' }];
    expect(gla(copied(compOnly)).map((cell) => cell.adjustment)).toEqual([null, null, null, null, null]);
    expect(copied(compOnly).summary[1]!.warnings).toContain('Gross building area (GBA): copied from another house (synthetic) for the subject, not accepted: no adjustment.');
    const one = copied([...compOnly, { row: 'gla', compId: dc1708.subjectRef, reason: 'The subject measured at inspection.', at: '2026-11-27T20:01:00.000Z' }]);
    expect(gla(one).map((cell) => cell.adjustment !== null)).toEqual([false, true, false, false, false]);
    expect(one.copiedAccepted).toEqual([
      { row: 'gla', rowLabel: one.rows.find((row) => row.key === 'gla')!.label, compId: dc1708.subjectRef, appliesTo: 'the subject', by: 'The appraiser', reason: 'The subject measured at inspection.', at: '2026-11-27T20:01:00.000Z' },
      { row: 'gla', rowLabel: one.rows.find((row) => row.key === 'gla')!.label, compId: ids[0], appliesTo: 'Comp 2, 2015 Q ST NW', by: 'The appraiser', reason: 'Measured at inspection: 2,020 sq ft.', at: '2026-11-27T20:00:00.000Z' },
    ]);
    const whole = copied([{ row: 'gla', compId: null, reason: 'Living areas checked against the listings.', at: '2026-11-27T20:00:00.000Z' }]);
    expect(gla(whole).every((cell) => cell.adjustment !== null && cell.cited?.status === 'derived')).toBe(true);
    expect(whole.copiedAccepted.map((act) => [act.appliesTo, act.reason])).toEqual([['the whole grid', 'Living areas checked against the listings.']]);
  });

  it('says what does not add up: a comp no longer in the answer, adjustments past the guidelines', () => {
    const problems = section(build({ workfile: { ...WORKFILE, chosen: [...WORKFILE.chosen, 'rec_gone'] }, pages: [comps2016.envelope] })).problems;
    expect(problems).toContain('Comp 6 as saved (record rec_gone) is not in the current search’s answer: dropped from the grid.');
    expect(problems.some((problem) => /guideline/.test(problem))).toBe(true);
  });
});
