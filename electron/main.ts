// Electron's main process: one window made by one factory, the renderer served from app://plat,
// every IPC channel routed through the core's dispatcher, and the embedded service in a utility
// process (node:sqlite is synchronous and must never block this thread).
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell, utilityProcess } from 'electron';
import path from 'node:path';
import { ipcChannel, ipcOperationNames } from '../shared/ipc.ts';
import { createAppCore, type AppCore, type RunningLocalService } from './core/app-core.ts';
import { isAppUrl, isSafeExternalUrl, APP_ORIGIN } from './core/url-guard.ts';
import { securityHeaders } from './web/content-security.ts';
import { readStaticFile } from './web/static-files.ts';
import { readServiceAnnouncement } from './local-service/announcement.ts';
import { SERVICE_V8_FLAGS, YOUNG_GENERATION_CAP } from './local-service/launch.ts';
import { SafeStorageKeyVault } from './core/key-vault.ts';
import { InstallationIdentity, INSTALLATION_IDENTITY_FILE, safeStorageIdentityStorage } from './core/installation-identity.ts';
import { DataFolderInUseError } from './core/data-folder-lock.ts';
import { DataFolderProblem } from './core/database-check.ts';
import { headerFooterOptions, PRINT_READY_TIMEOUT_MS, type Printer } from './core/reports/printer.ts';
import { printRoutePath } from '../shared/print-route.ts';

// Bundled to dist/electron/main.cjs: the renderer build sits beside it in dist/renderer.
const rendererDir = path.join(__dirname, '..', 'renderer');
const localServiceEntry = path.join(__dirname, 'local-service.cjs');
const sampleDbPath = app.isPackaged
  ? path.join(process.resourcesPath, 'sample-data', 'sample.db')
  : path.join(__dirname, '..', '..', 'assets', 'sample-data', 'sample.db');

protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
]);
app.enableSandbox();

function launchLocalServiceInUtilityProcess({ stateDbPath }: { stateDbPath: string }): Promise<RunningLocalService> {
  const child = utilityProcess.fork(
    localServiceEntry,
    ['--db', stateDbPath, '--sample-db', sampleDbPath],
    // The same V8 settings as a service launch.ts starts (a utility process reads no NODE_OPTIONS).
    { stdio: 'pipe', serviceName: 'Plat local service', execArgv: [...SERVICE_V8_FLAGS, YOUNG_GENERATION_CAP] },
  );
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  if (!child.stdout) return Promise.reject(new Error('the utility process has no stdout'));
  return readServiceAnnouncement(child.stdout, 15_000).then((announced) => ({
    ...announced,
    stop: async () => {
      child.kill();
    },
  }));
}

/**
 * Every window Plat opens is made here (the main window and the hidden one that prints reports):
 * sandboxed, isolated, no Node, only the preload's API. Shown by its caller when it is ready.
 */
function createLockedDownWindow(options: Pick<Electron.BrowserWindowConstructorOptions, 'width' | 'height' | 'minWidth' | 'minHeight' | 'title'>): BrowserWindow {
  return new BrowserWindow({
    ...options,
    show: false,
    webPreferences: {
      preload: path.join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Middle-click would otherwise open links in a new window, around the window-open handler.
      disableBlinkFeatures: 'Auxclick',
    },
  });
}

function createMainWindow(): BrowserWindow {
  const window = createLockedDownWindow({ width: 1440, height: 900, minWidth: 1024, minHeight: 640, title: 'Plat' });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${APP_ORIGIN}/index.html`);
  return window;
}

/** What the print route says on <html> once it is done: ready ("true" or "error") and its header/footer templates. */
interface PrintMarks {
  ready: string;
  error: string | null;
  header: string | null;
  footer: string | null;
}

// Runs in the print window's page: resolves once the report is on the page and its fonts are in.
const waitForPrintMarks = `new Promise((resolve) => {
  const html = document.documentElement;
  const look = () => {
    const ready = html.dataset.printReady;
    if (!ready) return void setTimeout(look, 50);
    document.fonts.ready.then(() => resolve({ ready, error: html.dataset.printError ?? null, header: html.dataset.printHeader ?? null, footer: html.dataset.printFooter ?? null }));
  };
  look();
})`;

/**
 * Electron's printer: the report's print route in a hidden window of its own (made by the same
 * locked-down factory, so its page reaches the core only through the preload, as the main window's
 * does), printed by Chromium's PDF backend, then closed.
 */
const electronPrinter: Printer = {
  description: 'Plat’s print window',
  async printReport(assignmentId: string): Promise<Uint8Array> {
    const window = createLockedDownWindow({ width: 1280, height: 900, title: 'Plat report' });
    let timer: NodeJS.Timeout | undefined;
    try {
      await window.loadURL(`${APP_ORIGIN}${printRoutePath(assignmentId)}`);
      const timedOut = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the report page did not finish rendering within ${PRINT_READY_TIMEOUT_MS / 1000} s`)), PRINT_READY_TIMEOUT_MS);
      });
      const marks = (await Promise.race([window.webContents.executeJavaScript(waitForPrintMarks), timedOut])) as PrintMarks;
      if (marks.ready !== 'true') throw new Error(marks.error ?? 'the report page could not show the report');
      const pdf = await window.webContents.printToPDF({
        generateTaggedPDF: true,
        generateDocumentOutline: true,
        preferCSSPageSize: true,
        printBackground: true,
        ...headerFooterOptions(marks),
      });
      return new Uint8Array(pdf);
    } finally {
      clearTimeout(timer);
      window.destroy();
    }
  },
};

