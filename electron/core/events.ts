// Pushes main-process events (spend updates, connection changes) to every attached renderer:
// Electron windows through webContents.send, browser-host pages through their bridge socket.
import { ipcEvents, type IpcEventName, type IpcEventPayload } from '../../shared/ipc.ts';

export type EventListener = <E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) => void;

export class EventHub {
  #listeners = new Set<EventListener>();

  /** Validates the payload against the contract so a renderer never receives a malformed event. */
  emit<E extends IpcEventName>(event: E, payload: IpcEventPayload<E>): void {
    const checked = ipcEvents[event].parse(payload) as IpcEventPayload<E>;
    for (const listener of this.#listeners) {
      try {
        listener(event, checked);
      } catch {
        // One broken subscriber (a closed window, a dropped stream) must not stop the others.
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get size(): number {
    return this.#listeners.size;
  }
}
