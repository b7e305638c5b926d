// Budgets: the session cap (Plat refuses a call that might go over it), the confirmation threshold
// (Plat asks before a charge at or above it) and the bound for a call whose price is not known (what
// it is counted at against the caps until the service has charged for it). Dollars in, micro-USD to
// the core.
import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_UNKNOWN_PRICE_BOUND_MICRO_USD, type BudgetSettings as Budgets } from '../../../shared/ipc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { callPlat } from '../../platform/plat.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { capAlreadyReached, parseOptionalUsd, parsePositiveUsd, usdInputText } from './settings-model.ts';
import { invalidatePricing, useBudgets } from '../../platform/core-queries.ts';
import { budgetsQueryKey, spendQueryKey } from '../../platform/query-keys.ts';
import { Outcome, SettingsSection, UsdField } from './settings-ui.tsx';
import { ActionForm } from '../../components/ActionForm.tsx';

const BOUND_LABEL = 'Largest charge to allow for a call whose price is not known';

export function BudgetSettings() {
  const budgets = useBudgets();
  return (
    <SettingsSection
      id="settings-budgets"
      title="Budgets"
      description="Hard limits on spending. A call that might go over a cap is refused before it is sent; caps per assignment are set on projects below."
      reads={budgets}
    >
      {budgets.isPending && <p className="muted" role="status">Reading budgets…</p>}
      {budgets.data && <BudgetForm stored={budgets.data} />}
    </SettingsSection>
  );
}

function BudgetForm({ stored }: { stored: Budgets }) {
  const queryClient = useQueryClient();
  const spend = useQuery({ queryKey: spendQueryKey, queryFn: () => callPlat('getSpend', {}) });
  const [capText, setCapText] = useState(usdInputText(stored.sessionCapMicroUsd));
  const [thresholdText, setThresholdText] = useState(usdInputText(stored.confirmationThresholdMicroUsd));
  const [boundText, setBoundText] = useState(usdInputText(stored.unknownPriceBoundMicroUsd));
  const [errors, setErrors] = useState<{ cap?: string; threshold?: string; bound?: string }>({});
  const sessionSpent = spend.data?.sessionMicroUsd;
  const [savedNote, setSavedNote] = useState<{ text: string; reached: boolean } | null>(null);
  const ids = { cap: useId(), threshold: useId(), bound: useId() };

  const save = useMutation({
    mutationFn: (next: Budgets) => callPlat('setBudgets', next),
    onSuccess: (next) => {
      queryClient.setQueryData(budgetsQueryKey, next);
      void invalidatePricing(queryClient);
    },
  });

  const submit = () => {
    const cap = parseOptionalUsd(capText, 'Session cap');
    const threshold = parseOptionalUsd(thresholdText, 'Ask before charges of');
    const bound = parsePositiveUsd(boundText, BOUND_LABEL, MAX_UNKNOWN_PRICE_BOUND_MICRO_USD);
    const nextErrors = {
      ...(cap.ok ? {} : { cap: cap.error }),
      ...(threshold.ok ? {} : { threshold: threshold.error }),
      ...(bound.ok ? {} : { bound: bound.error }),
    };
    setErrors(nextErrors);
    if (!cap.ok || !threshold.ok || !bound.ok) return;
    setSavedNote(null);
    save.mutate(
      { sessionCapMicroUsd: cap.value, confirmationThresholdMicroUsd: threshold.value, unknownPriceBoundMicroUsd: bound.value },
      {
        onSuccess: (next) => {
          // Shown as the core now holds them ("5" reads back as "5.00").
          setCapText(usdInputText(next.sessionCapMicroUsd));
          setThresholdText(usdInputText(next.confirmationThresholdMicroUsd));
          setBoundText(usdInputText(next.unknownPriceBoundMicroUsd));
          const reached = sessionSpent !== undefined && capAlreadyReached('session', next.sessionCapMicroUsd, sessionSpent) !== null;
          setSavedNote({ text: reached ? 'Budgets saved, with a session cap this session has already reached.' : 'Budgets saved.', reached });
        },
      },
    );
  };

  // Said beside the field as it is typed, before and after saving: a cap already reached stops every charged call.
  const typedCap = parseOptionalUsd(capText, 'Session cap');
  const capReached = typedCap.ok && sessionSpent !== undefined ? capAlreadyReached('session', typedCap.value, sessionSpent) : null;

  return (
    <ActionForm
      className="settings-form stack gap-3"
      aria-label="Budgets"
      onSubmit={submit}
    >
      <div className="settings-row">
        <UsdField
          id={ids.cap}
          label="Session cap"
          error={errors.cap ?? null}
          hint={
            <>
              Most this session may spend. Empty: no cap.
              {sessionSpent !== undefined && <> Spent so far: {formatUsd(sessionSpent)}.</>}
            </>
          }
          warning={capReached}
          value={capText}
          placeholder="No cap"
          onChange={(text) => {
            setCapText(text);
            setSavedNote(null);
          }}
        />
        <UsdField
          id={ids.threshold}
          label="Ask before charges of"
          error={errors.threshold ?? null}
          hint="Plat asks you to confirm any call priced at or above this. Empty: never ask; 0: ask before every charged call. A call whose price is not known is always confirmed."
          value={thresholdText}
          placeholder="Never ask"
          onChange={(text) => {
            setThresholdText(text);
            setSavedNote(null);
          }}
        />
      </div>
      <div className="settings-row">
        <UsdField
          id={ids.bound}
          label={BOUND_LABEL}
          error={errors.bound ?? null}
          hint="A service that is not Plat’s own sets its own prices; until it has charged for an operation, its price is not known. Such a call is refused when less than this remains of a cap; once a charge is seen, the largest charge seen is used instead."
          value={boundText}
          placeholder="1.00"
          onChange={(text) => {
            setBoundText(text);
            setSavedNote(null);
          }}
        />
      </div>
      <div className="settings-actions cluster">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save budgets'}
        </button>
        {savedNote && <Outcome tone={savedNote.reached ? 'warning' : 'ok'}>{savedNote.text}</Outcome>}
      </div>
      {save.isError && <ErrorNotice error={save.error} />}
    </ActionForm>
  );
}
