// Electron's main process under a stand-in `electron` (test-electron-stub.ts): what main.ts asks
// Electron to do, recorded and asserted. Each start imports main.ts afresh (its top level runs the
// app) on its own user-data folder, with the real core behind it and a real local service where the
// utility process would be.
import { mkdtempSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ipcChannel, ipcOperationNames } from '../shared/ipc.ts';
import { contentSecurityPolicy } from './web/content-security.ts';
import { SERVICE_V8_FLAGS, YOUNG_GENERATION_CAP } from './local-service/launch.ts';
import { createLocalService } from './local-service/server.ts';
import { localOperations } from './local-service/operations/index.ts';
import { openSampleStore, type SampleStore } from './local-service/sample-store.ts';
import { smallPdf } from './core/reports/pdf-test-kit.ts';
import { installFakeElectron, type FakeElectron, type FakeElectronOptions, type FakeWebContents } from './test-electron-stub.ts';

vi.mock('electron', async () => (await import('./test-electron-stub.ts')).electronModule);

let store: SampleStore;
beforeAll(() => {
  store = openSampleStore();
});
afterAll(() => store.close());

const started: FakeElectron[] = [];
afterEach(async () => {
  // 'will-quit' closes the core, which stops the service it launched.
  const running = started.splice(0);
  for (const electron of running) {
    // Electron says 'will-quit' once: a test that quit already is not quit again.
    if (electron.callsOf('utilityProcess.kill').length === 0) for (const listener of electron.app.listeners('will-quit')) (listener as () => void)();
  }
  await vi.waitFor(() => expect(running.every((electron) => electron.services.length === 0)).toBe(true));
});

let runs = 0;
/** Starts main.ts on a stand-in Electron and waits until it has opened its window (or given up). */
async function startMain(options: Partial<FakeElectronOptions> = {}): Promise<FakeElectron> {
  const electron = installFakeElectron({
    userData: mkdtempSync(path.join(tmpdir(), 'plat-main-')),
    startService: async () => createLocalService({ operations: localOperations, store, rateLimitPerMinute: 100_000 }),
    printPdf: () => smallPdf(2),
    ...options,
  });
  started.push(electron);
  runs += 1;
  await import(/* @vite-ignore */ `./main.ts?run=${runs}`);
  await vi.waitFor(() => expect(electron.windows.length > 0 || electron.callsOf('app.quit').length > 0).toBe(true));
  return electron;
}

/** The page of the main window, and a call from it (its main frame, at the URL it loaded). */
function mainPage(electron: FakeElectron): { contents: FakeWebContents; call: (operation: string, payload: unknown) => Promise<unknown> } {
  const window = electron.windows[0];
  if (!window) throw new Error('main.ts opened no window');
  const contents = window.webContents;
  return { contents, call: (operation, payload) => electron.invoke(ipcChannel(operation as never), payload, { contents, frame: contents.mainFrame }) };
}

const lockedDown = {
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
  disableBlinkFeatures: 'Auxclick',
};

