// Timing helpers for `npm run bench`: latency percentiles and throughput at a given concurrency.
// Figures are printed, never asserted: speed targets live here, not in tests.

export interface LatencyFigures {
  name: string;
  concurrency: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  target?: string;
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)] ?? Number.NaN;
}

/**
 * Figures from timed samples. `elapsedS`: the wall time they took together (with concurrency above 1
 * it is less than their sum); default their sum; null where a rate means nothing (screen frames).
 */
export function latencyFigures(
  name: string,
  samples: number[],
  options: { concurrency?: number; elapsedS?: number | null; target?: string } = {},
): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const elapsedS = options.elapsedS === undefined ? sorted.reduce((sum, ms) => sum + ms, 0) / 1000 : options.elapsedS;
  return {
    name,
    concurrency: options.concurrency ?? 1,
    requests: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    requestsPerSecond: elapsedS === null ? Number.NaN : sorted.length / elapsedS,
    ...(options.target ? { target: options.target } : {}),
  };
}

/** Runs `task` `requests` times with `concurrency` in flight, after `warmup` untimed runs. */
export async function measureLatency(
  name: string,
  task: () => Promise<unknown>,
  options: { requests: number; concurrency: number; warmup?: number; target?: string },
): Promise<LatencyFigures> {
  for (let i = 0; i < (options.warmup ?? 50); i++) await task();
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < options.requests) {
      next++;
      const t0 = performance.now();
      await task();
      samples.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsedS = (performance.now() - started) / 1000;
  return latencyFigures(name, samples, { concurrency: options.concurrency, elapsedS, ...(options.target ? { target: options.target } : {}) });
}


/** Resident memory of the app's processes at one point of a run, in MB. */
export interface MemoryFigures {
  name: string;
  hostMb: number;
  serviceMb: number;
  target?: string;
}

export function printLatencyTable(rows: LatencyFigures[]): void {
  printTable(
    ['case', 'conc', 'n', 'p50 ms', 'p99 ms', 'req/s', 'target'],
    rows.map((r) => [
      r.name,
      String(r.concurrency),
      String(r.requests),
      r.p50Ms.toFixed(3),
      r.p99Ms.toFixed(3),
      Number.isNaN(r.requestsPerSecond) ? '—' : r.requestsPerSecond.toFixed(0),
      r.target ?? '',
    ]),
  );
}

export function printMemoryTable(rows: MemoryFigures[]): void {
  printTable(
    ['case', 'host MB', 'service MB', 'target'],
    rows.map((r) => [r.name, r.hostMb.toFixed(1), r.serviceMb.toFixed(1), r.target ?? '']),
  );
}

/** A plain-text table: the first and last columns (names and targets) left-aligned, figures right-aligned. */
function printTable(header: string[], body: string[][]): void {
  const last = header.length - 1;
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === last ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
}
