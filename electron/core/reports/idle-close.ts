// When an idle resource is let go (the printing browser and the process that drives it hold hundreds
// of MB): `close` runs once nothing has been under way for `idleMs`; work that starts cancels the wait,
// which starts again when the last work ends, so work in flight is never cut, however long it takes.

/** How long the printing browser stays open after its last print. */
export const PRINTER_IDLE_CLOSE_MS = 60_000;

export class IdleCloser {
  private readonly idleMs: number | null;
  private readonly close: () => void;
  private inFlight = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `idleMs` null: never closes (a caller that owns the decision elsewhere). */
  constructor(idleMs: number | null, close: () => void) {
    this.idleMs = idleMs;
    this.close = close;
  }

  /** Runs `work`, holding off the close until it (and any other work) has ended. */
  async around<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    this.cancel();
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.arm();
    }
  }

  /** Stops the wait (the resource is being closed for another reason). */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    if (this.idleMs === null) return;
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.close();
    }, this.idleMs);
    // An idle resource must not keep the process alive.
    this.timer.unref?.();
  }
}
