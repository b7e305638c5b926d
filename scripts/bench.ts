// `npm run bench`: prints speed figures for each part that has targets. Numbers only, no pass/fail.
import { printLatencyTable, type LatencyFigures } from './bench/measure.ts';
import { benchIpc } from './bench/ipc.bench.ts';
import { benchService } from './bench/service.bench.ts';
import { benchCore } from './bench/core.bench.ts';
import { benchUi } from './bench/ui.bench.ts';
import { benchReport } from './bench/report.bench.ts';
import { benchMap } from './bench/map.bench.ts';
import { benchGrid } from './bench/grid.bench.ts';
import { benchComparablesReport } from './bench/comparables-report.bench.ts';
import { benchGraph } from './bench/graph.bench.ts';

const suites: Array<[string, () => Promise<LatencyFigures[]>]> = [
  ['Embedded service (own process, HTTP on loopback)', benchService],
  ['Core: proxied calls and the cache', benchCore],
  ['IPC and browser host', benchIpc],
  ['Renderer in headless Chromium', benchUi],
  ['Subject report: document build and PDF export', benchReport],
  ['Comparables map: first draw in headless Chromium', benchMap],
  ['Sales comparison grid and adjustment support', benchGrid],
  ['Comparables report: document build and PDF export', benchComparablesReport],
  ['Entity graph in headless Chromium', benchGraph],
];

const only = process.argv[2];
for (const [title, run] of suites) {
  if (only && !title.toLowerCase().includes(only.toLowerCase())) continue;
  console.log(`\n== ${title}`);
  printLatencyTable(await run());
}
