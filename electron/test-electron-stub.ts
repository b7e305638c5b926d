// A stand-in for the `electron` module, for the tests of main.ts and preload.ts (Electron itself
// cannot run here). It does nothing Electron would do on its own: it records what it is asked
// (every window's options, IPC handlers, protocol handlers, permission handlers, process launches,
// PDF prints, dialogs) and lets a test play Electron's part (fire an app event, send an IPC call
// from a chosen frame, navigate a page). Tests wire it with
// `vi.mock('electron', async () => (await import('./test-electron-stub.ts')).electronModule)`.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

/** One call a test can assert on: which part of Electron, and with what. */
export interface RecordedCall {
  call: string;
  args: unknown[];
}

/** What the stand-in service launched through `utilityProcess.fork` announces (url and keys) and how it stops. */
export interface AnnouncedService {
  url: string;
  keys: { active: string; revoked: string; suspended: string; exhausted: string };
  close(): Promise<void>;
}

export interface FakeElectronOptions {
  /** `app.getPath('userData')`. */
  userData: string;
  /** What `app.requestSingleInstanceLock()` answers (true: this is the first Plat). */
  singleInstanceLock?: boolean;
  /** safeStorage: whether encryption is available and the Linux backend it names. */
  encryption?: { available: boolean; backend: string };
  /** Started when main.ts forks the local service; its announcement is written to the child's stdout. */
  startService?: () => Promise<AnnouncedService>;
  /** The button `dialog.showMessageBoxSync` answers with. */
  messageBoxChoice?: number;
  /** What the print window's page says once it is ready (see main.ts waitForPrintMarks). */
  printMarks?: { ready: string; error: string | null; header: string | null; footer: string | null };
  /** The bytes `printToPDF` returns. */
  printPdf?: () => Promise<Uint8Array>;
}

type Listener = (...args: never[]) => unknown;

/** A web frame: a URL, and whether it is its page's main frame (decided by identity, as Electron does). */
export interface FakeFrame {
  url: string;
}

export class FakeWebContents extends EventEmitter {
  readonly mainFrame: FakeFrame = { url: '' };
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  destroyed = false;
  readonly sent: { channel: string; payload: unknown }[] = [];
  private readonly electron: FakeElectron;
  constructor(electron: FakeElectron) {
    super();
    this.electron = electron;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  executeJavaScript(code: string): Promise<unknown> {
    this.electron.record('webContents.executeJavaScript', code);
    return Promise.resolve(this.electron.options.printMarks ?? { ready: 'true', error: null, header: null, footer: null });
  }
  async printToPDF(options: unknown): Promise<Buffer> {
    this.electron.record('webContents.printToPDF', options);
    const bytes = this.electron.options.printPdf ? await this.electron.options.printPdf() : new Uint8Array();
    return Buffer.from(bytes);
  }
  /** Plays Electron's part of a navigation: true when main.ts let it go ahead. */
  navigate(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true), url }, url);
    return !prevented;
  }
}

export class FakeElectron {
  readonly options: FakeElectronOptions;
  readonly calls: RecordedCall[] = [];
  readonly app = new EventEmitter();
  readonly windows: FakeBrowserWindow[] = [];
  readonly ipcHandlers = new Map<string, (event: unknown, payload: unknown) => unknown>();
  readonly protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  readonly permissionHandlers: Record<string, Listener> = {};
  readonly exposedInMainWorld = new Map<string, unknown>();
  readonly rendererListeners = new Map<string, Set<Listener>>();
  readonly services: AnnouncedService[] = [];
  readonly module: Record<string, unknown>;

  constructor(options: FakeElectronOptions) {
    this.options = options;
    this.module = this.#makeModule();
  }

  record(call: string, ...args: unknown[]): void {
    this.calls.push({ call, args });
  }

  callsOf(call: string): unknown[][] {
    return this.calls.filter((recorded) => recorded.call === call).map((recorded) => recorded.args);
  }

  /** An IPC call as Electron delivers it to main.ts's handler, from `frame` of `contents`. */
  invoke(channel: string, payload: unknown, from: { contents: FakeWebContents; frame: FakeFrame | null }): Promise<unknown> {
    const handler = this.ipcHandlers.get(channel);
    if (!handler) throw new Error(`main.ts handles no IPC channel ${channel}`);
    return Promise.resolve(handler({ sender: from.contents, senderFrame: from.frame }, payload));
  }

  /** A web contents as `web-contents-created` announces one. */
  createWebContents(): FakeWebContents {
    const contents = new FakeWebContents(this);
    this.app.emit('web-contents-created', {}, contents);
    return contents;
  }

