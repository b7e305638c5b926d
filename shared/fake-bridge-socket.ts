// Test support (not part of the app): a bridge socket the test drives, for the bridge client's tests
// here and the page's bridge tests in renderer/.
import type { BridgeSocket } from './bridge-protocol.ts';

/** A socket the test drives: it opens or fails when told, records what was sent, and can be dropped. */
export class FakeBridgeSocket implements BridgeSocket {
  readyState = 0;
  sent: Array<{ id: number; op: string; payload: unknown }> = [];
  #listeners = new Map<string, Array<(event: { data: unknown }) => void>>();
  addEventListener(type: string, listener: (event: { data: unknown }) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  #fire(type: string, data?: unknown) {
    for (const listener of this.#listeners.get(type) ?? []) listener({ data });
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { id: number; op: string; payload: unknown });
  }
  close(): void {
    this.drop();
  }
  open() {
    this.readyState = 1;
    this.#fire('open');
  }
  /** A message from the other end, as it arrives on the wire. */
  receive(message: unknown) {
    this.#fire('message', JSON.stringify(message));
  }
  /** A successful answer to call `id`. */
  reply(id: number, value: unknown) {
    this.receive({ id, result: { ok: true, value } });
  }
  drop() {
    this.readyState = 3;
    this.#fire('close');
  }
}
