// The browser host's printing process: playwright-core and the Chromium it drives live here rather than
// in the host, so when the printer has been idle the host ends this process and all of it (the library's
// memory with the browser's) leaves. Started by OnDemandChromiumPrinter with an IPC channel; prints one
// assignment's report per request, and closes its browser and exits when asked or when the host goes.
import { ChromiumPrinter } from '../core/reports/chromium-printer.ts';

// The page's address carries the launch token, so it comes over the IPC channel, never on the command
// line (which any local user can read).
export type PrinterRequest = { kind: 'start'; options: PrinterProcessOptions } | { kind: 'print'; id: number; assignmentId: string } | { kind: 'close' };
export type PrinterReply =
  | { kind: 'printed'; id: number; pdf: Uint8Array }
  | { kind: 'failed'; id: number; error: { name: string; message: string } };

export interface PrinterProcessOptions {
  pageUrl: string;
  executablePath: string;
  readyTimeoutMs?: number;
}

if (import.meta.main) {
  let printer: ChromiumPrinter | null = null;
  const send = (reply: PrinterReply) => process.send?.(reply);
  const exit = () => void (printer?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  process.on('message', (request: PrinterRequest) => {
    if (request.kind === 'close') return exit();
    if (request.kind === 'start') {
      const { options } = request;
      // The host decides when the browser goes (with this process), so the browser never closes by itself.
      printer = new ChromiumPrinter({
        pageUrl: options.pageUrl,
        lookup: () => ({ found: true, executablePath: options.executablePath }),
        idleCloseMs: null,
        ...(options.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: options.readyTimeoutMs }),
      });
      return;
    }
    if (printer === null) return send({ kind: 'failed', id: request.id, error: { name: 'Error', message: 'the printing process was not started' } });
    printer.printReport(request.assignmentId).then(
      (pdf) => send({ kind: 'printed', id: request.id, pdf }),
      (error: unknown) => send({ kind: 'failed', id: request.id, error: { name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) } }),
    );
  });
  // The host went away: nothing is left to print for.
  process.on('disconnect', exit);
}
