// The comps' adjusted prices beside the indicated value, under the grid: the same chart spec the
// report prints (shared/charts/comparables-charts.ts), with its table.
import { useMemo } from 'react';
import type { ComparablesAnalysis, ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { adjustedPricesChart } from '../../../shared/charts/comparables-charts.ts';
import { ChartFigure } from '../../components/charts/ChartFigure.tsx';
import { useColorScheme } from '../../platform/use-color-scheme.ts';
import type { CitationIndex } from './CitedCell.tsx';

export function AdjustedPricesChart({ analysis, workfile, index }: { analysis: ComparablesAnalysis; workfile: ComparablesWorkfile; index: CitationIndex }) {
  const scheme = useColorScheme();
  const spec = useMemo(() => adjustedPricesChart(analysis, workfile), [analysis, workfile]);
  if (!spec) return null;
  return (
    <section className="comps-section" aria-label={spec.title}>
      <ChartFigure spec={spec} citations={index} scheme={scheme} height={Math.max(160, 40 * spec.points.length + 60)} />
    </section>
  );
}
