// The "page" side of the core and IPC benchmarks, on its own thread as a real page is in its own
// process: its client work (building requests, parsing answers) must not queue behind the host's.
// Runs each case it is given and posts the figures back.
import { parentPort, workerData } from 'node:worker_threads';
import { connectBridge } from '../../electron/host/bridge-client.ts';
import { measureLatency, type LatencyFigures } from './measure.ts';

export type PageCase =
  | { name: string; kind: 'fetch'; url: string; headers: Record<string, string>; requests: number; target?: string }
  | { name: string; kind: 'bridge'; operation: string; payload: unknown; requests: number; target?: string };

export interface PageWorkerInput {
  host: { origin: string; token: string };
  cases: PageCase[];
}

const { host, cases } = workerData as PageWorkerInput;
const bridge = connectBridge(host);
const api = bridge.api as unknown as Record<string, (payload: unknown) => Promise<{ ok: boolean }>>;
const results: LatencyFigures[] = [];
for (const item of cases) {
  const task =
    item.kind === 'fetch'
      ? async () => (await fetch(item.url, { headers: item.headers })).json()
      : async () => {
          const result = await api[item.operation]!(item.payload);
          if (!result.ok) throw new Error(`${item.operation} failed: ${JSON.stringify(result)}`);
        };
  results.push(await measureLatency(item.name, task, { requests: item.requests, concurrency: 1, warmup: 100, ...(item.target ? { target: item.target } : {}) }));
}
bridge.close();
parentPort?.postMessage(results);
