// The charting library (Observable Plot, with the d3 modules it brings) is loaded when a chart is first
// drawn, not with the app: most sessions open no chart, and the first screen is usable sooner without
// it. The print route loads it before it shows a report, so a printed chart is never missing.
import { useEffect, useState } from 'react';
import type * as PlotChartModule from './plot-chart.ts';

type PlotChart = typeof PlotChartModule;

let loaded: PlotChart | null = null;
let loading: Promise<PlotChart> | null = null;

/** Loads the chart drawing module once; later calls share the load. */
export function loadPlotChart(): Promise<PlotChart> {
  loading ??= import('./plot-chart.ts').then((module) => (loaded = module));
  return loading;
}

/** The chart drawing module once loaded (null until then); starts the load. */
export function usePlotChart(): PlotChart | null {
  const [module, setModule] = useState<PlotChart | null>(loaded);
  useEffect(() => {
    if (module !== null) return;
    let current = true;
    void loadPlotChart().then((ready) => {
      if (current) setModule(ready);
    });
    return () => {
      current = false;
    };
  }, [module]);
  return module;
}
