// A browser host with its Chromium printer and a typed way to call the core: what the report
// benches (and scripts that want to look at a PDF) export through, as the Report view does.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppCore } from '../../electron/core/app-core.ts';
import { MemoryKeyVault } from '../../electron/core/key-vault.ts';
import { InstallationIdentity, memoryIdentityStorage } from '../../electron/core/installation-identity.ts';
import { ChromiumPrinter } from '../../electron/core/reports/chromium-printer.ts';
import { launchLocalService } from '../../electron/local-service/launch.ts';
import { startBrowserHost } from '../../electron/host/browser-host.ts';
import type { IpcResult } from '../../shared/ipc.ts';
import type { ReportDocument } from '../../shared/report/document.ts';

// PLAT_RENDERER_DIR, as for the host itself: another build than dist/renderer.
export const rendererDir = process.env.PLAT_RENDERER_DIR ?? fileURLToPath(new URL('../../dist/renderer', import.meta.url));

export type CoreCall = <T>(operation: string, payload: unknown) => Promise<T>;

function valueOf<T>(result: IpcResult<unknown>, what: string): T {
  if (!result.ok) throw new Error(`${what} failed: ${result.error.message}`);
  return result.value as T;
}

/** A browser host with its printer, for as long as `use` runs. */
export async function withPrintingHost<T>(use: (call: CoreCall) => Promise<T>): Promise<T> {
  let printer: ChromiumPrinter | null = null;
  const core = createAppCore({
    runtime: 'browser-host',
    appVersion: 'bench',
    dataDir: mkdtempSync(path.join(tmpdir(), 'plat-bench-report-')),
    keyVault: new MemoryKeyVault(),
    // Exports are signed, as in the app.
    identity: new InstallationIdentity(memoryIdentityStorage()),
    launchLocalService: ({ stateDbPath }) => launchLocalService({ dbPath: stateDbPath, rateLimitPerMinute: 1_000_000 }),
    isTrustedSender: () => true,
    printer: () => printer,
  });
  await core.ready;
  const host = await startBrowserHost({ dispatch: core.dispatch, events: core.events, rendererDir });
  printer = new ChromiumPrinter({ pageUrl: host.url });
  const sender = { runtime: 'browser-host' as const, url: host.origin, isMainFrame: true };
  const call: CoreCall = (operation, payload) => core.dispatch(operation, payload, sender).then((result) => valueOf(result, operation));
  try {
    return await use(call);
  } finally {
    await printer.close();
    await host.close();
    await core.close();
  }
}


/** Buys what the assignment's report still needs, as the Report view's "buy" button does. */
export async function buyReportSources(call: CoreCall, assignmentId: string): Promise<void> {
  const before = await call<ReportDocument>('getSubjectReport', { assignmentId });
  for (const missing of before.missing) await call(missing.ipcOperation, { ...missing.request, confirmed: true });
}
