// Opt-in misbehaviour for the money and secrets tests (`--charge-header`, `--invalid-body-every`,
// `--echo-authorization`): a service whose charge header lies, whose answer breaks the contract
// after charging, or that quotes the caller's key back in its answers. What the header claims is the
// only money lie: the balance header and the account's real balance always tell the truth, and the
// amount debited is always the operation's real charge.

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

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Every free-text string (one holding white space: names, addresses, labels, messages) with the
 * echo appended. Identifiers, codes, dates and hashes keep their form, so the answer stays within
 * the contract and reaches the caller's stores with the echo in it.
 */
function echoStrings(value: unknown, echo: string): unknown {
  if (typeof value === 'string') return /\s/.test(value) ? `${value} ${echo}` : value;
  if (Array.isArray(value)) return value.map((item) => echoStrings(item, echo));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, echoStrings(item, echo)]));
  return value;
}

/**
 * `--echo-authorization`: the answer with the request's Authorization header value (`Bearer <key>`)
 * quoted in its request_id (`req_Bearer <key>`), the error's message and details, a meta warning and
 * every free-text string of `data`, as a careless or hostile service might. A body that is not a
 * JSON object is sent as it is.
 */
export function echoAuthorization(bodyText: string, authorization: string): string {
  let envelope: unknown;
  try {
    envelope = JSON.parse(bodyText) as unknown;
  } catch {
    return bodyText;
  }
  if (!isRecord(envelope)) return bodyText;
  const echoed: Record<string, unknown> = { ...envelope };
  if ('request_id' in echoed) echoed['request_id'] = `req_${authorization}`;
  const { error, meta } = envelope;
  if (isRecord(error)) {
    const details = isRecord(error['details']) ? echoStrings(error['details'], authorization) : {};
    echoed['error'] = {
      ...error,
      message: `${typeof error['message'] === 'string' ? error['message'] : 'Refused'} (request authorized with ${authorization})`,
      details: { ...(details as Record<string, unknown>), authorization },
    };
  }
  if (isRecord(meta)) {
    const warnings = Array.isArray(meta['warnings']) ? meta['warnings'] : [];
    echoed['meta'] = { ...meta, warnings: [...warnings, `Answered for ${authorization}`] };
  }
  if ('data' in echoed) echoed['data'] = echoStrings(echoed['data'], authorization);
  return JSON.stringify(echoed);
}