  #makeModule(): Record<string, unknown> {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the module's functions are Electron's, not methods of this class
    const electron = this;
    const app = Object.assign(this.app, {
      isPackaged: false,
      enableSandbox: () => electron.record('app.enableSandbox'),
      requestSingleInstanceLock: () => {
        electron.record('app.requestSingleInstanceLock');
        return electron.options.singleInstanceLock ?? true;
      },
      quit: () => electron.record('app.quit'),
      whenReady: () => Promise.resolve(),
      getPath: (name: string) => {
        if (name !== 'userData') throw new Error(`the stand-in knows only userData, not ${name}`);
        return electron.options.userData;
      },
      getVersion: () => '0.0.0-test',
    });
    class BrowserWindow extends FakeBrowserWindow {
      constructor(options: Record<string, unknown>) {
        super(electron, options);
        electron.windows.push(this);
      }
      static getAllWindows(): FakeBrowserWindow[] {
        return electron.windows.filter((window) => !window.isDestroyed());
      }
    }
    const encryption = () => electron.options.encryption ?? { available: true, backend: 'gnome_libsecret' };
    return {
      app,
      BrowserWindow,
      dialog: {
        showErrorBox: (title: string, content: string) => electron.record('dialog.showErrorBox', title, content),
        showMessageBoxSync: (options: unknown) => {
          electron.record('dialog.showMessageBoxSync', options);
          return electron.options.messageBoxChoice ?? 0;
        },
        showMessageBox: (...args: unknown[]) => {
          electron.record('dialog.showMessageBox', ...args);
          return Promise.resolve({ response: 0 });
        },
      },
      ipcMain: {
        handle: (channel: string, handler: (event: unknown, payload: unknown) => unknown) => {
          if (electron.ipcHandlers.has(channel)) throw new Error(`a second handler for ${channel}`);
          electron.ipcHandlers.set(channel, handler);
        },
      },
      protocol: {
        registerSchemesAsPrivileged: (schemes: unknown) => electron.record('protocol.registerSchemesAsPrivileged', schemes),
        handle: (scheme: string, handler: (request: Request) => Promise<Response>) => electron.protocolHandlers.set(scheme, handler),
      },
      safeStorage: {
        isEncryptionAvailable: () => encryption().available,
        getSelectedStorageBackend: () => encryption().backend,
        encryptString: (text: string) => {
          electron.record('safeStorage.encryptString');
          return Buffer.from(`sealed:${text}`).reverse();
        },
        decryptString: (sealed: Buffer) => Buffer.from(sealed).reverse().toString().replace(/^sealed:/, ''),
      },
      session: {
        defaultSession: {
          setPermissionRequestHandler: (handler: Listener) => (electron.permissionHandlers['request'] = handler),
          setPermissionCheckHandler: (handler: Listener) => (electron.permissionHandlers['check'] = handler),
          setDevicePermissionHandler: (handler: Listener) => (electron.permissionHandlers['device'] = handler),
        },
      },
      shell: {
        openExternal: (url: string) => {
          electron.record('shell.openExternal', url);
          return Promise.resolve();
        },
      },
      utilityProcess: {
        fork: (modulePath: string, args: string[], options: unknown) => {
          electron.record('utilityProcess.fork', modulePath, args, options);
          const child = Object.assign(new EventEmitter(), {
            stdout: new PassThrough(),
            stderr: new PassThrough(),
            kill: () => {
              electron.record('utilityProcess.kill');
              const service = electron.services.shift();
              void service?.close();
              return true;
            },
          });
          const start = electron.options.startService;
          if (start) {
            void start().then((service) => {
              electron.services.push(service);
              child.stdout.write(`${JSON.stringify({ url: service.url, keys: service.keys })}\n`);
            });
          }
          return child;
        },
      },
      contextBridge: {
        exposeInMainWorld: (name: string, api: unknown) => electron.exposedInMainWorld.set(name, api),
      },
      ipcRenderer: {
        invoke: (channel: string, payload: unknown) => {
          electron.record('ipcRenderer.invoke', channel, payload);
          return Promise.resolve({ ok: true, value: channel });
        },
        on: (channel: string, listener: Listener) => {
          const listeners = electron.rendererListeners.get(channel) ?? new Set();
          listeners.add(listener);
          electron.rendererListeners.set(channel, listeners);
        },
        removeListener: (channel: string, listener: Listener) => electron.rendererListeners.get(channel)?.delete(listener),
      },
    };
  }
}

export class FakeBrowserWindow extends EventEmitter {
  readonly options: Record<string, unknown>;
  readonly webContents: FakeWebContents;
  readonly loaded: string[] = [];
  #destroyed = false;
  focused = 0;
  shown = 0;

  constructor(electron: FakeElectron, options: Record<string, unknown>) {
    super();
    this.options = options;
    this.webContents = electron.createWebContents();
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.mainFrame.url = url;
    return Promise.resolve();
  }
  show(): void {
    this.shown++;
  }
  focus(): void {
    this.focused++;
  }
  isDestroyed(): boolean {
    return this.#destroyed;
  }
  destroy(): void {
    this.#destroyed = true;
    this.webContents.destroyed = true;
    this.webContents.emit('destroyed');
  }
}

// The module main.ts and preload.ts import: each property is the current stand-in's, read when used,
// so one mocked module serves every test (kept on globalThis: a module reset must not lose it).
const holder = globalThis as { platFakeElectron?: FakeElectron };

/** Makes a new stand-in the one `electron` resolves to. */
export function installFakeElectron(options: FakeElectronOptions): FakeElectron {
  const electron = new FakeElectron(options);
  holder.platFakeElectron = electron;
  return electron;
}

const current = (): FakeElectron => {
  if (!holder.platFakeElectron) throw new Error('installFakeElectron() before importing main.ts or preload.ts');
  return holder.platFakeElectron;
};

export const electronModule: Record<string, unknown> = Object.fromEntries(
  ['app', 'BrowserWindow', 'dialog', 'ipcMain', 'protocol', 'safeStorage', 'session', 'shell', 'utilityProcess', 'contextBridge', 'ipcRenderer'].map((name) => [name, undefined]),
);
for (const name of Object.keys(electronModule)) Object.defineProperty(electronModule, name, { get: () => current().module[name], enumerable: true });
