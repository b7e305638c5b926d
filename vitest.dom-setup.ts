// Screen tests render charts synchronously, as a session does once the charts' library is in: it is
// loaded on demand in the app (renderer/components/charts/plot-loader.ts), here before every file.
import { loadPlotChart } from './renderer/components/charts/plot-loader.ts';

await loadPlotChart();
