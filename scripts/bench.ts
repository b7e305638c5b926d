// `npm run bench`: prints speed figures for each part that has targets. Numbers only, no pass/fail.
import { printLatencyTable, type LatencyFigures } from './bench/measure.ts';
import { benchIpc } from './bench/ipc.bench.ts';

const suites: Array<[string, () => Promise<LatencyFigures[]>]> = [['IPC and browser host', benchIpc]];

for (const [title, run] of suites) {
  console.log(`\n== ${title}`);
  printLatencyTable(await run());
}
