// The API key: enter or replace it, test it, delete it. The key goes one way only, into the core:
// the input is a password field read once on submit and then emptied (never a controlled value, so
// React never mirrors it into a DOM attribute), and the core answers only with where it is kept.
import { useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KeyStatus } from '../../../shared/ipc.ts';
import { callPlat } from '../../platform/plat.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { checkApiKeyInput, describeKeyStatus, needsWeakStorageOptIn } from './settings-model.ts';
import { invalidatePricing, useAppInfo, useKeyStatus } from '../../platform/core-queries.ts';
import { appInfoQueryKey, keyStatusQueryKey } from '../../platform/query-keys.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { CheckOutcome, Outcome, SettingsSection } from './settings-ui.tsx';
import { TextField } from '../../components/TextField.tsx';
import { ActionForm } from '../../components/ActionForm.tsx';

export function ApiKeySettings() {
  const queryClient = useQueryClient();
  const keyStatus = useKeyStatus();
  const info = useAppInfo();
  const inputRef = useRef<HTMLInputElement>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const [allowWeak, setAllowWeak] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const ids = { key: useId(), weak: useId() };

  const afterKeyChange = (status: KeyStatus) => {
    queryClient.setQueryData(keyStatusQueryKey, status);
    // The core re-points a live connection at the new key; prices and refusals follow.
    void queryClient.invalidateQueries({ queryKey: appInfoQueryKey });
    void invalidatePricing(queryClient);
  };

  const test = useMutation({
    mutationFn: () => callPlat('testApiKey', {}),
    // A live test is also a check of the connection: the core records its outcome as the connection's state.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: appInfoQueryKey }),
  });
  const save = useMutation({
    mutationFn: (request: { key: string; allowWeakStorage: boolean }) => callPlat('setApiKey', request),
    onSuccess: (status) => {
      afterKeyChange(status);
      test.reset();
      setSaved(status.persisted ? 'Key saved.' : 'Key saved for this session.');
    },
  });
  const remove = useMutation({
    mutationFn: () => callPlat('deleteApiKey', {}),
    onSuccess: (status) => {
      afterKeyChange(status);
      test.reset();
      setSaved('Key deleted.');
    },
  });

  const submit = () => {
    const input = inputRef.current;
    if (!input) return;
    const checked = checkApiKeyInput(input.value);
    if (!checked.ok) {
      // What was typed stays in the field so it can be corrected.
      setInputError(checked.error);
      input.focus();
      return;
    }
    setInputError(null);
    setSaved(null);
    save.mutate(
      { key: checked.value, allowWeakStorage: allowWeak },
      {
        onSuccess: () => {
          if (inputRef.current) inputRef.current.value = '';
        },
      },
    );
  };

  const status = keyStatus.data;
  const words = status ? describeKeyStatus(status) : null;
  const weakOptIn = status !== undefined && needsWeakStorageOptIn(status.backend);
  const localMode = info.data?.service.mode === 'local-sample';
  const busy = save.isPending || remove.isPending;

  return (
    <SettingsSection
      id="settings-api-key"
      title="API key"
      description={
        <>
          The key for your live service account, from the developer portal’s Keys page. Plat keeps it out of this window: once saved
          it is never shown again.{localMode && ' The local sample service needs no key.'}
        </>
      }
      reads={keyStatus}
    >
      {words && status && (
        <div className={`settings-current settings-current--${words.tone}`} data-testid="key-status">
          <span className={`status-dot status-dot--${status.configured ? 'ready' : 'none'} settings-dot`} aria-hidden="true" />
          <span>
            <strong>{words.headline}</strong>
            <span className="settings-current__detail">{words.detail}</span>
          </span>
        </div>
      )}
      <ActionForm
        className="settings-form stack gap-3"
        aria-label="API key"
        autoComplete="off"
        onSubmit={submit}
      >
        <TextField
          id={ids.key}
          label={status?.configured ? 'Replace the key' : 'API key'}
          error={inputError}
          hint="Paste the whole key. It is sent to Plat’s core only, never shown back."
          inputRef={inputRef}
          name="api-key"
          inputClassName="settings-input--key mono"
          type="password"
          autoCapitalize="off"
          spellCheck={false}
          placeholder={status?.configured ? '•••••••• (a key is set)' : ''}
          onChange={() => {
            if (inputError) setInputError(null);
          }}
        />
        {weakOptIn && (
          <label className="settings-check" htmlFor={ids.weak}>
            <input id={ids.weak} type="checkbox" checked={allowWeak} onChange={(event) => setAllowWeak(event.target.checked)} />
            <span>
              Store it on disk anyway, with weak encryption ({status?.backend}). Without a keychain anyone who can read your files could
              recover it; leave this off to keep the key for this session only.
            </span>
          </label>
        )}
        <div className="settings-actions cluster">
          <button type="submit" className="button button--primary" disabled={busy}>
            {save.isPending ? 'Saving…' : status?.configured ? 'Replace key' : 'Save key'}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy || test.isPending || !status?.configured}
            onClick={() => {
              setSaved(null);
              test.mutate();
            }}
          >
            {test.isPending ? 'Testing…' : 'Test key'}
          </button>
          <button type="button" className="button" disabled={busy || !status?.configured} onClick={() => setConfirmingDelete(true)}>
            Delete key
          </button>
        </div>
      </ActionForm>
      {saved && <Outcome tone="ok">{saved}</Outcome>}
      {save.isError && <ErrorNotice error={save.error} />}
      {remove.isError && <ErrorNotice error={remove.error} />}
      {test.isError && <ErrorNotice error={test.error} />}
      {test.data && (
        <CheckOutcome
          ok={test.data.ok}
          tone={test.data.ok ? 'ok' : localMode ? 'info' : 'error'}
          title={test.data.ok ? 'Key accepted.' : localMode ? '' : 'Key test failed.'}
          message={test.data.message}
          testId="key-test"
        />
      )}
      <ConfirmDialog
        open={confirmingDelete}
        title="Delete the API key?"
        confirmLabel="Delete key"
        onCancel={() => setConfirmingDelete(false)}
        onConfirm={() => {
          setConfirmingDelete(false);
          setSaved(null);
          remove.mutate();
        }}
      >
        <p>Calls to a live service stop until you enter a key again. The key itself stays in the developer portal.</p>
      </ConfirmDialog>
    </SettingsSection>
  );
}
