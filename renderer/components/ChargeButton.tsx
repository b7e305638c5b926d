// The button for any control that can spend: its price beside it before the click (or "price not
// known"), a confirmation at or above the threshold and always for a price not known, and a plain
// refusal when a budget cap stands in the way, with the way to raise it.
import { useState } from 'react';
import type { ServiceCallIpcName } from '../../shared/ipc.ts';
import { formatUsd } from '../../shared/money.ts';
import type { CallOptions, ServiceRequestParts } from '../platform/service-calls.ts';
import { priceWords, unknownPriceWords } from '../platform/cost-preview.ts';
import { useUiStore } from '../app/ui-store.ts';
import { CostTag, useCostPreview } from './CostTag.tsx';
import { linkIsUp, useHostLink } from '../platform/host-link.ts';
import { platErrorOf } from './ErrorNotice.tsx';
import { ConfirmDialog } from './Dialog.tsx';
import type { CoverageGap } from '../../shared/service/coverage-gaps.ts';
import { COVERAGE_CHECKING } from '../platform/coverage-gap.ts';

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
  /**
   * What the catalog's coverage says this answer will lack here (shared/service/coverage-gaps.ts):
   * said in the confirmation, which is then always asked before a charge, whatever the threshold.
   */
  lacking?: CoverageGap | null | typeof COVERAGE_CHECKING;
}

export function ChargeButton<N extends ServiceCallIpcName>(props: ChargeButtonProps<N>) {
  const preview = useCostPreview(props.operation, props.request);
  const [confirming, setConfirming] = useState(false);

  const blocked = preview.data?.blockedBy ?? null;
  // While the coverage is still being read the button waits: a confirmation never goes without what it would say.
  const checking = props.lacking === COVERAGE_CHECKING;
  const lacking = props.lacking === COVERAGE_CHECKING ? null : (props.lacking ?? null);
  const openSettings = useUiStore((state) => state.openSettings);
  // With Plat's host gone a price shown earlier may be stale and a click would fail: nothing is offered.
  const linkUp = linkIsUp(useHostLink());
  const unavailable = !linkUp
    ? { text: 'No price: Plat is not connected', reason: 'Plat’s host is not answering; prices come back when it reconnects.' }
    : preview.isError && !preview.isFetching
      ? { text: 'No price', reason: platErrorOf(preview.error).message }
      : null;
  const click = () => {
    if (!preview.data || blocked || unavailable || checking) return;
    const charged = preview.data.expectedCostMicroUsd !== 0 && !preview.data.cached;
    if (charged && (preview.data.needsConfirmation || lacking)) setConfirming(true);
    else props.onRun({});
  };

  return (
    <span className="charge-button">
      <button
        type="button"
        className={`button${props.primary === false ? '' : ' button--primary'}`}
        disabled={props.request === null || props.busy || !preview.data || blocked !== null || unavailable !== null || checking}
        title={unavailable?.reason ?? (checking ? 'Checking what the records hold for this property…' : undefined)}
        onClick={click}
      >
        {props.busy ? 'Working…' : props.label}
      </button>{' '}
      <CostTag preview={preview.data} incomplete={props.request === null} unavailable={unavailable} />
      {blocked && (
        <span className="charge-button__blocked" role="note">
          {' '}
          {blocked.message}{' '}
          <button type="button" className="link-button" onClick={() => openSettings(blocked.cap === 'session' ? 'settings-budgets' : 'settings-projects')}>
            {blocked.cap === 'session' ? 'Raise the session cap' : 'Raise the project’s cap'}
          </button>
        </span>
      )}
      <ConfirmDialog
        open={confirming}
        title="Confirm a charge"
        titleId="confirm-spend-title"
        tone="primary"
        confirmLabel={
          !preview.data ? 'Buy for …' : preview.data.expectedCostMicroUsd === null ? 'Buy at a price not known' : `Buy for ${formatUsd(preview.data.expectedCostMicroUsd)}`
        }
        onConfirm={() => {
          setConfirming(false);
          props.onRun({ confirmed: true });
        }}
        onCancel={() => setConfirming(false)}
      >
        {lacking && (
          <p className="charge-button__lacking notice notice--warning" data-testid="charge-lacking">
            <strong>{lacking.mostlyEmpty ? 'Mostly empty here.' : 'Partly empty here.'}</strong> {lacking.sentence}
          </p>
        )}
        {preview.data &&
          (preview.data.expectedCostMicroUsd === null ? (
            <p>
              Buying {props.what}: <strong>{unknownPriceWords(preview.data)}</strong>. The service will say what it charged, and Plat will quote that next time.
            </p>
          ) : (
            <p>
              Buying {props.what} costs <strong>{priceWords(preview.data)}</strong>. {preview.data.note}
            </p>
          ))}
      </ConfirmDialog>
    </span>
  );
}