function lockDownContents(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isSafeExternalUrl(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

function denyPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.setDevicePermissionHandler(() => false);
}

function serveRenderer(): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    const file = url.host === 'plat' ? await readStaticFile(rendererDir, url.pathname) : null;
    if (!file) return new Response('Not found', { status: 404, headers: securityHeaders });
    return new Response(new Uint8Array(file.body), { headers: { ...securityHeaders, 'Content-Type': file.contentType } });
  });
}

/** One signal per loaded page: it fires when the page navigates away, reloads or its window closes. */
const pageSignals = new WeakMap<Electron.WebContents, AbortController>();
function pageSignal(contents: Electron.WebContents): AbortSignal {
  let controller = pageSignals.get(contents);
  if (!controller) {
    const created = new AbortController();
    controller = created;
    pageSignals.set(contents, created);
    const gone = () => {
      created.abort();
      pageSignals.delete(contents);
    };
    contents.once('destroyed', gone);
    contents.once('render-process-gone', gone);
    // A reload or another document (hash routes stay in the same document and keep their calls).
    const navigated = (details: Electron.Event<Electron.WebContentsDidStartNavigationEventParams>) => {
      if (details.isSameDocument || !details.isMainFrame) return;
      contents.off('did-start-navigation', navigated);
      gone();
    };
    contents.on('did-start-navigation', navigated);
  }
  return controller.signal;
}

function routeIpc(core: AppCore): void {
  for (const operation of ipcOperationNames) {
    ipcMain.handle(ipcChannel(operation), (event, payload: unknown) =>
      core.dispatch(
        operation,
        payload,
        {
          runtime: 'electron',
          url: event.senderFrame?.url ?? '',
          isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
        },
        { signal: pageSignal(event.sender) },
      ),
    );
  }
  core.events.subscribe((event, payload) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send(ipcChannel(event), payload);
  });
}

/**
 * The core on the user-data folder, or null when Plat must not start: another Plat holds the folder
 * (a browser host on the same folder: the single-instance lock covers only Electron), or a database
 * is damaged or read-only. Each is explained in a dialog; a damaged database can be replaced by a
 * new one (kept aside, never deleted) only by the person's explicit choice.
 */
function startCore(startFresh: boolean): AppCore | null {
  const dataDir = app.getPath('userData');
  try {
    return createAppCore({
      runtime: 'electron',
      appVersion: app.getVersion(),
      dataDir,
      // Constructed after 'ready': before it, Linux reports the keychain backend as unknown.
      keyVault: new SafeStorageKeyVault({ safeStorage, filePath: path.join(dataDir, 'api-key.json') }),
      // Its private key is encrypted with safeStorage, like the API key.
      identity: new InstallationIdentity(safeStorageIdentityStorage(safeStorage, path.join(dataDir, INSTALLATION_IDENTITY_FILE))),
      launchLocalService: launchLocalServiceInUtilityProcess,
      isTrustedSender: (sender) => sender.runtime === 'electron' && sender.isMainFrame && isAppUrl(sender.url),
      printer: () => electronPrinter,
      startFresh,
      startFreshHint: 'choose “Start fresh” below (or start Plat with --start-fresh)',
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof DataFolderInUseError) {
      dialog.showErrorBox('Plat is already running', message);
      return null;
    }
    if (error instanceof DataFolderProblem) {
      const choice = dialog.showMessageBoxSync({
        type: 'error',
        title: 'Plat did not start',
        message: 'Plat found a problem with its data folder',
        detail: message,
        buttons: error.startFreshHelps ? ['Quit', 'Start fresh'] : ['Quit'],
        defaultId: 0,
        cancelId: 0,
      });
      return choice === 1 ? startCore(true) : null;
    }
    dialog.showErrorBox('Plat did not start', message);
    return null;
  }
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  lockDownContents();
  await app.whenReady();
  denyPermissions();
  serveRenderer();
  const core = startCore(process.argv.includes('--start-fresh'));
  if (!core) {
    app.quit();
    return;
  }
  routeIpc(core);
  let window = createMainWindow();
  if (core.notices.length > 0) {
    void dialog.showMessageBox(window, { type: 'info', title: 'Plat', message: 'Plat started with a new database', detail: core.notices.join('\n\n') });
  }
  app.on('second-instance', () => {
    if (window.isDestroyed()) window = createMainWindow();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => void core.close());
}

void main();
