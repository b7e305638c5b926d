// Resident memory of the whole app, started as `npm start` starts it (package.json's command line; the
// renderer already built), read from /proc (process-memory.ts): the browser host, its embedded service
// and the printing browser, each with its whole process group. After start, after 1,000 mixed calls
// on the host's bridge (the calls a user makes: catalog, property search, entity, owner search,
// relationships), right after a comps PDF export, and 60 s later (the printer closes after 60 s idle).
// Targets: host ≤ 150 MB and service ≤ 150 MB after the calls; the whole app ≤ 350 MB after the export
// and ≤ 300 MB 60 s later. PLAT_BENCH_SESSION_MINUTES=30 adds a scripted session of that many minutes
// at a user's pace and reports its growth (target: none). A smoke pass makes 20 calls and shortens
// the printer's idle minute to 1 s.
import { readFileSync } from 'node:fs';
import { spawnBrowserHost } from '../../electron/host/spawn-host.ts';
import { connectBridge } from '../../electron/host/bridge-client.ts';
import { openSampleStore } from '../../electron/local-service/sample-store.ts';
import { PRINTER_IDLE_CLOSE_MS } from '../../electron/core/reports/chromium-printer.ts';
import { encodeSearchFilter } from '../../shared/service/index.ts';
import type { IpcResult, PlatApi } from '../../shared/ipc.ts';
import type { BenchOptions, MemoryFigures, Verdict } from './measure.ts';
import { appMemory, readProcesses } from './process-memory.ts';
import { seedComparablesAssignment } from './comparables-report.bench.ts';
import type { CoreCall } from './printing-host.ts';

const MIXED_CALLS = 1_000;
const SMOKE_IDLE_CLOSE_MS = 1_000;
/** Time for the closed browser's processes to exit before "60 s later" is read. */
const EXIT_GRACE_MS = 2_000;
/** The session's pace: a busy user's clicks and their follow-up calls, not a load test. */
const SESSION_CALLS_PER_SECOND = 10;
const SESSION_SAMPLE_MS = 60_000;

/** `npm start`'s command after `node` (its Node flags and the script), from package.json. */
function npmStartCommand(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return scripts.start.split(/\s+/).slice(1);
}

/** Resident memory (MB) of the app whose host is `pid`: host, service, printing browser and their sum. */
function residentMb(pid: number): Omit<MemoryFigures, 'name' | 'target'> {
  const { hostMb, serviceMb, printerMb, wholeAppMb } = appMemory(readProcesses(), pid);
  return { hostMb, serviceMb, printerMb, wholeAppMb };
}

const partsTarget = (row: Omit<MemoryFigures, 'name' | 'target'>): Verdict => ({ text: 'host ≤ 150, service ≤ 150', met: row.hostMb <= 150 && row.serviceMb <= 150 });
const wholeAppTarget = (mb: number) => (row: Omit<MemoryFigures, 'name' | 'target'>): Verdict => ({ text: `whole app ≤ ${mb}`, met: (row.wholeAppMb ?? Number.POSITIVE_INFINITY) <= mb });

/** The core's operations over the bridge, as the report benches call them in-process. */
function bridgeCall(api: PlatApi): CoreCall {
  const operations = api as unknown as Record<string, (payload: unknown) => Promise<IpcResult<unknown>>>;
  return async <T>(operation: string, payload: unknown) => {
    const result = await operations[operation]!(payload);
    if (!result.ok) throw new Error(`${operation} failed: ${result.error.message}`);
    return result.value as T;
  };
}

