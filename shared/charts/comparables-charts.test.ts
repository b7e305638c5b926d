import { describe, expect, it } from 'vitest';
import { exampleAnalysis } from '../comparables/test-kit.ts';
import { ChartSpecSchema } from './chart-spec.ts';
import { adjustedPricesChart } from './comparables-charts.ts';

describe('the comps’ adjusted prices chart', () => {
  it('draws each comp’s adjusted price in grid order, most weight apart, the indicated value as a rule, with a cited table', () => {
    const { analysis, workfile } = exampleAnalysis();
    const chart = ChartSpecSchema.parse(adjustedPricesChart(analysis, workfile));
    expect(chart.points.map((point) => point.x)).toEqual(analysis.grid.columns.map((column) => column.adjustedPrice));
    expect(chart.points.map((point) => point.highlight)).toEqual(analysis.grid.columns.map((column) => column.weight === 'most'));
    expect(chart.rules).toEqual([{ axis: 'x', value: workfile.reconciliation.indicatedValueDollars, label: expect.stringMatching(/^Indicated value \$/) }]);
    expect(chart.table.rows.every((row) => row.citationIds.length > 0)).toBe(true);
  });

  it('draws nothing before a comp is chosen, and says when no indicated value is entered', () => {
    const { analysis, workfile } = exampleAnalysis();
    expect(adjustedPricesChart({ ...analysis, grid: { columns: [], adjustedRange: null } }, workfile)).toBeNull();
    expect(adjustedPricesChart(analysis, { reconciliation: { indicatedValueDollars: null, comment: '' } })?.note).toBe('No indicated value yet: enter it in the reconciliation.');
  });
});
