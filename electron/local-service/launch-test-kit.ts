// What tests that run the service in a child process share: each service and temporary folder a test
// makes is stopped and removed after it, even when the test fails half way.
import { afterEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LaunchedService } from './launch.ts';

export interface ChildServiceKit {
  /** Stops `service` after the test; returns it. */
  track(service: LaunchedService): LaunchedService;
  /** A new empty folder, removed after the test. */
  tempDir(prefix: string): string;
}

export function childServiceKit(): ChildServiceKit {
  const launched: LaunchedService[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(launched.splice(0).map((service) => service.stop()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    track(service) {
      launched.push(service);
      return service;
    },
    tempDir(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
  };
}
