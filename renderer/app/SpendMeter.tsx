// Always visible: what this session has spent, the account balance, and the last charge. Updated by
// the core's spendUpdated event after every ledger write, never by polling.
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallProgress, SpendSnapshot } from '../../shared/ipc.ts';
import { formatUsd } from '../../shared/money.ts';
import { formatDateTime } from '../../shared/format-date.ts';
import { callPlat, plat } from '../platform/plat.ts';
import { useUiStore } from './ui-store.ts';
import { ledgerQueryScope, pricingQueryScope, spendQueryKey } from '../platform/query-keys.ts';

export function SpendMeter() {
  const queryClient = useQueryClient();
  const spend = useQuery({ queryKey: spendQueryKey, queryFn: () => callPlat('getSpend', {}) });
  useEffect(
    () =>
      plat().onSpendUpdated((snapshot) => {
        queryClient.setQueryData<SpendSnapshot>(spendQueryKey, snapshot);
        // Ledger views show the new row too, and prices shown beside buttons may have changed
        // (a bought answer is now cached and free; a cap may now be in reach).
        void queryClient.invalidateQueries({ queryKey: ledgerQueryScope });
        void queryClient.invalidateQueries({ queryKey: pricingQueryScope });
      }),
    [queryClient],
  );
  const data = spend.data;
  const openView = useUiStore((state) => state.openView);
  return (
    <div className="spend-meter" aria-label="Spend meter" data-testid="spend-meter">
      <span title="Spent on service calls since Plat started">
        Session <strong data-testid="spend-session">{data ? formatUsd(data.sessionMicroUsd) : '—'}</strong>
      </span>
      <span title="Account balance reported by the service after the last call">
        Balance <strong data-testid="spend-balance">{data?.lastKnownBalanceMicroUsd != null ? formatUsd(data.lastKnownBalanceMicroUsd) : '—'}</strong>
      </span>
      <span title={data?.lastChargeAt ? `Charged at ${formatDateTime(data.lastChargeAt)}` : 'No charge yet'}>
        Last <strong data-testid="spend-last">{data?.lastChargeMicroUsd != null ? formatUsd(data.lastChargeMicroUsd) : '—'}</strong>
      </span>
      {data && (data.storageProblem !== null || data.unsavedMicroUsd > 0) && (
        // Calm but impossible to miss; the Spend view says the whole message.
        <button
          type="button"
          className="spend-meter__problem"
          data-testid="spend-storage-problem"
          title={data.storageProblem ?? undefined}
          onClick={() => openView('spend')}
        >
          {storageChipText(data)}
        </button>
      )}
    </div>
  );
}

/** "Storage problem — $0.10 not yet saved": the short form of SpendSnapshot.storageProblem. */
export function storageChipText(snapshot: Pick<SpendSnapshot, 'storageProblem' | 'unsavedMicroUsd'>): string {
  return snapshot.unsavedMicroUsd > 0 ? `Storage problem — ${formatUsd(snapshot.unsavedMicroUsd)} not yet saved` : 'Storage problem';
}

/** "Rate limited — retrying in 3 s": retries the core makes are shown, not hidden. */
export function CallProgressNotice() {
  const [progress, setProgress] = useState<CallProgress | null>(null);
  useEffect(() => {
    let timer: number | undefined;
    const off = plat().onCallProgress((event) => {
      setProgress(event);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setProgress(null), Math.max(event.delayMs, 0) + 1500);
    });
    return () => {
      off();
      window.clearTimeout(timer);
    };
  }, []);
  if (!progress) return null;
  const seconds = Math.max(1, Math.round(progress.delayMs / 1000));
  return (
    <span className="call-progress" role="status" data-testid="call-progress">
      {progress.state === 'throttled' ? 'Pacing calls to stay under the rate limit' : `${progress.reason} — retrying in ${seconds} s (attempt ${progress.attempt + 1})`}
    </span>
  );
}
