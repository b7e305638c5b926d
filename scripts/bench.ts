// `npm run bench [-- SUITE] [-- --smoke]`: prints speed and memory figures for each part, each beside
// its target with pass or FAIL. `--smoke` is the quick pass `npm test` runs: every suite with a small
// n and no target judged, so a bench that no longer runs fails the tests instead of rotting unseen.
import { parseArgs } from 'node:util';
import { printLatencyTable, printMemoryTable, type BenchOptions, type LatencyFigures, type MemoryFigures, type Verdicts } from './bench/measure.ts';
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
import { benchMarket } from './bench/market.bench.ts';
import { benchChart } from './bench/chart.bench.ts';

type Suite = (options: BenchOptions) => Promise<Verdicts>;
const latency = (run: (options: BenchOptions) => Promise<LatencyFigures[]>): Suite => async (options) => printLatencyTable(await run(options), !options.smoke);
const memory = (run: (options: BenchOptions) => Promise<MemoryFigures[]>): Suite => async (options) => printMemoryTable(await run(options), !options.smoke);

const suites: Array<[string, Suite]> = [
  ['Embedded service (own process, HTTP on loopback)', latency(benchService)],
  ['Core: proxied calls and the cache', latency(benchCore)],
  ['IPC and browser host', latency(benchIpc)],
  ['Renderer in headless Chromium', latency(benchUi)],
  ['Subject report: document build and PDF export', latency(benchReport)],
  ['Comparables map: first draw in headless Chromium', latency(benchMap)],
  ['Sales comparison grid and adjustment support', latency(benchGrid)],
  ['Comparables report: document build and PDF export', latency(benchComparablesReport)],
  ['Entity graph in headless Chromium', latency(benchGraph)],
  ['Market conditions and the time trend over dated sales', latency(benchMarket)],
  ['Chart: first draw in headless Chromium', latency(benchChart)],
  ['Memory: the whole app (host, embedded service, printing browser; resident)', memory(benchMemory)],
];

const { values, positionals } = parseArgs({ options: { smoke: { type: 'boolean', default: false } }, allowPositionals: true });
const options: BenchOptions = { smoke: values.smoke };
const only = positionals[0];
const chosen = suites.filter(([title]) => !only || title.toLowerCase().includes(only.toLowerCase()));
if (chosen.length === 0) {
  console.error(`No suite matches "${only}"; the suites are:\n${suites.map(([title]) => `  ${title}`).join('\n')}`);
  process.exit(2);
}
const started = performance.now();
const verdicts: Verdicts = [];
for (const [title, run] of chosen) {
  const suiteStarted = performance.now();
  console.log(`\n== ${title}`);
  verdicts.push(...(await run(options)));
  if (options.smoke) console.log(`(smoke: ${((performance.now() - suiteStarted) / 1000).toFixed(1)} s)`);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (options.smoke) {
  console.log(`\nSmoke pass: ${chosen.length} suites ran and printed their rows in ${seconds} s (targets not judged).`);
} else {
  const missed = verdicts.filter(({ verdict }) => !verdict.met);
  console.log(`\nTargets met: ${verdicts.length - missed.length} of ${verdicts.length} (${seconds} s).`);
  for (const { name, verdict } of missed) console.log(`  FAIL  ${name}: ${verdict.text}`);
}
