import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { recompute } from '../cited/derivation.ts';
import comps2016 from '../comparables/fixtures/dc-1708-comps-2016.json' with { type: 'json' };
import { emptyComparablesWorkfile, type ComparablesWorkfile } from '../comparables/model.ts';
import { comps2016Run, exampleAnalysis } from '../comparables/test-kit.ts';
import { salesComparisonUad } from '../comparables/uad-export.ts';
import { ChartSpecSchema } from '../charts/chart-spec.ts';
import { MarketReportSchema } from '../report/market-document.ts';
import { marketCitationOrder, marketReport } from '../report/market-section.ts';
import { analyzeMarket, marketRequestBody } from './analysis.ts';
import { priceTrendChart } from './charts.ts';
import { marketSalesCsv } from './market-csv.ts';

const EFFECTIVE = '2017-01-01';
const workfile: ComparablesWorkfile = { ...emptyComparablesWorkfile(), searches: [comps2016Run()] };
const marketOf = (w: ComparablesWorkfile = workfile) =>
  analyzeMarket({ subjectEnvelope: null, marketPages: [], compsPages: [comps2016.envelope], workfile: w, effectiveDate: EFFECTIVE, subjectUseCode: '24' }, new CitationBook());

describe('the market of an assignment', () => {
  it('reads the comps search’s own sales until the market sales are bought, and says what that leaves out', () => {
    const market = marketOf();
    expect(market.source.kind).toBe('comps-search');
    expect(market.source.words).toMatch(/buy the market sales for 36 months of the area’s sales/);
    expect(market.conditions.periods.map((period) => period.covered)).toEqual([true, true, true, false]);
    const counted = market.conditions.periods.reduce((sum, period) => sum + period.sales.length, 0);
    expect(counted + market.conditions.leftOut.length).toBe(14);
    for (const period of market.conditions.periods) expect(recompute(period.count.derivation!, period.count.display)).toEqual({ kind: 'same' });
    expect(market.citations.length).toBeGreaterThan(0);
  });

  it('asks for the comps search’s area and type over 36 months, any size', () => {
    const body = marketRequestBody('prop_x', { ...workfile.criteria, monthsBack: 12, sameUseCode: false, livingAreaBandPct: 10 }, EFFECTIVE, '24', null);
    expect(body.filters.sale).toEqual([
      { field: 'from_date', value: '2014-01-01' },
      { field: 'to_date', value: EFFECTIVE },
      { field: 'include_undated', value: 'false' },
    ]);
    expect(body.filters.property).toEqual([{ field: 'use_code', value: '24' }]);
  });

  it('reads the market-sales search when one was bought, and says when it ran for another date', () => {
    const run = comps2016Run({ id: 'market_1', effectiveDate: '2016-12-01', criteria: { ...comps2016Run().criteria, monthsBack: 36 } });
    const market = analyzeMarket({ subjectEnvelope: null, marketPages: [comps2016.envelope], compsPages: [], workfile: { ...workfile, marketSearch: run }, effectiveDate: EFFECTIVE }, new CitationBook());
    expect(market.source.kind).toBe('market-search');
    expect(market.conditions.periods.every((period) => period.covered)).toBe(true);
    expect(market.problems).toContain('The sales were read for the effective date 2016-12-01; the assignment’s is now 2017-01-01: buy the market sales again.');
  });

  it('says where the market-sales search goes on when the service has more sales, and only while every page is kept', () => {
    const run = comps2016Run({ id: 'market_1', criteria: { ...comps2016Run().criteria, monthsBack: 36 } });
    const withMore = { ...comps2016.envelope, meta: { ...comps2016.envelope.meta, next_cursor: 'page-2' } };
    const market = (pages: unknown[], w: ComparablesWorkfile) => analyzeMarket({ subjectEnvelope: null, marketPages: pages, compsPages: [withMore], workfile: w, effectiveDate: EFFECTIVE }, new CitationBook());
    expect(market([withMore], { ...workfile, marketSearch: run }).source.nextCursor).toBe('page-2');
    expect(market([comps2016.envelope], { ...workfile, marketSearch: run }).source.nextCursor).toBeNull();
    // A page not kept: the search cannot go on from where it stopped.
    expect(market([withMore], { ...workfile, marketSearch: { ...run, pages: [...run.pages, { cursor: 'page-2' }] } }).source.nextCursor).toBeNull();
    // The comps search's own next page is the comps search's (offered in its panel), not the market's.
    expect(market([], workfile).source.nextCursor).toBeNull();
  });
});

