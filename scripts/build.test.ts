import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchLocalService, type LaunchedService } from '../electron/local-service/launch.ts';
import { childServiceKit } from '../electron/local-service/launch-test-kit.ts';
import { bundleLocalService } from './build.ts';

const sampleDb = fileURLToPath(new URL('../assets/sample-data/sample.db', import.meta.url));

describe('the bundled embedded service (what `npm start` runs)', () => {
  const kit = childServiceKit();

  async function bundled(sampleDbPath?: string) {
    const dir = kit.tempDir('plat-service-bundle-');
    const entry = path.join(dir, 'local-service.cjs');
    await bundleLocalService(entry);
    // Started from a folder with no assets/, so only the path it is given can find the sample.
    return kit.track(await launchLocalService({ entry, cwd: dir, ...(sampleDbPath === undefined ? {} : { sampleDbPath }) }));
  }

  async function catalogStatus(service: LaunchedService): Promise<{ status: number; sources: number; code?: string }> {
    const response = await fetch(`${service.url}/api/v4/catalog?jurisdiction=11001`, { headers: { Authorization: `Bearer ${service.keys.active}` } });
    const body = (await response.json()) as { data?: { items?: unknown[] }; error?: { code?: string } };
    return { status: response.status, sources: body.data?.items?.length ?? 0, ...(body.error?.code === undefined ? {} : { code: body.error.code }) };
  }

  it('answers from the sample database it is told of, wherever it runs', async () => {
    const answer = await catalogStatus(await bundled(sampleDb));
    expect(answer.status).toBe(200);
    expect(answer.sources).toBeGreaterThan(0);
  }, 60_000);

  it('without the path, a bundle cannot find the sample and says so rather than failing to start', async () => {
    expect(await catalogStatus(await bundled())).toMatchObject({ status: 503, code: 'sample_data_unavailable' });
  }, 60_000);
});
