// The whole analysis from the embedded service's real answers (1708 21ST ST NW: its subject report
// and the comparables search around it), as the Comparables view and the report both build it.
import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { SYNTHETIC_PUBLISHER } from '../cited/citation.ts';
import type { CitedValue } from '../cited/value.ts';
import subjectFixture from '../report/fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };
import { citedGridValues } from './grid-cited.ts';
import { analyzeComparables, type ComparablesAnalysisInput } from './analysis.ts';
import comps2016 from './fixtures/dc-1708-comps-2016.json' with { type: 'json' };
import undatedPage1 from './fixtures/dc-1708-comps-2016-with-undated.json' with { type: 'json' };
import undatedPage2 from './fixtures/dc-1708-comps-2016-with-undated-page-2.json' with { type: 'json' };
import { emptyComparablesWorkfile, type ComparablesWorkfile } from './model.ts';
import { ACCEPT_COPIED, comps2016Run } from './test-kit.ts';

const ids = comps2016.envelope.data.items.map((item) => item.record_ref);

const run = comps2016Run;

const workfile = (patch: Partial<ComparablesWorkfile> = {}): ComparablesWorkfile => ({
  ...emptyComparablesWorkfile(),
  searches: [run()],
  chosen: [ids[3]!, ids[0]!, ids[1]!],
  rates: { ...emptyComparablesWorkfile().rates, glaPerSqft: 150, timePctPerMonth: 0.25 },
  rateSource: { glaPerSqft: 'appraiser', timePctPerMonth: 'suggestion' },
  notUsed: { [ids[7]!]: { reason: 'size', note: 'Much larger than the subject.' } },
  savedAt: '2026-11-23T22:00:00.000Z',
  syntheticAccepted: ACCEPT_COPIED,
  ...patch,
});

const input = (patch: Partial<ComparablesAnalysisInput> = {}): ComparablesAnalysisInput => ({
  subjectEnvelope: subjectFixture.subject,
  pages: [comps2016.envelope],
  workfile: workfile(),
  effectiveDate: '2017-01-01',
  ...patch,
});

const analyze = (patch: Partial<ComparablesAnalysisInput> = {}, book = new CitationBook()) => analyzeComparables(input(patch), book);

function everyValue(analysis: ReturnType<typeof analyze>): CitedValue[] {
  const properties = [...(analysis.set.subject ? [analysis.set.subject] : []), ...analysis.set.candidates];
  const figures = analysis.cited ? citedGridValues(analysis.cited) : [];
  return [...properties.flatMap((property) => [...Object.values(property.values), ...property.priorSales.flatMap((sale) => [sale.date, sale.price, sale.source])]), ...figures];
}

