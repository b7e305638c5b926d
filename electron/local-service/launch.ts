// Runs the local service (main.ts → cli.ts) in a child process and waits for its announcement line.
// node:sqlite is synchronous, so the service must never share a thread with a UI or IPC loop: the
// browser host and scripts start it here; Electron's main can too, by passing its own binary as
// execPath (ELECTRON_RUN_AS_NODE=1 makes it behave as Node).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readServiceAnnouncement } from './announcement.ts';
import type { ServiceAnnouncement } from './announcement.ts';
import type { Dialect } from './dialects/index.ts';
import type { ChargeHeaderMode } from './misreport.ts';

export const CLI_PATH = fileURLToPath(new URL('./main.ts', import.meta.url));
export const LAUNCH_TIMEOUT_MS = 15_000;
const STOP_GRACE_MS = 5_000;
// V8 grows the young generation to its maximum while the store builds its long-lived indexes, and
// keeps it: capped at 4 MB a half, the service is about 100 MB smaller once started. NODE_OPTIONS
// rather than an argument, so an Electron binary acting as Node reads it the same way.
export const YOUNG_GENERATION_CAP = '--max-semi-space-size=4';
// V8 trades a little speed for a smaller heap and less code kept: the service answers from indexes
// it built once, and about 30 MB less resident costs no measurable latency (`npm run bench`).
// An argument, not NODE_OPTIONS, which does not accept it.
export const SERVICE_V8_FLAGS: readonly string[] = ['--optimize-for-size'];
// glibc gives each thread that allocates at once an arena of its own, and V8's helper threads leave
// each holding freed memory: two arenas keep the service about 10 MB smaller. Other C libraries
// ignore it; a value already in the environment wins.
const SERVICE_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

export interface LaunchOptions {
  port?: number;
  rateLimitPerMinute?: number;
  faultRate?: number;
  /** State database path; the CLI's default is ':memory:'. */
  dbPath?: string;
  /** The sample database; the CLI's default is assets/ beside the source, which a bundle must be told. */
  sampleDbPath?: string;
  maxResponseBytes?: number;
  /** `--dialect`: `independent` runs the second service of the tests. */
  dialect?: Dialect;
  /** `--charge-header` (money tests only). */
  chargeHeader?: ChargeHeaderMode;
  /** `--invalid-body-every` (money tests only). */
  invalidBodyEvery?: number;
  /** `--echo-authorization` (secrets tests only). */
  echoAuthorization?: boolean;
  /** The runtime to run; default process.execPath (Node, or Electron's binary acting as Node). */
  execPath?: string;
  /** The service's script: default CLI_PATH (the source); `npm start` passes the built bundle. */
  entry?: string;
  /** The full argument list after the V8 flags; default [entry, ...flags from the options above]. */
  args?: string[];
  /** Extra environment; ELECTRON_RUN_AS_NODE=1 is always set, and NODE_OPTIONS gains the young-generation cap. */
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
  /** The child's stderr, line by line (request logs and notices; never keys). */
  onLog?: (line: string) => void;
}

export interface LaunchedService {
  url: string;
  keys: ServiceAnnouncement['keys'];
  pid: number;
  /** SIGTERM, then SIGKILL if the child has not exited within 5 s. Resolves once it has exited. */
  stop(): Promise<void>;
}

/** The CLI flags for the options given. */
export function cliArgs(options: LaunchOptions): string[] {
  const args = [options.entry ?? CLI_PATH];
  if (options.port !== undefined) args.push('--port', String(options.port));
  if (options.rateLimitPerMinute !== undefined) args.push('--rate-limit', String(options.rateLimitPerMinute));
  if (options.faultRate !== undefined) args.push('--fault-rate', String(options.faultRate));
  if (options.dbPath !== undefined) args.push('--db', options.dbPath);
  if (options.sampleDbPath !== undefined) args.push('--sample-db', options.sampleDbPath);
  if (options.maxResponseBytes !== undefined) args.push('--max-response-bytes', String(options.maxResponseBytes));
  if (options.dialect !== undefined) args.push('--dialect', options.dialect);
  if (options.chargeHeader !== undefined) args.push('--charge-header', options.chargeHeader);
  if (options.invalidBodyEvery !== undefined) args.push('--invalid-body-every', String(options.invalidBodyEvery));
  if (options.echoAuthorization === true) args.push('--echo-authorization');
  return args;
}

/** NODE_OPTIONS as given, with the young-generation cap added unless it already names a size. */
export function withYoungGenerationCap(nodeOptions: string | undefined): string {
  const given = nodeOptions?.trim() ?? '';
  if (given.includes('--max-semi-space-size')) return given;
  return given === '' ? YOUNG_GENERATION_CAP : `${given} ${YOUNG_GENERATION_CAP}`;
}

export async function launchLocalService(options: LaunchOptions = {}): Promise<LaunchedService> {
  const execPath = options.execPath ?? process.execPath;
  const child = spawn(execPath, [...SERVICE_V8_FLAGS, ...(options.args ?? cliArgs(options))], {
    env: {
      ...SERVICE_MALLOC_ENV,
      ...process.env,
      ...options.env,
      NODE_OPTIONS: withYoungGenerationCap(options.env?.['NODE_OPTIONS'] ?? process.env['NODE_OPTIONS']),
      ELECTRON_RUN_AS_NODE: '1',
    },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    // The IPC channel lets the CLI notice when this process dies and exit instead of lingering.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    windowsHide: true,
  });

  const { stdout, stderr } = child;
  if (stdout === null || stderr === null) throw new Error('local service: child stdio pipes missing');

  // stderr must always be drained, or a chatty child would block on a full pipe.
  const recentStderr: string[] = [];
  let partial = '';
  stderr.setEncoding('utf8');
  stderr.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      recentStderr.push(line);
      if (recentStderr.length > 20) recentStderr.shift();
      options.onLog?.(line);
    }
  });

  // A spawn failure (bad execPath) is reported through the start-up race below; later errors (a
  // failed kill) must not crash the parent.
  const spawnFailed = new Promise<never>((_, reject) => child.once('error', reject));
  child.on('error', () => {});

  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  let announcement: ServiceAnnouncement;
  try {
    announcement = await Promise.race([
      readServiceAnnouncement(stdout, options.timeoutMs ?? LAUNCH_TIMEOUT_MS),
      spawnFailed,
    ]);
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
    const reason = error instanceof Error ? error.message : String(error);
    const status = child.exitCode !== null ? ` (exit code ${child.exitCode})` : '';
    const tail = recentStderr.concat(partial === '' ? [] : [partial]).join('\n').trim();
    throw new Error(`local service failed to start: ${reason}${status}${tail === '' ? '' : `\n${tail}`}`, { cause: error });
  }
  stdout.resume();

  let stopping: Promise<void> | undefined;
  return {
    url: announcement.url,
    keys: announcement.keys,
    pid: child.pid ?? -1,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
