// The comps' adjusted prices as a chart: each chosen comp's adjusted sale price (the comps given
// most weight drawn apart), with the indicated value as a rule, and its table. Built from the one
// analysis and the workfile's reconciliation, so the screen and the report draw the same chart.
import type { ComparablesAnalysis, ComparablesWorkfile } from '../comparables/model.ts';
import { weightLabels } from '../comparables/grid-csv.ts';
import { formatDollars } from '../money.ts';
import type { ChartSpec } from './chart-spec.ts';

export function adjustedPricesChart(analysis: ComparablesAnalysis, workfile: Pick<ComparablesWorkfile, 'reconciliation'>): ChartSpec | null {
  const columns = analysis.grid.columns;
  if (columns.length === 0) return null;
  const byId = new Map(analysis.chosen.map((comp) => [comp.id, comp]));
  const indicated = workfile.reconciliation.indicatedValueDollars;
  const points = columns.map((column, index) => {
    const comp = byId.get(column.compId);
    const citationIds = comp ? [...new Set([...comp.values.salePrice.citationIds, ...comp.values.saleDate.citationIds])] : [];
    return {
      id: column.compId,
      x: column.adjustedPrice,
      y: index + 1,
      highlight: column.weight === 'most',
      label: `Comp ${index + 1}: ${comp?.address ?? column.compId}`,
      details: [`Adjusted ${formatDollars(column.adjustedPrice)}`, `Sold for ${formatDollars(comp?.priceDollars ?? 0)}`, weightLabels[column.weight]],
      citationIds,
    };
  });
  const prices = columns.map((column) => column.adjustedPrice);
  const title = 'Adjusted sale prices of the comps';
  return {
    id: 'comps-adjusted-prices',
    title,
    subtitle: `Points: each comp’s adjusted price (filled: most weight).${indicated === null ? '' : ' Rule: the indicated value.'}`,
    x: { label: 'Adjusted sale price', type: 'linear', format: 'dollars' },
    y: { label: 'Comp', type: 'linear', format: 'count' },
    points,
    fit: null,
    steps: null,
    rules: indicated === null ? [] : [{ axis: 'x', value: indicated, label: `Indicated value ${formatDollars(indicated)}` }],
    altText: `${title}: ${columns.length} comps from ${formatDollars(Math.min(...prices))} to ${formatDollars(Math.max(...prices))}${indicated === null ? '; no indicated value yet' : `; the indicated value is ${formatDollars(indicated)}`}.`,
    table: {
      caption: `${title}, in grid order`,
      columns: ['Comp', 'Adjusted sale price', 'Sale price', 'Weight'],
      rows: points.map((point, index) => ({
        id: point.id,
        cells: [point.label, formatDollars(columns[index]!.adjustedPrice), formatDollars(byId.get(point.id)?.priceDollars ?? 0), weightLabels[columns[index]!.weight]],
        citationIds: point.citationIds,
      })),
    },
    note: indicated === null ? 'No indicated value yet: enter it in the reconciliation.' : null,
  };
}
