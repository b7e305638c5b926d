// The button for any control that can spend: its price beside it before the click, a confirmation
// at or above the threshold, and a plain refusal when a budget cap stands in the way.
import { useState } from 'react';
import type { ServiceCallIpcName } from '../../shared/ipc.ts';
import { formatUsd } from '../../shared/money.ts';
import type { CallOptions, ServiceRequestParts } from '../platform/service-calls.ts';
import { CostTag, useCostPreview } from './CostTag.tsx';
import { linkIsUp, useHostLink } from '../platform/host-link.ts';
import { platErrorOf } from './ErrorNotice.tsx';
import { ConfirmDialog } from './Dialog.tsx';

export interface ChargeButtonProps<N extends ServiceCallIpcName> {
  operation: N;
  /** null while the form is incomplete: the button is disabled and nothing is priced. */
  request: ServiceRequestParts<N> | null;
  label: string;
  /** What the user is buying, for the confirmation ("the entity summary"). */
  what: string;
  busy?: boolean;
  onRun: (options: CallOptions) => void;
  primary?: boolean;
}

export function ChargeButton<N extends ServiceCallIpcName>(props: ChargeButtonProps<N>) {
  const preview = useCostPreview(props.operation, props.request);
  const [confirming, setConfirming] = useState(false);

  const blocked = preview.data?.blockedBy ?? null;
  // With Plat's host gone a price shown earlier may be stale and a click would fail: nothing is offered.
  const linkUp = linkIsUp(useHostLink());
  const unavailable = !linkUp
    ? { text: 'No price: Plat is not connected', reason: 'Plat’s host is not answering; prices come back when it reconnects.' }
    : preview.isError && !preview.isFetching
      ? { text: 'No price', reason: platErrorOf(preview.error).message }
      : null;
  const click = () => {
    if (!preview.data || blocked || unavailable) return;
    if (preview.data.needsConfirmation && !preview.data.cached) setConfirming(true);
    else props.onRun({});
  };

  return (
    <span className="charge-button">
      <button
        type="button"
        className={`button${props.primary === false ? '' : ' button--primary'}`}
        disabled={props.request === null || props.busy || !preview.data || blocked !== null || unavailable !== null}
        title={unavailable?.reason}
        onClick={click}
      >
        {props.busy ? 'Working…' : props.label}
      </button>{' '}
      <CostTag preview={preview.data} incomplete={props.request === null} unavailable={unavailable} />
      {blocked && (
        <span className="charge-button__blocked" role="note">
          {' '}
          {blocked.message}
        </span>
      )}
      <ConfirmDialog
        open={confirming}
        title="Confirm a charge"
        titleId="confirm-spend-title"
        tone="primary"
        confirmLabel={`Buy for ${preview.data ? formatUsd(preview.data.expectedCostMicroUsd) : '…'}`}
        onConfirm={() => {
          setConfirming(false);
          props.onRun({ confirmed: true });
        }}
        onCancel={() => setConfirming(false)}
      >
        {preview.data && (
          <p>
            Buying {props.what} costs <strong>{formatUsd(preview.data.expectedCostMicroUsd)}</strong>. {preview.data.note}
          </p>
        )}
      </ConfirmDialog>
    </span>
  );
}