describe('the market in the exports and the report', () => {
  it('writes a separate 1004MC section into the UAD-shaped JSON, and none without a market', () => {
    const { analysis, workfile: example } = exampleAnalysis();
    const market = marketOf();
    const context = { assignment: { name: 'A', effectiveDate: EFFECTIVE, subjectRef: 'prop_x' }, generatedAt: 'now', appVersion: 'test', workfile: example };
    const section = salesComparisonUad(analysis, { ...context, market }).marketConditions as Record<string, unknown>;
    expect(Object.keys(section)).toEqual(expect.arrayContaining(['periods', 'trend', 'notAvailable', 'salesLeftOut', 'timeAdjustmentSupport', 'citations']));
    const periods = section.periods as Array<{ key: string; comparableSalesCount: { derivation: { rule: string } } }>;
    expect(periods.map((period) => period.key)).toEqual(['months0to3', 'months4to6', 'months7to12', 'months13to24']);
    expect(periods[0]!.comparableSalesCount.derivation.rule).toBe('count-of-sales');
    expect((section.timeAdjustmentSupport as { minimumSales: number }).minimumSales).toBe(10);
    expect(salesComparisonUad(analysis, context).marketConditions).toBeNull();
  });

  it('lists the sales used in a CSV, each with its sources, a formula-like address kept as text', () => {
    const market = marketOf();
    const first = market.conditions.periods.find((period) => period.sales.length > 0)!.sales[0]!;
    first.address = '=HYPERLINK("x")';
    const csv = marketSalesCsv(market);
    const lines = csv.split('\r\n');
    expect(lines).toContain(
      'Sale id,Address,Sale date,Months before the effective date,Period,In the 12-month trend,Sale price (dollars),Published building area (sq ft),Sources',
    );
    expect(csv).toContain(`${first.id},"'=HYPERLINK(""x"")",${first.saleDate}`);
    const used = market.conditions.periods.reduce((sum, period) => sum + period.sales.length, 0);
    expect(lines.filter((line) => /^[^,]+,.*,\d{4}-\d\d-\d\d,[\d.]+,/.test(line))).toHaveLength(used);
  });

  it('draws the price trend from the same sales: points, the fitted line with its band, quarterly steps, a cited table', () => {
    const market = marketOf();
    const chart = ChartSpecSchema.parse(priceTrendChart(market));
    expect(chart.points.map((point) => point.id)).toEqual(market.trend.price.sales.map((sale) => sale.id));
    expect(chart.fit?.line).toHaveLength(13);
    for (const [at, band] of (chart.fit?.band ?? []).entries()) {
      expect(band.low).toBeLessThan(chart.fit!.line[at]!.y);
      expect(band.high).toBeGreaterThan(chart.fit!.line[at]!.y);
    }
    expect(chart.table.rows.every((row) => row.citationIds.length > 0)).toBe(true);
    expect(chart.altText).toContain(market.trend.conclusion);
  });

  it('prints the table, the support and the chart in the report, numbering their sources', () => {
    const market = marketOf();
    const report = MarketReportSchema.parse(marketReport(market, workfile));
    expect(report.time.decision).toMatch(/^Not decided\./);
    expect(report.chart.id).toBe('market-price-trend');
    const order = marketCitationOrder(report);
    expect(order.length).toBeGreaterThan(0);
    expect(order.every((id) => market.citations.some((citation) => citation.id === id))).toBe(true);
  });
});
