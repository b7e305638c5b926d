// The "page" side of the core and IPC benchmarks, on its own thread as a real page is in its own
// process: its client work (building requests, parsing answers) must not queue behind the host's.
// The cases take turns in blocks of BLOCK calls, so a slow spell of this shared machine falls on all
// of them alike rather than on whichever case happened to be running, while each call still follows
// one of its own kind (as a page's calls do); the figures go back to the caller.
import { parentPort, workerData } from 'node:worker_threads';
import { connectBridge } from '../../electron/host/bridge-client.ts';
import { latencyFigures, type LatencyFigures } from './measure.ts';

export type PageCase =
  | { name: string; kind: 'fetch'; url: string; headers: Record<string, string> }
  | { name: string; kind: 'bridge'; operation: string; payload: unknown };

export interface PageWorkerInput {
  host: { origin: string; token: string };
  cases: PageCase[];
  /** Timed calls per case, after `warmup` untimed ones. */
  requests: number;
  warmup?: number;
}

const BLOCK = 100;
const { host, cases, requests, warmup = 100 } = workerData as PageWorkerInput;
const bridge = connectBridge(host);
const api = bridge.api as unknown as Record<string, (payload: unknown) => Promise<{ ok: boolean }>>;
const tasks = cases.map((item) =>
  item.kind === 'fetch'
    ? async () => (await fetch(item.url, { headers: item.headers })).json()
    : async () => {
        const result = await api[item.operation]!(item.payload);
        if (!result.ok) throw new Error(`${item.operation} failed: ${JSON.stringify(result)}`);
      },
);
for (let i = 0; i < warmup; i++) for (const task of tasks) await task();
const samples = cases.map(() => [] as number[]);
for (let done = 0; done < requests; done += BLOCK) {
  for (const [index, task] of tasks.entries()) {
    for (let i = done; i < Math.min(requests, done + BLOCK); i++) {
      const started = performance.now();
      await task();
      samples[index]!.push(performance.now() - started);
    }
  }
}
bridge.close();
// Targets are judged by the caller: functions do not cross to this thread.
const figures: LatencyFigures[] = cases.map((item, index) => latencyFigures(item.name, samples[index]!));
parentPort?.postMessage(figures);
