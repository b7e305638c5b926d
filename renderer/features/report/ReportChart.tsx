// A chart of the report (the market's price trend, the comps' adjusted prices): its spec drawn by the
// one chart component, with the report's endnote numbers; on paper in light, as vector SVG with its table.
import { useMemo } from 'react';
import type { ChartSpec } from '../../../shared/charts/chart-spec.ts';
import { ChartFigure, type ChartCitations } from '../../components/charts/ChartFigure.tsx';
import { useColorScheme } from '../../platform/use-color-scheme.ts';
import type { ValueContext } from './ReportValues.tsx';

export function ReportChart({ spec, context }: { spec: ChartSpec; context: ValueContext }) {
  const scheme = useColorScheme();
  const citations: ChartCitations = useMemo(() => new Map([...context.index].map(([id, citation]) => [id, { citation, number: citation.number }])), [context.index]);
  const print = context.mode === 'print';
  return <ChartFigure spec={spec} citations={citations} scheme={print ? 'light' : scheme} print={print} width={print ? 600 : 640} height={print ? 260 : 300} />;
}
