// Screen tests render charts synchronously, as a session does once the charts' library is in: it is
// loaded on demand in the app (renderer/components/charts/plot-loader.ts), here before every file.
// Each test starts from a page that has drawn no report picture yet (report-image.ts keeps them).
import { beforeEach } from 'vitest';
import { loadPlotChart } from './renderer/components/charts/plot-loader.ts';
import { forgetDrawnPictures } from './renderer/features/report/report-image.ts';

await loadPlotChart();
beforeEach(() => forgetDrawnPictures());
