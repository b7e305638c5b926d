// Where an answer came from and what it cost: "Bought for $0.10", "From your cache — no charge",
// "Replayed free", with the time the service served it.
import type { CallBilling } from '../../shared/ipc.ts';
import { describeDelivery } from './service-data.ts';
import './delivery-line.css';

export function DeliveryLine({ billing, shownAgain, testId }: { billing: CallBilling; shownAgain: boolean; testId?: string }) {
  const delivery = describeDelivery(billing, { shownAgain });
  return (
    <p className={`delivery delivery--${delivery.tone}`} data-testid={testId}>
      <strong>{delivery.headline}</strong>
      <span className="muted">
        {delivery.detail && ` · ${delivery.detail}`} · served {delivery.servedAt}
      </span>
    </p>
  );
}
