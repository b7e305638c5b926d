// Entry point of the browser host: `node electron/host/host-main.ts [--port N] [--start-fresh]
// [--service-entry BUNDLE]` (`npm start` passes the service it built; otherwise it runs from source).
// Builds the same core Electron builds, starts the embedded service in a child process, serves the
// renderer build on 127.0.0.1 and prints the one address (with its token) that can use it.
// A second start on a data folder in use prints the running host's address (and opens it in the
// browser where the platform has an opener) and exits 0; a damaged or read-only database is
// explained in plain words and the host exits 1 (see docs/core-notes.md, "Data folder").
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { createAppCore, type AppCore } from '../core/app-core.ts';
import { alreadyRunningMessage, DataFolderInUseError, readDataFolderHolder, type DataFolderHolder } from '../core/data-folder-lock.ts';
import { DataFolderProblem } from '../core/database-check.ts';
import { MemoryKeyVault } from '../core/key-vault.ts';
import { fileIdentityStorage, InstallationIdentity, INSTALLATION_IDENTITY_FILE } from '../core/installation-identity.ts';
import { launchLocalService } from '../local-service/launch.ts';
import { startBrowserHost } from './browser-host.ts';
import { OnDemandChromiumPrinter } from './on-demand-printer.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// `npm start` runs this host with 1 MB semi-spaces and V8's --optimize-for-size (package.json): it
// only relays calls, and stays near 130 MB after 1,000 of them (`npm run bench -- memory`; about
// 140–156 MB without the size flag). The service's own settings are launch.ts's.

export async function runBrowserHost(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '0' },
      'renderer-dir': { type: 'string' },
      'service-entry': { type: 'string' },
      'start-fresh': { type: 'boolean', default: false },
    },
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
  let core: AppCore;
  // PDF exports print the page this host serves, so the printer exists once the host has its address.
  let printer: OnDemandChromiumPrinter | null = null;
  try {
    core = createAppCore({
      runtime: 'browser-host',
      appVersion: version,
      dataDir,
      // The browser host keeps the key in this process's memory only (or takes PLAT_API_KEY).
      keyVault: new MemoryKeyVault({ environmentKey: process.env.PLAT_API_KEY }),
      // No keychain here: the signing key is a file only this user can read (mode 0600).
      identity: new InstallationIdentity(fileIdentityStorage(path.join(dataDir, INSTALLATION_IDENTITY_FILE))),
      launchLocalService: ({ stateDbPath }) =>
        launchLocalService({
          dbPath: stateDbPath,
          // Said, not left to the service's default: a bundle cannot find assets/ from where it lies.
          sampleDbPath: path.join(root, 'assets', 'sample-data', 'sample.db'),
          ...(values['service-entry'] === undefined ? {} : { entry: values['service-entry'] }),
          ...(verbose ? { onLog: (line) => console.error(`[service] ${line}`) } : {}),
        }),
      // The host checks the launch token and Origin before anything reaches the dispatcher.
      isTrustedSender: (sender) => sender.runtime === 'browser-host',
      startFresh: values['start-fresh'],
      startFreshHint: 'start it with `npm start -- --start-fresh`',
      printer: () => printer,
    });
  } catch (error) {
    if (error instanceof DataFolderInUseError) {
      // Another Plat has this folder: point to it rather than start a second one on the same books.
      await pointToRunningPlat(error);
      process.exit(0);
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(error instanceof DataFolderProblem ? `Plat did not start.\n\n${message}` : `Plat did not start: ${message}`);
    process.exit(1);
  }
  for (const notice of core.notices) console.error(notice);
  const host = await startBrowserHost({ dispatch: core.dispatch, events: core.events, rendererDir, port });
  core.recordAddress(host.url);
  // PLAT_PRINTER_IDLE_MS: how long the printing browser stays after an export (60 s unless set; the bench shortens it).
  const idleCloseMs = Number(process.env.PLAT_PRINTER_IDLE_MS);
  printer = new OnDemandChromiumPrinter({ pageUrl: host.url, ...(Number.isInteger(idleCloseMs) && idleCloseMs > 0 ? { idleCloseMs } : {}) });

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await printer?.close();
    await host.close();
    await core.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());

  // The page shows the connection's state itself, so a live service that does not answer (its check
  // waits for the client's timeouts and retries) must not hold back the address for long.
  const settled = await Promise.race([
    core.ready.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), READY_WAIT_MS).unref()),
  ]);
  const connection = core.connection();
  if (connection.state === 'failed') console.error(connection.detail);
  if (!settled) console.error(`Still checking ${connection.label}; the page shows when it answers.`);
  console.log(`Plat is running. Open ${host.url}`);
}

/** How long the address waits for the first connection check before it is printed anyway. */
const READY_WAIT_MS = 10_000;

/** How long a second start waits for a Plat that is still starting to record its address. */
const ADDRESS_WAIT_MS = 20_000;

async function pointToRunningPlat(error: DataFolderInUseError): Promise<void> {
  let holder: DataFolderHolder | null = error.holder;
  // It holds the folder but is still starting (its embedded service, then its page): its address follows.
  const deadline = Date.now() + ADDRESS_WAIT_MS;
  while (holder?.runtime !== 'electron' && !holder?.url && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    holder = readDataFolderHolder(error.dataDir) ?? holder;
  }
  console.log(alreadyRunningMessage(error.dataDir, holder));
  if (holder?.url) openInBrowser(holder.url);
  else console.log('It is still starting; its address will be printed where it was started.');
}

/** Opens `url` in the person's browser where the platform has an opener; PLAT_OPEN_BROWSER=0 turns it off. */
function openInBrowser(url: string): void {
  if (process.env.PLAT_OPEN_BROWSER === '0') return;
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    // No opener (no desktop): the printed address is enough.
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // As above.
  }
}

if (import.meta.main) await runBrowserHost(process.argv.slice(2));
