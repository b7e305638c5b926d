// Entry point of the browser host: `node electron/host/host-main.ts [--port N]`.
// Builds the same core Electron builds, starts the embedded service in a child process, serves the
// renderer build on 127.0.0.1 and prints the one address (with its token) that can use it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { createAppCore } from '../core/app-core.ts';
import { MemoryKeyVault } from '../core/key-vault.ts';
import { launchLocalService } from '../local-service/launch.ts';
import { startBrowserHost } from './browser-host.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function runBrowserHost(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string', default: '0' }, 'renderer-dir': { type: 'string' } },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535 (got "${values.port}")`);
    process.exit(2);
  }
  const rendererDir = values['renderer-dir'] ?? process.env.PLAT_RENDERER_DIR ?? path.join(root, 'dist', 'renderer');
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

  const dataDir = process.env.PLAT_DATA_DIR ?? path.join(process.env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share'), 'plat');
  const verbose = process.env.PLAT_VERBOSE === '1';
  const core = createAppCore({
    runtime: 'browser-host',
    appVersion: version,
    dataDir,
    // The browser host keeps the key in this process's memory only (or takes PLAT_API_KEY).
    keyVault: new MemoryKeyVault({ environmentKey: process.env.PLAT_API_KEY }),
    launchLocalService: ({ stateDbPath }) =>
      launchLocalService({ dbPath: stateDbPath, ...(verbose ? { onLog: (line) => console.error(`[service] ${line}`) } : {}) }),
    // The host checks the launch token and Origin before anything reaches the dispatcher.
    isTrustedSender: (sender) => sender.runtime === 'browser-host',
  });
  const host = await startBrowserHost({ dispatch: core.dispatch, events: core.events, rendererDir, port });

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await host.close();
    await core.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());

  await core.ready;
  const connection = core.connection();
  if (connection.state === 'failed') console.error(connection.detail);
  console.log(`Plat is running. Open ${host.url}`);
}

if (import.meta.main) await runBrowserHost(process.argv.slice(2));