/** One call after another from a fixed mix; every fourth skips the cache, as a user's refresh would. */
function mixedCalls(api: PlatApi): () => Promise<void> {
  const store = openSampleStore();
  const sample = store.searchProperties({ areaUid: 'area_us_dc', limit: 100 }).items;
  store.close();
  const properties = sample.map((p) => p.entity_id);
  const owners = sample.map((p) => String(p.attributes.owner_name ?? '')).filter(Boolean);
  let i = 0;
  const failed = (result: { ok: boolean }, what: string) => {
    if (!result.ok) throw new Error(`${what} failed: ${JSON.stringify(result)}`);
  };
  return async () => {
    const n = i++;
    const refresh = n % 4 === 0;
    const property = properties[n % properties.length]!;
    const owner = owners[n % owners.length]!;
    switch (n % 5) {
      case 0:
        return failed(await api.getSourceCatalog({ request: { query: { jurisdiction: '11001' } }, refresh }), 'catalog');
      case 1:
        return failed(
          await api.searchProperties({
            request: { body: { area_uid: 'area_us_dc', filters: [{ field: 'owner_name', op: 'contains', value: owner.slice(0, 6) }], limit: 5, projection: 'identity_summary' } },
            refresh,
          }),
          'property search',
        );
      case 2:
        return failed(await api.getEntity({ request: { path: { entity_ref: property } }, refresh }), 'entity');
      case 3: {
        const filter = encodeSearchFilter({ conditions: [{ field: 'owner', op: 'eq', value: owner }] });
        return failed(await api.searchRecords({ request: { query: { jurisdiction: '11001', kind: 'ownership', filter, limit: 10 } }, refresh }), 'owner search');
      }
      default:
        return failed(await api.traverseRelationships({ request: { path: { entity_ref: property }, query: { depth: 2 } }, refresh }), 'relationships');
    }
  };
}

export async function benchMemory({ smoke }: BenchOptions): Promise<MemoryFigures[]> {
  const idleCloseMs = smoke ? SMOKE_IDLE_CLOSE_MS : PRINTER_IDLE_CLOSE_MS;
  const host = await spawnBrowserHost({ command: npmStartCommand(), args: ['--browser'], env: { PLAT_PRINTER_IDLE_MS: String(idleCloseMs) } });
  const client = connectBridge(host);
  const pid = host.child.pid!;
  const row = (name: string, target?: (figures: Omit<MemoryFigures, 'name' | 'target'>) => Verdict): MemoryFigures => {
    const figures = residentMb(pid);
    return { name, ...figures, ...(target ? { target: target(figures) } : {}) };
  };
  try {
    const call = mixedCalls(client.api);
    const rows: MemoryFigures[] = [row('after start', partsTarget)];
    const calls = smoke ? 20 : MIXED_CALLS;
    for (let n = 0; n < calls; n++) await call();
    rows.push(row(`after ${calls.toLocaleString('en-US')} mixed calls`, partsTarget));

    // A comps report exported as the Report view exports it: the printing browser opens for it.
    const core = bridgeCall(client.api);
    const { assignmentId } = await seedComparablesAssignment(core, 'Memory bench comparables');
    await core('exportReportPdf', { assignmentId });
    rows.push(row('right after a comps PDF export', wholeAppTarget(350)));
    await new Promise((resolve) => setTimeout(resolve, idleCloseMs + EXIT_GRACE_MS));
    rows.push(row(`${idleCloseMs / 1000} s after the export (+${EXIT_GRACE_MS / 1000} s for the browser to exit)`, wholeAppTarget(300)));

    const minutes = Number(process.env.PLAT_BENCH_SESSION_MINUTES ?? 0);
    if (minutes > 0) rows.push(...(await session(call, pid, minutes)));
    return rows;
  } finally {
    client.close();
    host.child.kill('SIGTERM');
  }
}

/** The mix at a user's pace for `minutes`: memory each minute, then the growth from its first minute to its end. */
async function session(call: () => Promise<void>, pid: number, minutes: number): Promise<MemoryFigures[]> {
  const started = Date.now();
  const ends = started + minutes * 60_000;
  const samples: Array<Omit<MemoryFigures, 'name' | 'target'>> = [];
  let nextSample = started + SESSION_SAMPLE_MS;
  let calls = 0;
  while (Date.now() < ends) {
    const due = started + (calls * 1000) / SESSION_CALLS_PER_SECOND;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    await call();
    calls++;
    if (Date.now() >= nextSample) {
      samples.push(residentMb(pid));
      nextSample += SESSION_SAMPLE_MS;
    }
  }
  samples.push(residentMb(pid));
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const peak = { hostMb: Math.max(...samples.map((s) => s.hostMb)), serviceMb: Math.max(...samples.map((s) => s.serviceMb)) };
  const label = `${minutes}-minute session, ${calls.toLocaleString('en-US')} calls`;
  return [
    { name: `${label}: after its first minute`, ...first },
    { name: `${label}: at its end`, ...last },
    { name: `${label}: peak`, ...peak },
    {
      name: `${label}: growth after the first minute`,
      hostMb: last.hostMb - first.hostMb,
      serviceMb: last.serviceMb - first.serviceMb,
      target: { text: 'no growth', met: last.hostMb <= first.hostMb && last.serviceMb <= first.serviceMb },
    },
  ];
}
