import { describe, expect, it } from 'vitest';
import { analysisOf, exampleAnalysis, guardrailSales, subjectProperty, workfileWith } from '../comparables/test-kit.ts';
import { ChartSpecSchema } from './chart-spec.ts';
import { priceSizeChart } from './price-size-chart.ts';

const AT = '2026-11-27T22:40:00Z';

describe('the price against size chart', () => {
  it('leaves out the sales whose area is copied and not accepted, says how many, and still marks the subject’s published size', () => {
    const { analysis, workfile: example } = exampleAnalysis();
    // The example accepts its copied values for the whole grid; here none is accepted.
    const workfile = { ...example, syntheticAccepted: [] };
    const chart = ChartSpecSchema.parse(priceSizeChart(analysis, workfile));
    expect(chart.points).toEqual([]);
    expect(chart.rules).toEqual([{ axis: 'x', value: 2_400, label: 'Subject 2,400 sq ft' }]);
    // Twelve sales with copied areas; the transfer (no price, screened out) is counted apart.
    expect(chart.note).toBe('Nothing to draw: 12 sales are left out: the area is copied from another house (synthetic) and not accepted in the grid; 1 sale Plat screened out is not drawn (non-market or no price: 1).');
    expect(chart.altText).toContain('no sale to draw');
  });

  it('draws copied areas the appraiser accepted for the whole grid, the chosen comps apart, cited, each saying it was copied', () => {
    const { analysis, workfile } = exampleAnalysis();
    const accepted = { ...workfile, syntheticAccepted: [{ row: 'gla' as const, compId: null, reason: 'Checked against the listing sheets.', at: AT }] };
    const chart = ChartSpecSchema.parse(priceSizeChart(analysis, accepted));
    expect(chart.points.map((point) => point.id).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `sale${i + 1}`).sort());
    expect(chart.points.filter((point) => point.highlight).map((point) => point.label)).toEqual(['Comp 1: 1704 21ST ST NW', 'Comp 2: 1716 21ST ST NW', 'Comp 3: 1710 21ST ST NW']);
    // The comps are drawn last (on top) and listed first in the table.
    expect(chart.points.slice(-3).every((point) => point.highlight)).toBe(true);
    expect(chart.table.rows.slice(0, 3).map((row) => row.id)).toEqual(['sale3', 'sale9', 'sale6']);
    const comp1 = chart.points.find((point) => point.id === 'sale3')!;
    expect([comp1.x, comp1.y]).toEqual([2_400, 1_585_485]);
    expect(comp1.details[1]).toContain('copied from another house, accepted by the appraiser');
    expect(chart.points.every((point) => point.citationIds.length >= 2)).toBe(true);
    expect(chart.note).toBe('1 sale Plat screened out is not drawn (non-market or no price: 1); 12 drawn areas are copies the appraiser accepted.');
  });

  it('draws only the comp whose copied area was accepted for it alone', () => {
    const { analysis, workfile } = exampleAnalysis();
    const chart = priceSizeChart(analysis, { ...workfile, syntheticAccepted: [{ row: 'gla', compId: 'sale9', reason: 'Measured on site.', at: AT }] })!;
    expect(chart.points.map((point) => [point.id, point.highlight])).toEqual([['sale9', true]]);
  });

  it('draws published areas as they are; a sale Plat screened out only when the appraiser took it in', () => {
    const sales = guardrailSales();
    sales[0] = { ...sales[0]!, screenedOut: { reason: 'multi_parcel', note: 'Two lots on one deed.' } };
    const subject = subjectProperty({ id: 'subject', address: '1 T ST NW', gla: 2_000, bedrooms: 3 });
    const workfile = workfileWith({ chosen: ['t2'] });
    const analysis = analysisOf({ subject, candidates: sales, workfile, effectiveDate: '2017-01-01' });
    const chart = priceSizeChart(analysis, workfile)!;
    expect(chart.points).toHaveLength(29);
    expect(chart.points.some((point) => point.id === 't1')).toBe(false);
    expect(chart.note).toBe('1 sale Plat screened out is not drawn (multi-parcel sale: 1).');
    expect(chart.x.label).toBe('Gross living area (sq ft)');
    expect(chart.points.find((point) => point.id === 't2')!.details[1]).not.toContain('copied');
    const takenIn = priceSizeChart(analysis, { ...workfile, takenIn: { t1: { reason: 'Each lot a house.', at: AT } } })!;
    expect(takenIn.points).toHaveLength(30);
    expect(takenIn.note).toBeNull();
  });

  it('draws nothing without sales, and marks no subject size when the subject’s area is copied', () => {
    const { analysis, workfile: example, subject } = exampleAnalysis();
    const workfile = { ...example, syntheticAccepted: [] };
    expect(priceSizeChart({ ...analysis, chosen: [], set: { ...analysis.set, candidates: [] } }, workfile)).toBeNull();
    const copiedSubject = { ...subject, values: { ...subject.values, gla: { ...subject.values.gla, status: 'synthetic' as const } } };
    const chart = priceSizeChart({ ...analysis, set: { ...analysis.set, subject: copiedSubject } }, workfile)!;
    expect(chart.rules).toEqual([]);
    expect(chart.altText).toContain('The subject’s area is copied from another house and not accepted: not marked.');
  });
});
