// The price of a call, shown before it is made: "Free", "$0.10", "About $0.025, from your last call",
// "Price not known", "Cached · free", or why it is blocked.
import type { CostPreview } from '../../shared/ipc.ts';
import { priceWords } from '../platform/cost-preview.ts';
import './cost-tag.css';

export { useCostPreview } from '../platform/cost-preview.ts';

export function costText(preview: CostPreview): string {
  if (preview.blockedBy) return 'Over budget';
  if (preview.cached) return 'Cached · free';
  if (preview.expectedCostMicroUsd === 0) return 'Free';
  const words = priceWords(preview);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

export function CostTag(props: {
  preview: CostPreview | undefined;
  incomplete?: boolean;
  /** Why no price can be had now (Plat's host is gone, or the preview failed): said instead of "Pricing…" forever. */
  unavailable?: { text: string; reason: string } | null;
}) {
  const { preview, incomplete = false, unavailable = null } = props;
  // Nothing to price until the form is complete; say so instead of waiting forever.
  if (incomplete) return <span className="cost-tag cost-tag--pending">Price shown when the form is complete</span>;
  if (unavailable) {
    return (
      <span className="cost-tag cost-tag--pending" title={unavailable.reason} data-testid="cost-unavailable">
        {unavailable.text}
      </span>
    );
  }
  if (!preview) return <span className="cost-tag cost-tag--pending">Pricing…</span>;
  const tone = preview.blockedBy ? 'blocked' : preview.cached || preview.expectedCostMicroUsd === 0 ? 'free' : preview.expectedCostMicroUsd === null ? 'unknown' : 'paid';
  return (
    <span className={`cost-tag cost-tag--${tone}`} title={preview.blockedBy?.message ?? preview.note} data-testid="cost-tag">
      {costText(preview)}
    </span>
  );
}
