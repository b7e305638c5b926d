// The order calls run in: a call that can charge runs alone, free calls share a few slots, and a person
// waiting goes ahead of background work (service-gateway.ts says why).
import { PlatFailure } from './failure.ts';

/**
 * How many free calls may be in flight at once. They move no balance, so they may overlap one
 * another (the ledger measures them like any answer), but never a call that can charge. A few are
 * enough: the service's rate limit, not Plat, sets the pace of a burst.
 */
export const FREE_CALLS_IN_PARALLEL = 4;

/** Queue order, most urgent first. Within one, calls go in the order they came. */
export const CallPriority = {
  /** Can charge: a person is waiting for something they chose to pay for. */
  charge: 0,
  /** Free, asked for by a person (it carries the action id the renderer sends per user action). */
  userAction: 1,
  /** Free, with no action behind it. */
  background: 2,
} as const;
export type CallPriority = (typeof CallPriority)[keyof typeof CallPriority];

interface Job {
  readonly exclusive: boolean;
  priority: CallPriority;
  readonly order: number;
  readonly start: () => void;
  started: boolean;
}

/**
 * Runs calls by priority. An exclusive call (one that can charge) waits until nothing else runs and
 * then runs alone; while it waits, no queued call starts before it (it cannot be starved by a stream
 * of free calls). Free calls share up to FREE_CALLS_IN_PARALLEL slots.
 */
export class CallScheduler {
  readonly #waiting: Job[] = [];
  #order = 0;
  #freeRunning = 0;
  #exclusiveRunning = false;

  /**
   * Queues `work`. If `signal` fires before it starts, it is dropped and `done` rejects with
   * PlatFailure('cancelled'); once started it is left to finish.
   */
  schedule<T>(
    exclusive: boolean,
    priority: CallPriority,
    signal: AbortSignal | null,
    work: () => Promise<T>,
  ): { done: Promise<T>; started: () => boolean; promote: (priority: CallPriority) => void } {
    let job!: Job;
    const done = new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#waiting.indexOf(job);
        if (index === -1) return;
        this.#waiting.splice(index, 1);
        reject(new PlatFailure('cancelled'));
        // A dropped exclusive call may have been holding free calls back.
        this.#pump();
      };
      job = {
        exclusive,
        priority,
        order: this.#order++,
        started: false,
        start: () => {
          job.started = true;
          signal?.removeEventListener('abort', onAbort);
          void Promise.resolve()
            .then(work)
            .then(resolve, reject)
            .finally(() => {
              if (exclusive) this.#exclusiveRunning = false;
              else this.#freeRunning--;
              this.#pump();
            });
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    this.#waiting.push(job);
    this.#pump();
    return {
      done,
      started: () => job.started,
      promote: (to) => {
        if (to < job.priority) job.priority = to;
        this.#pump();
      },
    };
  }

  #next(): Job | undefined {
    let best: Job | undefined;
    for (const job of this.#waiting) {
      if (!best || job.priority < best.priority || (job.priority === best.priority && job.order < best.order)) best = job;
    }
    return best;
  }

  #pump(): void {
    while (!this.#exclusiveRunning) {
      const next = this.#next();
      if (!next) return;
      if (next.exclusive) {
        if (this.#freeRunning > 0) return;
        this.#exclusiveRunning = true;
      } else {
        if (this.#freeRunning >= FREE_CALLS_IN_PARALLEL) return;
        this.#freeRunning++;
      }
      this.#waiting.splice(this.#waiting.indexOf(next), 1);
      next.start();
    }
  }
}

/**
 * Watches each caller's signal with one listener, however many calls wait on it: one page may queue
 * thousands, and a listener per call would pile up on its signal.
 */
export class AbortWatch {
  readonly #callbacks = new WeakMap<AbortSignal, Set<() => void>>();

  /** Runs `callback` when `signal` fires; returns the function that stops watching. */
  on(signal: AbortSignal, callback: () => void): () => void {
    let callbacks = this.#callbacks.get(signal);
    if (!callbacks) {
      const set = new Set<() => void>();
      callbacks = set;
      this.#callbacks.set(signal, set);
      signal.addEventListener(
        'abort',
        () => {
          for (const each of [...set]) each();
          set.clear();
        },
        { once: true },
      );
    }
    callbacks.add(callback);
    return () => callbacks.delete(callback);
  }
}
