// Runs page-worker.ts on its own thread and returns its figures.
import { Worker } from 'node:worker_threads';
import type { LatencyFigures } from './measure.ts';
import type { PageWorkerInput } from './page-worker.ts';

export function measureFromPage(input: PageWorkerInput): Promise<LatencyFigures[]> {
  const worker = new Worker(new URL('./page-worker.ts', import.meta.url), { workerData: input });
  return new Promise((resolve, reject) => {
    worker.once('message', (figures: LatencyFigures[]) => {
      resolve(figures);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the page worker exited (${code})`)));
  });
}
