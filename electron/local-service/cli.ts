// `npm run service -- [--port N] [--rate-limit N] [--fault-rate P] [--db PATH] [--sample-db PATH] [--max-response-bytes N]
//   [--dialect embedded|independent] [--charge-header honest|inflated|negative|garbage|on-failure] [--invalid-body-every N]
//   [--echo-authorization]`
// Starts the local Property Records Service, prints one JSON line on stdout
// ({"url":...,"keys":{...}}) for whoever launched it, then serves until SIGTERM or SIGINT.
// Request logs go to stderr: method, path, status, time and charge; never a header, a key or a query.
import { parseArgs } from 'node:util';
import type { LocalOperation } from './operation.ts';
import { ServiceFailure } from './operation.ts';
import { openSampleStore, type SampleStore } from './sample-store.ts';
import { localOperations } from './operations/index.ts';
import { createLocalService, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_RATE_LIMIT_PER_MINUTE } from './server.ts';
import type { LocalService, RequestLogEntry } from './server.ts';
import { applyDialect, DIALECTS } from './dialects/index.ts';
import type { Dialect } from './dialects/index.ts';
import { CHARGE_HEADER_MODES } from './misreport.ts';
import type { ChargeHeaderMode } from './misreport.ts';

export const USAGE =
  'usage: npm run service -- [--port N] [--rate-limit N] [--fault-rate P] [--db PATH] [--sample-db PATH] [--max-response-bytes N]' +
  ' [--dialect embedded|independent] [--charge-header honest|inflated|negative|garbage|on-failure] [--invalid-body-every N]' +
  ' [--echo-authorization]';

export interface CliOptions {
  port: number;
  rateLimitPerMinute: number;
  faultRate: number;
  /** State database; ':memory:' (the default) forgets accounts and keys when the process ends. */
  dbPath: string;
  /** The sample data (assets/sample-data/sample.db by default; the packaged app passes its resources copy). */
  sampleDbPath?: string;
  maxResponseBytes: number;
  /** `embedded` (Plat's own answers) or `independent` (the second service of the tests: dialects/). */
  dialect: Dialect;
  /** Money tests only: what the charge header claims (misreport.ts). */
  chargeHeader: ChargeHeaderMode;
  /** Money tests only: every Nth charged call answers a body that breaks the contract. */
  invalidBodyEvery?: number;
  /** Secrets tests only: every answer quotes the request's Authorization header (misreport.ts). */
  echoAuthorization?: true;
}

export type CliParse = { ok: true; options: CliOptions } | { ok: false; message: string } | { ok: 'help' };

const WHOLE = /^\d{1,15}$/;
const SHARE = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/;

/** Reads the command line; every malformed flag gets a message naming it and the rule. */
export function parseCliFlags(argv: readonly string[]): CliParse {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        'rate-limit': { type: 'string' },
        'fault-rate': { type: 'string' },
        db: { type: 'string' },
        'sample-db': { type: 'string' },
        'max-response-bytes': { type: 'string' },
        dialect: { type: 'string' },
        'charge-header': { type: 'string' },
        'invalid-body-every': { type: 'string' },
        'echo-authorization': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  if (values['help'] === true) return { ok: 'help' };

  const text = (name: string): string | undefined => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const wholeNumber = (name: string, fallback: number, min: number, max: number): number | string => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!WHOLE.test(raw) || value < min || value > max) return `--${name} must be a whole number from ${min} to ${max}, got "${raw}"`;
    return value;
  };

  const port = wholeNumber('port', 0, 0, 65535);
  const rateLimit = wholeNumber('rate-limit', DEFAULT_RATE_LIMIT_PER_MINUTE, 1, 1_000_000);
  const maxResponseBytes = wholeNumber('max-response-bytes', DEFAULT_MAX_RESPONSE_BYTES, 1, 1024 * 1024 * 1024);
  const rawFaultRate = text('fault-rate');
  const faultRate =
    rawFaultRate === undefined ? 0 : SHARE.test(rawFaultRate) ? Number(rawFaultRate) : `--fault-rate must be a number from 0 to 1, got "${rawFaultRate}"`;
  const dbPath = text('db') ?? ':memory:';
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T | string => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    return (allowed as readonly string[]).includes(raw) ? (raw as T) : `--${name} must be one of ${allowed.join(', ')}, got "${raw}"`;
  };
  const dialect = oneOf('dialect', DIALECTS, 'embedded');
  const chargeHeader = oneOf('charge-header', CHARGE_HEADER_MODES, 'honest');
  const invalidBodyEvery = text('invalid-body-every') === undefined ? undefined : wholeNumber('invalid-body-every', 0, 1, 1_000_000);
  // oneOf answers a message for a bad value; a valid value is one of the allowed words, never a sentence.
  const invalidChoice = [dialect, chargeHeader].find((value) => value.startsWith('--'));
  if (invalidChoice !== undefined) return { ok: false, message: invalidChoice };

  for (const value of [port, rateLimit, maxResponseBytes, faultRate, invalidBodyEvery]) {
    if (typeof value === 'string') return { ok: false, message: value };
  }
  if (dbPath.trim() === '') return { ok: false, message: '--db must be a file path (or :memory:)' };
  return {
    ok: true,
    options: {
      port: port as number,
      rateLimitPerMinute: rateLimit as number,
      faultRate: faultRate as number,
      dbPath,
      maxResponseBytes: maxResponseBytes as number,
      dialect: dialect as Dialect,
      chargeHeader: chargeHeader as ChargeHeaderMode,
      ...(invalidBodyEvery === undefined ? {} : { invalidBodyEvery: invalidBodyEvery as number }),
      ...(values['echo-authorization'] === true ? { echoAuthorization: true as const } : {}),
      ...(text('sample-db') === undefined ? {} : { sampleDbPath: text('sample-db') as string }),
    },
  };
}

