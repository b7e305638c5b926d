// The browser host's printer: started on the first export, as a process of its own (printer-process.ts)
// that loads playwright-core and drives the Chromium it finds; ended, browser and all, once no export has
// been under way for a minute (PRINTER_IDLE_CLOSE_MS), and started again by the next. Together they
// hold hundreds of MB that most of a session never needs. An export in flight is never cut.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NoPrinterError, type Printer } from '../core/reports/printer.ts';
import { findChromium, type ChromiumLookup } from '../core/reports/chromium-lookup.ts';
import { IdleCloser, PRINTER_IDLE_CLOSE_MS } from '../core/reports/idle-close.ts';
import type { PrinterProcessOptions, PrinterReply, PrinterRequest } from './printer-process.ts';

export interface OnDemandPrinterOptions {
  /** The page's address as the host printed it (`http://127.0.0.1:<port>/#token=<token>`). */
  pageUrl: string;
  lookup?: () => ChromiumLookup;
  readyTimeoutMs?: number;
  /** How long the printer may sit idle before its process ends; PRINTER_IDLE_CLOSE_MS unless set. */
  idleCloseMs?: number;
}

/** How long a closing printing process may take to close its browser before it is killed. */
const CLOSE_WAIT_MS = 5_000;

interface Running {
  child: ChildProcess;
  pending: Map<number, { resolve: (pdf: Uint8Array) => void; reject: (error: Error) => void }>;
  exited: Promise<void>;
}

export class OnDemandChromiumPrinter implements Printer {
  private readonly options: OnDemandPrinterOptions;
  private readonly idle: IdleCloser;
  private lookup: ChromiumLookup | null = null;
  private running: Running | null = null;
  private nextId = 1;
  private closed = false;

  constructor(options: OnDemandPrinterOptions) {
    this.options = options;
    this.idle = new IdleCloser(options.idleCloseMs ?? PRINTER_IDLE_CLOSE_MS, () => void this.stop());
  }

  /** What prints; it is only asked for after a print, so after the lookup. */
  get description(): string {
    if (this.lookup === null) return 'Chromium';
    return this.lookup.found ? `Chromium at ${this.lookup.executablePath}` : 'no Chromium found';
  }

  /** Whether the printing process runs now. */
  get open(): boolean {
    return this.running !== null;
  }

  printReport(assignmentId: string): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error('Plat is shutting down'));
    this.lookup ??= (this.options.lookup ?? findChromium)();
    const { lookup } = this;
    if (!lookup.found) return Promise.reject(new NoPrinterError(lookup.message));
    return this.idle.around(() => {
      const running = (this.running ??= this.start(lookup.executablePath));
      const id = this.nextId++;
      return new Promise<Uint8Array>((resolve, reject) => {
        running.pending.set(id, { resolve, reject });
        running.child.send({ kind: 'print', id, assignmentId } satisfies PrinterRequest);
      });
    });
  }

  /** Ends the printing process, if one runs; later prints fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.idle.cancel();
    await this.stop();
  }

  private start(executablePath: string): Running {
    const options: PrinterProcessOptions = {
      pageUrl: this.options.pageUrl,
      executablePath,
      ...(this.options.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: this.options.readyTimeoutMs }),
    };
    const child = fork(fileURLToPath(new URL('./printer-process.ts', import.meta.url)), [], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Messages are delivered in order: the start comes before any print.
    child.send({ kind: 'start', options } satisfies PrinterRequest);
    const pending: Running['pending'] = new Map();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const running: Running = { child, pending, exited };
    child.on('message', (reply: PrinterReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (!waiting) return;
      if (reply.kind === 'printed') waiting.resolve(reply.pdf);
      // The report service tells a missing browser from a failed print by its class.
      else waiting.reject(reply.error.name === 'NoPrinterError' ? new NoPrinterError(reply.error.message) : new Error(reply.error.message));
    });
    child.once('exit', (code, signal) => {
      if (this.running === running) this.running = null;
      for (const waiting of pending.values()) waiting.reject(new Error(`the printing process stopped (${signal ?? code}) before the PDF was made`));
      pending.clear();
    });
    child.on('error', () => undefined);
    return running;
  }

  private async stop(): Promise<void> {
    const running = this.running;
    this.running = null;
    if (!running) return;
    if (running.child.connected) running.child.send({ kind: 'close' } satisfies PrinterRequest);
    const timer = setTimeout(() => running.child.kill('SIGKILL'), CLOSE_WAIT_MS);
    await running.exited;
    clearTimeout(timer);
  }
}
