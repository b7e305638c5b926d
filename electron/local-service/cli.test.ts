import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readServiceAnnouncement } from './announcement.ts';
import { formatLogLine, parseCliFlags } from './cli.ts';
import { CLI_PATH, launchLocalService } from './launch.ts';
import { childServiceKit } from './launch-test-kit.ts';

describe('service CLI flags', () => {
  it('defaults to a random port, 120 calls a minute, no faults, a memory state db and 4 MiB responses', () => {
    expect(parseCliFlags([])).toEqual({
      ok: true,
      options: { port: 0, rateLimitPerMinute: 120, faultRate: 0, dbPath: ':memory:', maxResponseBytes: 4 * 1024 * 1024, dialect: 'embedded', chargeHeader: 'honest' },
    });
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    expect(parseCliFlags(['--port', '8123', '--rate-limit=5', '--fault-rate', '0.25', '--db', '/tmp/s.db', '--max-response-bytes', '1000'])).toEqual({
      ok: true,
      options: { port: 8123, rateLimitPerMinute: 5, faultRate: 0.25, dbPath: '/tmp/s.db', maxResponseBytes: 1000, dialect: 'embedded', chargeHeader: 'honest' },
    });
  });

  it('reads the second service and the misreport flags', () => {
    expect(parseCliFlags(['--dialect', 'independent', '--charge-header=on-failure', '--invalid-body-every', '3', '--echo-authorization'])).toMatchObject({
      ok: true,
      options: { dialect: 'independent', chargeHeader: 'on-failure', invalidBodyEvery: 3, echoAuthorization: true },
    });
    const plain = parseCliFlags([]);
    expect(plain.ok === true && 'echoAuthorization' in plain.options).toBe(false);
  });

  it.each([
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--port', '12.5'], /--port/],
    [['--rate-limit', '0'], /--rate-limit/],
    [['--fault-rate', '1.5'], /--fault-rate must be a number from 0 to 1/],
    [['--fault-rate', 'lots'], /--fault-rate/],
    [['--max-response-bytes', '-1'], /max-response-bytes/],
    [['--db', ''], /--db/],
    [['--dialect', 'plat'], /--dialect must be one of embedded, independent/],
    [['--charge-header', 'lying'], /--charge-header must be one of honest, inflated, negative, garbage, on-failure/],
    [['--invalid-body-every', '0'], /--invalid-body-every must be a whole number from 1/],
    [['--colour'], /colour/],
    [['stray'], /stray/],
  ])('refuses %j', (argv, message) => {
    const parsed = parseCliFlags(argv);
    expect(parsed.ok).toBe(false);
    if (parsed.ok === false) expect(parsed.message).toMatch(message);
  });

  it('formats a log line with method, path, status, time and charge', () => {
    const line = formatLogLine({ method: 'GET', path: '/api/v4/catalog', status: 200, ms: 1.5, chargedMicroUsd: 0 }, new Date('2025-01-01T00:00:00Z'));
    expect(line).toBe('2025-01-01T00:00:00.000Z GET /api/v4/catalog 200 1.5ms charge=0');
  });
});

describe('service CLI process', () => {
  const kit = childServiceKit();

  it('prints one JSON line with url and keys, serves, logs without keys, and exits cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI_PATH, '--rate-limit', '7'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const announced = await readServiceAnnouncement(child.stdout, 15_000);
      expect(announced.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const key of Object.values(announced.keys)) expect(key).toMatch(/^svc_live_[0-9a-f]{32}$/);

      const health = await fetch(`${announced.url}/health`);
      expect(await health.json()).toEqual({ ok: true });
      const res = await fetch(`${announced.url}/api/v4/nowhere?owner=SMITH`, { headers: { Authorization: `Bearer ${announced.keys.active}` } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { contract_version: string }).contract_version).toBe('svc-v4');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exit).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/GET \/api\/v4\/nowhere 404 [\d.]+ms charge=0/);
    expect(stderr).not.toContain('svc_live_');
    expect(stderr).not.toContain('SMITH');
  });

  it('exits 2 with a message naming the bad flag', async () => {
    const child = spawn(process.execPath, [CLI_PATH, '--fault-rate', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--fault-rate must be a number from 0 to 1/);
    expect(stdout).toBe('');
  });

  it('launches in a child process, keeps the keys of a --db file across launches, and stops', async () => {
    const dir = kit.tempDir('plat-cli-test-');
    const dbPath = join(dir, 'state.db');
    const first = await launchLocalService({ dbPath });
    expect(first.pid).toBeGreaterThan(0);
    const health = await fetch(`${first.url}/health`);
    expect(health.status).toBe(200);
    await first.stop();
    await expect(fetch(`${first.url}/health`)).rejects.toThrow();

    const second = kit.track(await launchLocalService({ dbPath }));
    expect(second.keys).toEqual(first.keys);
  });

  it('runs the second service with --dialect independent and its misreport flags', async () => {
    const logs: string[] = [];
    const service = kit.track(await launchLocalService({ dialect: 'independent', chargeHeader: 'garbage', onLog: (line) => logs.push(line) }));
    const res = await fetch(`${service.url}/api/v4/catalog?source_id=dc_otr_sale`, { headers: { Authorization: `Bearer ${service.keys.active}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { items: Array<{ fields: Record<string, unknown> }> } };
    expect(body.data.items[0]?.fields['SALEPRICE']).toEqual({ data_type: 'money', label: 'Sale price' });
    expect(res.headers.get('X-Svc-Charged-Micro-USD')).toBe('about 20 cents');
    expect(logs.join('\n')).toMatch(/dialect independent.*MISREPORTING: charge header garbage/);
  });

  it('rejects with the reason when the child exits before announcing', async () => {
    await expect(launchLocalService({ faultRate: 3 })).rejects.toThrow(/failed to start.*\n?.*exit code 2[\s\S]*--fault-rate/);
  });
});
