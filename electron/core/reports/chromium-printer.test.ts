// The browser host's printer against a real host and Debian's Chromium: a stand-in print route that
// does what the real one does (takes the launch token from the fragment, asks the core for the
// report over the bridge, then marks <html data-print-ready>) is printed to a real PDF.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from '@cantoo/pdf-lib';
import { startBrowserHost, type BrowserHost } from '../../host/browser-host.ts';
import { EventHub } from '../events.ts';
import type { IpcDispatch } from '../ipc-dispatch.ts';
import { chromium, type Browser } from 'playwright-core';
import { ChromiumPrinter, chromiumCandidates, findChromium } from './chromium-printer.ts';
import { NoPrinterError } from './printer.ts';
import { attachEvidence, type EvidenceInput } from './pdf-evidence.ts';

const evidenceFor = (): EvidenceInput => ({
  rows: [{ field: 'ownership.owner_name', printed: 'SMITH JOHN' }],
  csv: 'field,printed\r\nownership.owner_name,SMITH JOHN\r\n',
  creator: 'Plat test',
  producer: 'Plat test',
  assignmentId: 'prj_1',
  assignmentName: 'Test',
  subjectLabel: '1708 21ST ST NW',
  generatedAt: '2026-03-02T15:04:05.000Z',
  title: 'Subject report',
  subject: 'Subject report',
  keywords: ['Plat'],
});

const chromiumPath = process.env.PLAT_CHROMIUM ?? '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);

