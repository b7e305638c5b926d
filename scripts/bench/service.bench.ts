// The embedded service over real HTTP, in its own process as the app runs it: v4 search, v3 subject
// report and v2 traversal at concurrency 1 and 16. Targets (2-core machine): v4 search p50 ≤ 3 ms at
// concurrency 1 and ≥ 2,000 requests/s at concurrency 16.
import { Agent, request } from 'node:http';
import { launchLocalService } from '../../electron/local-service/launch.ts';
import { openSampleStore } from '../../electron/local-service/sample-store.ts';
import { encodeSearchFilter } from '../../shared/service/index.ts';
import { atLeastPerSecond, atMostMs, measureLatency, type BenchOptions, type LatencyFigures } from './measure.ts';

export async function benchService({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  const n = (full: number) => (smoke ? Math.max(10, full / 100) : full);
  const store = openSampleStore();
  const properties = store.searchProperties({ areaUid: 'area_us_dc', limit: 100 }).items;
  store.close();
  const owners = properties.map((p) => String(p.attributes.owner_name ?? '')).filter(Boolean);
  const service = await launchLocalService({ rateLimitPerMinute: 1_000_000 });
  const auth = { Authorization: `Bearer ${service.keys.active}` };
  // A plain keep-alive HTTP client: on two cores the load generator shares the machine with the
  // service, and fetch's own overhead would measure the client rather than the service.
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const { hostname, port } = new URL(service.url);
  const call = (method: 'GET' | 'POST', path: string, body?: string) =>
    new Promise<void>((resolve, reject) => {
      const headers: Record<string, string> = { ...auth };
      if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        headers['Content-Length'] = String(Buffer.byteLength(body));
      }
      const req = request({ host: hostname, port, method, path, headers, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path} answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  let i = 0;
  const next = <T>(list: T[]): T => list[i++ % list.length]!;

  const search = () => {
    const filter = encodeSearchFilter({ conditions: [{ field: 'owner', op: 'eq', value: next(owners) }] });
    return call('GET', `/api/v4/search?jurisdiction=11001&kind=ownership&limit=10&filter=${encodeURIComponent(filter)}`);
  };
  const subjectReport = () =>
    call('POST', '/api/v3/record-queries', JSON.stringify({ mode: 'report', projection: 'report_subject_v1', subject_property_ref: next(properties).entity_id }));
  const traversal = () => call('GET', `/api/v2/entities/${next(properties).entity_id}/relationships?depth=2`);

  try {
    const rows: LatencyFigures[] = [];
    for (const concurrency of [1, 16]) {
      rows.push(
        await measureLatency('service v4 search (owner)', search, {
          requests: n(3000),
          concurrency,
          warmup: n(200),
          target: concurrency === 1 ? atMostMs(3) : atLeastPerSecond(2_000),
        }),
      );
      rows.push(await measureLatency('service v3 subject report', subjectReport, { requests: n(1000), concurrency, warmup: n(100) }));
      rows.push(await measureLatency('service v2 traversal (depth 2)', traversal, { requests: n(1000), concurrency, warmup: n(100) }));
    }
    return rows;
  } finally {
    agent.destroy();
    await service.stop();
  }
}
