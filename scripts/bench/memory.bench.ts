// Resident memory of the browser host and of the embedded service it launches, started as `npm start`
// starts them (package.json's command line; the renderer already built): after start, and after 1,000
// mixed calls on the host's bridge, the calls a user makes (catalog, property search, entity, owner
// search, relationships). Targets: host ≤ 150 MB, service ≤ 150 MB. PLAT_BENCH_SESSION_MINUTES=30
// adds a scripted session of that many minutes at a user's pace and reports its growth (target: none).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { spawnBrowserHost } from '../../electron/host/spawn-host.ts';
import { connectBridge } from '../../electron/host/bridge-client.ts';
import { openSampleStore } from '../../electron/local-service/sample-store.ts';
import { encodeSearchFilter } from '../../shared/service/index.ts';
import type { PlatApi } from '../../shared/ipc.ts';
import type { MemoryFigures } from './measure.ts';

const MIXED_CALLS = 1_000;
/** The session's pace: a busy user's clicks and their follow-up calls, not a load test. */
const SESSION_CALLS_PER_SECOND = 10;
const SESSION_SAMPLE_MS = 60_000;

/** `npm start`'s command after `node` (its Node flags and the script), from package.json. */
function npmStartCommand(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return scripts.start.split(/\s+/).slice(1);
}

/** Resident memory (MB) of `pid` and of its first child (the host's embedded service). */
function residentMb(pid: number): { hostMb: number; serviceMb: number } {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const host = rows.find(([p]) => p === pid);
  const service = rows.find(([, parent]) => parent === pid);
  return { hostMb: (host?.[2] ?? Number.NaN) / 1024, serviceMb: (service?.[2] ?? Number.NaN) / 1024 };
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

export async function benchMemory(): Promise<MemoryFigures[]> {
  const host = await spawnBrowserHost({ command: npmStartCommand(), args: ['--browser'] });
  const client = connectBridge(host);
  const pid = host.child.pid!;
  try {
    const call = mixedCalls(client.api);
    const rows: MemoryFigures[] = [{ name: 'after start', ...residentMb(pid), target: 'host ≤ 150, service ≤ 150' }];
    for (let n = 0; n < MIXED_CALLS; n++) await call();
    rows.push({ name: `after ${MIXED_CALLS.toLocaleString('en-US')} mixed calls`, ...residentMb(pid), target: 'host ≤ 150, service ≤ 150' });

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
  const samples: Array<{ hostMb: number; serviceMb: number }> = [];
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
    { name: `${label}: growth after the first minute`, hostMb: last.hostMb - first.hostMb, serviceMb: last.serviceMb - first.serviceMb, target: 'no growth' },
  ];
}
