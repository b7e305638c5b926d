// Opt-in misbehaviour for the money tests (`--charge-header`, `--invalid-body-every`): a service
// whose charge header lies, or whose answer breaks the contract after charging. What the header
// claims is the only lie: the balance header and the account's real balance always tell the truth,
// and the amount debited is always the operation's real charge.

export const CHARGE_HEADER_MODES = ['honest', 'inflated', 'negative', 'garbage', 'on-failure'] as const;
export type ChargeHeaderMode = (typeof CHARGE_HEADER_MODES)[number];

/** What `on-failure` claims a failed call cost (nothing is debited). */
export const ON_FAILURE_CLAIMED_MICRO_USD = 20_000;
export const NEGATIVE_CLAIM = '-5000';
export const GARBAGE_CLAIM = 'about 20 cents';

/**
 * The charge header of a success that is not a replay. `inflated` says three times the real
 * charge; `negative` and `garbage` say the same thing whatever was charged. Replays always say 0.
 */
export function claimedCharge(mode: ChargeHeaderMode, chargedMicroUsd: number): string {
  switch (mode) {
    case 'inflated':
      return String(chargedMicroUsd * 3);
    case 'negative':
      return NEGATIVE_CLAIM;
    case 'garbage':
      return GARBAGE_CLAIM;
    default:
      return String(chargedMicroUsd);
  }
}

/**
 * The answer sent instead of a correct one: the same envelope with `data.items` a string (or, where
 * `data` has no items, `data` itself a string), which no schema of the contract accepts.
 */
export function contractBreakingBody(envelopeText: string): string {
  const envelope = JSON.parse(envelopeText) as { data?: unknown };
  const data = envelope.data;
  const broken =
    data !== null && typeof data === 'object' && !Array.isArray(data) && 'items' in data
      ? { ...data, items: 'items withheld' }
      : 'data withheld';
  return JSON.stringify({ ...envelope, data: broken });
}

/** Counts charged calls and says which one is the Nth, for `--invalid-body-every N`. */
export class EveryNth {
  readonly #n: number;
  #count = 0;

  constructor(n: number) {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`invalidBodyEvery must be a whole number of at least 1, got ${n}`);
    this.#n = n;
  }

  hit(): boolean {
    this.#count += 1;
    return this.#count % this.#n === 0;
  }
}
