// Small pieces the owners, catalog and entity screens share: reading `data` out of a service
// envelope, and saying in words where an answer came from and what it cost.
import { toPlatError } from '../../shared/errors.ts';
import type { CallBilling } from '../../shared/ipc.ts';
import { formatDateTime } from '../../shared/format-date.ts';
import { formatUsd } from '../../shared/money.ts';
import { PlatCallError } from '../platform/plat.ts';

interface AnyEnvelope<Data> {
  status: string;
  data: Data | null;
  error?: unknown;
}

/**
 * The `data` of a successful envelope. The core already turns HTTP failures into PlatCallErrors; an
 * error envelope that still arrives (or an ok one without data) is reported the same way.
 */
export function envelopeData<Data>(envelope: AnyEnvelope<Data>): Data {
  if (envelope.status === 'error' || envelope.data === null) {
    const code = (envelope.error as { code?: unknown } | null | undefined)?.code;
    throw new PlatCallError(toPlatError(typeof code === 'string' ? code : 'malformed_response', envelope.error));
  }
  return envelope.data;
}

export interface Delivery {
  /** `charged`: bought by this screen just now; `free`: cost nothing now. */
  tone: 'charged' | 'free';
  /** "From your cache — no charge", "Replayed free", "Bought for $0.10", "Free". */
  headline: string;
  /** When the service served it, in the reader's local time. */
  servedAt: string;
  /** What the answer first cost, when it is being shown again for free ("first bought for $0.10"). */
  detail: string | null;
}

/**
 * How an answer reached the screen. `shownAgain` is true when the answer was already in this window's
 * query cache when the screen opened (no call was made now), so whatever it first cost, showing it
 * again cost nothing.
 */
export function describeDelivery(billing: CallBilling, options: { shownAgain: boolean }): Delivery {
  const servedAt = formatDateTime(billing.servedAt);
  if (billing.cacheHit || options.shownAgain) {
    const detail = !billing.cacheHit && billing.chargedMicroUsd > 0 ? `first bought for ${formatUsd(billing.chargedMicroUsd)}` : null;
    return { tone: 'free', headline: 'From your cache — no charge', servedAt, detail };
  }
  if (billing.replayed) return { tone: 'free', headline: 'Replayed free', servedAt, detail: null };
  if (billing.chargedMicroUsd > 0) return { tone: 'charged', headline: `Bought for ${formatUsd(billing.chargedMicroUsd)}`, servedAt, detail: null };
  return { tone: 'free', headline: 'Free', servedAt, detail: null };
}
