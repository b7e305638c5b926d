// `npm run bench`: prints speed and memory figures for each part that has targets. Numbers only, no pass/fail.
import { printLatencyTable, printMemoryTable, type LatencyFigures, type MemoryFigures } from './bench/measure.ts';
import { benchIpc } from './bench/ipc.bench.ts';
import { benchService } from './bench/service.bench.ts';
import { benchCore } from './bench/core.bench.ts';
import { benchUi } from './bench/ui.bench.ts';
import { benchReport } from './bench/report.bench.ts';
import { benchMap } from './bench/map.bench.ts';
import { benchGrid } from './bench/grid.bench.ts';
import { benchComparablesReport } from './bench/comparables-report.bench.ts';
import { benchGraph } from './bench/graph.bench.ts';
import { benchMemory } from './bench/memory.bench.ts';

const latency = (run: () => Promise<LatencyFigures[]>) => async () => printLatencyTable(await run());
const memory = (run: () => Promise<MemoryFigures[]>) => async () => printMemoryTable(await run());

const suites: Array<[string, () => Promise<void>]> = [
  ['Embedded service (own process, HTTP on loopback)', latency(benchService)],
  ['Core: proxied calls and the cache', latency(benchCore)],
  ['IPC and browser host', latency(benchIpc)],
  ['Renderer in headless Chromium', latency(benchUi)],
  ['Subject report: document build and PDF export', latency(benchReport)],
  ['Comparables map: first draw in headless Chromium', latency(benchMap)],
  ['Sales comparison grid and adjustment support', latency(benchGrid)],
  ['Comparables report: document build and PDF export', latency(benchComparablesReport)],
  ['Entity graph in headless Chromium', latency(benchGraph)],
  ['Memory: browser host and embedded service (resident)', memory(benchMemory)],
];

const only = process.argv[2];
for (const [title, run] of suites) {
  if (only && !title.toLowerCase().includes(only.toLowerCase())) continue;
  console.log(`\n== ${title}`);
  await run();
}
