// What a call that found nothing cost, in words, from that call's own charge: its answer's billing, or
// the charge the core booked for its failure. Never assumed: a service may charge for a lookup that
// matched nothing, and Plat's own service does not.
import { formatUsd } from '../../shared/money.ts';

export interface ObservedCharge {
  /** The call's charge; undefined when none is known (no answer came), and then nothing is said. */
  chargedMicroUsd?: number | undefined;
  cacheHit?: boolean;
}

/** "Nothing was charged for the search." / "Matched nothing; the service charged $0.01 for the lookup." / null. */
export function nothingFoundChargeWords(charge: ObservedCharge, what: string): string | null {
  if (charge.chargedMicroUsd === undefined) return null;
  if (charge.chargedMicroUsd > 0) return `Matched nothing; the service charged ${formatUsd(charge.chargedMicroUsd)} for ${what}.`;
  if (charge.cacheHit) return 'Shown again from what Plat holds: nothing was charged.';
  return `Nothing was charged for ${what}.`;
}
