// The comps' charts under the grid, side by side where the window is wide: their adjusted prices with
// the indicated value, and sale price against size with the chosen comps drawn apart. The same chart
// specs the report prints (shared/charts/), each with its table.
import { useMemo } from 'react';
import type { ComparablesAnalysis, ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { priceSizeChart } from '../../../shared/charts/price-size-chart.ts';
import { ChartFigure } from '../../components/charts/ChartFigure.tsx';
import { useColorScheme } from '../../platform/use-color-scheme.ts';
import { AdjustedPricesChart } from './AdjustedPricesChart.tsx';
import type { CitationIndex } from './CitedCell.tsx';

export function PriceSizeChart({ analysis, workfile, index }: { analysis: ComparablesAnalysis; workfile: ComparablesWorkfile; index: CitationIndex }) {
  const scheme = useColorScheme();
  const spec = useMemo(() => priceSizeChart(analysis, workfile), [analysis, workfile]);
  if (!spec) return null;
  return (
    <section className="comps-section" aria-label={spec.title}>
      <ChartFigure spec={spec} citations={index} scheme={scheme} />
    </section>
  );
}

export function ComparablesCharts(props: { analysis: ComparablesAnalysis; workfile: ComparablesWorkfile; index: CitationIndex }) {
  return (
    <div className="comps-charts">
      <AdjustedPricesChart {...props} />
      <PriceSizeChart {...props} />
    </div>
  );
}
