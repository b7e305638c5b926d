// The app's IPC contract: every operation the renderer can ask of the main process (or of the browser
// host, which serves the same handlers), each with its request and response schema, and every event the
// main process pushes. One file, both sides validate (GitHub Desktop's ipc-shared.ts, with zod).
// The preload exposes exactly these names as functions, and the host bridge mirrors it.
import { z } from 'zod';
import { PlatErrorSchema } from './errors.ts';

export const ServiceConnectionSchema = z.object({
  /** `local-sample`: the embedded service on the bundled sample; `live`: a configured base URL. */
  mode: z.enum(['local-sample', 'live']),
  baseUrl: z.string(),
  /** What the status line shows, e.g. "Local sample service" or the live host name. */
  label: z.string(),
  state: z.enum(['starting', 'ready', 'failed']),
  detail: z.string().nullable(),
});
export type ServiceConnection = z.infer<typeof ServiceConnectionSchema>;

export const AppInfoSchema = z.object({
  appName: z.string(),
  appVersion: z.string(),
  runtime: z.enum(['electron', 'browser-host']),
  service: ServiceConnectionSchema,
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

const NoRequest = z.strictObject({});

/** Operation name → request and response schemas. */
export const ipcOperations = {
  getAppInfo: { request: NoRequest, response: AppInfoSchema },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>;

/** Event name → payload schema, pushed from the main process to the renderer. */
export const ipcEvents = {
  serviceConnectionChanged: ServiceConnectionSchema,
} as const satisfies Record<string, z.ZodType>;

export type IpcOperationName = keyof typeof ipcOperations;
export type IpcEventName = keyof typeof ipcEvents;
export type IpcRequest<N extends IpcOperationName> = z.input<(typeof ipcOperations)[N]['request']>;
export type IpcResponse<N extends IpcOperationName> = z.output<(typeof ipcOperations)[N]['response']>;
export type IpcEventPayload<E extends IpcEventName> = z.output<(typeof ipcEvents)[E]>;

export const ipcOperationNames = Object.keys(ipcOperations) as IpcOperationName[];
export const ipcEventNames = Object.keys(ipcEvents) as IpcEventName[];

/** What crosses the boundary: never stacks, never request headers (Signal's wrapResult). */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: z.infer<typeof PlatErrorSchema> };

export const ipcResultSchema = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.strictObject({ ok: z.literal(true), value }),
    z.strictObject({ ok: z.literal(false), error: PlatErrorSchema }),
  ]);

/** `onServiceConnectionChanged` for `serviceConnectionChanged`: the preload's listener names. */
export type EventListenerName<E extends IpcEventName> = `on${Capitalize<E>}`;
export const eventListenerName = <E extends IpcEventName>(event: E): EventListenerName<E> =>
  `on${event.charAt(0).toUpperCase()}${event.slice(1)}` as EventListenerName<E>;

/** The object the preload (Electron) or the host bridge (browser) puts on `window.plat`. */
export type PlatApi = {
  readonly [N in IpcOperationName]: (request: IpcRequest<N>) => Promise<IpcResult<IpcResponse<N>>>;
} & {
  readonly [E in IpcEventName as EventListenerName<E>]: (listener: (payload: IpcEventPayload<E>) => void) => () => void;
};

/** Electron channel names, one per operation and event. */
export const ipcChannel = (name: IpcOperationName | IpcEventName): string => `plat:${name}`;