// The stand-in print route: no inline script (the host's CSP allows only its own files).
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>print</title>
<style>@page { size: Letter; margin: 18mm 16mm 20mm; } body { font: 12pt serif; }</style>
<script type="module" src="/print.js"></script></head><body><main id="report">loading</main></body></html>`;
const script = `
const html = document.documentElement;
const params = new URLSearchParams(location.search);
const token = /token=([A-Za-z0-9_-]+)/.exec(location.hash)?.[1];
const socket = new WebSocket('ws://' + location.host + '/bridge', ['plat-bridge.v1', 'plat-token.' + token]);
let shown = 0;
const open = new Promise((resolve) => { socket.onopen = resolve; });
const show = (assignmentId) => {
  shown += 1;
  const request = shown;
  void open.then(() => socket.send(JSON.stringify({ id: request, op: 'getSubjectReport', payload: { assignmentId } })));
};
socket.onmessage = (message) => {
  const data = JSON.parse(message.data);
  if (data.id !== shown) return;
  if (!data.result.ok) { html.dataset.printError = data.result.error.message; html.dataset.printReady = 'error'; return; }
  const main = document.getElementById('report');
  main.textContent = '';
  for (let index = 0; index < data.result.value.pages; index++) {
    const section = document.createElement('section');
    section.style.breakAfter = 'page';
    const heading = document.createElement('h1');
    heading.textContent = 'Subject report ' + data.result.value.subject + ', part ' + (index + 1) + ' #' + shown;
    section.append(heading);
    main.append(section);
  }
  html.dataset.printFooter = '<div style="font-size:8pt;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>';
  html.dataset.printReady = 'true';
};
socket.onerror = () => { html.dataset.printError = 'the bridge refused the page'; html.dataset.printReady = 'error'; };
// As the app's print route does (shared/print-route.ts): the next report in this page, marks reset first.
window.platPrintNext = (assignmentId) => {
  for (const mark of ['printReady', 'printError', 'printHeader', 'printFooter']) delete html.dataset[mark];
  show(assignmentId);
  return true;
};
show(params.get('assignment'));
`;

const dispatch: IpcDispatch = async (operation, payload) => {
  const assignmentId = (payload as { assignmentId?: string }).assignmentId;
  if (operation !== 'getSubjectReport') return { ok: false, error: { code: 'invalid_payload', message: 'unexpected', retryable: false } };
  if (assignmentId === 'prj_missing') return { ok: false, error: { code: 'not_found', message: 'There is no assignment prj_missing', retryable: false } };
  return { ok: true, value: { subject: assignmentId === 'prj_2' ? '1717 4TH ST NW' : '1708 21ST ST NW', pages: 3 } };
};

let host: BrowserHost;
let printer: ChromiumPrinter;
const rendererDir = mkdtempSync(path.join(tmpdir(), 'plat-print-route-'));

beforeAll(async () => {
  writeFileSync(path.join(rendererDir, 'index.html'), page);
  writeFileSync(path.join(rendererDir, 'print.js'), script);
  host = await startBrowserHost({ dispatch, events: new EventHub(), rendererDir });
  printer = new ChromiumPrinter({ pageUrl: host.url, lookup: () => ({ found: true, executablePath: chromiumPath }), readyTimeoutMs: 20_000 });
});

afterAll(async () => {
  await printer?.close();
  await host?.close();
  rmSync(rendererDir, { recursive: true, force: true });
});

describe.runIf(hasChromium)('ChromiumPrinter', () => {
  it('prints the print route, once it is ready, to a tagged PDF with the page’s footer', async () => {
    const bytes = await printer.printReport('prj_1');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(3);
    const file = path.join(rendererDir, 'out.pdf');
    writeFileSync(file, bytes);
    if (existsSync('/usr/bin/pdftotext')) {
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('Subject report 1708 21ST ST NW, part 1');
      expect(text).toContain('Page 3 of 3');
    }
    if (existsSync('/usr/bin/pdfinfo')) {
      const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
      expect(info).toMatch(/Tagged:\s+yes/);
      expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
    }
    // Attaching the evidence rewrites the file: the structure tags (and so the accessibility) stay.
    if (existsSync('/usr/bin/pdfinfo')) {
      const { bytes: withEvidence } = await attachEvidence(bytes, evidenceFor());
      writeFileSync(file, withEvidence);
      expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/Tagged:\s+yes/);
    }
  }, 60_000);

  it('shows the next report in the page of the last one, and starts a fresh page after a failure', async () => {
    const textOf = (bytes: Uint8Array, name: string) => {
      const file = path.join(rendererDir, name);
      writeFileSync(file, bytes);
      return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    };
    await printer.printReport('prj_1');
    const second = textOf(await printer.printReport('prj_2'), 'second.pdf');
    expect(second).toContain('Subject report 1717 4TH ST NW, part 1');
    expect(second).not.toContain('1708 21ST ST NW');
    // Not the page's first report: the page of the last export showed it.
    expect(second).toMatch(/part 1 #([2-9]|\d\d)/);
    await expect(printer.printReport('prj_missing')).rejects.toThrow('There is no assignment prj_missing');
    const afterFailure = textOf(await printer.printReport('prj_1'), 'after-failure.pdf');
    expect(afterFailure).toMatch(/part 1 #1\b/);
  }, 60_000);

  it('runs no browser-UI page beside the print page (Chromium 156 builds its omnibox pop-ups in a renderer of their own)', async () => {
    let launched: Browser | null = null;
    const watched = new ChromiumPrinter({
      pageUrl: host.url,
      lookup: () => ({ found: true, executablePath: chromiumPath }),
      readyTimeoutMs: 20_000,
      launch: async (options) => (launched = await chromium.launch(options)),
    });
    try {
      await watched.printReport('prj_1');
      const session = await launched!.newBrowserCDPSession();
      const { targetInfos } = (await session.send('Target.getTargets', { filter: [{}] } as never)) as { targetInfos: Array<{ type: string; url: string }> };
      expect(targetInfos.filter((target) => target.type === 'page').length).toBe(1);
      expect(targetInfos.filter((target) => !['page', 'tab'].includes(target.type))).toEqual([]);
    } finally {
      await watched.close();
    }
  }, 60_000);

  it('passes on why the page could not show the report', async () => {
    await expect(printer.printReport('prj_missing')).rejects.toThrow('There is no assignment prj_missing');
  }, 60_000);
});

describe('findChromium', () => {
  it('takes PLAT_CHROMIUM when it names a file, and says so when it does not', () => {
    expect(findChromium({ PLAT_CHROMIUM: '/opt/chromium/chrome' }, 'linux', (file) => file === '/opt/chromium/chrome')).toEqual({ found: true, executablePath: '/opt/chromium/chrome' });
    const missing = findChromium({ PLAT_CHROMIUM: '/nowhere/chrome' }, 'linux', (file) => file !== '/nowhere/chrome');
    expect(missing).toEqual({ found: false, message: 'PLAT_CHROMIUM names /nowhere/chrome, which is not a file on this machine' });
  });

  it('looks in the usual places of each platform, Chromium’s headless shell first, then Chromium', () => {
    expect(findChromium({}, 'linux', (file) => file === '/usr/bin/google-chrome')).toEqual({ found: true, executablePath: '/usr/bin/google-chrome' });
    expect(chromiumCandidates('linux').slice(0, 3)).toEqual(['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell', '/usr/bin/chromium']);
    expect(findChromium({}, 'linux', (file) => ['/usr/bin/chromium', '/usr/lib/chromium/chromium-headless-shell'].includes(file))).toEqual({ found: true, executablePath: '/usr/lib/chromium/chromium-headless-shell' });
    expect(chromiumCandidates('darwin', { HOME: '/Users/ann' })).toContain('/Users/ann/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    expect(chromiumCandidates('win32', { PROGRAMFILES: 'C:\\Program Files' })).toContain('C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe');
  });

  it('without a browser, the printer refuses with a message saying so', async () => {
    const none = findChromium({}, 'linux', () => false);
    expect(none.found).toBe(false);
    const without = new ChromiumPrinter({ pageUrl: 'http://127.0.0.1:1/#token=abcdefghijklmnopq', lookup: () => none });
    const refused = without.printReport('prj_1');
    await expect(refused).rejects.toBeInstanceOf(NoPrinterError);
    await expect(refused).rejects.toThrow(/No Chromium, Chrome or Edge was found on this machine/);
  });
});