describe('analyzeComparables', () => {
  it('orders the chosen comps as the workfile does and grids them against the subject', () => {
    const analysis = analyze();
    expect(analysis.chosen.map((comp) => comp.id)).toEqual([ids[3], ids[0], ids[1]]);
    expect(analysis.chosen.map((comp) => comp.address)).toEqual(['1730 18TH ST NW', '2015 Q ST NW', '1638 19TH ST NW']);
    expect(analysis.grid.columns.map((column) => column.compId)).toEqual([ids[3], ids[0], ids[1]]);
    // 150 $/sq ft on a 1,200 sq ft subject: 1730 18TH ST NW (2,016 sq ft) is 816 sq ft larger.
    expect(analysis.grid.columns[0]?.adjustments.gla).toBe(-122_400);
    for (const column of analysis.grid.columns) {
      expect(column.net).toBe(Object.values(column.adjustments).reduce((sum, n) => sum + n, 0));
    }
    expect(analysis.set.subject?.address).toBe('1708 21ST ST NW');
    expect(analysis.run?.id).toBe('run_1');
    expect(analysis.problems).toEqual([]);
  });

  it('lists every candidate not chosen as analyzed, not used, with the appraiser’s reason where given', () => {
    const analysis = analyze();
    expect(analysis.notUsed).toHaveLength(14 - 3);
    expect(analysis.notUsed.map((entry) => entry.candidate.id).sort()).toEqual(ids.filter((id) => ![ids[3], ids[0], ids[1]].includes(id)).sort());
    expect(analysis.notUsed.find((entry) => entry.candidate.id === ids[7])).toMatchObject({ reason: 'size', note: 'Much larger than the subject.', by: 'appraiser' });
    // OTR price 0: screened out by Plat as non-market.
    expect(analysis.notUsed.find((entry) => entry.candidate.id === ids[4])).toMatchObject({ reason: 'non_market', by: 'plat' });
  });

  it('runs the regression over every candidate of the search, not only the chosen', () => {
    const analysis = analyze();
    expect(analysis.support.n + analysis.support.excluded.length).toBe(14);
    expect(analysis.support.salesUsed.length).toBe(analysis.support.n);
    expect(analysis.support.salesUsed.length).toBeGreaterThan(3);
  });

  it('drops a chosen id the answers do not hold, and says so', () => {
    const analysis = analyze({ workfile: workfile({ chosen: [ids[0]!, 'rec_gone', ids[1]!, ids[0]!] }) });
    expect(analysis.chosen.map((comp) => comp.id)).toEqual([ids[0], ids[1]]);
    expect(analysis.grid.columns).toHaveLength(2);
    expect(analysis.problems).toEqual([
      'Comp 2 as saved (record rec_gone) is not in the current search’s answer: dropped from the grid.',
      'Comp 4 as saved is 2015 Q ST NW again: listed once.',
    ]);
  });

  it('says when the search’s answer is not kept, or only in part', () => {
    const none = analyze({ pages: [] });
    expect(none.set.candidates).toEqual([]);
    expect(none.chosen).toEqual([]);
    expect(none.problems[0]).toMatch(/^The answer of the last search is not kept with this assignment/);
    expect(none.problems[1]).toMatch(/^Comp 1 as saved .* dropped from the grid\.$/);

    const twoPages = workfile({ searches: [run({ pages: [undatedPage1.request, undatedPage2.request], total: 179, returned: 179 })], chosen: [] });
    const onePage = analyze({ pages: [undatedPage1.envelope], workfile: twoPages });
    expect(onePage.set.candidates).toHaveLength(100);
    expect(onePage.problems).toEqual(['1 of the 2 pages of the last search is not kept with this assignment: its sales are not listed.']);
    const both = analyze({ pages: [undatedPage1.envelope, undatedPage2.envelope], workfile: twoPages });
    expect(both.set.candidates).toHaveLength(179);
    expect(both.problems).toEqual([]);
  });

  it('says when the assignment’s effective date moved after the search ran', () => {
    const analysis = analyze({ effectiveDate: '2017-06-30' });
    expect(analysis.problems).toContain(
      'The last search ran for the effective date 2017-01-01; the assignment’s effective date is now 2017-06-30: run the search again so its date window ends there.',
    );
  });

  it('grids nothing without the subject report, and says why', () => {
    const analysis = analyze({ subjectEnvelope: null });
    expect(analysis.set.subject).toBeNull();
    expect(analysis.chosen).toHaveLength(3);
    expect(analysis.grid).toEqual({ columns: [], adjustedRange: null });
    expect(analysis.problems).toEqual([expect.stringMatching(/^The subject report \(report_subject_v1\) is not bought/)]);
  });

  it('before any search: no candidates, no problems', () => {
    const analysis = analyze({ pages: [], workfile: { ...emptyComparablesWorkfile(), chosen: [] } });
    expect(analysis.run).toBeNull();
    expect(analysis.set.candidates).toEqual([]);
    expect(analysis.problems).toEqual([]);
    expect(analysis.set.subject?.address).toBe('1708 21ST ST NW');
  });

  it('keeps exactly the citations its values use, from the book it was given', () => {
    const book = new CitationBook();
    // Something the subject's sections cited before, that no comparables value uses.
    const unrelated = book.cite({ publisher: 'Elsewhere', dataset: null, asOf: null, sourceId: null, recordRef: null, releaseId: null, sha256: null, officialUrl: null, synthetic: false, note: null });
    const analysis = analyze({}, book);
    const kept = new Set(analysis.citations.map((citation) => citation.id));
    expect(kept.has(unrelated)).toBe(false);
    const used = new Set([
      ...everyValue(analysis).flatMap((value) => value.citationIds),
      ...analysis.set.limitations.flatMap((limitation) => limitation.citationIds),
      ...analysis.support.salesUsed.flatMap((sale) => sale.citationIds),
    ]);
    expect(kept).toEqual(used);
    expect(book.all().filter((citation) => citation.id !== unrelated)).toEqual(analysis.citations);
  });

  it('cites synthetic characteristics to the synthetic sample, and the sale to the OTR roll', () => {
    const analysis = analyze();
    const byId = new Map(analysis.citations.map((citation) => [citation.id, citation]));
    const comp = analysis.chosen[0]!;
    expect(comp.values.gla.status).toBe('synthetic');
    for (const id of comp.values.gla.citationIds) expect(byId.get(id)).toMatchObject({ publisher: SYNTHETIC_PUBLISHER, synthetic: true });
    for (const id of comp.values.salePrice.citationIds) expect(byId.get(id)).toMatchObject({ publisher: 'DC Office of Tax and Revenue', synthetic: false });
  });

  it('is a pure function of its input', () => {
    expect(analyze()).toEqual(analyze(structuredClone(input())));
  });
});