export function formatLogLine(entry: RequestLogEntry, at: Date = new Date()): string {
  return `${at.toISOString()} ${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms charge=${entry.chargedMicroUsd}`;
}

interface ServedData {
  operations: readonly LocalOperation[];
  store?: SampleStore;
  close(): void;
}

// Without sample data every operation answers a clear 503 instead of the service not starting, so
// health, auth and the key line still work and stderr says how to build the data.
function loadServedData(sampleDbPath: string | undefined, log: (line: string) => void): ServedData {
  let store: SampleStore;
  try {
    store = sampleDbPath === undefined ? openSampleStore() : openSampleStore(sampleDbPath);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(`sample data unavailable (${reason}); run \`npm run sample-data\`. Operations will answer 503 sample_data_unavailable.`);
    const unavailable = (operation: LocalOperation): LocalOperation => ({
      ...operation,
      handle: () => {
        throw new ServiceFailure(503, 'sample_data_unavailable', 'The local service has no sample data installed.', { retryable: false });
      },
    });
    // The wrapped operations never read the store; the empty object only satisfies the server's check.
    return { operations: localOperations.map(unavailable), store: {} as SampleStore, close: () => {} };
  }
  return { operations: localOperations, store, close: () => store.close() };
}

export async function runCli(argv: readonly string[]): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const parsed = parseCliFlags(argv);
  if (parsed.ok === 'help') {
    log(USAGE);
    return;
  }
  if (!parsed.ok) {
    log(`service: ${parsed.message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { options } = parsed;

  let served: ServedData | undefined;
  let service: LocalService;
  try {
    served = loadServedData(options.sampleDbPath, log);
    service = await createLocalService({
      operations: applyDialect(served.operations, options.dialect),
      ...(served.store === undefined ? {} : { store: served.store }),
      port: options.port,
      dbPath: options.dbPath,
      rateLimitPerMinute: options.rateLimitPerMinute,
      faultRate: options.faultRate,
      maxResponseBytes: options.maxResponseBytes,
      chargeHeader: options.chargeHeader,
      ...(options.invalidBodyEvery === undefined ? {} : { invalidBodyEvery: options.invalidBodyEvery }),
      ...(options.echoAuthorization ? { echoAuthorization: true } : {}),
      onRequest: (entry) => log(formatLogLine(entry)),
      onInternalError: (error, where) =>
        log(`internal error on ${where.method} ${where.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    });
  } catch (error) {
    served?.close();
    log(`service: failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }

  process.stdout.write(`${JSON.stringify({ url: service.url, keys: service.keys })}\n`);
  // Build the store's in-memory indexes now (1.5 to 2.5 s) rather than on the first query of each
  // kind; announced first, so the app shows the service as ready and early calls simply wait.
  setImmediate(() => served?.store?.warm?.());
  const misreports = [
    ...(options.chargeHeader === 'honest' ? [] : [`charge header ${options.chargeHeader}`]),
    ...(options.invalidBodyEvery === undefined ? [] : [`invalid body every ${options.invalidBodyEvery} charged calls`]),
    ...(options.echoAuthorization ? ['echoing the Authorization header in every answer'] : []),
  ];
  log(
    `service: listening on ${service.url} (dialect ${options.dialect}, rate limit ${options.rateLimitPerMinute}/min, fault rate ${options.faultRate}, state ${options.dbPath}${misreports.length > 0 ? `; MISREPORTING: ${misreports.join(', ')}` : ''})`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`service: ${signal}, closing`);
    service
      .close()
      .catch((error: unknown) => log(`service: close failed: ${String(error)}`))
      .finally(() => {
        served?.close();
        process.exit(0);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // Started by launch.ts with an IPC channel: when the launcher dies, do not linger holding the port.
  if (process.send !== undefined) process.once('disconnect', () => stop('launcher gone'));
}