describe('main.ts', () => {
  it('takes the single-instance lock, sandboxes every renderer and opens one locked-down window on app://plat', async () => {
    const electron = await startMain();
    expect(electron.callsOf('app.requestSingleInstanceLock')).toHaveLength(1);
    expect(electron.callsOf('app.enableSandbox')).toHaveLength(1);
    expect(electron.callsOf('protocol.registerSchemesAsPrivileged')).toEqual([
      [[{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]],
    ]);
    expect(electron.windows).toHaveLength(1);
    const [window] = electron.windows;
    expect(window?.options).toMatchObject({ show: false, title: 'Plat', webPreferences: lockedDown });
    expect(String((window?.options['webPreferences'] as { preload: string }).preload)).toMatch(/[/\\]preload\.cjs$/);
    expect(window?.loaded).toEqual(['app://plat/index.html']);
    window?.emit('ready-to-show');
    expect(window?.shown).toBe(1);
  });

  it('handles exactly one IPC channel per operation, and only for its own page’s main frame', async () => {
    const electron = await startMain();
    expect([...electron.ipcHandlers.keys()].sort()).toEqual(ipcOperationNames.map((name) => ipcChannel(name)).sort());
    const { contents, call } = mainPage(electron);
    expect(await call('getAppInfo', {})).toMatchObject({ ok: true, value: { runtime: 'electron' } });
    const refused = { ok: false, error: expect.objectContaining({ code: 'forbidden_sender' }) };
    for (const operation of ipcOperationNames) {
      // A subframe of the app's own page, and a main frame showing another origin.
      const subframe = { url: 'app://plat/index.html' };
      expect(await electron.invoke(ipcChannel(operation), {}, { contents, frame: subframe }), operation).toEqual(refused);
      const foreign = electron.createWebContents();
      foreign.mainFrame.url = 'https://example.com/';
      expect(await electron.invoke(ipcChannel(operation), {}, { contents: foreign, frame: foreign.mainFrame }), operation).toEqual(refused);
      // A frame that is gone (Electron gives null).
      expect(await electron.invoke(ipcChannel(operation), {}, { contents, frame: null }), operation).toEqual(refused);
    }
  });

  it('serves app://plat from the renderer build only, every answer with the CSP', async () => {
    const electron = await startMain();
    const serve = electron.protocolHandlers.get('app');
    if (!serve) throw new Error('main.ts registers no app:// handler');
    const page = await serve(new Request('app://plat/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    for (const url of ['app://plat/index.html', 'app://other/index.html', 'app://plat/../package.json', 'app://plat/%2e%2e/package.json', 'app://plat/no-such-file.js']) {
      const answer = await serve(new Request(url));
      expect(answer.headers.get('Content-Security-Policy'), url).toBe(contentSecurityPolicy);
      expect(answer.headers.get('X-Content-Type-Options'), url).toBe('nosniff');
      if (url !== 'app://plat/index.html') expect(answer.status, url).toBe(404);
    }
  });

  it('lets no page navigate, redirect, attach a webview or open a window; only https links go to the OS browser', async () => {
    const electron = await startMain();
    const contents = electron.createWebContents();
    expect(contents.navigate('will-navigate', 'https://example.com/')).toBe(false);
    expect(contents.navigate('will-navigate', 'app://plat/index.html')).toBe(false);
    expect(contents.navigate('will-redirect', 'https://example.com/')).toBe(false);
    expect(contents.navigate('will-attach-webview', 'app://plat/index.html')).toBe(false);
    const open = contents.windowOpenHandler;
    if (!open) throw new Error('main.ts set no window-open handler');
    for (const url of ['https://example.com/deed', 'http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'https://user:pw@example.com/', 'app://plat/index.html']) {
      expect(open({ url }), url).toEqual({ action: 'deny' });
    }
    expect(electron.callsOf('shell.openExternal')).toEqual([['https://example.com/deed']]);
    expect(electron.windows).toHaveLength(1);
  });

  it('denies every permission a page asks for', async () => {
    const electron = await startMain();
    const granted = vi.fn();
    (electron.permissionHandlers['request'] as (contents: unknown, permission: string, callback: (granted: boolean) => void) => void)({}, 'geolocation', granted);
    expect(granted).toHaveBeenCalledWith(false);
    expect((electron.permissionHandlers['check'] as () => boolean)()).toBe(false);
    expect((electron.permissionHandlers['device'] as () => boolean)()).toBe(false);
  });

  it('launches the embedded service in a utility process with the service’s V8 flags, and stops it on quit', async () => {
    const electron = await startMain();
    await vi.waitFor(() => expect(electron.services).toHaveLength(1));
    const [modulePath, args, options] = electron.callsOf('utilityProcess.fork')[0] ?? [];
    expect(String(modulePath)).toMatch(/[/\\]local-service\.cjs$/);
    expect(args).toEqual(['--db', expect.stringContaining(electron.options.userData), '--sample-db', expect.stringMatching(/sample\.db$/)]);
    expect(options).toEqual({ stdio: 'pipe', serviceName: 'Plat local service', execArgv: [...SERVICE_V8_FLAGS, YOUNG_GENERATION_CAP] });
    for (const listener of electron.app.listeners('will-quit')) (listener as () => void)();
    await vi.waitFor(() => expect(electron.callsOf('utilityProcess.kill')).toHaveLength(1));
  });

  it('quits at once when another Plat holds the single-instance lock, and focuses its window on a second start', async () => {
    const second = await startMain({ singleInstanceLock: false });
    expect(second.callsOf('app.quit')).toHaveLength(1);
    expect(second.windows).toHaveLength(0);
    expect(second.ipcHandlers.size).toBe(0);
    expect(second.callsOf('utilityProcess.fork')).toHaveLength(0);

    const first = await startMain();
    first.app.emit('second-instance');
    expect(first.windows[0]?.focused).toBe(1);
    // Its window closed meanwhile (macOS keeps the app): a new one is opened and focused.
    first.windows[0]?.destroy();
    first.app.emit('second-instance');
    expect(first.windows).toHaveLength(2);
    expect(first.windows[1]?.focused).toBe(1);
  });

  it('says so and quits when a browser host already holds the data folder', async () => {
    const first = await startMain();
    const second = await startMain({ userData: first.options.userData });
    expect(second.callsOf('dialog.showErrorBox')).toEqual([['Plat is already running', expect.stringContaining(first.options.userData)]]);
    expect(second.callsOf('app.quit')).toHaveLength(1);
    expect(second.windows).toHaveLength(0);
  });

  it('offers to start fresh over a damaged database, and starts fresh only when the person chooses it', async () => {
    const damaged = () => {
      const userData = mkdtempSync(path.join(tmpdir(), 'plat-main-damaged-'));
      writeFileSync(path.join(userData, 'plat.db'), 'this is not a database'.repeat(500));
      return userData;
    };
    const quit = await startMain({ userData: damaged(), messageBoxChoice: 0 });
    expect(quit.callsOf('dialog.showMessageBoxSync')).toEqual([[expect.objectContaining({ type: 'error', buttons: ['Quit', 'Start fresh'], defaultId: 0, cancelId: 0 })]]);
    expect(quit.callsOf('app.quit')).toHaveLength(1);
    expect(quit.windows).toHaveLength(0);

    const fresh = await startMain({ userData: damaged(), messageBoxChoice: 1 });
    expect(fresh.callsOf('app.quit')).toHaveLength(0);
    expect(fresh.windows).toHaveLength(1);
    // What was set aside is said in a dialog over the window.
    expect(fresh.callsOf('dialog.showMessageBox')).toEqual([[fresh.windows[0], expect.objectContaining({ message: 'Plat started with a new database' })]]);
  });

  it('keeps an API key in the keychain, and without one only for the session unless the person accepts weak storage', async () => {
    const keyFile = (electron: FakeElectron) => path.join(electron.options.userData, 'api-key.json');
    const keychain = await startMain({ encryption: { available: true, backend: 'gnome_libsecret' } });
    expect(await mainPage(keychain).call('setApiKey', { key: 'svc_live_keychain' })).toMatchObject({ ok: true, value: { configured: true, persisted: true, backend: 'gnome_libsecret' } });
    expect(keychain.callsOf('safeStorage.encryptString')).toHaveLength(1);
    expect(existsSync(keyFile(keychain))).toBe(true);

    const weak = await startMain({ encryption: { available: true, backend: 'basic_text' } });
    expect(await mainPage(weak).call('setApiKey', { key: 'svc_live_weak' })).toMatchObject({ ok: true, value: { configured: true, persisted: false, backend: 'basic_text' } });
    expect(existsSync(keyFile(weak))).toBe(false);
    expect(await mainPage(weak).call('setApiKey', { key: 'svc_live_weak', allowWeakStorage: true })).toMatchObject({ ok: true, value: { persisted: true } });
    expect(existsSync(keyFile(weak))).toBe(true);

    const none = await startMain({ encryption: { available: false, backend: 'unknown' } });
    expect(await mainPage(none).call('setApiKey', { key: 'svc_live_none', allowWeakStorage: true })).toMatchObject({ ok: true, value: { configured: true, persisted: false, backend: 'unavailable' } });
    expect(none.callsOf('safeStorage.encryptString')).toHaveLength(0);
    expect(existsSync(keyFile(none))).toBe(false);
  });

  it('prints a report in a hidden window made like the main one, with the print options, and closes it', async () => {
    const electron = await startMain({ printMarks: { ready: 'true', error: null, header: '<div>Plat</div>', footer: null } });
    const { call } = mainPage(electron);
    const assignment = (await call('createAssignment', {
      name: 'Printed',
      capMicroUsd: null,
      details: { subjectRef: 'prop_00000000-0000-4000-8000-000000000000', subjectLabel: '1708 21ST ST NW' },
    })) as { ok: true; value: { id: string } };
    expect(assignment.ok).toBe(true);
    const exported = (await call('exportReportPdf', { assignmentId: assignment.value.id })) as { ok: boolean; value?: { pageCount: number } };
    expect(exported).toMatchObject({ ok: true, value: { pageCount: 2 } });
    const printWindow = electron.windows[1];
    expect(printWindow?.options).toMatchObject({ show: false, title: 'Plat report', webPreferences: lockedDown });
    expect(printWindow?.loaded).toEqual([`app://plat/?route=print-report&assignment=${encodeURIComponent(assignment.value.id)}`]);
    expect(electron.callsOf('webContents.printToPDF')).toEqual([
      [{ generateTaggedPDF: true, generateDocumentOutline: true, preferCSSPageSize: true, printBackground: true, displayHeaderFooter: true, headerTemplate: '<div>Plat</div>', footerTemplate: '<span></span>' }],
    ]);
    expect(printWindow?.isDestroyed()).toBe(true);
  });

  it('closes the print window when the report page says it could not show the report', async () => {
    const electron = await startMain({ printMarks: { ready: 'error', error: 'the report has no subject', header: null, footer: null } });
    const { call } = mainPage(electron);
    const assignment = (await call('createAssignment', { name: 'Unprintable', capMicroUsd: null, details: { subjectRef: 'prop_00000000-0000-4000-8000-000000000000', subjectLabel: 'x' } })) as { value: { id: string } };
    const exported = (await call('exportReportPdf', { assignmentId: assignment.value.id })) as { ok: boolean; error?: { message: string } };
    expect(exported.ok).toBe(false);
    expect(electron.callsOf('webContents.printToPDF')).toHaveLength(0);
    expect(electron.windows[1]?.isDestroyed()).toBe(true);
  });

  it('pushes the core’s events to every open window on the event’s channel', async () => {
    const electron = await startMain();
    const { call, contents } = mainPage(electron);
    await call('setBudgets', { sessionCapMicroUsd: 2_000_000, confirmationThresholdMicroUsd: 100_000 });
    await call('setActiveProject', { id: null });
    await vi.waitFor(() => expect(contents.sent.length).toBeGreaterThan(0));
    const channels = new Set(contents.sent.map((message) => message.channel));
    for (const channel of channels) expect(channel).toMatch(/^plat:(serviceConnectionChanged|spendUpdated|callProgress)$/);
  });
});
