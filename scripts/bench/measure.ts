// Timing helpers for `npm run bench`: latency percentiles and throughput at a given concurrency,
// and the targets each figure is judged against. Figures are printed beside their target with pass or
// FAIL, never asserted: speed targets live here, not in tests (a smoke run prints them unjudged).

/** How a suite runs: `smoke` is the quick pass inside `npm test` (small n, targets not judged). */
export interface BenchOptions {
  smoke: boolean;
}

/** A target as printed beside its figure, and whether the figure meets it. */
export interface Verdict {
  text: string;
  met: boolean;
}

/** Judges a row of figures against a target. */
export type Target<Row> = (row: Row) => Verdict;

const figure = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** p50 (or p99) at most `ms`. */
export function atMostMs(ms: number, which: 'p50' | 'p99' = 'p50'): Target<Omit<LatencyFigures, 'target'>> {
  return (row) => ({ text: `${which} ≤ ${figure(ms)} ms`, met: (which === 'p50' ? row.p50Ms : row.p99Ms) <= ms });
}

/** At least `rate` requests per second. */
export function atLeastPerSecond(rate: number): Target<Omit<LatencyFigures, 'target'>> {
  return (row) => ({ text: `≥ ${figure(rate)} req/s`, met: row.requestsPerSecond >= rate });
}

export interface LatencyFigures {
  name: string;
  concurrency: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  target?: Verdict;
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
  options: { concurrency?: number; elapsedS?: number | null; target?: Target<Omit<LatencyFigures, 'target'>> } = {},
): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const elapsedS = options.elapsedS === undefined ? sorted.reduce((sum, ms) => sum + ms, 0) / 1000 : options.elapsedS;
  const row = {
    name,
    concurrency: options.concurrency ?? 1,
    requests: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    requestsPerSecond: elapsedS === null ? Number.NaN : sorted.length / elapsedS,
  };
  return options.target ? { ...row, target: options.target(row) } : row;
}

/** Runs `task` `requests` times with `concurrency` in flight, after `warmup` untimed runs. */
export async function measureLatency(
  name: string,
  task: () => Promise<unknown>,
  options: { requests: number; concurrency: number; warmup?: number; target?: Target<Omit<LatencyFigures, 'target'>> },
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


/**
 * Resident memory of the app's processes at one point of a run, in MB: the host, its embedded
 * service, and (where measured) the printing browser and the whole app (every process of theirs).
 */
export interface MemoryFigures {
  name: string;
  hostMb: number;
  serviceMb: number;
  printerMb?: number;
  wholeAppMb?: number;
  target?: Verdict;
}

/** What a table's rows were judged: every target printed with pass or FAIL. */
export type Verdicts = Array<{ name: string; verdict: Verdict }>;

/** The target column: the target, and pass or FAIL unless this run does not judge (a smoke run). */
function targetCell(verdict: Verdict | undefined, judge: boolean): string {
  if (!verdict) return '';
  if (!judge) return `${verdict.text} (smoke: not judged)`;
  return `${verdict.text}  ${verdict.met ? 'pass' : 'FAIL'}`;
}

function verdictsOf(rows: Array<{ name: string; target?: Verdict }>): Verdicts {
  return rows.flatMap((row) => (row.target ? [{ name: row.name, verdict: row.target }] : []));
}

export function printLatencyTable(rows: LatencyFigures[], judge = true): Verdicts {
  printTable(
    ['case', 'conc', 'n', 'p50 ms', 'p99 ms', 'req/s', 'target'],
    rows.map((r) => [
      r.name,
      String(r.concurrency),
      String(r.requests),
      r.p50Ms.toFixed(3),
      r.p99Ms.toFixed(3),
      Number.isNaN(r.requestsPerSecond) ? '—' : r.requestsPerSecond.toFixed(0),
      targetCell(r.target, judge),
    ]),
  );
  return verdictsOf(rows);
}

export function printMemoryTable(rows: MemoryFigures[], judge = true): Verdicts {
  const mb = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(1));
  printTable(
    ['case', 'host MB', 'service MB', 'printer MB', 'whole app MB', 'target'],
    rows.map((r) => [r.name, mb(r.hostMb), mb(r.serviceMb), mb(r.printerMb), mb(r.wholeAppMb), targetCell(r.target, judge)]),
  );
  return verdictsOf(rows);
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
